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
  - a missing graph is an error naming it.
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
    def compare(self, *graphs, expect=0):
        scratch = self.path("scratch")
        argv = ["/usr/bin/python3", COMPARE, *graphs, "--peers", "networkx", "--runs", "1",
                "--no-probe", "--threads", "1", "--scratch", scratch, "--webrank",
                wrcli.WEBRANK, "--web-pages", "2000", "--web-links", "12000", "--json",
                self.path("out.json")]
        p = subprocess.run(argv, capture_output=True, text=True, timeout=600)
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

    def test_missing_graph_is_named(self):
        p = self.compare(self.path("no-such-graph.txt"), expect=1)
        self.assertIn("no-such-graph.txt: no such file", p.stderr)


if __name__ == "__main__":
    wrcli.main()
