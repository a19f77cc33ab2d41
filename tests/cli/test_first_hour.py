#!/usr/bin/python3
"""The first hour of a new user: what they trip over, tried through the command line.

Wrong or lost results (weighted export round trips, crawls that fetched nothing, unconverged
vectors that replaced converged ones, isolated pages of edge lists, generators that give less
than asked), messages (missing files, ranges said in words, exit codes, unknown commands and
flags with a suggestion, --force/--resume only where they work, truncated WARCs, missing
directories, progress on compressed input, --method direct), and the presentation of `top`.

Run:  /usr/bin/python3 tests/cli/test_first_hour.py --webrank build/webrank [-v]
"""

import gzip
import json
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase, list_dir  # noqa: E402

FIG3 = "A\tB\nA\tC\nB\tC\nC\tA\n"


class Results(WebrankTestCase):
    """Results a new user could get wrong or lose."""

    # ---------------------------------------------------------------------------------------
    def test_weighted_export_round_trips_weights_and_ranks(self):
        self.write("w.tsv", "A\tB\t3\nA\tC\t1\nB\tC\t0.1\nC\tA\t2\nC\tB\t1e-3\nD\tA\t7.25\n")
        self.build("w.tsv", "w.db", extra=["--weighted"])
        _, before = self.rank("w.db", "--tol", "1e-14")
        res = self.wr("export", "w.db", "-o", "back.tsv")
        with open(self.path("back.tsv")) as f:
            rows = [line.rstrip("\n").split("\t") for line in f]
        self.assertIn(["B", "C", "0.1"], rows)
        self.assertIn(["C", "B", "0.001"], rows)
        self.build("back.tsv", "back.db", extra=["--weighted"])
        _, after = self.rank("back.db", "--tol", "1e-14", out="after.tsv")
        self.assertEqual(before, after)
        # --weighted is accepted, and writes weight 1 for an unweighted web.
        self.write("u.tsv", "A\tB\nB\tA\n")
        self.build("u.tsv", "u.db")
        res = self.wr("export", "u.db", "--weighted")
        self.assertEqual(res.out, "A\tB\t1\nB\tA\t1\n")
        res = self.wr("export", "w.db", "--ids")
        self.assertIn("1\t2\t0.1\n", res.out)

    # ---------------------------------------------------------------------------------------
    def test_a_crawl_that_fetched_nothing_says_why_and_exits_1(self):
        import socket
        import testsite
        with socket.socket() as s:  # a port nothing listens on
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        seed = "http://127.0.0.1:%d/" % port
        res = self.wr("crawl", seed, "-o", "down.db", "--ignore-robots", "--retries", "1",
                      "--backoff", "0", expect=1)
        self.assertRegex(res.err, r"warning: seed %s: .*(connect|refused).* \(after 1 retry\)"
                         % re.escape(seed))
        self.assertIn("error: the crawl fetched no page", res.err)
        self.assertTrue(os.path.isfile(self.path("down.db/manifest.json")))
        os.mkdir(self.path("site"))
        self.write("site/index.html", "<a href='a.html'>a</a>")
        with testsite.SiteServer(self.path("site"), self.dir, max_requests=20,
                                 max_seconds=30) as srv:
            res = self.wr("crawl", srv.url + "/status/404", "-o", "nf.db", "--delay", "0",
                          "--max-depth", "0", "-q", expect=1)
            self.assertIn("seed %s/status/404: HTTP 404" % srv.url, res.err)
            res = self.wr("crawl", srv.url + "/status/404", srv.url + "/index.html", "-o",
                          "ok.db", "--delay", "0", "--max-depth", "0")
            self.assertIn("seed %s/status/404: HTTP 404" % srv.url, res.err)
            self.assertNotIn("webrank: error", res.err)

    # ---------------------------------------------------------------------------------------
    def test_an_unconverged_run_does_not_replace_a_converged_vector(self):
        self.write("fig3.tsv", FIG3)
        self.build("fig3.tsv", "fig3.db")
        _, good = self.rank("fig3.db")
        res = self.wr("rank", "fig3.db", "--max-iter", "2", expect=3)
        self.assertIn("stored as 'pagerank.unconverged'; 'pagerank' keeps its converged vector",
                      res.err)
        info = json.loads(self.wr("info", "fig3.db", "--json").out)
        converged = {r["name"]: r["converged"] for r in info["ranks"]}
        self.assertEqual(converged, {"pagerank": True, "pagerank.unconverged": False})
        top = json.loads(self.wr("top", "fig3.db", "--json").out)
        self.assertEqual({p["label"]: p["rank"] for p in top}, good)
        self.wr("rank", "fig3.db", "--max-iter", "2", "--replace-unconverged", "-q", expect=3)
        info = json.loads(self.wr("info", "fig3.db", "--json").out)
        self.assertFalse({r["name"]: r["converged"] for r in info["ranks"]}["pagerank"])

    # ---------------------------------------------------------------------------------------
    def test_a_page_list_keeps_the_isolated_pages(self):
        self.write("links.tsv", "# ids 0..5; 4 and 5 are in no link\n0\t1\n1\t2\n2\t0\n3\t0\n")
        self.write("pages.tsv", "# id\turl\n" + "".join("%d\tx\n" % i for i in range(6)))
        res = self.wr("build", "links.tsv", "--pages", "pages.tsv", "-o", "p.db")
        self.assertIn("pages: 6 listed in pages.tsv", res.err)
        info = json.loads(self.wr("info", "p.db", "--json").out)
        self.assertEqual((info["pages"], info["isolated_pages"]), (6, 2))
        self.assertIn("isolated pages  2", self.wr("info", "p.db").out)
        # The same web as an edge list declaring the pages itself (one field per line).
        self.write("declared.tsv", "".join("%d\n" % i for i in range(6)) + "0\t1\n1\t2\n2\t0\n3\t0\n")
        self.build("declared.tsv", "d.db")
        rows_p, _ = self.rank("p.db", out="p.tsv")
        rows_d, _ = self.rank("d.db", out="d.tsv")
        self.assertEqual(rows_p, rows_d)
        self.assertEqual([label for label, _ in rows_p], [str(i) for i in range(6)])

    # ---------------------------------------------------------------------------------------
    def test_generate_says_what_it_produced_and_why_less(self):
        res = self.wr("generate", "--pages", "10", "--links", "1000", "-o", "w.tsv")
        with open(self.path("w.tsv")) as f:
            lines = f.read().count("\n")
        self.assertIn("wrote w.tsv: %d links among" % lines, res.err)
        self.assertIn("ran out of pages after %d of the 1000 links asked: raise --pages" % lines,
                      res.err)
        self.assertIn("at most 100 distinct links", res.err)
        res = self.wr("generate", "--model", "rmat", "--pages", "10", "--links", "50", "-o", "-")
        self.assertEqual(res.out.count("\n"), 50)
        self.assertIn("--pages 10 was rounded up to 16 ids", res.err)
        pages = {x for line in res.out.splitlines() for x in line.split("\t")}
        self.assertIn("wrote <stdout>: 50 links among %d pages" % len(pages), res.err)
        res = self.wr("generate", "--pages", "1000", "--links", "5000", "-q", "-o", "q.tsv")
        self.assertEqual(res.err, "")


class Presentation(WebrankTestCase):
    """What `top` and `page` show."""

    def test_top_reads_sensibly_on_the_papers_web(self):
        self.write("fig3.tsv", FIG3)
        self.build("fig3.tsv", "fig3.db")
        self.rank("fig3.db")
        top = {p["label"]: p for p in json.loads(self.wr("top", "fig3.db", "--json").out)}
        # B has a little over half the top rank: not an empty bar, not toolbar 0.
        self.assertGreater(top["B"]["bar"], 40)
        self.assertEqual(top["B"]["toolbar"], 4)
        self.assertEqual(top["C"]["bar"], 100)
        text = self.wr("top", "fig3.db").out.splitlines()
        self.assertRegex(text[3], r"^\s+3\s+0\.2148\s+33\.33\s+#{7}\.{9}\s+44%\s+4/10\s+B$")

    def test_percentiles_show_enough_digits(self):
        n = 12000
        self.write("web.tsv", "".join("p%d\tp%d\n" % (i, (i * i) % 97) for i in range(n)))
        self.build("web.tsv", "web.db")
        self.rank("web.db")
        rows = self.wr("top", "web.db", "-k", "4").out.splitlines()[1:]
        shown = [row.split()[2] for row in rows]
        self.assertEqual(len(set(shown)), 4, rows)
        self.assertEqual(shown[0], "100.000")

    def test_top_fits_100_columns_and_shows_one_sites_paths(self):
        long_path = "/" + "/".join("section-%d" % i for i in range(20)) + "/page.html"
        site = "http://www.example.org"
        self.write("site.tsv", "%s/\t%s%s\n%s%s\t%s/\n%s/a\t%s/\n" % (
            site, site, long_path, site, long_path, site, site, site))
        self.build("site.tsv", "site.db")
        self.rank("site.db")
        out = self.wr("top", "site.db").out.splitlines()
        self.assertEqual(out[0], "pages of http://www.example.org")
        self.assertTrue(all(len(line) <= 100 for line in out), out)
        self.assertIn(" /\n", self.wr("top", "site.db", "-k", "1").out)
        self.assertTrue(any("..." in line for line in out), out)
        wide = self.wr("top", "site.db", "--wide").out
        self.assertIn(long_path, wide)
        # Titles of crawled pages are cut to fit, never breaking the 100 columns.
        os.mkdir(self.path("docs"))
        for i in range(3):
            self.write("docs/p%d.html" % i, "<title>%s</title><a href='p%d.html'>x</a>" % (
                "A title of many words " * 8 + str(i), (i + 1) % 3))
        self.wr("import", "docs", "-o", "docs.db", "-q")
        self.rank("docs.db", out="d.tsv")
        out = self.wr("top", "docs.db").out.splitlines()
        self.assertTrue(all(len(line) <= 100 for line in out), out)
        self.assertTrue(out[0].startswith("pages of file://"), out)  # then paths in the folder
        self.assertTrue(all('"A title' in line for line in out[2:]), out)

    def test_page_shows_one_page_in_every_vector(self):
        self.write("fig3.tsv", FIG3)
        self.build("fig3.tsv", "fig3.db")
        _, pr = self.rank("fig3.db")
        _, pers = self.rank("fig3.db", "--personalize", "A", "--name", "from-a", out="a.tsv")
        page = json.loads(self.wr("page", "fig3.db", "B", "--json").out)
        self.assertEqual((page["label"], page["out_links"], page["in_links"]), ("B", 1, 1))
        ranks = {r["name"]: r for r in page["ranks"]}
        self.assertEqual(set(ranks), {"pagerank", "from-a"})
        self.assertEqual(ranks["pagerank"]["rank"], pr["B"])
        self.assertEqual(ranks["from-a"]["rank"], pers["B"])
        self.assertEqual(ranks["pagerank"]["position"], 3)
        self.assertAlmostEqual(ranks["pagerank"]["percentile"], 100 / 3, places=12)
        text = self.wr("page", "fig3.db", "B").out
        self.assertIn("links       1 out, 1 in", text)
        self.assertRegex(text, r"from-a\s+0\.\d+\s+\d+\.\d\d\s+\d of 3")
        res = self.wr("page", "fig3.db", "D", expect=1)
        self.assertIn("no page labelled 'D'", res.err)

    def test_page_of_a_crawled_site(self):
        os.mkdir(self.path("site"))
        self.write("site/index.html", "<title>Home</title><a href='a.html'>a</a>"
                                      "<a href='gone.html'>gone</a>")
        self.write("site/a.html", "<title>A page</title><a href='index.html'>home</a>")
        root = "file://" + self.path("site") + "/"
        self.wr("crawl", root + "index.html", "-o", "site.db", "-q")
        self.rank("site.db")
        page = json.loads(self.wr("page", "site.db", root + "index.html", "--json").out)
        self.assertEqual((page["title"], page["status"], page["out_links"], page["in_links"]),
                         ("Home", 200, 2, 1))
        text = self.wr("page", "site.db", root + "gone.html").out
        self.assertIn("status      0 (not fetched)", text)
        res = self.wr("page", "site.db", root + "index.html/", expect=1)
        self.assertIn("did you mean '%sindex.html'?" % root, res.err)
        # A URL is named as search and links read it: the label, or the URL it normalizes to.
        text = self.wr("page", "site.db", "FILE://" + self.path("site") + "/./a.html").out
        self.assertIn("A page", text)


class Labels(WebrankTestCase):
    """--labels ID<TAB>LABEL for numeric graphs."""

    def test_labels_rename_pages_and_keep_ranks(self):
        self.write("links.tsv", "0\t1\n1\t2\n2\t0\n3\t0\n")
        self.write("urls.tsv", "# id\turl\n0\thttp://a.example/\n1\thttp://a.example/x y\n"
                               "2\thttp://b.example/\n3\thttp://c.example/\n9\thttp://none/\n")
        res = self.wr("build", "links.tsv", "--labels", "urls.tsv", "-o", "l.db")
        self.assertIn("labels: 4 pages labelled from urls.tsv (1 of its ids are no page", res.err)
        self.build("links.tsv", "n.db")
        rows_l, _ = self.rank("l.db", out="l.tsv")
        rows_n, _ = self.rank("n.db", out="n.tsv")
        self.assertEqual([v for _, v in rows_l], [v for _, v in rows_n])
        self.assertEqual([label for label, _ in rows_l],
                         ["http://a.example/", "http://a.example/x y", "http://b.example/",
                          "http://c.example/"])
        top = json.loads(self.wr("top", "l.db", "-k", "1", "--json").out)
        self.assertEqual(top[0]["label"], "http://a.example/")
        # With --pages naming the same file, its unlinked ids are pages too.
        self.wr("build", "links.tsv", "--pages", "urls.tsv", "--labels", "urls.tsv", "-o", "lp.db")
        self.assertEqual(json.loads(self.wr("info", "lp.db", "--json").out)["isolated_pages"], 1)
        # Import reads them too; --order url sorts by the new labels.
        self.write("g.net", "*Vertices 3\n*Arcs\n1 2\n2 3\n")
        self.write("g-urls.tsv", "1\thttp://z.example/\n2\thttp://a.example/\n3\thttp://m.example/\n")
        self.wr("import", "g.net", "--labels", "g-urls.tsv", "--order", "url", "-o", "g.db")
        res = self.wr("export", "g.db")
        self.assertEqual(res.out, "http://a.example/\thttp://m.example/\n"
                                  "http://z.example/\thttp://a.example/\n")

    def test_bad_label_files_are_refused_with_file_and_line(self):
        self.write("links.tsv", "0\t1\n1\t2\n")
        cases = {
            "dup.tsv": ("0\tx\n1\ty\n2\tx\n", "dup.tsv:3: page '2' would be labelled 'x', "
                                                "which is already the label of page '0'"),
            "twice.tsv": ("0\tx\n0\ty\n", "twice.tsv:2: '0' was already given a label at "
                                            "twice.tsv:1"),
            "one.tsv": ("0\tx\n1\n", "one.tsv:2: 1 fields, expected ID<TAB>LABEL"),
            "clash.tsv": ("0\t1\n", "clash.tsv:1: page '1' would be labelled '1'"),
        }
        for name, (text, want) in cases.items():
            self.write(name, text)
            res = self.wr("build", "links.tsv", "--labels", name, "-o", "bad.db", expect=1)
            self.assertIn(want, res.err, res.describe())
            self.assertFalse(os.path.exists(self.path("bad.db")))


class StoredVectors(WebrankTestCase):
    """compare-ranks and ranks."""

    def setUp(self):
        super().setUp()
        import random
        rnd = random.Random(3)
        self.write("web.tsv", "".join("p%d\tp%d\n" % (rnd.randrange(200), rnd.randrange(300))
                                      for _ in range(1500)))
        self.build("web.tsv", "w.db")
        _, self.pr = self.rank("w.db")
        _, self.pers = self.rank("w.db", "--personalize", "p1", "--name", "from-p1", out="p.tsv")

    def test_compare_ranks_against_scipy(self):
        from scipy import stats
        labels = sorted(self.pr)
        a = [self.pr[l] for l in labels]
        b = [self.pers[l] for l in labels]
        got = json.loads(self.wr("compare-ranks", "w.db", "pagerank", "from-p1", "-k", "10",
                                 "-k", "50", "--json").out)
        self.assertEqual(got["pages"], len(labels))
        self.assertAlmostEqual(got["l1"], sum(abs(x - y) for x, y in zip(a, b)), places=12)
        self.assertAlmostEqual(got["kendall_tau"], stats.kendalltau(a, b).correlation, places=12)
        self.assertAlmostEqual(got["spearman"], stats.spearmanr(a, b).correlation, places=12)

        def top(d, k):
            return set(sorted(d, key=lambda l: (-d[l], labels.index(l)))[:k])
        for t in got["top"]:
            self.assertEqual(t["shared"], len(top(self.pr, t["k"]) & top(self.pers, t["k"])))
        self.assertEqual([t["k"] for t in got["top"]], [10, 50])
        # Against a LABEL<TAB>VALUE file listing some pages: compared on those.
        some = labels[::3]
        self.write("ext.tsv", "".join("%s\t%r\n" % (l, self.pers[l]) for l in some))
        got = json.loads(self.wr("compare-ranks", "w.db", "pagerank", "ext.tsv", "--json").out)
        self.assertEqual(got["pages"], len(some))
        self.assertAlmostEqual(got["kendall_tau"], stats.kendalltau(
            [self.pr[l] for l in some], [self.pers[l] for l in some]).correlation, places=12)
        text = self.wr("compare-ranks", "w.db", "pagerank", "pagerank").out
        self.assertIn("Kendall's tau-b     1.000000", text)
        self.assertIn("top-10              10 shared (100.0%)", text)
        res = self.wr("compare-ranks", "w.db", "pagerank", "nosuch", expect=1)
        self.assertIn("nosuch: neither a rank vector of w.db (stored: from-p1, pagerank)", res.err)
        self.write("bad.tsv", "p1\t0.5\nnot-a-page\t0.1\n")
        res = self.wr("compare-ranks", "w.db", "pagerank", "bad.tsv", expect=1)
        self.assertIn("bad.tsv:2: page 'not-a-page' is not in the database", res.err)

    def test_ranks_lists_and_deletes(self):
        self.wr("hits", "w.db", "-q")
        out = self.wr("ranks", "w.db").out.splitlines()
        self.assertEqual([line.split()[0] for line in out[1:]],
                         ["from-p1", "hits.authority", "hits.hub", "pagerank"])
        self.assertIn("personalized", out[1])
        self.assertIn("HITS hubs", out[3])
        listed = json.loads(self.wr("ranks", "w.db", "--json").out)
        self.assertEqual(listed[3]["name"], "pagerank")
        self.assertTrue(listed[3]["converged"])
        res = self.wr("ranks", "w.db", "--delete", "from-p1", "--delete", "hits")
        self.assertIn("deleted 'hits.hub'", res.err)
        self.assertEqual(sorted(os.listdir(self.path("w.db/ranks"))),
                         ["pagerank.json", "pagerank.ranks"])
        res = self.wr("ranks", "w.db", "--delete", "nosuch", expect=1)
        self.assertIn("no rank vector named 'nosuch' (stored: pagerank)", res.err)
        self.wr("ranks", "w.db", "--delete", "../x", expect=2)


class Messages(WebrankTestCase):
    """What a message says, and the exit status."""

    def setUp(self):
        super().setUp()
        self.write("fig3.tsv", FIG3)
        self.build("fig3.tsv", "fig3.db")

    def usage(self, *args):
        res = self.wr(*args, expect=2)
        self.assertRegex(res.err, r"^webrank: (usage )?error: ", res.describe())
        return res.err

    # ---------------------------------------------------------------------------------------
    def test_import_of_a_missing_path_says_no_such_file(self):
        for name in ["nosuch/file.txt", "cc-main-2024-host-vertices.txt.gz", "graph"]:
            res = self.wr("import", name, "-o", "x.db", expect=1)
            self.assertIn("%s: no such file or directory" % name, res.err, res.describe())
            self.assertNotIn("cannot tell its format", res.err)

    def test_import_of_an_existing_unknown_path_asks_for_format(self):
        self.write("graph", FIG3)
        err = self.usage("import", "graph", "-o", "x.db")
        self.assertIn("--format", err)

    # ---------------------------------------------------------------------------------------
    def test_ranges_are_said_in_words(self):
        cases = [
            (["rank", "fig3.db", "--tol", "0"], "--tol: must be > 0, got 0"),
            (["rank", "fig3.db", "--max-iter", "0"], "--max-iter: must be a whole number >= 1"),
            (["rank", "fig3.db", "--damping", "2"], "--damping: must be in [0, 1], got 2"),
            (["top", "fig3.db", "-k", "abc"], "-k: must be a whole number >= 1, got 'abc' (not a "
                                              "number)"),
            (["rank", "fig3.db", "--damping", "nan"], "(not a number)"),
            (["rank", "fig3.db", "--max-iter", "2.5"], "must be a whole number >= 1, got 2.5"),
            (["crawl", "http://127.0.0.1:9/", "-o", "c.db", "--delay", "-1"],
             "--delay: must be >= 0, got -1"),
            (["generate", "--pages", "0", "-o", "g.tsv"], "--pages: must be a whole number >= 1"),
        ]
        for args, want in cases:
            err = self.usage(*args)
            self.assertIn(want, err, args)
            self.assertNotIn("not in range", err)
            self.assertNotRegex(err, r"\d{20}", "a type's limit printed: %r" % err)

    # ---------------------------------------------------------------------------------------
    def test_bad_values_exit_2(self):
        self.write("big.tsv", "".join("p%d\tp%d\n" % (i, (i * 7 + 1) % 6000) for i in range(6000)))
        self.build("big.tsv", "big.db")
        for args in (["rank", "fig3.db", "--block-pages", "100"],
                     ["rank", "fig3.db", "--name", "../evil"],
                     ["generate", "--pages", "0", "-o", "g.tsv"],
                     ["rank", "big.db", "--method", "direct"]):
            self.usage(*args)
        self.assertFalse(os.path.exists(self.path("g.tsv")))

    # ---------------------------------------------------------------------------------------
    def test_unknown_command_is_named_with_a_suggestion(self):
        err = self.usage("rnak", "fig3.db")
        self.assertIn("unknown command 'rnak'; did you mean 'rank'?", err)
        err = self.usage()
        self.assertIn("a command is required", err)

    def test_unknown_flag_is_named_with_a_suggestion(self):
        err = self.usage("rank", "fig3.db", "--dampign", "0.9")
        self.assertIn("unknown option '--dampign' for 'webrank rank'; did you mean '--damping'?",
                      err)
        err = self.usage("top", "fig3.db", "--rank=pagerank")
        self.assertIn("did you mean '--ranks'?", err)
        err = self.usage("info", "fig3.db", "--zzzzzzzz")
        self.assertIn("unknown option '--zzzzzzzz'", err)
        self.assertNotIn("did you mean", err)

    # ---------------------------------------------------------------------------------------
    def test_force_is_suggested_only_where_it_works(self):
        os.mkdir(self.path("notes"))
        self.write("notes/keep.txt", "mine")
        for cmd in (["build", "fig3.tsv", "-o", "notes"],
                    ["crawl", "http://127.0.0.1:9/", "-o", "notes"]):
            res = self.wr(*cmd, expect=1)
            self.assertIn("is not a webrank database", res.err)
            self.assertNotIn("--force", res.err, res.describe())
            res = self.wr(*cmd, "--force", expect=1)
            self.assertIn("is not a webrank database", res.err)
        self.assertEqual(list_dir(self.path("notes")), ["keep.txt"])
        res = self.wr("build", "fig3.tsv", "-o", "fig3.db", expect=1)
        self.assertIn("pass --force to replace it", res.err)

    def test_crawl_into_an_existing_database_mentions_resume(self):
        os.mkdir(self.path("site"))
        self.write("site/index.html", "<a href='a.html'>a</a>")
        self.write("site/a.html", "<title>A</title>")
        url = "file://" + self.path("site") + "/index.html"
        self.wr("crawl", url, "-o", "site.db", "-q")
        res = self.wr("crawl", url, "-o", "site.db", expect=1)
        self.assertIn("--resume to continue the crawl", res.err, res.describe())
        self.assertIn("--force", res.err)
        # Without a journal, --resume would not work: it is not suggested.
        res = self.wr("crawl", url, "-o", "fig3.db", expect=1)
        self.assertNotIn("--resume", res.err, res.describe())

    # ---------------------------------------------------------------------------------------
    def test_missing_directory_is_named_as_given(self):
        for args in (["build", "fig3.tsv", "-o", "nodir/w.db"],
                     ["rank", "fig3.db", "-q", "--out", "nodir/r.tsv"],
                     ["export", "fig3.db", "-o", "nodir/x.tsv"]):
            res = self.wr(*args, expect=1)
            out = args[args.index("-o" if "-o" in args else "--out") + 1]
            self.assertIn("%s: cannot create: the directory nodir does not exist" % out, res.err)
            self.assertNotIn("webrank-tmp", res.err)

    def test_binary_garbage_in_a_warc_is_quoted_on_one_line(self):
        record = (b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://x.example/\r\n"
                  b"Content-Type: text/html\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n")
        self.write("bad.warc", record + b"\x00\x00garb'age\rmore\x07\r\n")
        res = self.wr("import", "bad.warc", "-o", "w.db", expect=1)
        line = res.err.rstrip("\n")
        self.assertEqual(line.count("\n"), 0, res.describe())
        self.assertIn("found '\\x00\\x00garb\\'age\\rmore\\x07'", line, res.describe())

    # ---------------------------------------------------------------------------------------
    def test_progress_on_compressed_input_stays_within_the_file(self):
        text = "".join("page-%d\tpage-%d\n" % (i, (i * 31) % 5000) for i in range(40000))
        with gzip.open(self.path("web.tsv.gz"), "wt") as f:
            f.write(text)
        size = os.path.getsize(self.path("web.tsv.gz"))
        res = self.wr("build", "web.tsv.gz", "-o", "gz.db", "--progress", "json")
        reading = [p for p in wrcli.json_lines(res.err) if p.get("stage") == "reading"]
        self.assertTrue(reading, res.describe())
        for p in reading:
            self.assertEqual(p["total"], size)
            self.assertLessEqual(p["bytes"], size, res.describe())
        self.assertEqual(reading[-1]["bytes"], size)

    # ---------------------------------------------------------------------------------------
    def test_direct_shows_its_long_step_and_refuses_large_webs_at_once(self):
        res = self.wr("rank", "fig3.db", "--method", "direct", "--progress", "json")
        lines = wrcli.json_lines(res.err)
        stages = [p["stage"] for p in lines if "stage" in p]
        self.assertEqual(stages, ["factor", "solve"], res.describe())
        # then the power iteration that measures the solution's residual (--tol's guarantee)
        self.assertEqual(lines[-1].get("iteration"), 1, res.describe())
        self.assertGreater(wrcli.json_lines(res.err)[0]["nonzeros"], 0)
        self.write("big.tsv", "".join("p%d\tp%d\n" % (i, (i * 7 + 1) % 5001) for i in range(5001)))
        self.build("big.tsv", "big.db")
        res = self.wr("rank", "big.db", "--method", "direct", expect=2)
        self.assertIn("at most 5000 pages", res.err)


class Hygiene(WebrankTestCase):
    """The documentation's examples leave the checkout clean; skipped tests say why."""

    def test_examples_run_in_a_scratch_folder(self):
        import subprocess
        with open(os.path.join(wrcli._REPO, "docs", "commands.md"), encoding="utf-8") as f:
            readme = f.read()
        block = readme.split("From the checkout;", 1)[1].split("```sh\n", 1)[1].split("```")[0]
        checkout = self.path("checkout")
        os.makedirs(os.path.join(checkout, "build"))
        os.symlink(wrcli.WEBRANK, os.path.join(checkout, "build", "webrank"))
        shared = os.path.join(os.path.dirname(wrcli._REPO), "shared")
        proc = subprocess.run(["bash", "-e", "-c", block], cwd=checkout, capture_output=True,
                              text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(sorted(os.listdir(checkout)), ["build", "scratch"])
        rows = wrcli.read_rank_file(os.path.join(checkout, "scratch", "ranks.tsv"))
        self.assertEqual([round(float(v), 8) for _, v in rows], [0.4, 0.2, 0.4])

    def test_skipped_tests_are_listed_with_why(self):
        import subprocess
        self.write("test_skip.py", "import os, sys\nsys.path.insert(0, %r)\nimport wrcli\n"
                   "class T(wrcli.unittest.TestCase):\n"
                   "    @wrcli.unittest.skip('no data here')\n"
                   "    def test_x(self): pass\n"
                   "    def test_y(self): pass\n"
                   "wrcli.main()\n" % os.path.dirname(os.path.abspath(__file__)))
        proc = subprocess.run(["/usr/bin/python3", self.path("test_skip.py"), "--webrank",
                               wrcli.WEBRANK], capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("webrank-test skipped: T.test_x: no data here", proc.stderr)
        log = ("1/2 Testing: Suite.paper\n../x_test.cpp:55: Skipped\nthe paper's loop differs\n"
               "[  SKIPPED ] Suite.paper\n2/2 Testing: cli_real\n" + proc.stderr)
        self.write("LastTest.log", log)
        out = subprocess.run(["/usr/bin/python3",
                              os.path.join(wrcli._REPO, "scripts", "skipped_tests.py"),
                              self.path("LastTest.log")], capture_output=True, text=True).stdout
        self.assertIn("skipped tests (2), and why:", out)
        self.assertIn("  Suite.paper: the paper's loop differs", out)
        self.assertIn("  cli_real T.test_x: no data here", out)


if __name__ == "__main__":
    wrcli.main()
