"""`webrank serve`: the web interface and JSON API (docs/serve.md), as a client sees it.

A small site with hostile pages (titles, text and attributes full of script payloads) is imported
as an HTML directory, ranked and served on 127.0.0.1 (port 0; the port is read from the line the
server prints, the server stopped by its PID). Checked: every view and JSON path; the payloads
come back as inert, escaped text (parsed with html.parser: no script, no event handler, no
javascript: URL, no source of anything, a PageRank bar before every link of the proxy view) and
the Content-Security-Policy; search results equal `webrank search --format json`; backlinks in
rank order; path traversal, oversized requests and parameters refused; a rank vector stored
while serving is picked up with no failed request; SIGTERM ends it cleanly (exit 0); a short
wrk load test (2 s) has no error. The browser side is tests/browser/serve.test.cjs.
"""

import html.parser
import json
import os
import queue
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402

PAYLOAD = "<script>alert('t')</script><img src=x onerror=alert(1)>"
HOSTILE = """<!DOCTYPE html><html><head><title>%s evil title</title>
<base href="http://evil.example/">
<meta http-equiv="refresh" content="0;url=javascript:alert(2)">
<link rel="stylesheet" href="http://evil.example/x.css"><style>body{background:url(http://evil.example/s)}</style>
<script src="http://evil.example/x.js"></script></head>
<body onload="alert(3)"><h1 onclick="alert(4)" style="color:red">Hostile gardening</h1>
<p>roses %s and <b>"quoted" &amp; 'single'</b></p>
<a href="javascript:alert(5)">js link</a> <a href=" JaVaScRiPt:alert(6)">js link 2</a>
<a href="data:text/html,<script>alert(7)</script>">data link</a>
<a href="/index.html" onmouseover="alert(8)">home</a> <a href="roses.html#care">roses</a>
<a href="http://elsewhere.example/page">elsewhere</a>
<iframe src="javascript:alert(9)" srcdoc="<script>alert(10)</script>"></iframe>
<object data="http://evil.example/x.swf"></object><embed src="http://evil.example/e">
<svg onload="alert(11)"><script>alert(12)</script></svg>
<form action="http://evil.example/steal"><input name=q formaction="javascript:alert(13)"><button>go</button></form>
<img src="http://evil.example/pixel.png" alt="a pixel"><video src="http://evil.example/v.mp4"></video>
<div style="background:url(http://evil.example/d)" class="wr-bar">styled</div>
<my-widget onclick="alert(14)">custom</my-widget><noscript><img src="http://evil.example/n"></noscript>
<math><mi xlink:href="javascript:alert(15)">m</mi></math>
</body></html>""" % (PAYLOAD, PAYLOAD)

PAGES = {
    "index.html": ("Garden Handbook", "Welcome to the handbook about roses and tulips.",
                   ["roses.html", "tulips.html", "hostile.html"]),
    "roses.html": ("Garden Roses", "Roses need sun. Prune roses in spring.", ["index.html"]),
    "tulips.html": ("Tulip Bulbs", "Plant tulip bulbs in autumn, near roses.",
                    ["index.html", "roses.html"]),
}


def write_site(root):
    os.makedirs(root, exist_ok=True)
    for name, (title, text, links) in PAGES.items():
        body = "".join('<a href="%s">%s</a> ' % (l, l) for l in links)
        with open(os.path.join(root, name), "w") as f:
            f.write("<html><head><title>%s</title></head><body><p>%s</p>%s</body></html>"
                    % (title, text, body))
    with open(os.path.join(root, "hostile.html"), "w") as f:
        f.write(HOSTILE)


def ranked_site(tmp):
    """The site written in tmp/site, imported into tmp/g.db and ranked: (db, the site's file://
    root)."""
    site = os.path.join(tmp, "site")
    write_site(site)
    db = os.path.join(tmp, "g.db")
    for args in (("import", site, "-o", db, "-q"), ("rank", db, "-q")):
        r = wrcli.run_webrank(args)
        assert r.rc == 0, r.describe()
    return db, "file://" + urllib.parse.quote(os.path.realpath(site))


class Server:
    """`webrank serve DB --port 0 ...` on 127.0.0.1, stopped by its PID."""

    def __init__(self, db, *extra, cwd=None, **popen):
        """popen: more subprocess.Popen arguments (stdout, preexec_fn)."""
        popen.setdefault("stdout", subprocess.PIPE)
        self.proc = subprocess.Popen([wrcli.WEBRANK, "serve", db, "--port", "0", *extra],
                                     cwd=cwd, stderr=subprocess.PIPE, text=True, **popen)
        self._started()
        line = self._line(30)
        if "serving" not in line:
            self.stop()
            raise AssertionError("server did not start: %r %s" % (line, self._rest()))
        self.url = line.split(" on ", 1)[1].split("/ ", 1)[0]
        self.port = int(self.url.rsplit(":", 1)[1])

    def _started(self):
        """Called once the process runs, before its first line is read."""

    def _rest(self):
        """What the stopped server wrote to stderr after the lines read."""
        return self.proc.stderr.read()

    def _line(self, timeout):
        ready, _, _ = select.select([self.proc.stderr], [], [], timeout)
        return self.proc.stderr.readline() if ready else ""

    def get(self, path, headers=None):
        """(status, headers, body text) of GET path."""
        req = urllib.request.Request(self.url + path, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.headers, r.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read().decode("utf-8")

    def json(self, path):
        status, _, body = self.get(path)
        return status, json.loads(body)

    def raw(self, data):
        """The raw bytes of the answer to `data`, sent as is: its headers and Content-Length
        bytes of body, or what came before the server closed. The write side stays open:
        httplib does not answer a client that has half-closed its connection."""
        out = b""
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
            try:
                s.sendall(data)
                while True:
                    if b"\r\n\r\n" in out:
                        head, body = out.split(b"\r\n\r\n", 1)
                        m = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
                        if m and len(body) >= int(m.group(1)):
                            return out
                    chunk = s.recv(65536)
                    if not chunk:
                        return out
                    out += chunk
            except ConnectionResetError:  # refused before the whole request was sent
                return out

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, sig)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        return self.proc.returncode


class LoggedServer(Server):
    """A Server whose stderr is read line by line by a thread of its own, so that a log line
    that arrives with another is not hidden in a reader's buffer."""

    def __init__(self, db, *extra):
        super().__init__(db, *extra, stdout=subprocess.DEVNULL)

    def _started(self):
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _rest(self):
        self.reader.join(timeout=20)  # the server is stopped: its stderr ends
        rest = []
        while not self.lines.empty():
            rest.append(self.lines.get())
        return "".join(rest)

    def _read(self):
        for line in self.proc.stderr:
            self.lines.put(line)

    def _line(self, timeout):
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return ""


def proxied_part(body):
    """The stored page's part of a proxy view."""
    return body.split('<div class="wr-proxied">', 1)[1].split("</main>", 1)[0]


class Page(html.parser.HTMLParser):
    """Elements and attributes of a page, and the text before each <a href>."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.links, self.text = [], [], [], []
        self.last_svg_class = None
        self.bar_before_link = []
        self._since_bar = True
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend((tag, k, v or "") for k, v in attrs)
        a = dict(attrs)
        if tag == "svg":
            self._since_bar = "wr-bar" in (a.get("class") or "")
        if tag == "a" and "href" in a:
            self.links.append(a)
            self.bar_before_link.append(self._since_bar)
            self._since_bar = False

    def handle_data(self, data):
        self.text.append(data)


class ServeTest(wrcli.WebrankTestCase):
    @classmethod
    def setUpClass(cls):
        import tempfile
        cls.tmp = tempfile.mkdtemp(prefix="webrank-serve-")
        cls.site = os.path.join(cls.tmp, "site")
        write_site(cls.site)
        cls.db = os.path.join(cls.tmp, "g.db")
        for args in (("import", cls.site, "-o", cls.db, "-q"), ("rank", cls.db)):
            r = wrcli.run_webrank(args)
            assert r.rc == 0, r.describe()
        cls.server = Server(cls.db)
        cls.root = "file://" + urllib.parse.quote(os.path.realpath(cls.site))

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def url_of(self, name):
        return self.root + "/" + name

    def q(self, path, **params):
        return path + "?" + urllib.parse.urlencode(params)

    def assert_inert(self, body, where):
        """Nothing of the hostile page can run or load anything."""
        page = Page(body)
        # The only scripts: the page view's chart code, from this server, with no inline code.
        ours = ('<script defer src="/assets/uPlot.iife.min.js"></script>'
                '<script defer src="/assets/charts.js"></script>'
                '<script defer src="/assets/serve.js"></script>')
        self.assertEqual(page.tags.count("script"), 3 if ours in body else 0, where)
        for bad in ("iframe", "object", "embed", "base", "meta", "video", "math",
                    "frame", "style", "img", "my-widget", "noscript"):
            if bad == "meta":  # our own charset, viewport and referrer lines
                metas = [a for a in page.attrs if a[0] == "meta" and a[1] == "http-equiv"]
                self.assertEqual(metas, [], where)
                continue
            self.assertNotIn(bad, page.tags, "%s: <%s> survived" % (where, bad))
        for tag, name, value in page.attrs:
            self.assertFalse(name.startswith("on"), "%s: %s %s=%r" % (where, tag, name, value))
            if (tag, name) == ("script", "src"):
                self.assertIn(value, ("/assets/uPlot.iife.min.js", "/assets/charts.js",
                                      "/assets/serve.js"), where)
                continue
            self.assertNotIn(name, ("src", "srcdoc", "style", "formaction", "data",
                                    "xlink:href"), "%s: %s %s=%r" % (where, tag, name, value))
            if name == "action":  # our own forms only
                self.assertIn((tag, value), (("form", "/search"), ("form", "/compare")), where)
            if name == "href":
                v = value.strip().lower()
                self.assertFalse(v.startswith(("javascript:", "data:", "vbscript:")),
                                 "%s: href %r" % (where, value))
                self.assertTrue(v.startswith(("/", "#", "http://", "https://")),
                                "%s: href %r" % (where, value))
            if tag == "link" and name == "href":
                self.assertIn(value, ("/assets/serve.css", "/assets/uPlot.min.css",
                                      "/assets/charts.css"), where)
        return page

    def test_health_and_api_index(self):
        status, h = self.server.json("/healthz")
        self.assertEqual(status, 200)
        # 4 files and the 3 pages outside the site the hostile one links to
        self.assertEqual((h["status"], h["pages"], h["ranks"]), ("ok", 7, "pagerank"))
        status, api = self.server.json("/api/v1")
        self.assertEqual(status, 200)
        self.assertEqual(api["version"], 1)

    def test_search_equals_cli(self):
        for mode in ("full", "text", "title"):
            want = json.loads(self.wr("search", self.db, "roses", "--mode", mode, "--format",
                                      "json").out)
            status, got = self.server.json(self.q("/api/v1/search", q="roses", mode=mode))
            self.assertEqual(status, 200)
            self.assertEqual([h["url"] for h in got["hits"]], [h["url"] for h in want["hits"]])
            self.assertEqual([h["score"] for h in got["hits"]],
                             [h["score"] for h in want["hits"]])
        status, _, body = self.server.get(self.q("/search", q="prune roses"))
        self.assertEqual(status, 200)
        self.assertIn("<mark>Prune</mark> <mark>roses</mark>", body)
        self.assertIn("Garden Roses", body)
        # Did you mean: in the JSON API as the CLI has it, and on the page as a link to it.
        want = json.loads(self.wr("search", self.db, "rosse", "--format", "json").out)
        status, got = self.server.json(self.q("/api/v1/search", q="rosse"))
        self.assertEqual((status, got["hits"], got["suggestion"]), (200, [], want["suggestion"]))
        self.assertEqual(got["suggestion"], "roses")
        status, _, body = self.server.get(self.q("/search", q="rosse"))
        self.assertIn('Did you mean <a href="/search?q=roses&amp;mode=full">roses</a>?', body)
        # Pagination: k=1 gives one hit and a link to the next one.
        status, _, body = self.server.get(self.q("/search", q="roses", k=1))
        self.assertIn('rel="next"', body)
        self.assertEqual(Page(body).tags.count("li"), 1)

    def test_hostile_page_is_inert_everywhere(self):
        hostile = self.url_of("hostile.html")
        views = [self.q("/search", q="hostile gardening"),
                 self.q("/search", q=PAYLOAD), self.q("/search", q="evil", mode="title"),
                 self.q("/page", url=hostile), self.q("/proxy", url=hostile),
                 self.q("/page", url=self.url_of("index.html"))]
        for path in views:
            status, headers, body = self.server.get(path)
            self.assertIn(status, (200,), path)
            csp = headers["Content-Security-Policy"]
            self.assertIn("default-src 'none'", csp)
            self.assertNotIn("unsafe", csp)
            self.assert_inert(body, path)
        status, headers, body = self.server.get(self.q("/proxy", url=hostile))
        self.assertIn("script-src 'none'", headers["Content-Security-Policy"])
        self.assertEqual(headers["X-Content-Type-Options"], "nosniff")
        # The title's payload is text, escaped once.
        self.assertIn("&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;", body)
        page = Page(body)
        self.assertIn("<script>alert('t')</script>", "".join(page.text))
        self.assertIn('"quoted" & \'single\'', "".join(page.text))
        self.assertIn("[a pixel]", "".join(page.text))

    def test_proxy_bars_and_links(self):
        status, _, body = self.server.get(self.q("/proxy", url=self.url_of("hostile.html")))
        self.assertEqual(status, 200)
        page = Page(proxied_part(body))
        hrefs = [a["href"] for a in page.links]
        # javascript: and data: links lost their href; the others stay in the proxy, even the
        # one outside the database, with a fragment kept.
        self.assertEqual(len(hrefs), 3, hrefs)
        self.assertTrue(all(h.startswith("/proxy?url=") for h in hrefs), hrefs)
        self.assertTrue(all(page.bar_before_link), "a link without a bar before it")
        targets = [urllib.parse.unquote(h.split("=", 1)[1]) for h in hrefs]
        # <base href> is honoured: relative links resolve against it, as the crawler did.
        self.assertEqual(targets, ["http://evil.example/index.html",
                                   "http://evil.example/roses.html#care",
                                   "http://elsewhere.example/page"])
        status, j = self.server.json(self.q("/api/v1/proxy", url=self.url_of("hostile.html")))
        self.assertEqual(status, 200)
        self.assertEqual([l["target"] is None for l in j["links"]],
                         [True, True, True, False, False, False])
        # The three pages the links lead to are in the database (linked, never fetched).
        self.assertEqual([l["page"] and l["page"]["label"] for l in j["links"]],
                         [None] * 3 + [l["target"].split("#")[0] for l in j["links"][3:]])
        # The index page's links are in the database: bars with their ranks, in the proxy.
        status, _, body = self.server.get(self.q("/proxy", url=self.url_of("index.html")))
        page = Page(proxied_part(body))
        self.assertEqual(len(page.links), 3)
        self.assertTrue(all(page.bar_before_link))
        self.assertIn("PageRank", body)
        status, j = self.server.json(self.q("/api/v1/proxy", url=self.url_of("index.html")))
        self.assertEqual([l["page"]["label"] for l in j["links"]],
                         [self.url_of(n) for n in PAGES["index.html"][2]])

    def test_page_view_and_backlinks(self):
        roses = self.url_of("roses.html")
        # /api/v1/page is the `page` operation; backlinks, links and history have their own.
        status, j = self.server.json(self.q("/api/v1/page", url=roses))
        self.assertEqual(status, 200)
        self.assertEqual(j, json.loads(self.wr("page", self.db, roses, "--json").out))
        self.assertEqual(j["label"], roses)
        self.assertEqual([r["name"] for r in j["ranks"]], ["pagerank"])
        want = json.loads(self.wr("backlinks", self.db, roses, "--format", "json").out)
        status, got = self.server.json(self.q("/api/v1/backlinks", url=roses))
        self.assertEqual(got, want)
        ranks = [p["rank"] for p in got["pages"]]
        self.assertEqual(ranks, sorted(ranks, reverse=True))
        self.assertEqual(got["total"], 2)
        self.assertGreater(len(self.server.json("/api/v1/history")[1]["l1"]), 3)
        status, got = self.server.json(self.q("/api/v1/links", url=self.url_of("tulips.html")))
        self.assertEqual(got, json.loads(self.wr("links", self.db, self.url_of("tulips.html"),
                                                 "--format", "json").out))
        status, h = self.server.json("/api/v1/history")
        self.assertEqual((status, h["ranks"], h["converged"]), (200, "pagerank", True))
        status, _, body = self.server.get(self.q("/page", url=roses))
        self.assertIn("Backlinks by PageRank", body)
        self.assertIn('class="wr-history"', body)
        status, _, body = self.server.get(self.q("/page", id=0))
        self.assertEqual(status, 200)

    def test_report_route_is_the_reports_data(self):
        """/api/v1/report: the data `webrank report` draws, the same JSON; ?url= places a page."""
        status, got = self.server.json("/api/v1/report")
        self.assertEqual(status, 200)
        self.assertEqual(sorted(got), ["components", "convergence", "degrees", "distribution",
                                       "generated", "page", "summary", "title", "top"])
        self.assertIsNone(got["page"])
        self.assertEqual(got["title"], "g.db")
        self.assertEqual([c["name"] for c in got["convergence"]], ["pagerank"])
        self.assertTrue(got["convergence"][0]["converged"])
        self.assertEqual(got["convergence"][0]["deltas"], self.server.json("/api/v1/history")[1]["l1"])
        d = got["distribution"]
        self.assertEqual(d["vector"], "pagerank")
        self.assertEqual(len(d["ccdf"]["x"]), len(d["ccdf"]["y"]))
        self.assertEqual(d["ccdf"]["y"][0], 1.0)
        self.assertEqual(sorted(d["fit"]), ["alpha", "ks", "ok", "tail", "tail_fraction", "x_min"])
        for side in ("in", "out"):
            self.assertEqual(len(got["degrees"][side]["x"]), len(got["degrees"][side]["y"]))
        self.assertEqual(sum(got["components"][k] for k in ("core", "in", "out", "other")),
                         got["summary"]["pages"])
        self.assertEqual(got["top"][0]["vector"], "pagerank")
        top = json.loads(self.wr("top", self.db, "-k", "20", "--json").out)
        self.assertEqual(got["top"][0]["pages"], top)
        # The same data as the page `webrank report` writes (all but the time it was made).
        out = os.path.join(self.tmp, "report.html")
        self.wr("report", self.db, "-o", out, "-q")
        with open(out, encoding="utf-8") as f:
            m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>',
                          f.read(), re.S)
        want = json.loads(m.group(1))
        for j in (got, want):
            j.pop("generated")
        got.pop("page")
        self.assertEqual(got, want)

        # A page's place: its PageRank, the fraction of pages ranked at least as high, degrees.
        roses = self.url_of("roses.html")
        status, j = self.server.json(self.q("/api/v1/report", url=roses))
        self.assertEqual(status, 200)
        place = j["page"]
        status, pj = self.server.json(self.q("/api/v1/page", url=roses))
        ranks = [p["rank"] for p in json.loads(self.wr("top", self.db, "-k", "100", "--json").out)]
        self.assertEqual((place["label"], place["vector"], place["value"]),
                         (roses, "pagerank", pj["ranks"][0]["rank"]))
        self.assertEqual(place["fraction"],
                         sum(r >= place["value"] for r in ranks) / sum(r > 0 for r in ranks))
        self.assertEqual((place["in_degree"], place["out_degree"]),
                         (pj["in_links"], pj["out_links"]))
        self.assertEqual(self.server.json(self.q("/api/v1/report", id=place["id"]))[1]["page"],
                         place)
        self.assertEqual(self.server.json(self.q("/api/v1/report", url="http://nowhere.example/"))[0], 404)
        status, j = self.server.json(self.q("/api/v1/report", id=99))
        self.assertEqual((status, j["error"]["field"]), (400, "id"))

    def test_chart_pages_keep_the_policy(self):
        """The overview and the page view load their chart code from /assets, nothing inline,
        under the Content-Security-Policy every page of the server has always had."""
        policy = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                  "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
        status, _, home = self.server.get("/")
        self.assertIn('href="/report"', home)
        for path in ("/", "/report", self.q("/page", url=self.url_of("roses.html"))):
            status, headers, body = self.server.get(path)
            self.assertEqual(status, 200, path)
            self.assertEqual(headers["Content-Security-Policy"], policy, path)
            page = self.assert_inert(body, path)
            if path != "/":
                self.assertEqual(page.tags.count("script"), 3, path)
                self.assertIn('data-report="/api/v1/report', body)
        for name, kind in (("charts.js", "text/javascript"), ("charts.css", "text/css"),
                           ("serve.js", "text/javascript"), ("uPlot.iife.min.js", "text/javascript")):
            status, headers, body = self.server.get("/assets/" + name)
            self.assertEqual(status, 200, name)
            self.assertTrue(headers["Content-Type"].startswith(kind), headers["Content-Type"])
        _, _, charts = self.server.get("/assets/charts.js")
        self.assertIn("renderReport", charts)
        self.assertIn("renderPage", charts)

    def test_personalized_views_equal_cli_compare(self):
        a, b = self.url_of("tulips.html"), self.url_of("hostile.html")
        status, got = self.server.json(self.q("/api/v1/compare", a=a, b=b, k=3))
        self.assertEqual(status, 200, got)
        self.assertEqual(got["views"], [a, b])
        # The same views stored by `rank --personalize` and compared by `webrank compare`.
        db = os.path.join(self.dir, "c.db")
        shutil.copytree(self.db, db)
        self.wr("rank", db, "--personalize", a, "--name", "va", "-q")
        self.wr("rank", db, "--personalize", b, "--name", "vb", "-q")
        want = json.loads(self.wr("compare", db, "--views", "va,vb", "-k", "3", "--json").out)
        self.assertEqual([r["label"] for r in got["rows"]], [r["label"] for r in want["rows"]])
        for g, w in zip(got["rows"], want["rows"]):
            self.assertEqual(g["percentiles"], w["percentiles"])
            for x, y in zip(g["ranks"], w["ranks"]):
                self.assertAlmostEqual(x, y, delta=1e-9)
        status, _, body = self.server.get(self.q("/compare", a=a, b=b))
        self.assertEqual(status, 200)
        self.assertEqual(Page(body).tags.count("tr"), 1 + len(
            self.server.json(self.q("/api/v1/compare", a=a, b=b))[1]["rows"]))
        self.assert_inert(body, "compare")
        status, _, body = self.server.get("/compare")  # the form, with two pages offered
        self.assertEqual(body.count('name="homes"'), 2)
        self.assertEqual(self.server.json("/api/v1/compare")[0], 400)  # no view asked for

    def test_bad_parameters(self):
        cases = [(self.q("/api/v1/search", q="x" * 3000), 400, "q"),
                 (self.q("/api/v1/search", q="roses", k=101), 400, "k"),
                 (self.q("/api/v1/search", q="roses", k="ten"), 400, "k"),
                 (self.q("/api/v1/search", q="roses", offset=10 ** 9), 400, "offset"),
                 (self.q("/api/v1/search", q="roses", mode="fast"), 400, "mode"),
                 (self.q("/api/v1/search", q='"unclosed'), 400, "q"),
                 (self.q("/api/v1/page", url="http://nowhere.example/"), 404, None),
                 (self.q("/api/v1/page", id=99), 400, "id"),
                 ("/api/v1/page", 400, "url"),
                 (self.q("/api/v1/history", ranks="../../etc/passwd"), 400, None),
                 (self.q("/api/v1/proxy", url="file:///etc/passwd"), 404, None)]
        for path, status, field in cases:
            got, j = self.server.json(path)
            self.assertEqual(got, status, (path, j))
            self.assertIn("message", j["error"], path)
            if field:
                self.assertEqual(j["error"].get("field"), field, (path, j))
        status, _, body = self.server.get(self.q("/search", q='"unclosed'))
        self.assertIn("unclosed", body)
        # The search page shows what it refuses in place of the results, with status 200, so
        # that the box keeps what was typed: a bad mode, k or offset as a malformed query.
        for params, words in (({"mode": "x"}, "mode"), ({"k": "ten"}, "k must be"),
                              ({"offset": "-1"}, "offset must be")):
            status, _, body = self.server.get(self.q("/search", q="roses", **params))
            self.assertEqual(status, 200, params)
            self.assertIn('class="wr-error"', body, params)
            self.assertIn(words, body, params)
            self.assertIn('value="roses"', body, params)
        status, _, body = self.server.get(self.q("/page", url="<script>x</script>"))
        self.assertEqual(status, 404)
        self.assertIn("&lt;script&gt;", body)
        self.assert_inert(body, "404 page")

    def test_traversal_and_oversized_requests(self):
        for path in (b"/../../../../etc/passwd", b"/assets/../../../etc/passwd",
                     b"/assets/%2e%2e%2f%2e%2e%2fetc%2fpasswd", b"/assets/..%2fserve.css",
                     b"/%2e%2e/%2e%2e/etc/passwd", b"/assets//etc/passwd",
                     b"/" + os.path.realpath(self.site).encode() + b"/index.html"):
            answer = self.server.raw(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n"
                                     b"Connection: close\r\n\r\n")
            self.assertRegex(answer, rb"^HTTP/1.1 (400|404)", path)
            self.assertNotIn(b"root:", answer)
            self.assertNotIn(b"Garden Handbook", answer)
        status, headers, css = self.server.get("/assets/serve.css")
        self.assertEqual((status, headers["Content-Type"]), (200, "text/css; charset=utf-8"))
        long_url = b"/search?q=" + b"a" * 10000
        answer = self.server.raw(b"GET " + long_url + b" HTTP/1.1\r\nHost: x\r\n"
                                 b"Connection: close\r\n\r\n")
        self.assertRegex(answer, rb"^HTTP/1.1 414")
        answer = self.server.raw(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: " +
                                 b"b" * 10000 + b"\r\n\r\n")
        self.assertRegex(answer, rb"^HTTP/1.1 (400|431)")
        body = b"x" * 100000
        answer = self.server.raw(b"POST /search HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                                 str(len(body)).encode() + b"\r\n\r\n" + body)
        self.assertRegex(answer, rb"^HTTP/1.1 413")
        answer = self.server.raw(b"DELETE /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                                 b"Connection: close\r\n\r\n")
        self.assertRegex(answer, rb"^HTTP/1.1 405")
        answer = self.server.raw(b"garbage\r\n\r\n")
        self.assertRegex(answer, rb"^HTTP/1.1 400")
        # Still serving.
        self.assertEqual(self.server.json("/healthz")[0], 200)

    def test_load_with_wrk(self):
        wrk = shutil.which("wrk")
        if not wrk:
            self.skipTest("wrk not installed (bash scripts/install-deps.sh installs it)")
        paths = os.path.join(self.dir, "paths.txt")
        with open(paths, "w") as f:
            for q in ("roses", "tulip bulbs", '"garden roses"', "roses -tulips", "handbook"):
                f.write(self.q("/api/v1/search", q=q) + "\n")
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench",
                              "serve", "paths.lua")
        out = subprocess.run([wrk, "-t1", "-c4", "-d2s", "--timeout", "5s", "-s", script,
                              self.server.url, "--", paths], capture_output=True, text=True,
                             timeout=60).stdout
        self.assertNotIn("Non-2xx", out, out)
        self.assertNotIn("Socket errors", out, out)
        requests = int(out.split(" requests in ")[0].split()[-1])
        self.assertGreater(requests, 20, out)


class LifecycleTest(wrcli.WebrankTestCase):
    def setUp(self):
        super().setUp()
        write_site(self.path("site"))
        self.wr("import", self.path("site"), "-o", "g.db", "-q")
        self.db = self.path("g.db")

    def test_rank_while_serving_and_sigterm(self):
        server = Server(self.db)
        try:
            # No vector yet: served without ranks.
            self.assertEqual(server.json("/healthz")[1]["ranks"], None)
            self.assertEqual(server.json("/api/v1/search?q=roses")[0], 200)
            status, report = server.json("/api/v1/report?id=1")
            self.assertEqual(status, 200)
            self.assertEqual((report["convergence"], report["distribution"], report["top"]),
                             ([], None, []))
            self.assertEqual((report["page"]["vector"], report["page"]["fraction"]), ("", None))
            failures, done = [], threading.Event()

            def hammer():
                while not done.is_set():
                    for path in ("/api/v1/search?q=roses", "/healthz", "/api/v1/report?id=1",
                                 "/api/v1/page?id=1", "/search?q=tulips", "/report"):
                        status, _, _ = server.get(path)
                        if status != 200:
                            failures.append((path, status))

            t = threading.Thread(target=hammer)
            t.start()
            try:
                for damping in ("0.85", "0.5"):
                    self.wr("rank", "g.db", "--damping", damping, "-q")
                    want = json.loads(self.wr("search", "g.db", "roses", "--format", "json").out)
                    # The server picks the new vector up within a second or so.
                    deadline = time.monotonic() + 20
                    while True:
                        got = server.json("/api/v1/search?q=roses")[1]
                        if [h["rank"] for h in got["hits"]] == [h["rank"] for h in want["hits"]]:
                            break
                        self.assertLess(time.monotonic(), deadline, "new vector not served")
                        select.select([], [], [], 0.05)
            finally:
                done.set()
                t.join()
            self.assertEqual(failures, [])
            self.assertEqual(server.json("/healthz")[1]["ranks"], "pagerank")
            # The charts show the vector stored last (damping 0.5), not one kept from before.
            report = server.json("/api/v1/report?id=1")[1]
            self.assertEqual([c["deltas"] for c in report["convergence"]],
                             [server.json("/api/v1/history")[1]["l1"]])
            self.assertEqual(report["page"]["vector"], "pagerank")
            self.wr("rank", "g.db", "--name", "second", "-q")
            self.assertEqual([t["vector"] for t in server.json("/api/v1/report")[1]["top"]],
                             ["pagerank", "second"])
        finally:
            rc = server.stop(signal.SIGTERM)
        self.assertEqual(rc, 0)
        rest = server.proc.stderr.read()
        self.assertIn("stopped", rest)
        with self.assertRaises(OSError):
            socket.create_connection(("127.0.0.1", server.port), timeout=2).close()

    def wait_for_log(self, server, text, timeout=20):
        """The server's stderr lines until one holds `text` (failing after `timeout` s)."""
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline:
            line = server._line(max(0.0, deadline - time.monotonic()))
            seen.append(line)
            if text in line:
                return line
        self.fail("the server never said %r; it said %r" % (text, seen))

    def test_a_new_version_is_reopened_and_logged(self):
        """`update` publishes a new version (with its index); the server notices it,
        logs it and serves it; a version without an index is served with search off."""
        server = LoggedServer(self.db)
        try:
            pages = server.json("/healthz")[1]["pages"]
            self.assertTrue(server.json("/healthz")[1]["search"])
            labels = self.wr("export", "g.db", "--pages").out.splitlines()[1:]
            self.write("add.tsv", "%s\thttp://example.org/more\n" % labels[0].split("\t")[0])
            self.wr("update", "g.db", "--add", "add.tsv", "-q")
            line = self.wait_for_log(server, "reopened")
            self.assertIn("%d pages" % (pages + 1), line)
            self.assertIn("search on", line)
            self.assertEqual(server.json("/healthz")[1]["pages"], pages + 1)
            self.assertEqual(server.json("/api/v1/search?q=roses")[0], 200)

            self.write("add.tsv", "%s\thttp://example.org/again\n" % labels[0].split("\t")[0])
            self.wr("update", "g.db", "--add", "add.tsv", "--no-index", "-q")
            line = self.wait_for_log(server, "reopened")
            self.assertIn("search off", line)
            health = server.json("/healthz")[1]
            self.assertEqual((health["pages"], health["search"]), (pages + 2, False))
            status, body = server.json("/api/v1/search?q=roses")
            self.assertEqual(status, 404)
            self.assertIn("no search index", body["error"]["message"])
            status, _, page = server.get("/search?q=roses")
            self.assertIn("webrank index", page)
            self.assertIn("Search is off", server.get("/")[2])
            self.assertEqual(server.json("/api/v1/page?id=1")[0], 200)

            self.wr("index", "g.db", "-q")
            self.wait_for_log(server, "search on")
            self.assertEqual(server.json("/api/v1/search?q=roses")[0], 200)
        finally:
            self.assertEqual(server.stop(signal.SIGTERM), 0)

    def test_a_database_without_an_index_is_served(self):
        os.unlink(self.path("g.db/search.xapian"))
        server = LoggedServer(self.db)
        try:
            self.assertIn("search is off", self.wait_for_log(server, "no search index"))
            self.assertFalse(server.json("/healthz")[1]["search"])
            self.assertEqual(server.json("/api/v1/page?id=1")[0], 200)
            self.assertEqual(server.json("/api/v1/search?q=roses")[0], 404)
        finally:
            self.assertEqual(server.stop(signal.SIGTERM), 0)

    def test_errors_at_start(self):
        r = self.wr("serve", "g.db", "--bind", "256.1.1.1", "--port", "0", expect=1)
        self.assertIn("cannot listen on 256.1.1.1", r.err)
        r = self.wr("serve", "nothing.db", expect=1)
        self.assertIn("nothing.db", r.err)
        self.wr("serve", "g.db", "--port", "70000", expect=2)
        r = self.wr("serve", "g.db", "--ranks", "missing", "--port", "0", expect=1)
        self.assertIn("missing", r.err)
        server = Server(self.db)
        try:
            other = self.wr("serve", "g.db", "--port", str(server.port), expect=1)
            self.assertIn("cannot listen", other.err)
        finally:
            self.assertEqual(server.stop(signal.SIGINT), 0)


if __name__ == "__main__":
    wrcli.main()
