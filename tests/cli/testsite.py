"""A generated web site served on 127.0.0.1 for the crawl and WARC suites (not a test file).

    python3 testsite.py ROOT PORT_FILE LOG_FILE [MAX_REQUESTS] [MAX_SECONDS]

serves ROOT on 127.0.0.1 (port 0: the kernel picks a free one, written to PORT_FILE), appends
one line per request to LOG_FILE (its path, on arrival), and exits by itself after MAX_REQUESTS
requests or MAX_SECONDS seconds, whichever comes first, so a test that loses track of it
cannot leave it running. Tests stop it by its PID (Server.stop()).

Besides the files of ROOT it serves the traps and failures of a real web:
  /robots.txt        301 to the path in ROOT/robots.txt.redirect when that file exists
  /redirect/N        301 to /redirect/N-1, ... /redirect/0 -> 302 to /index.html
  /loop/a, /loop/b   a redirect loop
  /long-redirect/N   301 to a path of N bytes (/long/xxx...)
  /status/CODE       that status (404, 500, ...) with a small HTML body
  /slow              answers after 60 seconds (longer than any --timeout a test gives), or
                     not at all if the client hangs up first
  /drop              closes the connection without answering
  /huge              an HTML page of 20 MB (links at its start and at its end)
  /trap/...          every page links to itself plus one more segment (/trap/a/a/a/...)
  /calendar?d=N      links to the next and the previous day, forever
  /session?sid=X     links to itself with a fresh session id
  /nest              HTML nested 50,000 elements deep
  /broken            unclosed tags, a stray </html>, links inside broken attributes

Validators: files are served with Last-Modified (their mtime) and honour If-Modified-Since, as
Python's file server does; when ROOT/.validators exists, its lines `PREFIX MODE` (first match;
MODE etag, last-modified, both or none; default both) also give files a strong ETag (of their
content) honoured by If-None-Match, which takes precedence (RFC 9110 §13.2.2). Each response's
status goes to LOG_FILE.status (`PATH STATUS` per line).

site(root, pages) writes a documentation-like tree of static pages (all links explicit .html
files, some relative with ../, some with fragments, one nofollow) for the equivalence tests.
"""

import email.utils
import hashlib
import http.server
import io
import os
import random
import select
import signal
import socket
import socketserver
import subprocess
import sys
import threading
import time


def write_doc_site(root, pages=40, seed=7):
    """A static site: ROOT/index.html, ROOT/sec{K}/page{I}.html, with cross links."""
    rnd = random.Random(seed)
    paths = ["index.html"] + ["sec%d/page%d.html" % (i % 4, i) for i in range(1, pages)]
    for p in paths:
        # the index is a table of contents (every page is reachable from it, as in real docs)
        links = paths[1:] if p == "index.html" else rnd.sample(paths, min(5, len(paths)))
        depth = p.count("/")
        rel = lambda t: "../" * depth + t
        body = ["<!DOCTYPE html><html><head><title>Doc %s</title></head><body>" % p,
                "<h1>Page %s</h1><p>Some <b>text</b> about %s.</p>" % (p, p)]
        for i, t in enumerate(links):
            frag = "#s%d" % i if i % 2 else ""
            body.append('<a href="%s%s">to %s</a>' % (rel(t), frag, t))
        body.append('<a href="%s" rel="nofollow">index (nofollow)</a>' % rel("index.html"))
        body.append('<a href="%s">home</a>' % rel("index.html"))
        body.append("</body></html>")
        full = os.path.join(root, p)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write("\n".join(body))
    return paths


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def setup(self):
        super().setup()
        # Headers and body go out in separate writes: without this, Nagle's algorithm and
        # delayed ACKs stall every keep-alive response by ~40 ms.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_request(self, code="-", size="-"):
        with self.server.lock:
            with open(self.server.log_file + ".status", "a") as f:
                f.write("%s %s\n" % (self.path, int(code)))

    def validators_mode(self, path):
        try:
            with open(".validators") as f:
                rules = [line.split() for line in f if line.strip()]
        except FileNotFoundError:
            return None
        return next((mode for prefix, mode in rules if path.startswith(prefix)), "both")

    def send_head(self):
        path = self.path.partition("?")[0]
        mode = self.validators_mode(path)
        file = self.translate_path(self.path)
        if mode is None or not os.path.isfile(file):
            return super().send_head()
        with open(file, "rb") as f:
            data = f.read()
        mtime = int(os.stat(file).st_mtime)
        etag = '"%s"' % hashlib.sha1(data).hexdigest()[:16]
        fields = []
        if mode in ("etag", "both"):
            fields.append(("ETag", etag))
        if mode in ("last-modified", "both"):
            fields.append(("Last-Modified", self.date_time_string(mtime)))
        inm, ims = self.headers.get("If-None-Match"), self.headers.get("If-Modified-Since")
        fresh = False
        if inm is not None:
            fresh = mode in ("etag", "both") and etag in [t.strip() for t in inm.split(",")]
        elif ims is not None and mode in ("last-modified", "both"):
            try:
                fresh = mtime <= email.utils.parsedate_to_datetime(ims).timestamp()
            except (TypeError, ValueError):
                fresh = False
        self.send_response(304 if fresh else 200)
        for k, v in fields:
            self.send_header(k, v)
        if fresh:
            self.end_headers()
            return None
        self.send_header("Content-Type", self.guess_type(file))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)

    def log_arrival(self):
        # Logged on arrival, so that requests the client gave up on (timeouts) count too; with
        # the User-Agent, which tells two crawls apart whenever their requests are logged.
        agent = (self.headers.get("User-Agent") or "").replace("\t", " ").replace("\n", " ")
        with self.server.lock:
            with open(self.server.log_file, "a") as f:
                f.write("%s\t%s\n" % (self.path, agent))
            self.server.count += 1
            if self.server.count >= self.server.max_requests:
                threading.Thread(target=self.server.shutdown, daemon=True).start()

    def html(self, code, text, extra=()):
        data = text.encode()
        self.send_response(code)
        for k, v in extra:
            self.send_header(k, v)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def redirect(self, code, where):
        self.html(code, "<a href='%s'>moved</a>" % where, [("Location", where)])

    def do_GET(self):
        self.log_arrival()
        path, _, query = self.path.partition("?")
        if path == "/robots.txt" and os.path.exists("robots.txt.redirect"):
            with open("robots.txt.redirect") as f:
                return self.redirect(301, f.read().strip())
        if path.startswith("/redirect/"):
            n = int(path.rsplit("/", 1)[1] or 0)
            return self.redirect(302 if n == 0 else 301,
                                 "/index.html" if n == 0 else "/redirect/%d" % (n - 1))
        if path.startswith("/long-redirect/"):  # a redirect to a URL of N bytes past the host
            n = int(path.rsplit("/", 1)[1])
            return self.redirect(301, "/long/" + "x" * max(0, n - 6))
        if path == "/loop/a":
            return self.redirect(301, "/loop/b")
        if path == "/loop/b":
            return self.redirect(301, "/loop/a")
        if path.startswith("/status/"):
            code = int(path.rsplit("/", 1)[1])
            return self.html(code, "<title>error %d</title><a href='/index.html'>home</a>" % code)
        if path == "/slow":
            deadline = time.time() + 60
            while time.time() < deadline:
                ready, _, _ = select.select([self.connection], [], [], 0.5)
                if ready and not self.connection.recv(1, socket.MSG_PEEK):
                    return  # the client gave up
            return self.html(200, "<title>slow</title>")
        if path == "/drop":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if path == "/huge":
            body = ("<title>huge</title><a href='/huge-first.html'>first</a>" + "x" * (20 << 20)
                    + "<a href='/huge-last.html'>last</a>")
            return self.html(200, body)
        if path.startswith("/trap/"):
            return self.html(200, "<a href='%sa/'>deeper</a>" % path)
        if path == "/calendar":
            d = int(query.partition("=")[2] or 0)
            return self.html(200, "<a href='/calendar?d=%d'>next</a><a href='/calendar?d=%d'>"
                             "prev</a>" % (d + 1, d - 1))
        if path == "/session":
            return self.html(200, "<a href='/session?sid=%016x'>again</a>"
                             % random.getrandbits(64))
        if path == "/nest":
            return self.html(200, "<a href='/nest-first.html'>x</a>" + "<div>" * 50000)
        if path == "/broken":
            return self.html(200, "<html><title>broken</title></html><p><a href='/broken-a.html'"
                             ">a<p><b><i></table></td><a href=/broken-c.html>c"
                             "<a href=\"/broken-b.html\" class='x>b</a>")
        return super().do_GET()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # The listen backlog (socketserver's default is 5): a crawler opens many connections at once,
    # and on a loaded machine this process accepts them late; a full backlog drops the SYN, the
    # client retries it a second later and a short --connect-timeout gives up.
    request_queue_size = 128

    def handle_error(self, request, client_address):
        pass  # clients that give up (timeouts, --max-bytes) are expected here


class SiteServer:
    """Runs this file as a child process serving ROOT; use as a context manager."""

    def __init__(self, root, workdir, max_requests=3000, max_seconds=150):
        self.root, self.workdir = root, workdir
        self.port_file = os.path.join(workdir, "port")
        self.log_file = os.path.join(workdir, "requests.log")
        self.args = [sys.executable, os.path.abspath(__file__), root, self.port_file,
                     self.log_file, str(max_requests), str(max_seconds)]

    def __enter__(self):
        self.proc = subprocess.Popen(self.args)
        deadline = time.time() + 10
        while time.time() < deadline:
            if os.path.exists(self.port_file):
                with open(self.port_file) as f:
                    self.port = int(f.read())
                self.url = "http://127.0.0.1:%d" % self.port
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("test site did not start")

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            self.proc.wait(10)

    def __exit__(self, *exc):
        self.stop()

    def requests(self):
        """[path, User-Agent] of every request, in arrival order."""
        if not os.path.exists(self.log_file):
            return []
        with open(self.log_file) as f:
            return [line.rstrip("\n").rsplit("\t", 1) for line in f]


def main():
    root, port_file, log_file = [os.path.abspath(a) for a in sys.argv[1:4]]
    max_requests = int(sys.argv[4]) if len(sys.argv) > 4 else 3000
    max_seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 150
    os.chdir(root)
    srv = Server(("127.0.0.1", 0), Handler)
    srv.log_file, srv.count, srv.max_requests = log_file, 0, max_requests
    srv.lock = threading.Lock()
    threading.Timer(max_seconds, srv.shutdown).start()
    signal.signal(signal.SIGTERM, lambda *a: os._exit(0))
    tmp = port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(tmp, port_file)
    srv.serve_forever()
    os._exit(0)


if __name__ == "__main__":
    main()
