"""What one request may cost the server (docs/serve.md, "Bounds"), as a hostile client sees it.

Every operation the server offers (`webrank --declarations`, "served") gets random and hostile
values for each of its declared query parameters, one parameter at a time and a few at once:
every answer must come within a client timeout well past the server's deadline, with a status of
200, 400, 404, 409, 413 or 503 and, when not 200, a JSON error with its kind and message. After
sixteen of the costliest requests the declarations allow, sent at once, the server still answers
`/` within a second and stops within 5 s of SIGTERM.

On a generated web of 300,000 pages and 3 million links, where a personalized view takes a
few tenths of a second: many solves sent at once hold up no page (`/` within a second), each is
answered within the compute deadline (queued ones are answered 503 when it has passed), a
client that hangs up stops the work it asked for (the server's CPU time stops growing), and
SIGTERM while solves run and more wait ends the process within 5 s with status 0.

Servers listen on 127.0.0.1 (port 0) and are stopped by their PID; random values come from a
seed printed on failure (WEBRANK_FUZZ_SEED repeats a run).
"""

import http.client
import json
import os
import random
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
import test_serve  # noqa: E402  (the site with its hostile page, and the Server)

ALLOWED = {200, 400, 404, 409, 413, 503}
CLIENT_TIMEOUT = 30      # s: the server's compute deadline is 10 s, a request line 5 s
COMPUTE_SECONDS = 10     # kServeComputeSeconds
FUZZ_SECONDS = 120       # the whole fuzz stops there, whatever it has left

# Values no declaration should take without a clear refusal: numbers at and past every edge,
# text that is markup, paths, encodings, separators and very long.
HOSTILE = ["", " ", "0", "-0", "1", "-1", "0.5", "0.95", "0.99999", "1e-8", "4.9e-324", "1e-324",
           "1e308", "-1e308", "1e309", "inf", "-inf", "nan", "NaN", "0x10", "1,2", " 5", "5 ",
           "18446744073709551616", "99999999999999999999999", "100", "101", "100000", "100001",
           "true", "false", "yes", "full", "title", "text", "nosuch", "pagerank",
           "../../etc/passwd", "/etc/passwd", "file:///etc/passwd", "javascript:alert(1)",
           "<script>alert(1)</script>", "\" onmouseover=\"x", "\x00", "%00", "\xff\xfe", "é",
           "OR", "-", "\"", "site:", "intitle:", "a" * 3000, "http://nowhere.example/",
           "Science=0.7,Sports=0.3", "=", "&", "#1"]


def seed():
    return int(os.environ.get("WEBRANK_FUZZ_SEED", str(int(time.time()))))


class Client:
    """One keep-alive connection; a new one after the server closes it."""

    def __init__(self, port):
        self.port, self.conn = port, None

    def get(self, path):
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port,
                                                       timeout=CLIENT_TIMEOUT)
            try:
                self.conn.request("GET", path)
                r = self.conn.getresponse()
                body = r.read()
                if r.getheader("Connection", "").lower() == "close":
                    self.close()
                return r.status, body
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def cpu_seconds(pid):
    """User and system CPU time of process `pid` so far."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def get_in(port, path, timeout):
    """(status, seconds) of one GET on a new connection."""
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        r.read()
        return r.status, time.monotonic() - start
    finally:
        conn.close()


def stop_within(test, server, seconds):
    """SIGTERM `server`; it must exit within `seconds` with status 0."""
    start = time.monotonic()
    os.kill(server.proc.pid, signal.SIGTERM)
    try:
        rc = server.proc.wait(timeout=seconds)
    except Exception:
        server.stop(signal.SIGKILL)
        test.fail("the server did not stop within %s s of SIGTERM" % seconds)
    test.assertEqual(rc, 0)
    return time.monotonic() - start


class ServeFuzz(wrcli.WebrankTestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="webrank-fuzz-")
        cls.db, cls.root = test_serve.ranked_site(cls.tmp)
        r = wrcli.run_webrank(["--declarations"])
        cls.ops = [op for op in json.loads(r.out) if op["served"]]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def url(self, name):
        return self.root + "/" + name

    def base(self, op):
        """Valid values of the required parameters of `op`, so that the others are reached."""
        params = []
        for s in op["options"]:
            if "http" not in s["fronts"] or not s["required"]:
                continue
            name = s["http_name"]
            params.append((name, "roses" if name == "q" else self.url("roses.html")))
        return params

    def values_for(self, spec, rng):
        """Hostile values for one declared option: HOSTILE, its choices and the edges of its
        ranges, and random numbers and bytes."""
        values = list(HOSTILE) + list(spec.get("choices") or [])
        for text in (spec["range"], spec.get("served_range", "")):
            for token in text.replace("[", " ").replace("]", " ").replace("(", " ") \
                             .replace(")", " ").replace(",", " ").split():
                try:
                    x = float(token)
                except ValueError:
                    continue
                values += [repr(x), repr(x * (1 + 1e-12) + 1e-300), repr(x - 1e-9), repr(-x)]
        values += [repr(rng.uniform(-1e6, 1e6)) for _ in range(3)]
        values += [str(rng.randrange(-10 ** 20, 10 ** 20)) for _ in range(3)]
        values += ["".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 40)))
                   for _ in range(3)]
        return values

    def get(self, server, client, path):
        """client.get(path); a server that died says why, and the fuzz ends there."""
        try:
            return client.get(path)
        except OSError as e:
            if server.proc.poll() is not None:
                raise AssertionError("the server died (status %s) at %s: %s" % (
                    server.proc.returncode, path[:300], server.proc.stderr.read()[-2000:]))
            raise AssertionError("no answer to %s: %r" % (path[:300], e))

    def check(self, status, body, path):
        self.assertIn(status, ALLOWED, path)
        if status == 200:
            json.loads(body)
            return
        error = json.loads(body)["error"]
        self.assertTrue(error["kind"] and error["message"], (path, error))

    def test_hostile_parameters_of_every_served_operation(self):
        s = seed()
        rng = random.Random(s)
        server = test_serve.Server(self.db)
        client = Client(server.port)
        deadline = time.monotonic() + FUZZ_SECONDS
        sent = 0
        try:
            for op in self.ops:
                if server.proc.poll() is not None:
                    break
                specs = [x for x in op["options"] if "http" in x["fronts"]]
                base = self.base(op)
                for spec in specs:
                    values = self.values_for(spec, rng)
                    rng.shuffle(values)
                    for value in values[:40]:
                        if time.monotonic() > deadline:
                            break
                        params = [p for p in base if p[0] != spec["http_name"]]
                        params.append((spec["http_name"], value))
                        if rng.random() < 0.2:  # the same parameter twice
                            params.append((spec["http_name"], rng.choice(values)))
                        path = "/api/v1/op/%s?%s" % (op["name"], urllib.parse.urlencode(params))
                        with self.subTest(seed=s, path=path[:300]):
                            self.check(*self.get(server, client, path), path)
                        sent += 1
                # A few parameters at once, each hostile.
                for _ in range(20):
                    params = list(base)
                    for spec in rng.sample(specs, min(len(specs), 3)):
                        params.append((spec["http_name"], rng.choice(self.values_for(spec, rng))))
                    path = "/api/v1/op/%s?%s" % (op["name"], urllib.parse.urlencode(params))
                    with self.subTest(seed=s, path=path[:300]):
                        self.check(*self.get(server, client, path), path)
                    sent += 1
            client.close()
            self.assertGreater(sent, 500)
            self.after_hostile_requests(server)
        finally:
            client.close()
            server.stop()

    def after_hostile_requests(self, server):
        """Sixteen of the costliest requests the bounds allow, at once; then / within a second
        and a stop within 5 s of SIGTERM."""
        roses, index = self.url("roses.html"), self.url("index.html")
        costly = [
            "/api/v1/op/ppr?" + urllib.parse.urlencode(
                {"url": roses, "eps": "1e-8", "damping": "0.95", "k": "100"}),
            "/api/v1/op/explain?" + urllib.parse.urlencode(
                [("url", roses), ("what_if_seconds", "1"), ("what_if_tol", "1e-300"),
                 ("without", index), ("without", self.url("tulips.html"))]),
            "/api/v1/op/compare?" + urllib.parse.urlencode(
                [("homes", self.url(n)) for n in test_serve.PAGES] + [("k", "100")]),
            "/api/v1/op/report?k=100",
        ]
        answers = []

        def one(path):
            answers.append((path, get_in(server.port, path, CLIENT_TIMEOUT)[0]))

        threads = [threading.Thread(target=one, args=(costly[i % len(costly)],))
                   for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(CLIENT_TIMEOUT + 5)
        self.assertEqual(len(answers), 16)
        for path, status in answers:
            self.assertIn(status, ALLOWED, path)
        status, seconds = get_in(server.port, "/", 5)
        self.assertEqual(status, 200)
        self.assertLess(seconds, 1.0)
        self.assertLess(stop_within(self, server, 5), 5)

    def test_declared_bounds_refuse_runaway_solves(self):
        """The requests that took the server down are refused with the bound's words."""
        server = test_serve.Server(self.db)
        try:
            roses = urllib.parse.quote(self.url("roses.html"))
            for query, field in (("damping=0.99999", "damping"), ("eps=4.9e-324", "eps"),
                                 ("damping=0.96", "damping"), ("eps=1e-9", "eps")):
                status, body = server.json("/api/v1/op/ppr?url=%s&%s" % (roses, query))
                self.assertEqual((status, body["error"]["field"]), (400, field), body)
                self.assertIn("on a server", body["error"]["message"])
            status, body = server.json("/api/v1/op/explain?url=%s&what_if_seconds=10" % roses)
            self.assertEqual((status, body["error"]["field"]), (400, "what_if_seconds"), body)
            status, body = server.json("/api/v1/op/compare?" + "&".join(
                ["homes=" + roses] * 5))
            self.assertEqual((status, body["error"]["field"]), (400, "homes"), body)
            # What the bounds allow is answered.
            for query in ("damping=0.95&eps=1e-8", "damping=0&eps=1"):
                self.assertEqual(server.json("/api/v1/op/ppr?url=%s&%s" % (roses, query))[0], 200)
            # The command line takes the whole declared range.
            r = self.wr("ppr", self.db, self.url("roses.html"), "--damping", "0.99", "--json")
            self.assertEqual(r.rc, 0)
        finally:
            server.stop()


class ServeUnderSolves(wrcli.WebrankTestCase):
    """Many solves at once on a web where each takes a few tenths of a second."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="webrank-solves-")
        edges = os.path.join(cls.tmp, "web.tsv")
        cls.db = os.path.join(cls.tmp, "big.db")
        for args in (("generate", "--pages", "300000", "--links", "3000000", "-o", edges, "-q"),
                     ("build", edges, "-o", cls.db, "-q")):
            r = wrcli.run_webrank(args)
            assert r.rc == 0, r.describe()
        # Home pages of personalized views: pages with links out, each a solve of its own.
        homes = []
        with open(edges) as f:
            for line in f:
                page = line.split("\t", 1)[0]
                if page not in homes:
                    homes.append(page)
                if len(homes) == 400:
                    break
        cls.homes = homes

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def compare(self, i):
        """A compare of four home pages no earlier request asked for."""
        return "/api/v1/op/compare?" + urllib.parse.urlencode(
            [("homes", h) for h in self.homes[4 * i:4 * i + 4]] + [("k", "3")])

    def test_solves_hold_up_no_page_and_end_by_the_deadline(self):
        server = test_serve.Server(self.db)
        try:
            answers = {}

            def one(i):
                start = time.monotonic()
                try:
                    status = get_in(server.port, self.compare(i), CLIENT_TIMEOUT)[0]
                except OSError as e:  # a timeout: no answer
                    status = repr(e)
                answers[i] = (status, time.monotonic() - start)

            threads = [threading.Thread(target=one, args=(i,)) for i in range(24)]
            for t in threads:
                t.start()
            # Pages are served meanwhile, on threads no solve takes.
            for _ in range(3):
                status, seconds = get_in(server.port, "/", 5)
                self.assertEqual(status, 200)
                self.assertLess(seconds, 1.0)
            for t in threads:
                t.join(CLIENT_TIMEOUT + 5)
            self.assertEqual(len(answers), 24)
            for i, (status, seconds) in answers.items():
                self.assertIn(status, (200, 503), (i, status))
                # Work waits at most the deadline, then is answered (a few seconds of slack for a
                # loaded machine).
                self.assertLess(seconds, COMPUTE_SECONDS + 4, (i, status))
        finally:
            self.assertLess(stop_within(self, server, 5), 5)

    def test_a_client_that_leaves_stops_its_work(self):
        server = test_serve.Server(self.db)
        try:
            start = cpu_seconds(server.proc.pid)
            for i in range(30, 46):  # 16 compares of four new home pages each: ~25 s of CPU
                with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
                    s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % self.compare(i)).encode())
            # The work stops: within a few seconds the server is idle (its CPU time grows by less
            # than 0.1 s in half a second), long before the 16 compares could have been done.
            idle_by = time.monotonic() + 6
            idle = False
            last = cpu_seconds(server.proc.pid)
            while time.monotonic() < idle_by and not idle:
                threading.Event().wait(0.5)
                now = cpu_seconds(server.proc.pid)
                idle, last = now - last < 0.1, now
            self.assertTrue(idle, "still computing for clients that left (%.1f s of CPU)"
                            % (last - start))
            self.assertEqual(get_in(server.port, "/healthz", 5)[0], 200)
        finally:
            server.stop()

    def test_sigterm_while_solving_stops_within_seconds(self):
        server = test_serve.Server(self.db)
        conns = []
        started = cpu_seconds(server.proc.pid)
        try:
            for i in range(60, 76):  # solves running and queued, their clients waiting
                s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
                s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % self.compare(i)).encode())
                conns.append(s)
            # The first answers are being computed: the server has started working.
            while cpu_seconds(server.proc.pid) < started + 0.5:
                threading.Event().wait(0.05)
            self.assertLess(stop_within(self, server, 5), 5)
        finally:
            for s in conns:
                s.close()
            server.stop(signal.SIGKILL)


if __name__ == "__main__":
    wrcli.main()
