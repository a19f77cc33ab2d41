#!/usr/bin/python3
"""HITS, hubs and authorities (docs/ranking.md), against NetworkX's and igraph's HITS.

Random webs (dangling pages, pages without backlinks, self-links, isolated pages, weights) and,
when ../shared is there, hollins: webrank's vectors equal NetworkX's `hits` (an SVD to machine
precision) and igraph's `hub_score`/`authority_score` (ARPACK), both normalized to sum 1, to 1e-9
in L1. The vectors are stored as NAME.authority and NAME.hub and every command reads them.

Run:  /usr/bin/python3 tests/cli/test_hits.py --webrank build/webrank [-v]
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
from wrcli import WebrankTestCase  # noqa: E402

import igraph  # noqa: E402
import networkx as nx  # noqa: E402

HOLLINS = os.path.join(os.path.dirname(wrcli._REPO), "shared", "data", "hollins")


def random_web(seed, n=300, m=1800, weighted=False):
    rnd = random.Random(seed)
    links = {}
    for _ in range(m):
        # The first pages link most (hubs), the last quarter never (dangling).
        u = min(rnd.randrange(3 * n // 4), rnd.randrange(3 * n // 4))
        v = rnd.randrange(n)
        links[("p%d" % u, "p%d" % v)] = rnd.choice([1, 2, 0.5, 4]) if weighted else 1
    labels = ["p%d" % i for i in range(n + 5)]  # 5 isolated pages
    return labels, links


def normalized(d):
    s = sum(d.values())
    return {k: v / s for k, v in d.items()}


def references(labels, links, weighted):
    with warnings.catch_warnings():  # NetworkX 2.8 on its scipy matrices
        warnings.simplefilter("ignore")
        return _references(labels, links, weighted)


def _references(labels, links, weighted):
    G = nx.DiGraph()
    G.add_nodes_from(labels)
    for (u, v), w in links.items():
        G.add_edge(u, v, weight=w)
    hubs, auths = nx.hits(G, max_iter=100000, tol=0)  # svds to machine precision
    g = igraph.Graph.from_networkx(G, vertex_attr_hashable="name")
    w = "weight" if weighted else None
    ih = dict(zip(g.vs["name"], g.hub_score(weights=w, scale=True)))
    ia = dict(zip(g.vs["name"], g.authority_score(weights=w, scale=True)))
    if not weighted:  # NetworkX's adjacency matrix carries the weights whatever it is asked
        G2 = nx.DiGraph()
        G2.add_nodes_from(labels)
        G2.add_edges_from(links)
        hubs, auths = nx.hits(G2, max_iter=100000, tol=0)
    return (normalized(auths), normalized(hubs)), (normalized(ia), normalized(ih))


class Hits(WebrankTestCase):

    def hits(self, db, *extra):
        self.wr("hits", db, "--tol", "1e-13", "--out", "h.tsv", "-q", *extra)
        auth, hub = {}, {}
        with open(self.path("h.tsv")) as f:
            for line in f:
                label, a, h = line.rstrip("\n").split("\t")
                auth[label], hub[label] = float(a), float(h)
        return auth, hub

    def test_random_webs_against_networkx_and_igraph(self):
        for seed, weighted in ((1, False), (2, True), (3, False)):
            labels, links = random_web(seed, weighted=weighted)
            text = "".join(l + "\n" for l in labels)
            text += "".join("%s\t%s%s\n" % (u, v, "\t%g" % w if weighted else "")
                            for (u, v), w in links.items())
            self.write("web.tsv", text)
            db = "web%d.db" % seed
            self.build("web.tsv", db, extra=["--weighted"] if weighted else [])
            auth, hub = self.hits(db)
            (na, nh), (ia, ih) = references(labels, links, weighted)
            for name, got, want in (("networkx authorities", auth, na), ("networkx hubs", hub, nh),
                                    ("igraph authorities", auth, ia), ("igraph hubs", hub, ih)):
                self.assertRanksClose(got, want, 1e-9, msg="%s, seed %d" % (name, seed))
            self.assertAlmostEqual(sum(auth.values()), 1, places=12)
            self.assertEqual(auth["p%d" % (len(labels) - 1)], 0)  # isolated

    def test_vectors_are_stored_and_read_like_pagerank(self):
        labels, links = random_web(7, n=80, m=400)
        self.write("web.tsv", "".join("%s\t%s\n" % l for l in links))
        self.build("web.tsv", "w.db")
        self.wr("rank", "w.db", "-q")
        res = self.wr("hits", "w.db", "--progress", "json")
        self.assertIn("stored as 'hits.authority' and 'hits.hub'", res.err)
        self.assertTrue(wrcli.json_lines(res.err))
        info = json.loads(self.wr("info", "w.db", "--json").out)
        self.assertEqual(sorted(r["name"] for r in info["ranks"]),
                         ["hits.authority", "hits.hub", "pagerank"])
        top = json.loads(self.wr("top", "w.db", "--ranks", "hits.authority", "-k", "1",
                                 "--json").out)
        page = json.loads(self.wr("page", "w.db", top[0]["label"], "--json").out)
        places = {r["name"]: r for r in page["ranks"]}
        self.assertEqual(places["hits.authority"]["position"], 1)
        checks = json.loads(self.wr("check", "w.db", "--ranks", "hits.authority", "--ranks",
                                    "hits.hub", "--json").out)
        self.assertTrue(all(c["ok"] for c in checks), checks)
        with open(self.path("w.db/ranks/hits.hub.json")) as f:
            meta = json.load(f)
        self.assertEqual((meta["algorithm"], meta["kind"]), ("hits", "hub"))
        # Not converged: exit 3, and the converged vectors are kept.
        res = self.wr("hits", "w.db", "--max-iter", "1", expect=3)
        self.assertIn("stored as 'hits.unconverged'", res.err)
        self.wr("hits", "w.db", "--name", "../x", expect=2)

    def test_a_web_without_links_is_refused(self):
        self.write("pages.tsv", "a\nb\n")
        self.build("pages.tsv", "p.db")
        res = self.wr("hits", "p.db", expect=2)
        self.assertIn("HITS needs links", res.err)

    @unittest.skipUnless(os.path.isdir(HOLLINS), "../shared/data/hollins not found: skipped")
    def test_hollins(self):
        edges = os.path.join(HOLLINS, "hollins.edges.tsv.gz")
        self.wr("build", edges, "-o", "h.db", "-q")
        auth, hub = self.hits("h.db")
        links = {}
        with gzip.open(edges, "rt") as f:
            for line in f:
                if not line.startswith("#"):
                    u, v = line.split()
                    links[(u, v)] = 1
        labels = sorted({x for l in links for x in l})
        (na, nh), (ia, ih) = references(labels, links, False)
        self.assertRanksClose(auth, na, 1e-9, msg="networkx authorities")
        self.assertRanksClose(hub, nh, 1e-9, msg="networkx hubs")
        self.assertRanksClose(auth, ia, 1e-9, msg="igraph authorities")
        self.assertRanksClose(hub, ih, 1e-9, msg="igraph hubs")


if __name__ == "__main__":
    wrcli.main()
