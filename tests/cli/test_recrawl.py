"""`webrank crawl --recrawl DB` against the test site (tests/cli/testsite.py) serving ETags and
Last-Modified and honouring conditional requests.

A documentation-like site is crawled; a recrawl of the unchanged site gets a 304 for every page
with a validator (and the same body for the pages without), changes nothing and keeps the stored
vector exact; then pages change (links, text only, a link removed), one goes (404) and new pages
appear, and a recrawl counts each, ends with the same pages, statuses and links as a fresh crawl
of the changed site, keeps the vector as a warm start that reaches the fresh crawl's PageRank,
and rebuilds the search index. A recrawl killed with SIGKILL leaves the database as it was.
"""

import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_crawl  # noqa: E402
import testsite  # noqa: E402
import wrcli  # noqa: E402
from test_crawl import links_of  # noqa: E402

FAST = ("--delay", "0", "--timeout", "5", "--retries", "1", "--backoff", "0.05")
PAST = 1_600_000_000  # the site's files were last modified then


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def pages_of(test, db):
    """URL -> HTTP status."""
    return {url: row[1] for url, row in test_crawl.pages_of(test, db).items()}


class Recrawl(wrcli.WebrankTestCase):
    def make_site(self):
        root = self.path("site")
        self.paths = testsite.write_doc_site(root, pages=24, seed=5)
        # sec1: ETag only, sec2: Last-Modified only, sec3: neither, the rest both
        self.write("site/.validators", "/sec1/ etag\n/sec2/ last-modified\n/sec3/ none\n")
        for p in self.paths:
            os.utime(os.path.join(root, p), (PAST, PAST))
        return root

    def recrawl(self, db, *extra):
        res = self.wr("crawl", "--recrawl", db, "--json", *FAST, *extra)
        return json.loads(res.out)

    def edit(self, root, path, html):
        full = os.path.join(root, path)
        with open(full, "w") as f:
            f.write(html)
        os.utime(full, (PAST + 1000, PAST + 1000))

    def test_unchanged_changed_gone_new_and_fresh_crawl_equality(self):
        root = self.make_site()
        by_sec = lambda k: [p for p in self.paths if p.startswith("sec%d/" % k)]
        validated = [p for p in self.paths if not p.startswith("sec3/")]
        size = lambda p: os.path.getsize(os.path.join(root, p))
        with testsite.SiteServer(root, self.dir, max_requests=400, max_seconds=120) as srv:
            u = srv.url
            self.wr("crawl", u + "/index.html", "-o", "a.db", "-q", *FAST)
            self.wr("rank", "a.db", "-q")
            before = links_of(self, "a.db")

            # Nothing changed: a 304 for each page with a validator, the same body for the rest.
            r = self.recrawl("a.db")
            self.assertEqual(r["known"], len(self.paths))
            self.assertEqual(r["conditional"], len(validated))
            self.assertEqual(r["not_modified"], len(validated))
            self.assertEqual(r["unchanged"], len(self.paths))
            self.assertEqual((r["changed"], r["gone"], r["new"], r["failed"]), (0, 0, 0, 0))
            self.assertEqual(r["bytes_saved"], sum(size(p) for p in validated))
            self.assertEqual(r["update"]["links_added"] + r["update"]["links_removed"], 0)
            statuses = [line.split() for line in read(srv.log_file + ".status").splitlines()]
            self.assertEqual(sum(1 for _, s in statuses if s == "304"), len(validated))
            self.assertEqual(links_of(self, "a.db"), before)
            meta = json.loads(read(self.path("a.db/ranks/pagerank.json")))
            self.assertNotIn("stale", meta)  # no link changed: the vector is still exact

            # The site changes.
            changed_links, text_only, lost_link = by_sec(1)[0], by_sec(2)[0], by_sec(0)[0]
            gone = by_sec(1)[1]
            depth = lambda p: "../" * p.count("/")
            self.edit(root, changed_links,
                      "<title>rewritten</title><a href='%snew/one.html'>new</a>"
                      "<a href='%sindex.html'>home</a>" % (depth(changed_links),
                                                          depth(changed_links)))
            html = read(os.path.join(root, text_only))
            self.edit(root, text_only, html.replace("Some <b>text</b>", "Other words"))
            html = read(os.path.join(root, lost_link))
            first = html.index("<a href=")
            self.edit(root, lost_link, html[:first] + html[html.index("</a>", first) + 4:])
            os.remove(os.path.join(root, gone))
            os.makedirs(os.path.join(root, "new"))
            self.edit(root, "new/one.html", "<title>zebrafish</title><a href='two.html'>2</a>")
            self.edit(root, "new/two.html", "<title>two</title><a href='../index.html'>home</a>")

            r = self.recrawl("a.db")
            self.assertEqual((r["changed"], r["gone"], r["new"], r["failed"]), (3, 1, 2, 0))
            self.assertEqual(r["unchanged"], len(self.paths) - 4)
            still = [p for p in validated if p not in (changed_links, text_only, lost_link, gone)]
            self.assertEqual(r["not_modified"], len(still))
            self.assertEqual(r["bytes_saved"], sum(size(p) for p in still))
            self.assertEqual(r["update"]["pages_added"], 2)
            self.assertGreater(r["update"]["links_removed"], 0)
            self.assertTrue(os.path.basename(r["journal"]).startswith("recrawl-00002"))

            self.wr("crawl", u + "/index.html", "-o", "fresh.db", "-q", *FAST)
        # The same web as a fresh crawl of the changed site: pages, statuses and links.
        self.assertEqual(pages_of(self, "a.db"), pages_of(self, "fresh.db"))
        self.assertEqual(pages_of(self, "a.db")[u + "/" + gone], "404")
        self.assertEqual(links_of(self, "a.db"), links_of(self, "fresh.db"))
        self.assertNotEqual(links_of(self, "a.db"), before)
        self.wr("check", "a.db")
        # --resume would rebuild it from the first crawl's journal: refused
        res = self.wr("crawl", "-o", "a.db", "--resume", "-q", expect=2)
        self.assertIn("--recrawl", res.err)

        # The stored vector is a warm start onto the new pages, and reaches the fresh PageRank.
        meta = json.loads(read(self.path("a.db/ranks/pagerank.json")))
        self.assertIn("stale", meta)
        _, warm = self.rank("a.db", "--warm-start", "pagerank", "--name", "warm", "--tol",
                            "1e-13", "-q", out="warm.tsv")
        _, cold = self.rank("fresh.db", "--tol", "1e-13", "-q", out="cold.tsv")
        self.assertLess(wrcli.l1(warm, cold), 1e-9)

        # The search index is rebuilt: the new page's title is found.
        res = self.wr("search", "a.db", "zebrafish")
        self.assertIn("/new/one.html", res.out)

    def test_sigkill_during_recrawl_leaves_the_database(self):
        root = self.make_site()
        with testsite.SiteServer(root, self.dir, max_requests=400, max_seconds=120) as srv:
            self.wr("crawl", srv.url + "/index.html", "-o", "k.db", "-q", *FAST)
            self.wr("rank", "k.db", "-q")
            for p in self.paths[1:]:
                self.edit(root, p, "<title>moved</title><a href='/index.html'>home</a>")
            before = {f: read(self.path("k.db/" + f), "rb")
                      for f in ("manifest.json", "fwd.targets", "ranks/pagerank.ranks")}
            start = len(srv.requests())
            p = subprocess.Popen([wrcli.WEBRANK, "crawl", "--recrawl", "k.db", "-q", "--delay",
                                  "0.1", "--per-host", "1"], cwd=self.dir,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            deadline = time.time() + 30
            while time.time() < deadline and len(srv.requests()) < start + 6:
                time.sleep(0.02)
            os.kill(p.pid, signal.SIGKILL)
            p.communicate(timeout=30)
            self.assertEqual(p.returncode, -signal.SIGKILL)  # killed while fetching
            self.assertLess(len(srv.requests()), start + len(self.paths))
        for f, data in before.items():
            self.assertEqual(read(self.path("k.db/" + f), "rb"), data, f)
        self.wr("check", "k.db")


class Errors(wrcli.WebrankTestCase):
    def test_a_site_that_is_gone_leaves_the_database(self):
        root = self.path("site")
        testsite.write_doc_site(root, pages=5)
        with testsite.SiteServer(root, self.dir, max_requests=50, max_seconds=60) as srv:
            self.wr("crawl", srv.url + "/index.html", "-o", "g.db", "-q", *FAST)
        manifest = read(self.path("g.db/manifest.json"))
        res = self.wr("crawl", "--recrawl", "g.db", "--retries", "0", expect=1)
        self.assertIn("no page of g.db answered the recrawl (5 failed)", res.err)
        self.assertEqual(read(self.path("g.db/manifest.json")), manifest)

    def test_usage_and_databases_without_pages(self):
        self.write("e.tsv", "a\tb\n")
        self.wr("build", "e.tsv", "-o", "e.db", "-q")
        res = self.wr("crawl", "--recrawl", "e.db", "-q", expect=2)
        self.assertIn("has no page data", res.err)
        res = self.wr("crawl", "--recrawl", "e.db", "http://127.0.0.1:1/", expect=2)
        self.assertIn("SEED", res.err)
        res = self.wr("crawl", "--recrawl", "nowhere.db", "-q", expect=1)
        self.assertIn("nowhere.db", res.err)


if __name__ == "__main__":
    wrcli.main()
