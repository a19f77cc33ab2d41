"""`webrank index`, `search`, `eval`, `backlinks` and `links` (docs/search.md).

A small documentation-like site is crawled from a server on 127.0.0.1 (tests/cli/testsite.py;
bounded in requests and lifetime, stopped by PID): the crawl builds the search index by itself.
Checked against what the test computes on its own from `export` and `rank --out`: title mode in
rank order, full mode's scores (BM25 relative to the query's best plus the rank's percentile,
docs/search.md), backlinks in rank order, forward links; the output formats; the query
language's errors; a new rank vector used without reindexing; an index killed (SIGKILL) or
interrupted (SIGINT) leaving the old one; `generate --text`. When out/pgdoc holds the PostgreSQL
documentation (scripts/demo.sh), the demo web is crawled over HTTP and the merged ranking must
beat title and text search on bench/search/pgdoc15.tsv (skipped with a message otherwise).
"""

import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testsite  # noqa: E402
import wrcli  # noqa: E402

QUIET_CRAWL = ("--delay", "0", "--timeout", "5", "-q")

PAGES = {
    "index.html": ("Garden Handbook", "Welcome to the handbook about roses, tulips, soil, pests.",
                   ["roses.html", "tulips.html", "soil.html", "pests.html", "tools.html"]),
    "roses.html": ("Garden Roses", "Roses need sun and well drained soil. Prune roses in early "
                   "spring, before the buds open.", ["index.html", "soil.html"]),
    "tulips.html": ("Tulip Bulbs", "Plant tulip bulbs in autumn. Tulips flower in spring.",
                    ["index.html"]),
    "soil.html": ("Garden Soil and Compost", "Compost improves soil for roses and tulips.",
                  ["index.html", "roses.html"]),
    "pests.html": ("Pests", "Aphids attack roses in spring. Spray them with soap.",
                   ["index.html", "roses.html", "tools.html"]),
    "tools.html": ("Garden Tools", "A spade, a fork and secateurs to prune roses.",
                   ["index.html"]),
}


def write_site(test):
    for name, (title, text, links) in PAGES.items():
        body = "".join('<a href="%s">%s</a> ' % (l, PAGES[l][0].lower()) for l in links)
        if name == "tools.html":
            body += '<a href="pests.html" rel="nofollow">pests</a>'
        test.write("site/" + name, "<html><head><title>%s</title></head><body><p>%s</p>%s"
                   "</body></html>" % (title, text, body))
    return test.path("site")


def tsv(out):
    rows = [line.split("\t") for line in out.splitlines() if line]
    for r in rows:
        assert len(r) == 5, "not 5 columns: %r" % (r,)
    return rows


def percentiles(ranks):
    values = sorted(ranks.values())
    import bisect
    n = len(values)
    return {k: 100.0 * bisect.bisect_right(values, v) / n for k, v in ranks.items()}


class CrawledSite(wrcli.WebrankTestCase):
    def crawl(self):
        root = write_site(self)
        with testsite.SiteServer(root, self.dir, max_requests=200, max_seconds=60) as srv:
            self.wr("crawl", srv.url + "/index.html", "-o", "g.db", *QUIET_CRAWL)
            self.base = srv.url + "/"
        self.assertTrue(os.path.isfile(self.path("g.db/search.xapian")),
                        "crawl did not index:\n" + "\n".join(wrcli.list_dir(self.path("g.db"))))
        _, self.ranks = self.rank("g.db")

    def search(self, query, *extra, expect=0):
        return self.wr("search", "g.db", query, "--format", "tsv", *extra, expect=expect)

    def test_modes_formats_and_rank_merge(self):
        self.crawl()
        short = lambda url: url[len(self.base):]
        # title: titles with every word, by rank (as rank --out has them)
        rows = tsv(self.search("garden", "--mode", "title").out)
        self.assertEqual(sorted(short(r[1]) for r in rows),
                         ["index.html", "roses.html", "soil.html", "tools.html"])
        got = [float(r[4]) for r in rows]
        self.assertEqual(got, sorted(got, reverse=True))
        for r in rows:
            self.assertAlmostEqual(float(r[4]), self.ranks[r[1]], delta=1e-15)
            self.assertEqual(r[0], str(rows.index(r) + 1))
        # full = BM25 / best BM25 + weight * percentile / 100 (the percentile from rank --out),
        # at the weights `search` declares
        rank_weight = wrcli.declared_default("search", "rank_weight")
        name_weight = wrcli.declared_default("search", "name_weight")
        pct = percentiles(self.ranks)
        for query in ("roses", "spring", "prune roses", "garden OR aphids"):
            text = {r[1]: float(r[3]) for r in tsv(self.search(query, "--mode", "text").out)}
            full = tsv(self.search(query, "--name-weight", "0").out)
            self.assertEqual(set(text), {r[1] for r in full}, query)
            top = max(text.values())
            for r in full:
                want = text[r[1]] / top + rank_weight * pct[r[1]] / 100
                self.assertAlmostEqual(float(r[3]), want, delta=1e-9, msg=query)
            scores = [float(r[3]) for r in full]
            self.assertEqual(scores, sorted(scores, reverse=True))
        # plus the name bonus for a page the query names: roses.html by its URL (no title is
        # "roses" alone, and the links to it say "garden roses"); "prune roses" half names it
        # (no page is named "prune"); "spring" names no page
        for query, named, bonus in (("roses", "roses.html", name_weight),
                                    ("prune roses", "roses.html", name_weight / 2),
                                    ("spring", None, 0)):
            text = {r[1]: float(r[3]) for r in tsv(self.search(query, "--mode", "text").out)}
            top = max(text.values())
            for r in tsv(self.search(query).out):
                extra = float(r[3]) - (text[r[1]] / top + rank_weight * pct[r[1]] / 100)
                want = bonus if short(r[1]) == named else 0
                self.assertAlmostEqual(extra, want, delta=1e-9, msg="%s %s" % (query, r[1]))
        # syntax
        self.assertEqual([short(r[1]) for r in tsv(self.search('"early spring"').out)],
                         ["roses.html"])
        self.assertNotIn(self.base + "pests.html",
                         [r[1] for r in tsv(self.search("roses -aphids").out)])
        self.assertEqual([short(r[1]) for r in tsv(self.search("intitle:bulbs").out)],
                         ["tulips.html"])
        host = self.base.split("/")[2]
        self.assertEqual(len(tsv(self.search("site:" + host, "-k", "100").out)), len(PAGES))
        self.assertEqual(tsv(self.search("roses site:example.org").out), [])
        # pagination
        all_rows = tsv(self.search("roses", "-k", "10").out)
        page2 = tsv(self.search("roses", "-k", "2", "--offset", "2").out)
        self.assertEqual([r[1] for r in page2], [r[1] for r in all_rows[2:4]])
        self.assertEqual([r[0] for r in page2], ["3", "4"])
        # text output: a header, titles, URLs, marked snippets
        out = self.wr("search", "g.db", "prune roses").out
        self.assertRegex(out, r"results for \"prune roses\" \(BM25 and rank 'pagerank'\)")
        # text mode orders by BM25 alone: the rank is only the bars'
        self.assertRegex(self.wr("search", "g.db", "prune roses", "--mode", "text").out,
                         r"results for \"prune roses\" \(BM25; bars of rank 'pagerank'\)")
        self.assertIn("**Prune** **roses**", out)
        self.assertIn(self.base + "roses.html", out)
        # json: the library's form
        j = json.loads(self.wr("search", "g.db", "prune roses", "--format", "json").out)
        self.assertEqual(j["mode"], "full")
        self.assertEqual(j["ranks"], "pagerank")
        hit = j["hits"][0]
        for key in ("position", "url", "title", "score", "rank", "percentile", "bar", "toolbar",
                    "snippet"):
            self.assertIn(key, hit)
        s = hit["snippet"]
        for b, e in s["matches"]:
            self.assertIn(s["text"].encode()[b:e].decode().lower(), ("prune", "roses", "rose"))
        # nothing matches: said so, exit 0
        res = self.wr("search", "g.db", "roses xyzzy")
        self.assertIn("no page matches", res.out)
        self.assertIn("xyzzy", res.out)
        res = self.search("xyzzy")
        self.assertEqual(res.out, "")
        self.assertIn("no page matches", res.err)
        self.assertNotIn("did you mean", res.err)
        # did you mean: the index's own words, in every format
        res = self.wr("search", "g.db", "compst -aphids")
        self.assertIn("no page matches", res.out)
        self.assertIn("did you mean: compost -aphids\n", res.out)
        self.assertIn("did you mean: compost -aphids", self.search("compst -aphids").err)
        j = json.loads(self.wr("search", "g.db", "compst", "--format", "json").out)
        self.assertEqual((j["hits"], j["suggestion"]), ([], "compost"))
        j = json.loads(self.wr("search", "g.db", "compost", "--format", "json").out)
        self.assertIsNone(j["suggestion"])
        self.assertTrue(j["hits"])

    def test_topics_mix_ranks_the_results(self):
        self.crawl()
        self.write("assign.tsv", "".join("%s%s\t%s\n" % (self.base, page, topic) for page, topic in
                                         (("roses.html", "Flowers"), ("tulips.html", "Flowers"),
                                          ("pests.html", "Pests"), ("tools.html", "Pests"))))
        self.wr("topics", "g.db", "--assign", "assign.tsv", "--tol", "1e-12", "-q")
        mix = "Flowers=3,Pests=1"
        want = {t["label"]: t["rank"] for t in
                json.loads(self.wr("top", "g.db", "--topics", mix, "-k", "100", "--json").out)}
        rows = tsv(self.search("garden", "--mode", "title", "--topics", mix).out)
        self.assertEqual(len(rows), 4)
        for r in rows:
            self.assertAlmostEqual(float(r[4]), want[r[1]], delta=1e-15)
        got = [float(r[4]) for r in rows]
        self.assertEqual(got, sorted(got, reverse=True))
        j = json.loads(self.wr("search", "g.db", "roses", "--topics", mix, "--format",
                               "json").out)
        self.assertEqual(j["ranks"], "topics:Flowers=0.75,Pests=0.25")
        self.wr("search", "g.db", "roses", "--topics", "Nope=1", expect=1)
        self.wr("search", "g.db", "roses", "--topics", "Flowers=1", "--ranks", "pagerank",
                expect=2)

    def test_backlinks_and_links_follow_the_ranks(self):
        self.crawl()
        links = [tuple(l.split("\t")) for l in self.wr("export", "g.db").out.splitlines() if l]
        roses = self.base + "roses.html"
        rows = [l.split("\t") for l in
                self.wr("backlinks", "g.db", roses, "--format", "tsv").out.splitlines()]
        # a page's link to itself is not one of its backlinks (nor of its links)
        sources = sorted((s for s, t in links if t == roses and s != roses),
                         key=lambda s: (-self.ranks[s], s))
        self.assertEqual(sorted(r[0] for r in rows), sorted(sources))
        self.assertEqual([float(r[2]) for r in rows], [self.ranks[s] for s in
                                                       sorted(sources, key=lambda s: -self.ranks[s])])
        text = self.wr("backlinks", "g.db", roses, "-k", "2").out
        self.assertIn("%d pages link to %s" % (len(sources), roses), text)
        # forward links: the ranked ones by rank, then the nofollow one
        tools = self.base + "tools.html"
        rows = [l.split("\t") for l in
                self.wr("links", "g.db", tools, "--format", "tsv").out.splitlines()]
        self.assertEqual([r[0] for r in rows if r[6] == ""],
                         [t for s, t in links if s == tools and t != tools])
        self.assertEqual([r[0] for r in rows if r[6] == "nofollow"], [self.base + "pests.html"])
        j = json.loads(self.wr("links", "g.db", tools, "--format", "json").out)
        self.assertTrue(0 < j["links"][0]["bar"] <= 100)
        # a URL that is no page, and a vector that does not exist
        # (the words every command uses for a page that is not there: `page`'s, since 30)
        res = self.wr("backlinks", "g.db", self.base + "nowhere.html", expect=1)
        self.assertIn("no page labelled '%snowhere.html'" % self.base, res.err)
        res = self.wr("links", "g.db", roses, "--ranks", "nope", expect=1)
        self.assertIn("no rank vector named 'nope'", res.err)

    def test_errors_and_a_new_vector_without_reindexing(self):
        self.crawl()
        for query, where in (('"early spring', "character 1"), ("roses OR", "character 7"),
                             ("site:", "site: needs a host"), ("intitle:", "intitle: needs"),
                             ("", "is empty")):
            res = self.wr("search", "g.db", query, expect=2)
            self.assertIn(where, res.err, query)
        res = self.wr("search", "g.db", "--", "-roses", expect=2)
        self.assertIn("only excludes pages", res.err)
        self.wr("search", "g.db", "roses", "-k", "0", expect=2)
        self.wr("search", "g.db", "roses", "--mode", "fuzzy", expect=2)
        self.wr("search", "g.db", "roses", "--ranks", "nope", expect=1)
        # a vector stored after indexing ranks the next search
        _, other = self.rank("g.db", "--damping", "0.5", "--name", "half", out="half.tsv")
        rows = tsv(self.search("garden", "--mode", "title", "--ranks", "half").out)
        for r in rows:
            self.assertAlmostEqual(float(r[4]), other[r[1]], delta=1e-15)
        # a database without an index says how to make one, in search and in info
        self.wr("build", "-", "-o", "plain.db", input=b"a\tb\n")
        res = self.wr("search", "plain.db", "a", expect=1)
        self.assertIn("webrank index plain.db", res.err)
        self.assertIn("search index    none (webrank index plain.db builds it)",
                      self.wr("info", "plain.db").out)
        self.assertIsNone(json.loads(self.wr("info", "plain.db", "--json").out)["search_index"])
        # a malformed query is reported as such before the index is looked for (exit 2)
        res = self.wr("search", "plain.db", "", expect=2)
        self.assertIn("is empty", res.err)
        self.wr("index", "plain.db", "-q")
        rows = tsv(self.wr("search", "plain.db", "b", "--format", "tsv", "--mode", "text").out)
        self.assertEqual([r[1] for r in rows], ["b"])  # labels are indexed when there is no text

    def test_info_describes_the_index(self):
        self.crawl()
        fields = wrcli.declared_default("index", "field_weights")
        j = json.loads(self.wr("info", "g.db", "--json").out)["search_index"]
        self.assertEqual(j["documents"], len(PAGES))
        self.assertGreater(j["version"], 0)
        self.assertEqual("%(title)d,%(text)d,%(anchor)d,%(url)d,%(chrome)d" % j["field_weights"],
                         fields)
        self.assertRegex(self.wr("info", "g.db").out,
                         r"search index +[\d.]+ [KM]B, version %d, %d documents, built \S+Z, "
                         r"field weights %s \(title,text,anchor,url,chrome\)\n"
                         % (j["version"], len(PAGES), fields))
        # an index that cannot be used is said so (a warning), and info still answers
        with open(self.path("g.db/search.xapian"), "r+b") as f:
            f.write(b"not an index" * 100)
        res = self.wr("info", "g.db")
        self.assertIn("search index    unusable: ", res.out)
        self.assertIn("warning: search index: ", res.err)
        self.assertIn("error", json.loads(self.wr("info", "g.db", "--json").out)["search_index"])

    def test_eval_reports_every_mode(self):
        self.crawl()
        self.write("q.tsv", "# garden queries\nprune roses\troses.html\n"
                   "tulip bulbs\ttulips.html\nhandbook\tindex.html\tsoil.html\n")
        out = self.wr("eval", "g.db", "q.tsv", "--per-query").out
        self.assertRegex(out, r"mode +hit@1 +hit@3 +MRR +nDCG@10")
        # the header names every weight the scores depend on, at their declared defaults
        w = {o: "%g" % wrcli.declared_default("eval", o)
             for o in ("rank_weight", "name_weight", "anchor_name_weight", "family_name_weight",
                       "bm25_k1", "bm25_b")}
        self.assertIn("rank weight %(rank_weight)s, name weights %(name_weight)s / "
                      "%(anchor_name_weight)s (anchors) / %(family_name_weight)s (families), "
                      "BM25 k1 %(bm25_k1)s b %(bm25_b)s" % w, out)
        for m in ("title", "text", "full"):
            self.assertRegex(out, r"\n%s +[01]\.\d{3} " % m)
        j = json.loads(self.wr("eval", "g.db", "q.tsv", "--json").out)
        self.assertEqual([m["mode"] for m in j["modes"]], ["title", "text", "full"])
        self.assertEqual(j["queries"], 3)
        self.assertEqual(j["modes"][1]["hit1"], 1.0)
        self.write("bad.tsv", "roses\tnowhere.html\n")
        res = self.wr("eval", "g.db", "bad.tsv", expect=1)
        self.assertIn("bad.tsv:1: no page of", res.err)


class IndexAtomicity(wrcli.WebrankTestCase):
    """A killed or interrupted `index` leaves the index that was there."""

    def make_web(self):
        self.wr("generate", "--text", "--pages", "3000", "--links", "20000", "-o", "w.warc")
        self.wr("import", "w.warc", "-o", "w.db", "-q")
        self.assertTrue(os.path.isfile(self.path("w.db/search.xapian")))
        self.wr("rank", "w.db", "-q")
        return wrcli.snapshot(self.path("w.db"))

    def index_until_started(self):
        proc = subprocess.Popen([wrcli.WEBRANK, "index", "w.db", "--progress", "json"],
                                cwd=self.dir, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        line = proc.stderr.readline()  # the first progress line: it is indexing
        self.assertIn(b'"stage":"indexing"', line)
        return proc

    def test_sigkill_and_sigint_leave_the_old_index(self):
        before = self.make_web()
        hits = self.wr("search", "w.db", "site:host0.example", "--format", "tsv").out
        proc = self.index_until_started()
        proc.kill()
        proc.wait(30)
        self.assertEqual(wrcli.snapshot(self.path("w.db"))["./search.xapian"],
                         before["./search.xapian"])
        self.assertEqual(self.wr("search", "w.db", "site:host0.example", "--format", "tsv").out,
                         hits)
        proc = self.index_until_started()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, err)
        self.assertEqual(wrcli.snapshot(self.path("w.db"))["./search.xapian"],
                         before["./search.xapian"])
        # the next index removes what the killed one left, and replaces the index
        self.wr("index", "w.db", "-q")
        leftovers = [f for f in os.listdir(self.path("w.db")) if "webrank-tmp" in f]
        self.assertEqual(leftovers, [])
        self.assertEqual(self.wr("search", "w.db", "site:host0.example", "--format", "tsv").out,
                         hits)

    def test_generate_text_errors(self):
        res = self.wr("generate", "--text", "-o", "-", expect=2)
        self.assertIn("WARC", res.err)
        self.wr("generate", "--text", "--model", "rmat", "-o", "x.warc", expect=2)
        self.assertFalse(os.path.exists(self.path("x.warc")))


PGDOC = os.path.join(wrcli._REPO, "out", "pgdoc")
PGDOC_HTML = "usr/share/doc/postgresql-doc-15/html"
QUERIES = os.path.join(wrcli._REPO, "bench", "search", "pgdoc15.tsv")


@wrcli.unittest.skipUnless(os.path.isfile(os.path.join(PGDOC, PGDOC_HTML, "index.html")),
                           "out/pgdoc not found (scripts/demo.sh extracts postgresql-doc-15 "
                           "there): search quality on the PostgreSQL documentation skipped")
class PostgresDocsSearch(wrcli.WebrankTestCase):
    def test_merged_ranking_beats_title_and_text(self):
        real = os.path.realpath(PGDOC)
        with testsite.SiteServer(real, self.dir, max_requests=5000, max_seconds=100) as srv:
            base = "%s/%s/" % (srv.url, PGDOC_HTML)
            self.wr("crawl", base + "index.html", "-o", "pg.db", "--scope", base, "-q",
                    "--delay", "0", "--per-host", "4", "--connections", "4")
        self.wr("rank", "pg.db", "-q")
        j = json.loads(self.wr("eval", "pg.db", QUERIES, "--json").out)
        m = {x["mode"]: x for x in j["modes"]}
        sys.stderr.write("\n[pgdoc15: hit@1 title %.3f text %.3f full %.3f]\n"
                         % (m["title"]["hit1"], m["text"]["hit1"], m["full"]["hit1"]))
        self.assertGreaterEqual(j["queries"], 40)
        self.assertGreater(m["full"]["hit1"], m["text"]["hit1"])
        self.assertGreater(m["full"]["hit1"], m["title"]["hit1"])
        self.assertGreater(m["full"]["mrr"], m["text"]["mrr"])


if __name__ == "__main__":
    wrcli.main()
