#!/usr/bin/python3
"""The data of `webrank report` (docs/studies.md), against NetworkX and closed forms: degree
histograms, strongly connected components and the bow-tie around the largest, the power-law fits
(maximum likelihood at the x_min chosen, Clauset, Shalizi and Newman's eq. 3.7 for degrees; the
exponent of samples drawn from a known power law), the convergence series as `rank` stored them,
and the page written atomically. The page itself is opened in Chromium by
tests/browser/report.test.cjs.

Run:  /usr/bin/python3 tests/cli/test_report.py --webrank build/webrank [-v]
"""

import collections
import json
import math
import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402

import networkx as nx  # noqa: E402


class Report(WebrankTestCase):

    def setUp(self):
        super().setUp()
        self.wr("generate", "--pages", "1500", "--links", "9000", "--seed", "3", "-o", "web.tsv",
                "-q")
        self.build("web.tsv", "w.db")
        self.wr("rank", "w.db", "-q")
        self.wr("rank", "w.db", "--method", "gauss-seidel", "--name", "gs", "-q", expect=None)
        with open(self.path("web.tsv")) as f:
            self.links = {tuple(l.rstrip("\n").split("\t")[:2]) for l in f if l.strip()}
        self.G = nx.DiGraph()
        self.G.add_edges_from(self.links)

    def data(self, *extra):
        return json.loads(self.wr("report", "w.db", "--json", "-o", "-", *extra).out)

    def test_degrees_and_components_against_networkx(self):
        j = self.data()
        G = self.G
        for side, degree in (("in", G.in_degree), ("out", G.out_degree)):
            hist = collections.Counter(d for _, d in degree())
            got = dict(zip(j["degrees"][side]["x"], j["degrees"][side]["y"]))
            if len(hist) - (0 in hist) <= 100:  # not log-binned
                self.assertEqual(got, {k: v for k, v in hist.items() if k > 0}, side)
            self.assertEqual(j["degrees"][side + "_zero"], hist.get(0, 0), side)
            fit = j["degrees"][side + "_fit"]
            if fit["ok"]:  # the MLE at the x_min chosen (integers: x_min - 1/2)
                tail = [d for _, d in degree() if d >= fit["x_min"]]
                alpha = 1 + len(tail) / sum(math.log(d / (fit["x_min"] - 0.5)) for d in tail)
                self.assertEqual(fit["tail"], len(tail))
                self.assertAlmostEqual(fit["alpha"], alpha, places=9)
        sccs = list(nx.strongly_connected_components(G))
        core = max(sccs, key=len)
        c = j["components"]
        self.assertEqual((c["components"], c["largest"], c["core"]),
                         (len(sccs), len(core), len(core)))
        v = next(iter(core))
        reach_in = nx.ancestors(G, v) - core
        reach_out = nx.descendants(G, v) - core
        self.assertEqual((c["in"], c["out"], c["other"]),
                         (len(reach_in), len(reach_out),
                          G.number_of_nodes() - len(core) - len(reach_in) - len(reach_out)))
        sizes = collections.Counter(len(s) for s in sccs)
        self.assertEqual(dict(zip(c["sizes"]["x"], c["sizes"]["y"])), dict(sizes))

    def test_convergence_series_are_the_stored_deltas(self):
        j = self.data()
        info = json.loads(self.wr("info", "w.db", "--json").out)
        names = [s["name"] for s in j["convergence"]]
        self.assertIn("pagerank", names)
        with open(self.path("w.db/ranks/pagerank.json")) as f:
            meta = json.load(f)
        series = next(s for s in j["convergence"] if s["name"] == "pagerank")
        self.assertEqual(series["deltas"], meta["deltas"])
        self.assertEqual(len(j["top"]), len(info["ranks"]))
        self.assertEqual(len(j["top"][0]["pages"]), 20)
        self.assertEqual(self.data("-k", "5")["top"][0]["pages"][0]["label"],
                         j["top"][0]["pages"][0]["label"])
        ccdf = j["distribution"]["ccdf"]
        self.assertEqual(ccdf["y"], sorted(ccdf["y"], reverse=True))
        self.assertEqual(ccdf["y"][0], 1.0)

    def test_power_law_of_known_exponent(self):
        # In-degrees drawn from P(K >= k) ~ k^-1.5, a power law of exponent 2.5.
        rnd = random.Random(11)
        n = 4000
        degrees = [max(1, int(1 / (1 - rnd.random()) ** (1 / 1.5))) for _ in range(n)]
        links = []
        for v, k in enumerate(degrees):
            for _ in range(min(k, n - 1)):
                links.append(("p%d" % rnd.randrange(n), "p%d" % v))
        self.write("pl.tsv", "".join("%s\t%s\n" % l for l in links))
        self.build("pl.tsv", "pl.db")
        j = json.loads(self.wr("report", "pl.db", "--json", "-o", "-").out)
        fit = j["degrees"]["in_fit"]
        self.assertTrue(fit["ok"])
        self.assertAlmostEqual(fit["alpha"], 2.5, delta=0.15)

    def test_written_atomically(self):
        self.write("r.html", "previous")
        self.wr("report", "w.db", "-o", "r.html", "--ranks", "nope", expect=1)
        with open(self.path("r.html")) as f:
            self.assertEqual(f.read(), "previous")
        self.wr("report", "w.db", "-o", "r.html", "--title", "<b>x</b>", "-q")
        with open(self.path("r.html")) as f:
            page = f.read()
        self.assertNotIn("<b>x</b>", page)
        self.assertNotIn("http://", page.split("<script")[0].lower().replace("http://www.w3.org",
                                                                             ""))


if __name__ == "__main__":
    wrcli.main()
