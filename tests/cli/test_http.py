"""The HTTP layer of `webrank serve` as an attacker sees it (docs/serve.md, "HTTP").

Raw sockets against a server on 127.0.0.1 (port 0, stopped by its PID; tests/cli/test_serve.py's
site and Server), every wait bounded. Checked: a body is read as its request's body and never as
a new request (Content-Length sent after the head, chunked); ambiguous framing (Content-Length
with Transfer-Encoding, lengths that differ, codings other than chunked, Host missing or twice,
bare LF line ends) is 400 and the connection closes without answering what followed; requests
written at once are all answered, in order, a HEAD among them; header fields are limited in count
and bytes (431), the URL (414), the body (413); every response, errors, 404s and assets
included, carries the documented headers; while 500 slow clients are connected (trickling a
head, idle, or never reading their answers) and taken in by the server, with the connection cap
above or below 500, a new client is answered in under a second, and the slow ones are cut after
the request deadline; the
server's peak memory stays within 16 MiB while clients send 64 MiB of header lines each.
"""

import os
import re
import resource
import select
import shutil
import socket
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
import test_serve  # noqa: E402  (the site with its hostile page, and the Server)

POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
          "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
REQUEST_SECONDS = 5  # kServeRequestSeconds


class Server(test_serve.Server):
    """test_serve's Server, optionally with a hard limit on the server's open files."""

    def __init__(self, db, *extra, files=None):
        if files is None:
            super().__init__(db, *extra)
            return

        def limit():
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        super().__init__(db, *extra, preexec_fn=limit)

    def accept_queue(self):
        """Connections the kernel has established that the server has not accepted yet (the
        listening socket's queue, /proc/net/tcp's rx_queue of a socket in state LISTEN)."""
        with open("/proc/net/tcp") as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                if fields[1].endswith(":%04X" % self.port) and fields[3] == "0A":
                    return int(fields[4].split(":")[1], 16)
        raise AssertionError("no listening socket on port %d" % self.port)

    def peak_rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            return int(re.search(r"VmHWM:\s+(\d+) kB", f.read()).group(1))


class Reader:
    """Responses read one at a time from a socket, framed by their Content-Length."""

    def __init__(self, sock, timeout=10):
        self.sock, self.buf, self.timeout = sock, b"", timeout

    def _fill(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("no answer within %s s" % self.timeout)
        ready, _, _ = select.select([self.sock], [], [], left)
        if not ready:
            raise AssertionError("no answer within %s s" % self.timeout)
        try:
            chunk = self.sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        self.buf += chunk
        return bool(chunk)

    def response(self, head_request=False):
        """(status, {lower-case name: value}, body), or None when the server closed first."""
        deadline = time.monotonic() + self.timeout
        while b"\r\n\r\n" not in self.buf:
            if not self._fill(deadline):
                if self.buf:
                    raise AssertionError("connection closed inside an answer: %r" % self.buf[:200])
                return None
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
        length = 0 if head_request else int(headers.get("content-length", "0"))
        while len(self.buf) < length:
            if not self._fill(deadline):
                raise AssertionError("connection closed inside a body")
        body, self.buf = self.buf[:length], self.buf[length:]
        return status, headers, body

    def closed(self):
        """True when the server closes the connection (with nothing more to read) in time."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if not self._fill(deadline):
                return self.buf == b""
        return False


def request(path, method="GET", extra=b"", close=False):
    return (method.encode() + b" " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra +
            (b"Connection: close\r\n" if close else b"") + b"\r\n")


class HttpTest(wrcli.WebrankTestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="webrank-http-")
        cls.db = test_serve.ranked_site(cls.tmp)[0]
        cls.server = Server(cls.db)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def connect(self):
        s = socket.create_connection(("127.0.0.1", self.server.port), timeout=10)
        self.addCleanup(s.close)
        return s, Reader(s)

    def exchange(self, data):
        """Every answer to `data` until the server closes (the write side stays open)."""
        s, reader = self.connect()
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answers = []
        while True:
            r = reader.response()
            if r is None:
                return answers
            answers.append(r)

    def assert_documented_headers(self, headers, where, cache="no-store"):
        self.assertEqual(headers.get("content-security-policy"), POLICY, where)
        self.assertEqual(headers.get("x-content-type-options"), "nosniff", where)
        self.assertEqual(headers.get("referrer-policy"), "no-referrer", where)
        self.assertEqual(headers.get("x-frame-options"), "DENY", where)
        self.assertEqual(headers.get("cache-control"), cache, where)

    def test_a_body_is_never_a_request(self):
        smuggled = request("/api/v1")
        # Content-Length: the head first; the server must wait for the body (no answer yet),
        # then take it as this request's body, not as the request it spells.
        s, reader = self.connect()
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(smuggled))
        ready, _, _ = select.select([s], [], [], 0.3)
        self.assertEqual(ready, [], "answered before the request's body came")
        s.sendall(smuggled)
        s.sendall(request("/api/v1/search?q=roses", close=True))
        answers = []
        while (r := reader.response()) is not None:
            answers.append(r)
        self.assertEqual([a[0] for a in answers], [200, 200], [a[2][:80] for a in answers])
        self.assertIn(b'"status":"ok"', answers[0][2])
        self.assertIn(b'"hits"', answers[1][2])
        # Chunked: the chunks are the body, whatever they spell.
        body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(smuggled), smuggled)
        answers = self.exchange(b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked"
                                b"\r\n\r\n" + body + request("/api/v1/search?q=roses", close=True))
        self.assertEqual([a[0] for a in answers], [200, 200])
        self.assertIn(b'"hits"', answers[1][2])
        # A body over the limit: 413, and nothing after it is answered.
        answers = self.exchange(b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000"
                                b"\r\n\r\n" + smuggled)
        self.assertEqual([a[0] for a in answers], [413])

    def test_ambiguous_framing_is_refused_and_closes(self):
        smuggled = request("/api/v1")
        cases = {
            "Content-Length and chunked": b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n",
            "chunked and Content-Length": b"Transfer-Encoding: chunked\r\nContent-Length: 4\r\n",
            "two lengths": b"Content-Length: 4\r\nContent-Length: 5\r\n",
            "two equal lengths": b"Content-Length: 4\r\nContent-Length: 4\r\n",
            "a list of lengths": b"Content-Length: 4, 5\r\n",
            "a signed length": b"Content-Length: +4\r\n",
            "a negative length": b"Content-Length: -1\r\n",
            "a hex length": b"Content-Length: 0x4\r\n",
            "another coding": b"Transfer-Encoding: gzip\r\n",
            "chunked twice": b"Transfer-Encoding: chunked, chunked\r\n",
            "chunked not last": b"Transfer-Encoding: chunked, gzip\r\n",
            "a lookalike coding": b"Transfer-Encoding: xchunked\r\n",
            "two coding fields": b"Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n",
            "a coding and a length": b"Transfer-Encoding: gzip\r\nContent-Length: 4\r\n",
            "space before the colon": b"Content-Length : 4\r\n",
            "two Host fields": b"Host: y\r\n",
        }
        for name, fields in cases.items():
            answers = self.exchange(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + fields +
                                    b"\r\n0\r\n\r\n" + smuggled)
            self.assertEqual([a[0] for a in answers], [400], name)
            self.assertIn(b"error", answers[0][2], name)
        raw = {
            "no Host in HTTP/1.1": b"GET /healthz HTTP/1.1\r\n\r\n",
            "chunked in HTTP/1.0": b"GET /healthz HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"
                                   b"0\r\n\r\n",
            "bare LF line ends": b"GET /healthz HTTP/1.1\nHost: x\n\n",
            "a bad chunk size": b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
                                b"chunked\r\n\r\nzz\r\n",
            "a NUL in a field": b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n",
            "a bare CR in a field": b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n",
            "not a request": b"garbage\r\n\r\n",
        }
        for name, data in raw.items():
            answers = self.exchange(data + smuggled)
            self.assertEqual([a[0] for a in answers], [400], name)
        answers = self.exchange(b"GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n" + smuggled)
        self.assertEqual([a[0] for a in answers], [505])

    def test_folded_fields_long_lengths_and_spaced_targets(self):
        smuggled = request("/api/v1")
        # A field folded over two lines (obs-fold) is refused, not unfolded and obeyed: a proxy
        # in front may not have read "chunked" in it.
        for name, fields in {"folded coding": b"Transfer-Encoding:\r\n chunked\r\n",
                             "folded with a tab": b"X-A: a\r\n\tb\r\n",
                             "folded length": b"Content-Length: 4\r\n 4\r\n"}.items():
            answers = self.exchange(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + fields +
                                    b"\r\n0\r\n\r\n" + smuggled)
            self.assertEqual([a[0] for a in answers], [400], name)
            self.assertIn(b"folded", answers[0][2], name)
        # A length too long to hold announces a body over the limit: 413, as 17 KiB would be;
        # a length that is not one is 400.
        for length, status in ((b"99999999999999999999999", 413), (b"17000", 413),
                               (b"1x", 400)):
            answers = self.exchange(b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                                    length + b"\r\n\r\n" + smuggled)
            self.assertEqual([a[0] for a in answers], [status], length)
        # A space inside the target makes the request line malformed (400), not another
        # version of HTTP (505).
        for line in (b"GET /api/v1/op/search?q=a&k= 5 HTTP/1.1", b"GET /a b HTTP/1.1",
                     b"GET /a HTTP/1.1 x"):
            answers = self.exchange(line + b"\r\nHost: x\r\n\r\n" + smuggled)
            self.assertEqual([a[0] for a in answers], [400], line)

    def test_pipelined_requests_answered_in_order(self):
        paths = ["/healthz", "/api/v1", "/api/v1/search?q=roses", "/nowhere", "/assets/serve.css",
                 "/api/v1/page?id=1", "/api/v1/history", "/search?q=tulips", "/api/v1/page",
                 "/favicon.ico"]
        data = b"".join(request(p) for p in paths[:3]) + request("/healthz", "HEAD")
        data += b"".join(request(p) for p in paths[3:]) + request("/api/v1", close=True)
        s, reader = self.connect()
        s.sendall(data)
        want = [(200, b'"status":"ok"'), (200, b'"version":1'), (200, b'"hits"'), (200, b""),
                (404, b"Error 404"), (200, b"wr-"), (200, b'"backlinks"'), (200, b'"l1"'),
                (200, b"Tulip"), (400, b'"field":"url"'), (204, b""), (200, b'"version":1')]
        want[6] = (302, b"")  # /api/v1/page?id=1: the page operation's url=LABEL
        for i, (status, marker) in enumerate(want):
            r = reader.response(head_request=(i == 3))
            self.assertIsNotNone(r, "answer %d of %d missing" % (i + 1, len(want)))
            self.assertEqual(r[0], status, (i, r[2][:100]))
            self.assertIn(marker, r[2], i)
        self.assertTrue(reader.closed())

    def test_header_fields_limited_in_count_and_bytes(self):
        def fields(n, size=8):
            return b"".join(b"X-F%d: %s\r\n" % (i, b"v" * size) for i in range(n))

        # Host, Connection and 98 more: 100 fields are served; 101 are not, nor 5,000.
        self.assertEqual([a[0] for a in self.exchange(request("/healthz", extra=fields(98),
                                                              close=True))], [200])
        for n in (100, 5000):
            answers = self.exchange(request("/healthz", extra=fields(n)) + request("/api/v1"))
            self.assertEqual([a[0] for a in answers], [431], n)
        # 8,192 bytes of names and values at most, in one field or in many.
        ok = b"X-Big: " + b"b" * (8192 - 64) + b"\r\n"
        self.assertEqual([a[0] for a in self.exchange(request("/healthz", extra=ok,
                                                              close=True))], [200])
        for extra in (b"X-Big: " + b"b" * 9000 + b"\r\n", fields(60, 200)):
            answers = self.exchange(request("/healthz", extra=extra) + request("/api/v1"))
            self.assertEqual([a[0] for a in answers], [431])
        # Past what the parser buffers at all: 431 all the same, and the URL's own limit, 414.
        answers = self.exchange(request("/healthz", extra=b"X-Big: " + b"b" * 40000 + b"\r\n"))
        self.assertEqual([a[0] for a in answers], [431])
        for length in (9000, 40000):
            answers = self.exchange(request("/search?q=" + "a" * length) + request("/api/v1"))
            self.assertEqual([a[0] for a in answers], [414], length)

    def test_every_response_carries_the_documented_headers(self):
        cases = [(request("/"), 200), (request("/nowhere"), 404), (request("/api/nowhere"), 404),
                 (request("/assets/nothing.js"), 404), (request("/favicon.ico"), 204),
                 (request("/page?url=http://nowhere.example/"), 404),
                 (request("/api/v1/page"), 400), (request("/api/v1/search?q=roses"), 200),
                 (request("/healthz", "HEAD"), 200),
                 (request("/healthz", "POST", b"Content-Length: 0\r\n"), 405),
                 (request("/healthz", "OPTIONS"), 405),
                 (request("/healthz", extra=b"X-Big: " + b"b" * 9000 + b"\r\n"), 431),
                 (request("/search?q=" + "a" * 9000), 414),
                 (request("/healthz", "POST", b"Content-Length: 99999\r\n"), 413),
                 (request("/healthz", extra=b"Content-Length: 1\r\nTransfer-Encoding: chunked"
                          b"\r\n"), 400),
                 (b"GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505), (b"garbage\r\n\r\n", 400)]
        for data, status in cases:
            s, reader = self.connect()
            s.sendall(data)
            r = reader.response(head_request=data.startswith(b"HEAD"))
            self.assertEqual(r[0], status, data[:60])
            self.assert_documented_headers(r[1], data[:60])
        s, reader = self.connect()
        s.sendall(request("/assets/serve.css"))
        r = reader.response()
        self.assertEqual(r[0], 200)
        self.assert_documented_headers(r[1], "asset", cache="public, max-age=3600")
        s.sendall(request("/proxy?url=nowhere"))
        r = reader.response()
        self.assertEqual(r[0], 404)
        self.assertIn("script-src 'none'", r[1]["content-security-policy"])


class SlowClientTest(wrcli.WebrankTestCase):
    """Each test starts its own server: what one test's clients hold must not touch another's."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="webrank-http-slow-")
        cls.db = test_serve.ranked_site(cls.tmp)[0]
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        # 500 clients and the test's own files.
        if soft < 2048:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(2048, hard), hard))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def server(self, files=None):
        server = Server(self.db, files=files)
        self.addCleanup(server.stop)
        return server

    def timed_get(self, server, path="/api/v1/search?q=roses"):
        start = time.monotonic()
        with socket.create_connection(("127.0.0.1", server.port), timeout=15) as s:
            s.sendall(request(path, close=True))
            r = Reader(s, timeout=15).response()
        self.assertEqual(r[0], 200)
        return time.monotonic() - start

    def slow_clients(self, server):
        """500 connections: 300 trickling a head a byte at a time, 100 idle, 100 that ask for a
        large asset 20 times over and never read. Connected without blocking, all within 10 s."""
        socks = []
        for i in range(500):
            s = socket.socket()
            if i % 5 == 4:
                # A small receive window: the server's answers stop at once, held by the client.
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", server.port))
            socks.append(s)
        poll, pending = select.poll(), {s.fileno(): s for s in socks}
        for fd in pending:
            poll.register(fd, select.POLLOUT)
        deadline = time.monotonic() + 10
        while pending and time.monotonic() < deadline:
            for fd, _ in poll.poll(500):
                poll.unregister(fd)
                del pending[fd]
        # Established, and taken in by the server: what is timed below is serving while they are
        # connected, not accepting 500 connections at once.
        while time.monotonic() < deadline and server.accept_queue() > 0:
            select.select([], [], [], 0.01)
        if pending or server.accept_queue() > 0:
            for s in socks:
                s.close()
            self.fail("of 500 connections, %d not established and %d not accepted in 10 s"
                      % (len(pending), server.accept_queue()))
        trickling, others = [], []
        for i, s in enumerate(socks):
            try:
                if i % 5 < 3:
                    s.send(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                    trickling.append(s)
                    continue
                if i % 5 == 4:
                    s.send(request("/assets/uPlot.iife.min.js") * 20)
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                pass
            others.append(s)
        return trickling, others

    def check_service_under_slow_clients(self, files):
        server = self.server(files)
        trickling, others = self.slow_clients(server)
        try:
            start = time.monotonic()
            times = []
            # While they trickle (a byte each per round), a new client is served promptly.
            while time.monotonic() - start < 3:
                for s in trickling:
                    try:
                        s.send(b"a")
                    except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                        pass
                times.append(self.timed_get(server))
            self.assertGreaterEqual(len(times), 3)
            self.assertLess(max(times), 1.0, times)
            # The deadline: a client that trickles is cut, however long it keeps sending.
            cut = 0
            deadline = start + REQUEST_SECONDS + 5
            while time.monotonic() < deadline and cut < len(trickling):
                cut = 0
                for s in trickling:
                    try:
                        s.send(b"a")
                    except (BrokenPipeError, ConnectionResetError):
                        cut += 1
                    except BlockingIOError:
                        pass
                select.select([], [], [], 0.2)
            self.assertEqual(cut, len(trickling), "slow clients still connected after the deadline")
            self.assertLess(self.timed_get(server), 1.0)
        finally:
            for s in trickling + others:
                s.close()

    def test_slow_idle_and_unread_clients_cost_a_slot_each(self):
        self.check_service_under_slow_clients(files=None)

    def test_more_slow_clients_than_connections(self):
        # 300 files: a cap below 500 connections (the server keeps some for its workers); the
        # slot of the client that has waited longest goes to the new one.
        self.check_service_under_slow_clients(files=300)

    def test_memory_bounded_under_64_mib_of_header_lines(self):
        server = self.server()
        for _ in range(20):
            self.timed_get(server)
        before = server.peak_rss_kib()
        line = b"X-Flood: " + b"f" * 1013 + b"\r\n"  # 1 KiB a line
        block = line * 64
        clients = []
        for _ in range(4):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            clients.append([s, 0, None])
        deadline = time.monotonic() + 30
        total = 64 << 20
        while any(c[1] < total and c[2] is None for c in clients) and time.monotonic() < deadline:
            for c in clients:
                if c[1] >= total or c[2] is not None:
                    continue
                try:
                    c[0].sendall(block)
                    c[1] += len(block)
                except (BrokenPipeError, ConnectionResetError):
                    c[2] = "closed"
                except socket.timeout:
                    c[2] = "stopped reading"
        peak = server.peak_rss_kib()
        for c in clients:
            c[0].close()
        # The server closed each of them soon after its limit; its peak memory barely moved.
        self.assertEqual([c[2] for c in clients], ["closed"] * len(clients),
                         "MiB sent: %s" % [c[1] >> 20 for c in clients])
        self.assertLess(max(c[1] for c in clients), 16 << 20)
        self.assertLess(peak - before, 16 << 10, "peak RSS %d -> %d KiB" % (before, peak))
        self.assertLess(self.timed_get(server), 1.0)


if __name__ == "__main__":
    wrcli.main()
