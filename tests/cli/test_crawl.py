"""`webrank crawl` against a generated test site served on 127.0.0.1 (tests/cli/testsite.py).

The site has robots.txt, redirects and a redirect loop, 404 and 500 answers, a slow and a
dropped response, broken and 50,000-deep HTML, infinite URL spaces (repeating segments, a
calendar, session ids) and a 20 MB page; each test starts its own server on a free port, bounds
its requests and lifetime, and stops it by PID. Checked: what was fetched (the server's request
log), what the database says about every page (`export --pages`), the links (`export`), that
an interrupted crawl (SIGINT, or SIGKILL) resumes with --resume without fetching anything
twice and ends with the same web as an uninterrupted one, and that crawling a documentation
set over HTTP, over file:// and importing its journal (WARC) or its files give the same graph.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testsite  # noqa: E402
import wrcli  # noqa: E402

# Timeouts long enough for a test site answering late on a loaded machine (it is a Python process
# that may wait for a core), short enough that /slow, which never answers in time, costs little.
FAST = ("--delay", "0", "--timeout", "5", "--connect-timeout", "5", "--retries", "1",
        "--backoff", "0.05", "-q")


pages_of, links_of = wrcli.pages_of, wrcli.links_of


class TrapSite(wrcli.WebrankTestCase):
    def make_site(self):
        root = self.path("site")
        os.makedirs(os.path.join(root, "private"))
        self.write("site/robots.txt", "User-agent: *\nDisallow: /private/\n")
        self.write("site/private/secret.html", "<title>secret</title>")
        links = ["/redirect/3", "/loop/a", "/status/404", "/status/500", "/slow", "/drop",
                 "/huge", "/trap/", "/calendar?d=0", "/session?sid=1", "/nest", "/broken",
                 "/private/secret.html", "http://example.invalid/elsewhere", "mailto:x@y.z",
                 "page.html#section"]
        body = "".join('<a href="%s">link %d</a>\n' % (l, i) for i, l in enumerate(links))
        body += '<a href="/nofollowed.html" rel="nofollow">nf</a>'
        self.write("site/index.html", "<html><title>Trap site</title><body>%s</body></html>"
                   % body)
        self.write("site/page.html", "<title>page</title><a href='index.html'>home</a>")
        self.write("site/nofollowed.html", "<title>nf</title>")
        return root

    def test_traps_failures_and_limits(self):
        root = self.make_site()
        with testsite.SiteServer(root, self.dir, max_requests=600, max_seconds=100) as srv:
            t0 = time.time()
            self.wr("crawl", srv.url + "/index.html", "-o", "t.db", "--max-bytes", "1000000",
                    "--max-query-variants", "20", "--max-pages", "400", *FAST)
            elapsed = time.time() - t0
            reqs = srv.requests()
            u = srv.url
        self.assertLess(elapsed, 60)
        paths = [r[0] for r in reqs]
        count = lambda p: sum(1 for x in paths if x == p)
        pages = pages_of(self, "t.db")
        status = lambda p: pages[u + p][1] if u + p in pages else None
        # robots.txt asked once; the disallowed page is a page, never fetched
        self.assertEqual(count("/robots.txt"), 1)
        self.assertEqual(count("/private/secret.html"), 0)
        self.assertEqual(status("/private/secret.html"), "0")
        # redirects: each hop journaled and followed
        self.assertEqual(status("/redirect/3"), "301")
        self.assertEqual(status("/redirect/0"), "302")
        self.assertIn((u + "/redirect/3", u + "/redirect/2"), links_of(self, "t.db"))
        self.assertEqual(count("/loop/a"), 1)
        self.assertEqual(count("/loop/b"), 1)
        # errors: 404 kept, 500 retried once, timeouts and dropped connections are unfetched
        self.assertEqual(status("/status/404"), "404")
        self.assertEqual(count("/status/500"), 2)
        self.assertEqual(status("/status/500"), "500")
        self.assertEqual(status("/slow"), "0")
        self.assertEqual(count("/slow"), 2)
        self.assertEqual(status("/drop"), "0")
        # the huge page is cut at --max-bytes: its first link is kept, its last is not
        self.assertEqual(pages[u + "/huge"][2], "huge")
        self.assertIn(u + "/huge-first.html", pages)
        self.assertNotIn(u + "/huge-last.html", pages)
        # infinite spaces are bounded
        self.assertLessEqual(sum(1 for p in paths if p.startswith("/trap/")), 4)
        self.assertLessEqual(sum(1 for p in paths if p.startswith("/calendar")), 21)
        self.assertEqual(sum(1 for p in paths if p.startswith("/session")), 1)
        # broken and deep HTML still give links
        self.assertEqual(status("/nest"), "200")
        self.assertIn(u + "/nest-first.html", pages)
        for p in ("/broken-a.html", "/broken-c.html"):
            self.assertIn(u + p, pages)
        # scope, fragments, nofollow
        self.assertEqual(pages["http://example.invalid/elsewhere"][1], "0")
        self.assertEqual(status("/page.html"), "200")
        self.assertFalse(any("#" in k for k in pages))
        self.assertEqual(status("/nofollowed.html"), "200")
        self.assertNotIn((u + "/index.html", u + "/nofollowed.html"), links_of(self, "t.db"))
        self.assertEqual(pages[u + "/nofollowed.html"][4], "0")
        self.assertLess(len(reqs), 600)

    def test_politeness_robots_delay_and_redirect_limit(self):
        root = self.path("site")
        testsite.write_doc_site(root, pages=6)
        with testsite.SiteServer(root, self.dir, max_requests=100, max_seconds=60) as srv:
            t0 = time.time()
            self.wr("crawl", srv.url + "/index.html", "-o", "d.db", "-q", "--delay", "0.3",
                    "--per-host", "1")
            by_delay = time.time() - t0
            self.write("site/robots.txt", "User-agent: *\nCrawl-delay: 0.3\n")
            t0 = time.time()
            self.wr("crawl", srv.url + "/index.html", "-o", "r.db", "-q", "--delay", "0",
                    "--per-host", "1")
            by_robots = time.time() - t0
            # Only redirects, no page: the crawl exits 1, saying why, and builds what it learned.
            res = self.wr("crawl", srv.url + "/redirect/3", "-o", "x.db", "-q", "--delay", "0",
                          "--max-redirects", "1", expect=1)
            self.assertIn("seed %s/redirect/1: not fetched: a redirect hop past --max-redirects "
                          "(1) from %s/redirect/2" % (srv.url, srv.url), res.err)
            u = srv.url
        # 6 pages, one connection: 5 waits of 0.3 s at least
        self.assertGreaterEqual(by_delay, 1.5)
        self.assertGreaterEqual(by_robots, 1.5)
        pages = pages_of(self, "x.db")
        self.assertEqual(pages[u + "/redirect/3"][1], "301")
        self.assertEqual(pages[u + "/redirect/2"][1], "301")
        self.assertEqual(pages[u + "/redirect/1"][1], "0")

    def test_max_url_length_applies_to_every_url_kept(self):
        """A URL longer than --max-url-length becomes no page label, whether a link
        (a 1 MiB one) or a redirect's target."""
        root = self.path("site")
        testsite.write_doc_site(root, pages=4)
        huge = "/" + "y" * (1 << 20)
        with open(os.path.join(root, "long.html"), "w") as f:
            f.write("<html><head><title>long</title></head><body><a href='%s'>huge</a> "
                    "<a href='/long-redirect/2000'>moved</a> <a href='/index.html'>home</a>"
                    "</body></html>" % huge)
        with testsite.SiteServer(root, self.dir, max_requests=100, max_seconds=60) as srv:
            self.wr("crawl", srv.url + "/long.html", "-o", "l.db", "-q", "--delay", "0",
                    "--max-url-length", "1024")
        pages = self.wr("export", "l.db", "--pages").out.splitlines()
        labels = [line.split("\t")[0] for line in pages]
        self.assertIn(srv.url + "/index.html", labels)  # the short link was kept and followed
        self.assertIn(srv.url + "/long-redirect/2000", labels)
        longest = max(len(line) for line in pages)
        self.assertLessEqual(longest, 4096, "a long URL was kept: %d bytes" % longest)
        self.assertTrue(all(len(label) <= 1024 for label in labels))
        self.assertLessEqual(max(len(x) for x in self.wr("export", "l.db").out.split()), 1024)

    def test_robots_txt_redirect_is_followed(self):
        root = self.path("site")
        testsite.write_doc_site(root, pages=6)
        self.write("site/robots.txt.redirect", "/policy/robots.txt")
        self.write("site/policy/robots.txt", "User-agent: *\nDisallow: /sec1/\n")
        with testsite.SiteServer(root, self.dir, max_requests=100, max_seconds=60) as srv:
            self.wr("crawl", srv.url + "/index.html", "-o", "rr.db", "-q", "--delay", "0")
            paths = [r[0] for r in srv.requests()]
        self.assertIn("/policy/robots.txt", paths)
        self.assertFalse([p for p in paths if p.startswith("/sec1/")], paths)
        self.assertTrue([p for p in paths if p.startswith("/sec2/")], paths)

    def test_page_and_depth_limits(self):
        root = self.path("site")
        testsite.write_doc_site(root, pages=40)
        with testsite.SiteServer(root, self.dir, max_requests=200, max_seconds=60) as srv:
            self.wr("crawl", srv.url + "/index.html", "-o", "p.db", "--max-pages", "10", *FAST)
            self.wr("crawl", srv.url + "/index.html", "-o", "d.db", "--max-depth", "0", *FAST)
        fetched = [p for p in pages_of(self, "p.db").values() if p[1] != "0"]
        self.assertEqual(len(fetched), 10)
        fetched = [p for p in pages_of(self, "d.db").values() if p[1] != "0"]
        self.assertEqual(len(fetched), 1)

    def test_existing_outputs_are_refused(self):
        self.write("e.tsv", "a\tb\n")
        self.build("e.tsv", db="e.db")
        res = self.wr("crawl", "file://" + self.dir + "/e.tsv", "-o", "e.db", expect=1)
        self.assertIn("already exists", res.err)
        res = self.wr("crawl", "file://" + self.dir + "/x.html", "-o", "n.db", "--resume",
                      expect=1)
        self.assertIn("no crawl journal to resume", res.err)
        # without seeds as well: the missing journal is what is wrong, not the seeds
        res = self.wr("crawl", "-o", "n.db", "--resume", expect=1)
        self.assertIn("n.db.crawl: no crawl journal to resume", res.err)
        self.wr("crawl", "ftp://x/", "-o", "n2.db", expect=2)
        res = self.wr("crawl", "file:///nonexistent-dir/x.html", "-o", "n3.db", "--scope",
                      "file:///elsewhere/", expect=2)
        self.assertIn("nothing was fetched", res.err)
        # a seed on a host that is down (nothing listens on port 1) is a page, not fetched; the
        # crawl fetched nothing, says why and exits 1, and still builds the database
        res = self.wr("crawl", "http://127.0.0.1:1/index.html", "-o", "down.db", "--retries",
                      "0", "-q", expect=1)
        self.assertIn("seed http://127.0.0.1:1/index.html: robots.txt unreachable", res.err)
        self.assertEqual(pages_of(self, "down.db")["http://127.0.0.1:1/index.html"][1], "0")


class Resume(wrcli.WebrankTestCase):
    def crawl_proc(self, url, db, *extra):
        return subprocess.Popen([wrcli.WEBRANK, "crawl", url, "-o", db, "-q", *extra],
                                cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def interrupted_then_resumed(self, sig):
        root = self.path("site")
        testsite.write_doc_site(root, pages=60)
        slow = ("--delay", "0.04", "--per-host", "1")
        with testsite.SiteServer(root, self.dir, max_requests=400, max_seconds=90) as srv:
            p = self.crawl_proc(srv.url + "/index.html", "r.db", *slow)
            deadline = time.time() + 20
            # wait until some pages are journaled, then interrupt
            while time.time() < deadline and len(srv.requests()) < 15:
                time.sleep(0.05)
            os.kill(p.pid, sig)
            out, err = p.communicate(timeout=30)
            first = len(srv.requests())
            if sig == signal.SIGINT:
                self.assertEqual(p.returncode, 0, err.decode())
                partial = pages_of(self, "r.db")
                self.assertLess(len([x for x in partial.values() if x[1] != "0"]), 60)
            else:
                self.assertFalse(os.path.exists(self.path("r.db")))
            self.assertLess(first, 61)
            self.wr("crawl", "-o", "r.db", "--resume", "-q", *slow)
            paths = [r[0] for r in srv.requests() if r[0] != "/robots.txt"]
            self.wr("crawl", srv.url + "/index.html", "-o", "full.db", "-q", "--delay", "0")
        # nothing fetched twice (a transfer in flight when interrupted may be)
        dup = len(paths) - len(set(paths))
        self.assertLessEqual(dup, 1, sorted(paths))
        self.assertEqual(links_of(self, "r.db"), links_of(self, "full.db"))
        fetched = [x for x in pages_of(self, "r.db").values() if x[1] == "200"]
        self.assertEqual(len(fetched), 60)

    def test_sigint_builds_then_resume_completes(self):
        self.interrupted_then_resumed(signal.SIGINT)

    def test_sigkill_then_resume_completes(self):
        self.interrupted_then_resumed(signal.SIGKILL)

    def test_trap_counters_survive_a_kill(self):
        """The rule: a crawl killed and resumed (with the same options) fetches
        exactly the URLs the uninterrupted crawl fetches; only a page fetched but not yet
        journaled at the kill is fetched again. The journaled URLs count toward the trap limits on --resume as they
        counted when first queued, and their links are offered again in journal order."""
        root = self.path("site")
        os.makedirs(root)
        links = "".join("<a href='p%d.html'>p</a>" % i for i in range(5))
        self.write("site/index.html", "<title>home</title><a href='/calendar?d=0'>cal</a>"
                   "<a href='/trap/'>trap</a>" + links)
        for i in range(5):
            self.write("site/p%d.html" % i, "<title>p</title><a href='index.html'>home</a>")
        # --per-host 1 and a delay: one page at a time, so the kill lands inside the calendar
        opts = ("--max-query-variants", "30", "--delay", "0.05", "--per-host", "1",
                "--retries", "0")
        with testsite.SiteServer(root, self.dir, max_requests=300, max_seconds=90) as srv:
            self.wr("crawl", srv.url + "/index.html", "-o", "full.db", "-q", *opts)
            full = [r[0] for r in srv.requests() if r[0] != "/robots.txt"]
            os.remove(srv.log_file)
            p = subprocess.Popen([wrcli.WEBRANK, "crawl", srv.url + "/index.html", "-o", "r.db",
                                  "--progress", "json", *opts], cwd=self.dir,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            # Killed once the journal holds 12 whole records (index, robots-allowed pages and
            # calendar days), well before the calendar's 30 variants are fetched.
            wrcli.kill_crawl_when(p, lambda progress: progress.get("pages", 0) >= 12 and len(
                journal_urls(self.path("r.db.crawl"))) >= 12)
            journaled = [u[len(srv.url):] for u in journal_urls(self.path("r.db.crawl"))]
            self.assertFalse(os.path.exists(self.path("r.db")))
            # The resumed crawl has its own User-Agent: a request of the killed crawl that the
            # server logs late (it was on its way at the kill) is still counted as the killed one's.
            res = self.wr("crawl", "-o", "r.db", "--resume", "--user-agent", "resumed", *opts)
            log = [r for r in srv.requests() if r[0] != "/robots.txt"]
        first = [path for path, agent in log if agent != "resumed"]
        after = [path for path, agent in log if agent == "resumed"]
        calendar = [u for u in full if u.startswith("/calendar")]
        self.assertEqual(len(calendar), 30, full)  # the trap limit held, uninterrupted
        self.assertEqual(len(full), len(set(full)))
        self.assertGreaterEqual(len(journaled), 12)
        self.assertLess(len(first), len(full) - 10, first)  # killed well before the end
        resumed = int(re.search(r"(\d+) resumed\)", res.err).group(1))
        self.assertEqual(resumed, len(journaled), res.err)
        # The same URLs; fetched twice only what was requested but not journaled at the kill.
        self.assertEqual(sorted(set(first + after)), sorted(full))
        self.assertEqual(len(after), len(set(after)), after)
        self.assertLessEqual(set(first) & set(after), set(first) - set(journaled), log)
        fetched = lambda db: sorted(u for u, r in pages_of(self, db).items() if r[1] != "0")
        self.assertEqual(fetched("r.db"), fetched("full.db"))
        self.assertEqual(links_of(self, "r.db"), links_of(self, "full.db"))


def journal_urls(journal):
    """The target URIs of the whole records of a crawl journal (one gzip member each), in
    journal order; a member cut short by a kill is not a record."""
    urls = []
    for name in sorted(os.listdir(journal)) if os.path.isdir(journal) else []:
        if not name.endswith(".warc.gz"):
            continue
        with open(os.path.join(journal, name), "rb") as f:
            data = f.read()
        while data:
            d = zlib.decompressobj(wbits=31)
            try:
                record = d.decompress(data)
            except zlib.error:
                break
            if not d.eof:
                break
            head = record.split(b"\r\n\r\n", 1)[0].decode("utf-8", "replace")
            urls += [line.split(":", 1)[1].strip() for line in head.split("\r\n")
                     if line.lower().startswith("warc-target-uri:")]
            data = d.unused_data
    return urls


class SameWebThreeWays(wrcli.WebrankTestCase):
    def test_http_file_and_warc_give_the_same_graph(self):
        root = self.path("docs")
        testsite.write_doc_site(root, pages=50, seed=11)
        with testsite.SiteServer(root, self.dir, max_requests=200, max_seconds=60) as srv:
            self.wr("crawl", srv.url + "/index.html", "-o", "http.db", "-q", "--delay", "0",
                    "--threads", "3")
            self.wr("crawl", srv.url + "/index.html", "-o", "one.db", "-q", "--delay", "0",
                    "--per-host", "1", "--threads", "1")
            url = srv.url
        real = os.path.realpath(root)
        self.wr("crawl", "file://" + real + "/index.html", "-o", "file.db", "-q")
        journal = self.path("http.db.crawl")
        warcs = sorted(os.path.join(journal, f) for f in os.listdir(journal)
                       if f.endswith(".warc.gz"))
        self.wr("import", *warcs, "-o", "warc.db")
        self.wr("import", root, "-o", "dir.db")
        to_http = lambda s: s.replace("file://" + real, url)
        http_links = links_of(self, "http.db")
        self.assertGreater(len(http_links), 150)
        self.assertEqual(links_of(self, "warc.db"), http_links)
        self.assertEqual(links_of(self, "one.db"), http_links)
        # The database built as the crawl goes is the import of its journal, page ids included:
        # pages were parsed side by side and committed in journal order.
        for db in ("http", "one"):
            journal = self.path(db + ".db.crawl")
            self.wr("import", *sorted(os.path.join(journal, f) for f in os.listdir(journal)
                                      if f.endswith(".warc.gz")), "-o", db + "-journal.db")
            self.assertEqual(self.wr("export", db + ".db", "--pages").out,
                             self.wr("export", db + "-journal.db", "--pages").out)
            self.assertEqual(self.wr("export", db + ".db").out,
                             self.wr("export", db + "-journal.db").out)
        for db in ("file.db", "dir.db"):
            self.assertEqual(sorted((to_http(a), to_http(b)) for a, b in links_of(self, db)),
                             http_links, db)
        hp = pages_of(self, "http.db")
        fp = {to_http(k): v for k, v in pages_of(self, "file.db").items()}
        self.assertEqual({k: v[1:] for k, v in hp.items()}, {k: v[1:] for k, v in fp.items()})
        _, r1 = self.rank("http.db", out="h.tsv")
        _, r2 = self.rank("file.db", out="f.tsv")
        self.assertRanksClose({to_http(k): v for k, v in r2.items()}, r1, 1e-12)
        # `info` summarizes the crawl consistently with the page table.
        crawl = json.loads(self.wr("info", "http.db", "--json").out)["crawl"]
        statuses = [int(v[1]) for v in hp.values()]
        self.assertEqual(crawl["fetched_pages"], sum(1 for x in statuses if x != 0))
        self.assertEqual(crawl["not_fetched_pages"], sum(1 for x in statuses if x == 0))
        self.assertEqual(sum(crawl["status"].values()), crawl["fetched_pages"])
        self.assertEqual(crawl["pages_with_title"], sum(1 for v in hp.values() if v[2]))
        # `top` shows crawled pages with their titles (the page table's third column).
        top = json.loads(self.wr("top", "http.db", "-k", "3", "--json").out)
        self.assertEqual(len(top), 3)
        for entry in top:
            self.assertEqual(entry.get("title"), hp[entry["label"]][2], entry)


PGDOC = os.path.join(wrcli._REPO, "out", "pgdoc")
PGDOC_HTML = "usr/share/doc/postgresql-doc-15/html"


@wrcli.unittest.skipUnless(os.path.isfile(os.path.join(PGDOC, PGDOC_HTML, "index.html")),
                           "out/pgdoc not found (scripts/demo.sh extracts postgresql-doc-15 "
                           "there): PostgreSQL documentation test skipped")
class PostgresDocs(wrcli.WebrankTestCase):
    """The real documentation set of the demo, four ways: crawled over HTTP, crawled over
    file://, the crawl's journal imported, and a WARC written by wget from the same server."""

    def test_four_ways_same_graph(self):
        real = os.path.realpath(PGDOC)
        with testsite.SiteServer(real, self.dir, max_requests=5000, max_seconds=100) as srv:
            base = "%s/%s/" % (srv.url, PGDOC_HTML)
            t0 = time.time()
            # (the search index of this web is tested by test_search.py)
            self.wr("crawl", base + "index.html", "-o", "http.db", "--scope", base, "-q",
                    "--delay", "0", "--per-host", "4", "--connections", "4", "--no-index")
            crawl_seconds = time.time() - t0
            if shutil.which("wget"):
                subprocess.run(["wget", "-q", "-r", "-l", "inf", "-np", "-e", "robots=off",
                                "--reject", "*.css,*.png,*.svg,*.gif,*.jpg",
                                "-P", self.path("mirror"), "--warc-file", self.path("wget"),
                                "--no-warc-keep-log", "--tries", "1", "--timeout", "10",
                                base + "index.html"], check=False, timeout=120)
            url = srv.url
        self.wr("crawl", "file://%s/%s/index.html" % (real, PGDOC_HTML), "-o", "file.db", "-q",
                "--no-index")
        journal = self.path("http.db.crawl")
        warcs = sorted(os.path.join(journal, f) for f in os.listdir(journal)
                       if f.endswith(".warc.gz"))
        self.wr("import", *warcs, "-o", "journal.db", "--no-index")
        http_links = links_of(self, "http.db")
        fetched = [p for p in pages_of(self, "http.db").values() if p[1] == "200"]
        self.assertGreater(len(fetched), 1000)
        self.assertGreater(len(http_links), 10000)
        self.assertEqual(links_of(self, "journal.db"), http_links)
        to_http = lambda s: s.replace("file://" + real, url)
        self.assertEqual(sorted((to_http(a), to_http(b)) for a, b in links_of(self, "file.db")),
                         http_links)
        if shutil.which("wget"):
            self.wr("import", self.path("wget.warc.gz"), "-o", "wget.db", "--no-index")
            self.assertEqual(links_of(self, "wget.db"), http_links)
        sys.stderr.write("\n[pgdoc: %d pages fetched, %d links, HTTP crawl %.1f s]\n"
                         % (len(fetched), len(http_links), crawl_seconds))


if __name__ == "__main__":
    wrcli.main()
