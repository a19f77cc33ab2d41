#!/usr/bin/python3
"""Trust and spam through the command line: `trust`, `seeds`, `spam-report`, `plant-farm`.

  * TrustRank equals a personalized rank over the seeds (`rank --personalize`, to 1e-12) and
    NetworkX's and igraph's personalized PageRank (1e-9 in L1);
  * spam mass on the article's farm (SPEC 1.8) against values computed by hand, in closed form;
  * the article's amplification y = x/(2β − β²) on a planted farm (SPEC 2.8), exactly with the
    β/N terms and approximately without them, the error shrinking with N;
  * seeds by inverse PageRank against NetworkX on the reversed graph;
  * spam-report finds planted farms of each shape with their supporters.

Run:  /usr/bin/python3 tests/cli/test_spam.py --webrank build/webrank [-v]
"""

import json
import os
import random
import sys
import warnings

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402

import networkx as nx  # noqa: E402
import igraph  # noqa: E402


def nx_rank(labels, links, d, E=None, reverse=False):
    G = nx.DiGraph()
    G.add_nodes_from(labels)
    G.add_edges_from((v, u) if reverse else (u, v) for u, v in links)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return nx.pagerank(G, alpha=d, personalization=E, tol=1e-15, max_iter=100000)


def read_table(path):
    with open(path) as f:
        header = f.readline().rstrip("\n")
        rows = {}
        for line in f:
            label, p, t, m = line.rstrip("\n").split("\t")
            rows[label] = (float(p), float(t), float(m))
    return header, rows


def random_links(seed, n):
    rng = random.Random(seed)
    links = set()
    for i in range(n):
        if i % 5 == 4:
            continue
        for j in rng.sample(range(n), rng.randint(1, 6)):
            links.add(("p%d" % i, "p%d" % j))
    return ["p%d" % i for i in range(n)], sorted(links)


class Spam(WebrankTestCase):
    def web(self, links, labels=(), db="db"):
        text = "".join("%s\t%s\n" % l for l in links) + "".join(l + "\n" for l in labels)
        self.write(db + ".tsv", text)
        self.build(db + ".tsv", db=db, extra=("--force",))

    def test_trustrank_is_personalized_rank_and_table(self):
        labels, links = random_links(1, 250)
        self.web(links, labels)
        seeds = ["p0", "p17", "p42"]
        self.write("seeds.txt", "# trusted\n" + "\n".join(seeds) + "\n")
        self.wr("trust", "db", "--seeds", "seeds.txt", "--tol", "1e-12", "--out", "t.tsv", "-q")
        header, rows = read_table(self.path("t.tsv"))
        self.assertEqual(header, "label\tpagerank\ttrustrank\tspam_mass")
        self.assertEqual(sorted(rows), sorted(labels))
        E = {s: 1.0 for s in seeds}
        _, alone = self.rank("db", "--tol", "1e-12", "--name", "x",
                             *sum((["--personalize", s] for s in seeds), []))
        trust = {l: r[1] for l, r in rows.items()}
        self.assertRanksClose(trust, alone, 1e-12, msg="TrustRank vs rank --personalize")
        self.assertRanksClose(trust, nx_rank(labels, links, 0.85, E), 1e-9, msg="vs NetworkX")
        idx = {l: i for i, l in enumerate(labels)}
        g = igraph.Graph(n=len(labels), edges=[(idx[u], idx[v]) for u, v in links], directed=True)
        ig = dict(zip(labels, g.personalized_pagerank(
            damping=0.85, reset=[1.0 if l in E else 0.0 for l in labels],
            implementation="prpack")))
        self.assertRanksClose(trust, ig, 1e-9, msg="vs igraph")
        pr = nx_rank(labels, links, 0.85)
        self.assertRanksClose({l: r[0] for l, r in rows.items()}, pr, 1e-9, msg="PageRank")
        for l, (p, t, m) in rows.items():
            self.assertAlmostEqual(m, (p - t) / p, delta=1e-12)
        # The good core's scaling, and the absolute mass.
        self.wr("trust", "db", "--seeds", "seeds.txt", "--good-fraction", "0.8", "--absolute",
                "--out", "a.tsv", "-q")
        _, rows = read_table(self.path("a.tsv"))
        for l, (p, t, m) in rows.items():
            self.assertAlmostEqual(m, p - 0.8 * t, delta=1e-15)
        verdicts = {v["name"]: v for v in json.loads(self.wr(
            "check", "db", "--json", "--ranks", "trustrank", "--ranks", "spam-mass").out)}
        self.assertTrue(verdicts["trustrank"]["ok"])
        self.assertFalse(verdicts["spam-mass"]["checkable"])
        self.wr("trust", "db", "--seeds", self.write("bad.txt", "p1\nnowhere\n"), expect=1)
        self.wr("trust", "db", "--seeds", "seeds.txt", "--good-fraction", "1.5", expect=2)

    def test_spam_mass_of_the_articles_farm_by_hand(self):
        # A good page G (the seed) and an accessible page A link to each other; A also links to
        # the target T (A is where the spammer posted), T links to its m supporters, which link
        # only to T. No dangling pages, so by hand (β = 1 − d, N = m + 3):
        #   TrustRank (E = G):  t_G = β/(1 − d²/2), t_A = d·t_G, t_T = d·t_A/(2(1 − d²)),
        #                       t_s = d·t_T/m
        #   PageRank (uniform): p_G = (β/N)(1 + d/2)/(1 − d²/2), p_A = β/N + d·p_G,
        #                       p_T = (x + β/N + m(1 − β)β/N)/(2β − β²) with x = d·p_A/2
        #                       (the article's y, its β/n terms kept), p_s = β/N + d·p_T/m
        m, d = 9, 0.85
        b, n = 1 - d, m + 3
        links = [("G", "A"), ("A", "G"), ("A", "T")] + [("T", "s%d" % i) for i in range(m)] + \
            [("s%d" % i, "T") for i in range(m)]
        self.web(links)
        self.write("seeds.txt", "G\n")
        self.wr("trust", "db", "--seeds", "seeds.txt", "--tol", "1e-14", "--out", "t.tsv", "-q")
        _, rows = read_table(self.path("t.tsv"))
        tG = b / (1 - d * d / 2)
        tA = d * tG
        tT = d * tA / (2 * (1 - d * d))
        pG = (b / n) * (1 + d / 2) / (1 - d * d / 2)
        pA = b / n + d * pG
        x = d * pA / 2
        pT = (x + b / n + m * (1 - b) * b / n) / (2 * b - b * b)
        pS = b / n + d * pT / m
        self.assertAlmostEqual(tG + tA + tT + d * tT, 1.0, places=14)  # the hand values sum to 1
        want = {"G": (pG, tG), "A": (pA, tA), "T": (pT, tT), "s0": (pS, d * tT / m)}
        for label, (p, t) in want.items():
            self.assertAlmostEqual(rows[label][0], p, delta=1e-13, msg=label)
            self.assertAlmostEqual(rows[label][1], t, delta=1e-13, msg=label)
            self.assertAlmostEqual(rows[label][2], (p - t) / p, delta=1e-11, msg=label)
        # The target has positive spam mass, the seed negative.
        self.assertGreater(rows["T"][2], 0)
        self.assertLess(rows["G"][2], 0)

    def test_amplification_of_a_planted_farm(self):
        # y = x/(2β − β²) up to the β/N terms (SPEC 1.8, 2.8), on generated webs of two sizes.
        errors = []
        for n in (1000, 4000):
            self.wr("generate", "--pages", n, "--links", 6 * n, "--seed", 3, "-o", "g.tsv")
            self.build("g.tsv", db="g", extra=("--force",))
            m, d = 50, 0.8
            b = 1 - d
            self.wr("plant-farm", "g", "--target", "T", "--supporters", m, "--accessible", 5,
                    "-o", "f", "--force", "--truth", "truth.tsv", "-q")
            accessible = [l.split("\t")[0] for l in open(self.path("truth.tsv"))
                          if "\taccessible\t" in l]
            self.assertEqual(len(accessible), 5)
            self.wr("rank", "f", "--damping", d, "--tol", "1e-14", "--out", "r.tsv", "-q")
            r = wrcli.ranks_dict(wrcli.read_rank_file(self.path("r.tsv")))
            out = {}
            for line in self.wr("export", "f").out.splitlines():
                u, _ = line.split("\t")
                out[u] = out.get(u, 0) + 1
            N = len(r)
            x = sum(d * r[a] / out[a] for a in accessible)
            dangling = sum(v for l, v in r.items() if l not in out)
            base = (b + d * dangling) / N  # teleport plus dangling rank, per page
            exact = (x + base + m * (1 - b) * base) / (2 * b - b * b)
            self.assertAlmostEqual(r["T"], exact, delta=1e-12 * r["T"])
            approx = x / (2 * b - b * b)
            self.assertAlmostEqual(1 / (2 * b - b * b), 2.7778, places=4)
            errors.append(abs(r["T"] - approx))
        self.assertLess(errors[1], errors[0] / 2, errors)

    def test_seeds_by_inverse_pagerank(self):
        labels, links = random_links(2, 200)
        self.web(links, labels)
        res = self.wr("seeds", "db", "-k", "10", "--json", "--tol", "1e-12", "--out", "s.txt")
        got = json.loads(res.out)
        inv = nx_rank(labels, links, 0.85, reverse=True)
        want = sorted(labels, key=lambda l: (-inv[l], labels.index(l)))[:10]
        self.assertEqual([s["label"] for s in got], want)
        for s in got:
            self.assertAlmostEqual(s["inverse_pagerank"], inv[s["label"]], delta=1e-10)
        lines = open(self.path("s.txt")).read().splitlines()
        self.assertTrue(lines[0].startswith("#"))
        self.assertEqual(lines[1:], want)
        self.wr("trust", "db", "--seeds", "s.txt", "-q")  # the list reads back as seeds

    def test_report_finds_planted_farms(self):
        self.wr("generate", "--pages", 3000, "--links", 20000, "--seed", 5, "-o", "g.tsv")
        self.build("g.tsv", db="g")
        db, planted = "g", {}
        for i, (shape, extra) in enumerate((("star", []), ("chain", []),
                                            ("alliance", ["--farms", "2"]),
                                            ("hidden", ["--camouflage", "2"]))):
            out = "f%d" % i
            self.wr("plant-farm", db, "--target", "spam%d" % i, "--supporters", 150,
                    "--accessible", 3, "--shape", shape, "-o", out, "--truth", out + ".truth",
                    "-q", *extra)
            for line in open(self.path(out + ".truth")):
                label, role, target = line.rstrip("\n").split("\t")
                if role == "supporter":
                    planted.setdefault(target, set()).add(label)
            db = out
        report = json.loads(self.wr("spam-report", db, "--json", "-k", "1000").out)
        farms = {f["label"]: f for f in report["farms"]}
        for target in ("spam0", "spam2", "spam2~2", "spam3"):
            self.assertIn(target, farms)
            self.assertEqual(set(farms[target]["supporter_labels"]), planted[target], target)
            self.assertGreater(farms[target]["farm_share"], 0.5)
        s = farms["spam0"]["structure"]
        self.assertEqual((s["supporters"], s["mean_out_degree"], s["reciprocal"]), (150, 1.0, 150))
        self.assertEqual(farms["spam2"]["allied_target_labels"], ["spam2~2"])
        self.assertEqual(farms["spam3"]["structure"]["mean_out_degree"], 3.0)
        # A chain barely amplifies its target (about 3x the average rank): reported only when the
        # candidates' threshold is lowered.
        self.assertNotIn("spam1", farms)
        low = json.loads(self.wr("spam-report", db, "--json", "--min-scaled-pagerank", "2").out)
        self.assertIn("spam1", {f["label"] for f in low["farms"]})
        # With trusted seeds: the farms' spam mass is reported, and a trusted look-alike is not.
        self.write("seeds.txt", "".join("http://host%d.example/\n" % h for h in range(0, 36, 3)))
        with_trust = json.loads(self.wr("spam-report", db, "--seeds", "seeds.txt", "--json").out)
        self.assertTrue(with_trust["used_trust"])
        for f in with_trust["farms"]:
            self.assertGreaterEqual(f["farm_mass"], 0.9)
        text = self.wr("spam-report", db, "-k", "2").out
        self.assertIn("supporting pages", text)

    def test_plant_farm_keeps_the_web_and_refuses_to_lose_data(self):
        labels, links = random_links(3, 100)
        self.web(links, labels)
        self.wr("rank", "db", "-q")
        res = self.wr("plant-farm", "db", "--target", "p1", "--supporters", 3, expect=1)
        self.assertIn("rank vectors", res.err)
        self.wr("plant-farm", "db", "--target", "p1", "--supporters", 3, "--accessible", 2,
                "-o", "new", "--truth", "t.tsv", "-q")
        old = set(self.wr("export", "db").out.splitlines())
        new = set(self.wr("export", "new").out.splitlines())
        self.assertTrue(old <= new)
        added = new - old
        self.assertEqual(len(added), 3 * 2 + 2 - len({l for l in added if l in old}))
        # Page ids of the old web are kept: the first 100 labels are the same, in order.
        pages_old = self.wr("export", "db", "--pages").out.splitlines()[1:]
        pages_new = self.wr("export", "new", "--pages").out.splitlines()[1:]
        self.assertEqual([p.split("\t")[0] for p in pages_old],
                         [p.split("\t")[0] for p in pages_new[:100]])
        roles = [l.split("\t")[1] for l in open(self.path("t.tsv"))]
        self.assertEqual(roles.count("supporter"), 3)
        self.wr("plant-farm", "db", "--target", "p1", "--supporters", 3, "-o", "new", expect=1)
        self.wr("plant-farm", "db", "--target", "p1", "--supporters", 0, expect=2)
        self.wr("plant-farm", "db", "--target", "p1", "--supporters", 3, "--force", "-q")
        self.assertIn("p1~s3", self.wr("export", "db").out)


if __name__ == "__main__":
    wrcli.main()
