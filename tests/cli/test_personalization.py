#!/usr/bin/python3
"""Personalized and topic-sensitive ranking through the command line: `rank --batch`,
`--root-pages`, `--bookmarks`, `topics`, `top --topics`, `ppr` and `compare`.

Every personalized and topic vector is held to NetworkX's `personalization` and igraph's
`reset` (PRPACK) at 1e-9 in L1, and to a separate `webrank rank` run of the same source at
1e-12 (the batch sums each vector in the order a single run does); push answers are held to
their own stated bounds against the exact vector.

Run:  /usr/bin/python3 tests/cli/test_personalization.py --webrank build/webrank [-v]
"""

import gzip
import json
import os
import random
import sys
import unittest
import warnings

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase, ranks_dict, read_rank_file  # noqa: E402

import networkx as nx  # noqa: E402
import igraph  # noqa: E402

L1_REF = 1e-9
DATA = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                     "shared", "data"))
NO_DATA = "../shared/data not found: real-graph tests skipped"


def random_web(seed, n=300, weighted=False, urls=False):
    """(text, labels, links {(u, v): w}): dangling pages, self-links, duplicate lines."""
    rng = random.Random(seed)
    if urls:
        labels = ["http://h%d.example.org/%s" % (i % 17, "" if i < 17 else "p%d" % i)
                  for i in range(n)]
    else:
        labels = ["p%d" % i for i in range(n)]
    links = {}
    lines = []
    for i in range(n):
        if i % 6 == 5:
            continue  # dangling
        for j in rng.sample(range(n), rng.randint(1, 8)):
            w = rng.randint(1, 5) if weighted else 1
            links[(labels[i], labels[j])] = links.get((labels[i], labels[j]), 0) + w
            lines.append("%s\t%s%s" % (labels[i], labels[j], "\t%d" % w if weighted else ""))
        if rng.random() < 0.1:
            lines.append(lines[-1])  # a duplicate line: weights add, unweighted counts once
            if weighted:
                u, v, w = lines[-1].split("\t")
                links[(u, v)] += int(w)
    for lab in labels:
        lines.append(lab)  # declares every page, in order
    rng.shuffle(lines)
    return "\n".join(lines) + "\n", labels, links


def nx_rank(labels, links, d, E=None, dangling=None):
    G = nx.DiGraph()
    G.add_nodes_from(labels)
    for (u, v), w in links.items():
        G.add_edge(u, v, weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return nx.pagerank(G, alpha=d, personalization=E, dangling=dangling, weight="weight",
                           tol=1e-15, max_iter=100000)


def ig_rank(labels, links, d, E=None, weighted=False):
    idx = {lab: i for i, lab in enumerate(labels)}
    g = igraph.Graph(n=len(labels), edges=[(idx[u], idx[v]) for (u, v) in links], directed=True)
    reset = None if E is None else [float(E.get(lab, 0.0)) for lab in labels]
    r = g.personalized_pagerank(directed=True, damping=d, reset=reset,
                                weights=list(links.values()) if weighted else None,
                                implementation="prpack")
    return dict(zip(labels, r))


class Personalization(WebrankTestCase):
    def web(self, seed, weighted=False, urls=False, n=300):
        text, labels, links = random_web(seed, n=n, weighted=weighted, urls=urls)
        self.write("web.tsv", text)
        self.build("web.tsv", extra=("--force",) + (("--weighted",) if weighted else ()))
        return labels, links

    def test_batch_matches_separate_runs_networkx_and_igraph(self):
        for seed, weighted in ((1, False), (2, True)):
            labels, links = self.web(seed, weighted=weighted)
            rng = random.Random(seed)
            batch, sources = [], {}
            for k in range(5):
                pages = rng.sample(labels, k + 1)
                sources["v%d" % k] = {p: 1.0 for p in pages}
                batch.append("v%d\t%s" % (k, "\t".join(pages)))
            self.write("w.tsv", "p3\t2\np7\t0.5\n")
            batch.append("weighted\t@w.tsv")
            sources["weighted"] = {"p3": 2.0, "p7": 0.5}
            batch.append("plain")  # uniform E
            sources["plain"] = None
            self.write("batch.txt", "# name, then its pages\n" + "\n".join(batch) + "\n")
            self.wr("rank", "db", "--batch", "batch.txt", "--tol", "1e-12", "--out", "out", "-q")
            for name, E in sources.items():
                got = ranks_dict(read_rank_file(self.path("out/%s.tsv" % name)))
                flags = ["--tol", "1e-12", "--name", "sep"]
                if E is not None:
                    self.write("e.tsv", "".join("%s\t%r\n" % kv for kv in E.items()))
                    flags += ["--source", "e.tsv"]
                _, alone = self.rank("db", *flags)
                self.assertRanksClose(got, alone, 1e-12, msg="%s: batch vs a separate run" % name)
                self.assertRanksClose(got, nx_rank(labels, links, 0.85, E), L1_REF,
                                      msg="%s vs NetworkX" % name)
                self.assertRanksClose(got, ig_rank(labels, links, 0.85, E, weighted), L1_REF,
                                      msg="%s vs igraph" % name)
            verdicts = json.loads(self.wr("check", "db", "--json", *sum(
                (["--ranks", n] for n in sources), [])).out)
            self.assertTrue(all(v["ok"] for v in verdicts), verdicts)
            meta = json.load(open(self.path("db/ranks/v3.json")))
            self.assertEqual(meta["batch_size"], len(sources))
            self.assertEqual(meta["source_pages"], 4)

    def test_batch_options_groups_and_own_tolerance(self):
        labels, links = self.web(3, n=120)
        rng = random.Random(3)
        lines = ["b%d %s" % (k, rng.choice(labels)) for k in range(40)]  # three groups of <= 16
        self.write("batch.txt", "\n".join(lines) + "\n")
        self.wr("rank", "db", "--batch", "batch.txt", "--tol", "1e-11", "--dangling", "uniform",
                "--damping", "0.7", "--out", "out", "-q", "--progress", "json")
        for k in (0, 33, 39):
            name, page = lines[k].split()
            got = ranks_dict(read_rank_file(self.path("out/%s.tsv" % name)))
            ref = nx_rank(labels, links, 0.7, {page: 1.0}, dangling={l: 1.0 for l in labels})
            self.assertRanksClose(got, ref, L1_REF, msg=name)
        # Each vector stops on its own: iterations differ between sources.
        its = set()
        for k in range(40):
            with open(self.path("db/ranks/b%d.json" % k)) as f:
                its.add(json.load(f)["iterations"])
        self.assertGreater(len(its), 1)
        # Float vectors: the batch (gauss-seidel by component: auto's choice for a batch whose
        # dangling rank follows E) equals a separate float gauss-seidel run.
        self.write("two.txt", "f1 %s\nf2 %s\n" % (labels[1], labels[2]))
        self.wr("rank", "db", "--batch", "two.txt", "--precision", "float", "--tol", "1e-6",
                "--out", "fout", "-q")
        _, alone = self.rank("db", "--personalize", labels[2], "--precision", "float", "--tol",
                             "1e-6", "--name", "x", "--method", "gauss-seidel")
        got = ranks_dict(read_rank_file(self.path("fout/f2.tsv")))
        self.assertRanksClose(got, alone, 1e-9, msg="float batch vs float run")

    def test_batch_file_errors(self):
        self.web(4, n=30)
        cases = {
            "p1 p2\nbad/name p3\n": ("batch.txt:2", "not a valid rank vector name"),
            "a p1\na p2\n": ("batch.txt:2", "used twice"),
            "a p1 nowhere\n": ("batch.txt:1", "'nowhere' is not in the database"),
            "a @missing.tsv\n": ("missing.tsv", ""),
            "# only a comment\n": ("batch.txt", "no NAME"),
        }
        for text, (where, what) in cases.items():
            self.write("batch.txt", text)
            before = sorted(os.listdir(self.path("db")))
            res = self.wr("rank", "db", "--batch", "batch.txt", expect=1)
            self.assertIn(where, res.err)
            self.assertIn(what, res.err)
            self.assertEqual(before, sorted(os.listdir(self.path("db"))))
        self.write("batch.txt", "a p1\n")
        self.wr("rank", "db", "--batch", "batch.txt", "--personalize", "p1", expect=2)
        self.wr("rank", "db", "--batch", "batch.txt", "--name", "x", expect=2)
        res = self.wr("rank", "db", "--batch", "batch.txt", "--method", "direct", expect=2)
        self.assertIn("--method", res.err)
        res = self.wr("rank", "db", "--batch", "batch.txt", "--dangling", "leak", expect=2)
        self.assertIn("--dangling", res.err)

    def test_root_pages_and_bookmarks(self):
        labels, links = self.web(5, urls=True, n=200)
        roots = [lab for lab in labels if lab.endswith(".org/")]
        self.assertEqual(len(roots), 17)
        _, got = self.rank("db", "--root-pages", "--tol", "1e-12")
        self.assertRanksClose(got, nx_rank(labels, links, 0.85, {r: 1.0 for r in roots}), L1_REF)
        # Bookmarks: URLs normalized to find their page; unknown ones skipped with a warning.
        self.write("bm.txt", "# my bookmarks\nHTTP://H3.example.org:80/p20#top\n%s\n"
                   "http://elsewhere.example/\n" % labels[40])
        rows = self.wr("rank", "db", "--bookmarks", "bm.txt", "--tol", "1e-12", "--out", "b.tsv")
        self.assertIn("bm.txt:4", rows.err)
        got = ranks_dict(read_rank_file(self.path("b.tsv")))
        E = {"http://h3.example.org/p20": 1.0, labels[40]: 1.0}
        self.assertRanksClose(got, nx_rank(labels, links, 0.85, E), L1_REF)
        self.write("none.txt", "http://elsewhere.example/\n")
        self.wr("rank", "db", "--bookmarks", "none.txt", expect=1)
        # Root pages of a web without URL labels: an error, not a uniform E.
        self.write("plain.tsv", "a\tb\nb\ta\n")
        self.build("plain.tsv", db="plain")
        res = self.wr("rank", "plain", "--root-pages", expect=2)
        self.assertIn("URL", res.err)

    def test_topics_mix_and_compare(self):
        labels, links = self.web(6, n=250)
        rng = random.Random(6)
        topics = {"Science": rng.sample(labels, 30), "Sports": rng.sample(labels, 12),
                  "Art_2": rng.sample(labels, 1)}
        lines = ["%s\t%s" % (p, t) for t, ps in topics.items() for p in ps]
        lines.append("%s\tScience" % topics["Science"][0])  # listed twice: counts once
        self.write("assign.tsv", "\n".join(lines) + "\n")
        res = self.wr("topics", "db", "--assign", "assign.tsv", "--tol", "1e-12", "--json")
        summary = {s["topic"]: s for s in json.loads(res.out)}
        self.assertEqual(summary["Science"]["pages"], 30)
        vectors = {}
        for t, pages in topics.items():
            got = self.export_vector("topic." + t)
            E = {p: 1.0 for p in pages}
            self.assertRanksClose(got, nx_rank(labels, links, 0.85, E), L1_REF, msg=t)
            self.assertRanksClose(got, ig_rank(labels, links, 0.85, E), L1_REF, msg=t)
            vectors[t] = got
        verdicts = json.loads(self.wr("check", "db", "--json", "--ranks", "topic.Science").out)
        self.assertTrue(verdicts[0]["ok"])
        self.assertEqual(self.wr("topics", "db").out.split(), ["Art_2", "Science", "Sports"])
        # Query-time mixing: weights normalized, score = Σ P(t)·R_t.
        res = self.wr("top", "db", "--topics", "Science=0.7, Sports=0.7", "-k", "5", "--json")
        mix = {lab: 0.5 * vectors["Science"][lab] + 0.5 * vectors["Sports"][lab]
               for lab in labels}
        want = sorted(labels, key=lambda l: (-mix[l], labels.index(l)))[:5]
        top = json.loads(res.out)
        self.assertEqual([t["label"] for t in top], want)
        for t in top:
            self.assertAlmostEqual(t["rank"], mix[t["label"]], delta=1e-15)
        for bad in ("Science", "Science=-1", "Science=1,Science=2", "Science=0"):
            self.wr("top", "db", "--topics", bad, expect=2)
        res = self.wr("top", "db", "--topics", "Nope=1", expect=1)
        self.assertIn("Art_2, Science, Sports", res.err)
        # compare: the percentile of each page in each view.
        self.wr("rank", "db", "-q")
        self.write("pages.txt", "%s\n%s\n" % (labels[3], labels[9]))
        res = self.wr("compare", "db", "--views", "topic.Science,pagerank", "--pages",
                      "pages.txt", "--json")
        table = json.loads(res.out)
        self.assertEqual(table["views"], ["topic.Science", "pagerank"])
        pr = self.export_vector("pagerank")
        for row in table["rows"]:
            for view, pct in zip((vectors["Science"], pr), row["percentiles"]):
                want = 100.0 * sum(1 for v in view.values() if v <= view[row["label"]]) / len(view)
                self.assertAlmostEqual(pct, want, places=9)
        res = self.wr("compare", "db", "--views", "topic.Science,pagerank", "-k", "3")
        self.assertIn("%", res.out)
        self.wr("compare", "db", "--views", "topic.Science,nope", expect=1)

    def export_vector(self, name):
        """A stored vector as label -> value, read back through `compare --json` (which lists
        every page when -k exceeds the web)."""
        res = self.wr("compare", "db", "--views", name, "-k", "100000", "--json")
        return {row["label"]: row["ranks"][0] for row in json.loads(res.out)["rows"]}

    def test_ppr_bounds_store_and_certified_top(self):
        labels, links = self.web(7, n=300)
        for source in (labels[0], labels[11], labels[5]):  # labels[5] is dangling
            exact = nx_rank(labels, links, 0.85, {source: 1.0})
            res = self.wr("ppr", "db", source, "-k", "10", "--eps", "1e-9", "--json", "--store",
                          "push")
            a = json.loads(res.out)
            got = self.export_vector("push")
            # The L1 error bound holds, and every page is inside its bounds.
            err = sum(abs(exact[l] - got.get(l, 0.0)) for l in labels)
            self.assertLessEqual(err, a["error_bound"] * (1 + 1e-9) + 1e-15)
            self.assertAlmostEqual(err, a["error_bound"], delta=1e-9)
            for e in a["top"]:
                self.assertLessEqual(e["lower"], exact[e["label"]] + 1e-15)
                self.assertGreaterEqual(e["upper"], exact[e["label"]] - 1e-15)
            if a["certified"]:
                k = len(a["top"])
                kth = sorted(exact.values(), reverse=True)[k - 1]
                for e in a["top"]:
                    self.assertGreaterEqual(exact[e["label"]], kth - 1e-12)
            verdicts = json.loads(self.wr("check", "db", "--json", "--ranks", "push").out)
            self.assertTrue(verdicts[0]["ok"], verdicts)
        # The text answer states its bound; a URL not in the web is an error.
        res = self.wr("ppr", "db", labels[0], "-k", "3")
        self.assertIn("error bound", res.out)
        self.wr("ppr", "db", "nowhere", expect=1)
        self.wr("ppr", "db", labels[0], "--eps", "0", expect=2)


def data_rows(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip() and line[0] != "#"]


@unittest.skipUnless(os.path.isdir(DATA), NO_DATA)
class RealWebs(WebrankTestCase):
    """Topic and personalized vectors of real webs against NetworkX and igraph."""

    def test_wikispeedia_topics(self):
        wiki = os.path.join(DATA, "wikispeedia")
        articles = [r[0] for r in data_rows(os.path.join(wiki, "articles.tsv.gz"))]
        links = {(u, v): 1.0 for u, v in data_rows(os.path.join(wiki, "links.tsv.gz"))}
        self.build([os.path.join(wiki, "articles.tsv.gz"), os.path.join(wiki, "links.tsv.gz")])
        # The 15 top-level categories: subject.Science.Biology -> Science.
        topics = {}
        for article, category in data_rows(os.path.join(wiki, "categories.tsv.gz")):
            topics.setdefault(category.split(".")[1], set()).add(article)
        self.assertEqual(len(topics), 15)
        self.write("assign.tsv", "".join("%s\t%s\n" % (a, t) for t, ps in topics.items()
                                         for a in sorted(ps)))
        res = self.wr("topics", "db", "--assign", "assign.tsv", "--tol", "1e-12", "--json")
        summary = {s["topic"]: s for s in json.loads(res.out)}
        for t in ("Mathematics", "IT", "Art", "Science"):
            E = {a: 1.0 for a in topics[t]}
            res = self.wr("compare", "db", "--views", "topic." + t, "-k", "100000", "--json")
            got = {row["label"]: row["ranks"][0] for row in json.loads(res.out)["rows"]}
            self.assertRanksClose(got, nx_rank(articles, links, 0.85, E), L1_REF, msg=t)
            self.assertRanksClose(got, ig_rank(articles, links, 0.85, E), L1_REF, msg=t)
            # A topic's own pages lead its vector far more than they lead PageRank's.
            self.assertGreater(summary[t]["top_in_topic"], summary[t]["pagerank_top_in_topic"])


if __name__ == "__main__":
    wrcli.main()
