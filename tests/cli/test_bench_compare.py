#!/usr/bin/python3
"""`bench/compare` end to end on small inputs, and `webrank export --ids`.

Run:  /usr/bin/python3 tests/cli/test_bench_compare.py --webrank build/webrank [-v]

bench/compare is how webrank is measured against its peers (docs/performance.md); these tests
keep it working without timing anything: one run each, no bandwidth probe, NetworkX as the
only peer (no C helper to build). They check that
  - inputs the peers cannot read (Matrix Market, an edge list with URL labels, the generated
    `web` graph) are turned into a numeric edge list whose ranks, mapped back through the page
    ids, are the ranks of the original input;
  - every row is there (webrank float, double, gauss-seidel; NetworkX) and agrees with the
    double reference to the accuracy asked for;
  - a missing graph is an error naming it;
  - with --order, webrank's database is built in that id order and still compared by label;
  - with --gap, GAP's pr (here tests/cli/fake_gap_pr.py, which follows GAP's command line,
    input rules and output lines: GAP is not in Debian) gets a comment-free .el copy and the
    float tolerance, its timers and iterations are read, and its ratios are against the row of
    webrank --dangling leak, the same problem.
"""

import json
import os
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True  # keep tests/cli free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPARE = os.path.join(REPO, "bench", "compare")
CRAWL_VS_WGET = os.path.join(REPO, "bench", "crawl-vs-wget")
MAKE_DOC_SITE = os.path.join(REPO, "bench", "make-doc-site")

MTX = """%%MatrixMarket matrix coordinate pattern general
% five pages; entry (i, j) is the link i -> j
5 5 7
1 2
2 3
3 1
4 1
4 5
5 4
1 3
"""


class RingOfCopies(WebrankTestCase):
    def test_copies_keep_their_components_and_the_ring_joins_them(self):
        # a 4-cycle with a chord; 4 copies, 2 link pairs between neighbours
        src = self.path("small.txt")
        with open(src, "w") as f:
            f.write("# comment\n0\t1\n1\t2\n2\t3\n3\t0\n0\t2\n")
        with open(self.path("ring.txt"), "w") as out:
            subprocess.run([os.path.join(REPO, "bench", "ring-of-copies"), "4", src, "--pairs", "2"],
                           check=True, stdout=out)
        links = [tuple(map(int, l.split())) for l in open(self.path("ring.txt"))]
        self.assertEqual(len(links), 4 * 5 + 4 * 2 * 2)
        for c in range(4):
            self.assertIn((3 + 4 * c, 4 * c), links)  # copy c, shifted by 4 labels
        ring = [(s, t) for s, t in links if s // 4 != t // 4]
        self.assertEqual(sorted((s // 4, t // 4) for s, t in ring),
                         sorted([(c, (c + 1) % 4) for c in range(4)] * 2 +
                                [((c + 1) % 4, c) for c in range(4)] * 2))
        # every pair goes both ways: the copies become one component
        self.assertTrue(all((t, s) in links for s, t in ring))
        self.wr("build", "ring.txt", "-o", "db")
        self.wr("rank", "db", "--method", "gauss-seidel", "--name", "gs")
        with open(self.path("db/ranks/gs.json")) as f:
            meta = json.load(f)
        self.assertEqual((meta["components"], meta["largest_component_pages"]), (1, 16))

    def test_bad_line_is_named(self):
        src = self.path("bad.txt")
        with open(src, "w") as f:
            f.write("0\t1\nx\ty\n")
        res = subprocess.run([os.path.join(REPO, "bench", "ring-of-copies"), "2", src],
                             capture_output=True, text=True)
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("bad.txt:2: expected SOURCE TARGET", res.stderr)
        res = subprocess.run([os.path.join(REPO, "bench", "ring-of-copies"), "2", "missing.txt"],
                             capture_output=True, text=True)
        self.assertNotEqual(res.returncode, 0)
        self.assertIn("missing.txt: No such file or directory", res.stderr)


class ExportIds(WebrankTestCase):
    def test_ids_are_page_ids_and_rebuild_the_same_web(self):
        src = self.write("urls.txt", "http://a/ http://b/\nhttp://b/ http://c/\n"
                                     "http://c/ http://a/\nhttp://d/ http://a/\n")
        self.build(src, "db")
        out = self.wr("export", "db", "--ids").out
        self.assertEqual(out, "0\t1\n1\t2\n2\t0\n3\t0\n")
        labels = self.wr("export", "db").out.split("\n")
        self.assertEqual(labels[0], "http://a/\thttp://b/")
        self.wr("export", "db", "--pages", "--ids", expect=2)


class Compare(WebrankTestCase):
    def compare(self, *graphs, expect=0, peers="networkx", extra=(), env=None):
        scratch = self.path("scratch")
        argv = ["/usr/bin/python3", COMPARE, *graphs, *extra, "--peers", peers, "--runs", "1",
                "--no-probe", "--threads", "1", "--scratch", scratch, "--webrank",
                wrcli.WEBRANK, "--web-pages", "2000", "--web-links", "12000", "--json",
                self.path("out.json")]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=600,
                           env=dict(os.environ, **(env or {})))
        if p.returncode != expect:
            self.fail("bench/compare exit %d (expected %d)\n%s\n%s"
                      % (p.returncode, expect, p.stdout[-3000:], p.stderr[-3000:]))
        return p

    def rows(self, graph):
        self.assertIsNone(graph.get("error"), graph.get("error"))
        return {r["key"]: r for r in graph["rows"]}

    def test_converted_inputs_rank_as_the_originals(self):
        mtx = self.write("tiny.mtx", MTX)
        self.wr("generate", "--model", "web", "--pages", "1500", "--links", "9000", "-o",
                "urls.txt")
        self.compare(mtx, self.path("urls.txt"), "web")
        with open(self.path("out.json")) as f:
            results = json.load(f)
        graphs = {g["graph"]: g for g in results["graphs"]}
        self.assertEqual(sorted(graphs), ["tiny", "urls", "web-2000-12000"])
        for name, source in (("tiny", mtx), ("urls", self.path("urls.txt"))):
            g = graphs[name]
            rows = self.rows(g)
            self.assertEqual(sorted(rows), ["networkx", "webrank-auto-double", "webrank-double",
                                            "webrank-float", "webrank-gs-double"])
            self.assertRegex(rows["webrank-auto-double"]["tool"],
                             r"^webrank auto \((power|gauss-seidel)\)$")
            for key, tol in (("webrank-double", 1e-8), ("webrank-gs-double", 1e-8),
                             ("webrank-auto-double", 1e-8), ("networkx", 1e-8),
                             ("webrank-float", 1e-4)):
                self.assertLessEqual(rows[key]["l1_to_reference"], tol, f"{name} {key}")
            # The peers' input is numbered by the original's page ids: map the reference back
            # through the labels of a database built from the original input.
            db = self.build(source, name + ".db")
            labels = self.wr("export", db, "--pages").out.splitlines()[1:]
            by_id = [line.split("\t")[0] for line in labels]
            self.assertEqual(g["pages"], len(by_id), name)
            _, direct = self.rank(db, "--tol", "1e-13", out=name + ".tsv")
            ref = wrcli.ranks_dict(wrcli.read_rank_file(
                os.path.join(self.path("scratch"), name, "reference.tsv")))
            self.assertRanksClose({by_id[int(k)]: v for k, v in ref.items()}, direct, 1e-10,
                                  msg=name)
        self.assertGreater(graphs["web-2000-12000"]["pages"], 1000)

    def test_order_builds_webranks_database_in_that_order_and_compares_by_label(self):
        self.compare("web", extra=["--order", "degree", "--no-auto"])
        with open(self.path("out.json")) as f:
            (g,) = json.load(f)["graphs"]
        rows = self.rows(g)
        for key, tol in (("webrank-double", 1e-8), ("webrank-gs-double", 1e-8),
                         ("networkx", 1e-8), ("webrank-float", 1e-4)):
            self.assertLessEqual(rows[key]["l1_to_reference"], tol, key)
        with open(os.path.join(self.path("scratch"), g["graph"], "webrank.db",
                               "manifest.json")) as f:
            self.assertEqual(json.load(f)["order"], "degree")

    def test_gap_row_reads_gap_output_and_compares_with_the_leaking_problem(self):
        # SNAP-style: comment lines (which would silently end GAP's input), a self-link, a
        # duplicate link, and id 7 that never appears (GAP counts it as a page, webrank not).
        lines = ["# Directed graph", "# FromNodeId\tToNodeId"]
        links = [(0, 1), (1, 2), (2, 0), (3, 0), (3, 3), (4, 5), (5, 4), (1, 2), (0, 8), (6, 1)]
        lines += [f"{u}\t{v}" for u, v in links]
        src = self.write("snap.txt", "\n".join(lines) + "\n")
        log = self.path("gap-args.log")
        fake = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_gap_pr.py")
        p = self.compare(src, peers="", extra=["--gap", fake, "--no-auto", "--no-gauss-seidel",
                                               "--whole-command", "--no-python"],
                         env={"FAKE_GAP_LOG": log})
        with open(self.path("out.json")) as f:
            graph = json.load(f)["graphs"][0]
            rows = self.rows(graph)
        self.assertEqual(sorted(rows), ["gap-float", "webrank-double", "webrank-float",
                                        "webrank-leak-float"])
        gap, leak = rows["gap-float"], rows["webrank-leak-float"]
        self.assertEqual(gap["runs"], 1, gap.get("error"))
        self.assertIsNone(gap["l1_to_reference"])  # GAP does not write its vector
        self.assertIsNone(leak["l1_to_reference"])  # another problem than the reference's
        self.assertGreater(gap["iterations"], 3)
        self.assertTrue(gap["converged"])
        self.assertLess(gap["final_delta"], 1e-6)
        self.assertEqual(gap["warning"], "9 pages, webrank has 8 (GAP counts every id up to the "
                         "largest as a page); 8 links, webrank has 9 (GAP drops self-links)")
        self.assertAlmostEqual(gap["rank_x_webrank"], gap["rank_seconds"] / leak["rank_seconds"])
        # The whole command beside the solver: a process takes longer than its solve.
        for row in rows.values():
            self.assertGreater(row["whole_seconds"], row["rank_seconds"], row["key"])
        self.assertAlmostEqual(gap["rank_x_webrank_whole"],
                               gap["rank_seconds"] / leak["whole_seconds"])
        # The like-for-like targets (docs/performance.md, "Against GAP and PRPACK"): solver against
        # kernel, process against process.
        solver, whole = graph["targets"]
        self.assertAlmostEqual(solver["ratio"], leak["rank_seconds"] / gap["rank_seconds"])
        self.assertEqual(solver["goal"], 0.5)
        self.assertAlmostEqual(whole["ratio"], leak["whole_seconds"] / gap["whole_seconds"])
        self.assertEqual(whole["met"], whole["ratio"] <= 0.5)
        self.assertIn("(float) solver / GAP pr kernel: **", p.stdout)
        self.assertIn("(float) whole command / GAP pr whole process: **", p.stdout)
        # bench/targets: the same ratios, one row per graph and thread count
        table = subprocess.run([os.path.join(REPO, "bench", "targets"), self.path("out.json")],
                               capture_output=True, text=True, check=True).stdout.splitlines()
        self.assertEqual(len(table), 3, table)
        cells = [c.strip() for c in table[2].strip("|").split("|")]
        self.assertTrue(cells[0].startswith("snap (8 pages, 9 links)"), cells)
        self.assertEqual(cells[1], "1")
        for cell, target in ((cells[3], solver), (cells[4], whole)):
            self.assertEqual(cell.strip("*"), "%.2f" % target["ratio"])
            self.assertEqual(cell.startswith("**"), target["met"])
        self.assertEqual(cells[5:7], ["—", "—"])  # no Python row, no PRPACK in this run
        self.assertIn("| rank s | whole s |", p.stdout)
        with open(log) as f:
            argv = f.read().split()
        self.assertIn("-l", argv)  # GAP prints its iterations only when logging
        el = argv[argv.index("-f") + 1]
        self.assertEqual(argv[argv.index("-t") + 1], "1e-06")
        self.assertEqual(argv[argv.index("-n") + 1], "1")
        with open(el) as f:
            self.assertEqual(f.read(), "".join(f"{u} {v}\n" for u, v in links))
        # webrank's leaking ranks: rank lost to dangling pages and nowhere else.
        db = os.path.join(self.path("scratch"), "snap", "webrank.db")
        with open(os.path.join(db, "ranks", "bench-webrank-leak-float.json")) as f:
            self.assertEqual(json.load(f)["dangling"], "leak")

    def test_python_row_times_database_rank_against_gaps_kernel(self):
        python = os.path.join(os.path.dirname(wrcli.WEBRANK), "venv", "bin", "python")
        if not os.path.exists(python):
            self.skipTest(f"no {python} (cmake --build BUILD --target webrank_venv)")
        src = self.write("ring.txt", "".join(f"{i} {(i + 1) % 6}\n" for i in range(6)) + "2 7\n")
        fake = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_gap_pr.py")
        p = self.compare(src, peers="", extra=["--gap", fake, "--no-auto", "--no-gauss-seidel",
                                               "--whole-command", "--python", python])
        with open(self.path("out.json")) as f:
            graph = json.load(f)["graphs"][0]
        rows = self.rows(graph)
        py, gap = rows["python-leak-auto-float"], rows["gap-float"]
        self.assertEqual(py["runs"], 1, py.get("error"))
        self.assertTrue(py["converged"])
        self.assertLess(py["final_delta"], 1e-6)
        self.assertIsNotNone(py["load_seconds"])  # import and open, outside the timed call
        self.assertAlmostEqual(py["rank_x_webrank"],
                               py["rank_seconds"] / rows["webrank-leak-float"]["rank_seconds"])
        (target,) = [t for t in graph["targets"] if t["webrank"] == "python-leak-auto-float"]
        self.assertAlmostEqual(target["ratio"], py["rank_seconds"] / gap["rank_seconds"])
        self.assertEqual(target["goal"], 1.0)
        self.assertIn("Database.rank --dangling leak", p.stdout)
        # The call stored its vector, as a user's does, with the leaking problem's record.
        db = os.path.join(self.path("scratch"), "ring", "webrank.db")
        with open(os.path.join(db, "ranks", "bench-python.json")) as f:
            record = json.load(f)
        self.assertEqual((record["dangling"], record["precision"]), ("leak", "float"))

    def test_targets_refuses_what_compare_did_not_write(self):
        notes = self.write("notes.md", "# not results\n")
        for path, words in ((notes, "not JSON"), (self.write("list.json", "[1]"), "no 'graphs'"),
                            (self.path("missing.json"), "No such file")):
            p = subprocess.run([os.path.join(REPO, "bench", "targets"), path],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertEqual(p.stdout, "")  # no table begun
            self.assertIn(path, p.stderr)
            self.assertIn(words, p.stderr)

    def test_python_that_is_not_executable_is_an_error(self):
        p = self.compare(self.path("x.txt"), extra=["--python", self.path("nope")], expect=2)
        self.assertIn("--python", p.stderr)

    def test_gap_that_is_not_executable_is_an_error(self):
        p = self.compare(self.path("x.txt"), extra=["--gap", self.path("nope")], expect=2)
        self.assertIn("--gap", p.stderr)

    def test_missing_graph_is_named(self):
        p = self.compare(self.path("no-such-graph.txt"), expect=1)
        self.assertIn("no-such-graph.txt: no such file", p.stderr)


class CrawlVsWget(WebrankTestCase):
    """bench/crawl-vs-wget and bench/make-doc-site on a 60-page site, one run, loopback only."""

    def test_both_tools_fetch_the_whole_generated_site(self):
        site = self.path("site")
        subprocess.run([MAKE_DOC_SITE, site, "--pages", "60", "--seed", "3"], check=True,
                       timeout=60)
        files = sorted(os.path.relpath(os.path.join(d, f), site)
                       for d, _, fs in os.walk(site) for f in fs)
        # the contents, one section index, 60 pages; the same arguments give the same site
        self.assertEqual(len(files), 62)
        again = self.path("again")
        subprocess.run([MAKE_DOC_SITE, again, "--pages", "60", "--seed", "3"], check=True,
                       timeout=60)
        for f in files:
            with open(os.path.join(site, f), "rb") as a, open(os.path.join(again, f), "rb") as b:
                self.assertEqual(a.read(), b.read(), f)
        p = subprocess.run([CRAWL_VS_WGET, site, "index.html", "--runs", "1", "--webrank",
                            wrcli.WEBRANK, "--scratch", self.path("scratch")],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
        rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
                for line in p.stdout.splitlines() if line.startswith("| w")}
        self.assertEqual(sorted(rows), ["webrank", "wget"])
        for tool in ("webrank", "wget"):
            self.assertEqual(rows[tool][1], "62", tool)  # pages fetched
        self.assertNotIn("warning", p.stdout)
        self.assertRegex(p.stdout, r"webrank / wget wall time, per pair: [0-9.]+; median")
        # the timed crawl built no search index (wget builds none)
        self.assertFalse(os.path.exists(os.path.join(self.path("scratch"), "w.db",
                                                     "search.xapian")))


if __name__ == "__main__":
    wrcli.main()
