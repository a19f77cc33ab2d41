"""The simulated web (bench/simweb/simweb.cpp) for tests and benchmarks (not a test file).

    with SimWeb(hosts=40, pages=400, latency_ms=20) as web:
        web.seeds()           # the hosts' home pages
        ...
    web.requests()            # after it stopped: one Request per line of its log

The server is the binary $WEBRANK_SIMWEB (tests/CMakeLists.txt sets it), else
build/bench/simweb/simweb of the repository. It listens on 127.1.0.1 and the following addresses
(loopback only), prints its port once every host listens (read here: no polling), is bounded in
requests and seconds so that a lost test cannot leave it running, and is stopped by its PID.
"""

import collections
import os
import re
import signal
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# done: when the answer started out (simweb.cpp)
Request = collections.namedtuple("Request", "arrival done host status path")


def binary():
    return os.environ.get("WEBRANK_SIMWEB") or os.path.join(REPO, "build", "bench", "simweb",
                                                            "simweb")


def address(host):
    a = (127 << 24 | 1 << 16) + 1 + host
    return "%d.%d.%d.%d" % (a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255)


def host_of(url):
    """The host index of a simulated web URL (http://127.1.X.Y:PORT/...)."""
    m = re.match(r"http://127\.1\.(\d+)\.(\d+):\d+", url)
    return (int(m.group(1)) << 8 | int(m.group(2))) - 1


class SimWeb:
    def __init__(self, log, hosts=40, pages=400, latency_ms=20, crawl_delay=0.5, port=0,
                 max_requests=100000, max_seconds=300, extra=()):
        self.log, self.hosts, self.pages = log, hosts, pages
        self.args = [binary(), "--hosts", str(hosts), "--pages", str(pages), "--latency-ms",
                     str(latency_ms), "--crawl-delay", str(crawl_delay), "--port", str(port),
                     "--log", log, "--max-requests", str(max_requests), "--max-seconds",
                     str(max_seconds), *extra]
        self.proc = None

    def __enter__(self):
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()  # written once every host listens
        if not line.strip().isdigit():
            self.stop()
            raise RuntimeError("simweb did not start: %r" % line)
        self.port = int(line)
        return self

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
        if self.proc:
            self.proc.wait(30)
            self.proc.stdout.close()

    def __exit__(self, *exc):
        self.stop()

    def url(self, host, path="/"):
        return "http://%s:%d%s" % (address(host), self.port, path)

    def seeds(self):
        return [self.url(h) for h in range(self.hosts)]

    def sizes(self):
        """Pages per host (/p/0 .. /p/N-1), as the server computes them."""
        out = subprocess.run(self.args[:1] + self.args[1:5] + ["--sizes"],
                             capture_output=True, text=True, check=True).stdout
        return [int(x) for x in out.split("\n", 1)[1].split()]

    def requests(self):
        """The server's log (complete once it stopped)."""
        out = []
        with open(self.log) as f:
            for line in f:
                a, d, h, s, p = line.rstrip("\n").split("\t")
                out.append(Request(float(a), float(d), int(h), int(s), p))
        return out


def crawl_delay_hosts(hosts):
    """The hosts whose robots.txt has a Crawl-delay (simweb.cpp)."""
    return {h for h in range(hosts) if h % 20 == 7 and h >= hosts // 2}


def disallowing_hosts(hosts):
    return {h for h in range(hosts) if h % 10 == 3}


def politeness_violations(requests, delay, crawl_delay, hosts, per_host=1):
    """Requests that came while per_host requests of their host were unanswered, or sooner than
    the host's delay (its Crawl-delay on the hosts that have one) after the latest answer of the
    host, robots.txt included: (host, path, gap) each."""
    by_host = collections.defaultdict(list)
    for r in requests:
        by_host[r.host].append(r)
    bad = []
    slow = crawl_delay_hosts(hosts)
    for h, rs in by_host.items():
        rs.sort(key=lambda r: r.arrival)
        wanted = crawl_delay if h in slow else delay
        unanswered, last = [], None
        for r in rs:
            # The server logs an answer as it starts out; the crawler counts the delay from the
            # moment it has read it, later: the gap seen here is at most the crawler's.
            for done in [d for d in unanswered if d <= r.arrival]:
                unanswered.remove(done)
                last = done if last is None else max(last, done)
            if len(unanswered) >= per_host:
                bad.append((h, r.path, "concurrent"))
            elif last is not None and r.arrival - last < wanted:
                bad.append((h, r.path, round(r.arrival - last, 4)))
            unanswered.append(r.done)
    return bad
