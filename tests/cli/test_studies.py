#!/usr/bin/python3
"""The paper's studies and what users ask next (docs/studies.md): `usage`, `crawl-order`, `explain`,
`hosts` and `centrality`, each against a reference nobody here wrote.

- usage: Spearman and Kendall against scipy.stats; the usage-sourced vector against the dense
  reference solver (wrcli.reference_pagerank) with the counts as E; an access log's lines
  classified one by one.
- crawl-order: on a web whose hot page a backlink or PageRank crawl must find before a
  breadth-first one; curves monotone and complete.
- explain: the terms sum to the stored rank to 1e-12, each backlink's contribution is
  rank(v) * d * weight / out-strength(v) from the exported vector, every backlink is listed, and a
  what-if lands within its error bound of the reference solver on the web without the link.
- hosts: the host graph's link weights against an aggregation in Python, HostRank against
  NetworkX's PageRank of that weighted graph to 1e-9 in L1, pay-level domains by the PSL.
- centrality: exact harmonic centrality against NetworkX's harmonic_centrality to 1e-9 in L1,
  HyperLogLog counters within a few percent of it.

Run:  /usr/bin/python3 tests/cli/test_studies.py --webrank build/webrank [-v]
"""

import collections
import json
import os
import random
import sys
import urllib.parse
import warnings

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase  # noqa: E402

import networkx as nx  # noqa: E402
import scipy.stats  # noqa: E402


def url_web(seed, hosts=6, pages=150, links=900, weighted=False):
    """Pages on several hosts, more links within a host than between; some pages dangling."""
    rnd = random.Random(seed)
    labels = ["http://h%d.example/p%d.html" % (i % hosts, i) for i in range(pages)]
    out = {}
    for _ in range(links):
        u = rnd.randrange(pages * 4 // 5)  # the last fifth has no out-links
        same = [v for v in range(u % hosts, pages, hosts)]
        v = rnd.choice(same) if rnd.random() < 0.7 else rnd.randrange(pages)
        if u != v:
            out[(labels[u], labels[v])] = rnd.choice([1, 2, 3]) if weighted else 1
    return labels, out


class Studies(WebrankTestCase):

    def make(self, labels, links, db="w.db", weighted=False):
        text = "".join(l + "\n" for l in labels)
        text += "".join("%s\t%s%s\n" % (u, v, "\t%g" % w if weighted else "")
                        for (u, v), w in links.items())
        self.write("web.tsv", text)
        self.build("web.tsv", db, extra=["--weighted"] if weighted else [])
        return db

    def stored(self, db, name):
        res = self.wr("top", db, "--ranks", name, "-k", "1000000", "--json")
        return {r["label"]: r["rank"] for r in json.loads(res.out)}

    # ---------------------------------------------------------------------------- usage
    def test_usage_counts_against_scipy_and_the_reference_solver(self):
        labels, links = url_web(1)
        db = self.make(labels, links)
        _, ranks = self.rank(db, "--tol", "1e-13")
        rnd = random.Random(5)
        counts = {l: rnd.randrange(1, 50) for l in rnd.sample(labels, 60)}
        self.write("counts.tsv", "# visits\n" + "".join("%s\t%d\n" % kv for kv in counts.items()))
        res = self.wr("usage", db, "--counts", "counts.tsv", "--source", "--tol", "1e-13",
                      "--json", "-k", "5")
        j = json.loads(res.out)
        base, sourced = j["comparisons"]
        visits = [counts.get(l, 0) for l in labels]
        want_rho = scipy.stats.spearmanr(visits, [ranks[l] for l in labels]).correlation
        want_tau = scipy.stats.kendalltau(visits, [ranks[l] for l in labels]).correlation
        self.assertAlmostEqual(base["spearman"], want_rho, places=10)
        self.assertAlmostEqual(base["kendall"], want_tau, places=10)
        vl = list(counts)
        self.assertAlmostEqual(base["spearman_visited"], scipy.stats.spearmanr(
            [counts[l] for l in vl], [ranks[l] for l in vl]).correlation, places=10)
        self.assertEqual((j["visited_pages"], j["visits"]), (60, sum(counts.values())))
        # The first list holds visited pages only, the largest gaps first.
        hl = base["high_usage_low_rank"]
        self.assertTrue(hl and all(p["visits"] > 0 for p in hl), hl)
        gaps = [p["usage_percentile"] - p["rank_percentile"] for p in hl]
        self.assertEqual(gaps, sorted(gaps, reverse=True))
        # --source: PageRank with the counts as rank source, stored as 'usage'.
        want = wrcli.reference_pagerank(labels, links, 0.85, E=counts)
        self.assertRanksClose(self.stored(db, "usage"), want, 1e-9)
        self.assertEqual(sourced["vector"], "usage")
        # The text names the correlations by their usual names.
        text = self.wr("usage", db, "--counts", "counts.tsv").out
        self.assertIn("Spearman %.6f" % want_rho, text)
        self.assertIn("Kendall %.6f" % want_tau, text)

    def test_usage_counts_errors(self):
        labels, links = url_web(2, pages=20, links=60)
        db = self.make(labels, links)
        self.wr("rank", db, "-q")
        self.write("bad.tsv", "%s\t3\nhttp://nowhere.example/\t1\n" % labels[0])
        # A page outside the database is counted and left out; --strict refuses it.
        res = self.wr("usage", db, "--counts", "bad.tsv")
        self.assertIn("bad.tsv: 1 line (1 page, 1 visit) name no page", res.err)
        res = self.wr("usage", db, "--counts", "bad.tsv", "--strict", expect=(1, 2))
        self.assertIn("bad.tsv:2", res.err)
        self.write("neg.tsv", "%s\t-3\n" % labels[0])
        res = self.wr("usage", db, "--counts", "neg.tsv", expect=(1, 2))
        self.assertIn("neg.tsv:1", res.err)
        self.wr("usage", db, expect=2)

    def test_access_log_lines_are_classified(self):
        labels = ["http://site.test/", "http://site.test/a.html", "http://site.test/docs/",
                  "http://site.test/docs/index.html", "http://site.test/b.html?x=1"]
        links = {(labels[0], labels[1]): 1, (labels[1], labels[2]): 1,
                 (labels[2], labels[0]): 1, (labels[4], labels[3]): 1}
        db = self.make(labels, links)
        self.wr("rank", db, "-q")
        ua = '"Mozilla/5.0 (X11; Linux x86_64)"'
        day = "[10/Oct/2000:13:55:36 -0700]"
        log = [
            '127.0.0.1 - frank %s "GET /a.html HTTP/1.0" 200 2326' % day,  # Common
            '127.0.0.1 - - %s "GET /a.html#top HTTP/1.1" 304 0 "-" %s' % (day, ua),
            '10.0.0.2 - - %s "GET / HTTP/1.1" 200 512 "http://x/" %s' % (day, ua),
            '10.0.0.2 - - %s "GET /docs/ HTTP/1.1" 200 512 "-" %s' % (day, ua),
            '10.0.0.2 - - %s "GET /b.html?x=1 HTTP/1.1" 200 5 "-" %s' % (day, ua),
            '10.0.0.3 - - %s "POST /a.html HTTP/1.1" 200 5 "-" %s' % (day, ua),
            '10.0.0.3 - - %s "GET /a.html HTTP/1.1" 404 5 "-" %s' % (day, ua),
            '10.0.0.4 - - %s "GET /a.html HTTP/1.1" 200 5 "-" "Googlebot/2.1"' % day,
            '10.0.0.4 - - %s "GET /missing.html HTTP/1.1" 200 5 "-" %s' % (day, ua),
            '',
        ]
        self.write("access.log", "\n".join(log) + "\n")
        j = json.loads(self.wr("usage", db, "--log", "access.log", "--json").out)
        lg = j["log"]
        self.assertEqual(lg["site"], "http://site.test")
        self.assertEqual((lg["lines"], lg["combined_lines"], lg["counted"], lg["not_get"],
                          lg["not_success"], lg["bots"], lg["unknown_urls"]),
                         (9, 8, 5, 1, 1, 1, 1))
        self.assertEqual(lg["top_unknown"], [{"path": "/missing.html", "requests": 1}])
        self.assertEqual(j["visits"], 5)
        kept = json.loads(self.wr("usage", db, "--log", "access.log", "--keep-bots",
                                  "--json").out)
        self.assertEqual(kept["visits"], 6)
        self.write("broken.log", log[0] + "\nthis is not a log line\n")
        res = self.wr("usage", db, "--log", "broken.log", expect=(1, 2))
        self.assertIn("broken.log:2", res.err)

    # ---------------------------------------------------------------------------- crawl-order
    def test_crawl_orders_find_the_hot_page(self):
        # The seed links to 20 pages; each of them links to the hot page H. Breadth first
        # fetches all 20 before H; counting backlinks (or PageRank) takes H third or fourth.
        links = {("seed", "a%02d" % i): 1 for i in range(20)}
        links.update({("a%02d" % i, "H"): 1 for i in range(20)})
        links.update({("H", "z%d" % i): 1 for i in range(4)})
        labels = ["seed"] + ["a%02d" % i for i in range(20)] + ["H"] + ["z%d" % i
                                                                       for i in range(4)]
        db = self.make(labels, links)
        j = json.loads(self.wr("crawl-order", db, "--seed", "seed", "--hot-fraction", "0.01",
                               "--recompute", "1", "--points", "26", "--json").out)
        self.assertEqual(j["hot_pages"], 1)
        first = {}
        for c in j["curves"]:
            self.assertEqual(c["hot"], sorted(c["hot"]), c["order"])
            self.assertEqual(c["hot"][-1], 1.0, c["order"])
            found = next(i for i, h in enumerate(c["hot"]) if h > 0)
            first[c["order"]] = round(c["crawled"][found] * j["reachable"])
        self.assertEqual(sorted(first), ["backlinks", "breadth", "pagerank", "random"])
        self.assertEqual(first["breadth"], 22)
        self.assertLessEqual(first["backlinks"], 4)
        self.assertLessEqual(first["pagerank"], 4)
        self.wr("crawl-order", db, "--seed", "nowhere", expect=1)
        self.wr("crawl-order", db, "--order", "depth", expect=2)

    def test_crawl_order_writes_curves(self):
        labels, links = url_web(3, pages=300, links=2400)
        db = self.make(labels, links)
        self.wr("rank", db, "-q")
        self.wr("crawl-order", db, "--seed", labels[0], "--hot", "pagerank", "--out", "c.tsv",
                "--html", "c.html", "-q")
        with open(self.path("c.tsv")) as f:
            rows = [l.rstrip("\n").split("\t") for l in f]
        self.assertEqual(rows[0], ["# crawled", "pagerank", "backlinks", "breadth", "random",
                                   "ideal"])
        for col in range(1, 6):
            values = [float(r[col]) for r in rows[1:]]
            self.assertEqual(values, sorted(values))
            self.assertEqual(values[-1], 1.0)
        with open(self.path("c.html")) as f:
            self.assertIn("uPlot", f.read())

    # ---------------------------------------------------------------------------- explain
    def check_explanation(self, db, labels, links, page, ranks, d, name, weighted):
        j = json.loads(self.wr("explain", db, page, "--ranks", name, "--format", "json",
                               "--no-what-if").out)
        total = j["source_term"] + j["dangling_term"] + sum(b["contribution"]
                                                           for b in j["backlinks"])
        self.assertAlmostEqual(total, j["rank"], delta=1e-12)
        self.assertAlmostEqual(j["rank"], ranks[page], delta=1e-15)
        strength = collections.Counter()
        for (u, v), w in links.items():
            strength[u] += w
        want = {u: ranks[u] * d * w / strength[u] for (u, v), w in links.items() if v == page}
        got = {b["label"]: b["contribution"] for b in j["backlinks"]}
        self.assertEqual(sorted(got), sorted(want))
        for u in want:
            self.assertAlmostEqual(got[u], want[u], delta=1e-15)
        return j

    def test_explain_sums_to_the_stored_rank(self):
        for weighted in (False, True):
            labels, links = url_web(4, weighted=weighted)
            db = self.make(labels, links, db="w%d.db" % weighted, weighted=weighted)
            _, ranks = self.rank(db, "--tol", "1e-14")
            pages = sorted(labels, key=lambda l: -ranks[l])[:3] + labels[-3:]
            for page in pages:
                self.check_explanation(db, labels, links, page, ranks, 0.85, "pagerank", weighted)
            # A personalized vector: the source term is (1 - d) E(page).
            self.wr("rank", db, "--personalize", labels[7], "--name", "pers", "--tol", "1e-14",
                    "-q")
            pers = self.stored(db, "pers")
            j = self.check_explanation(db, labels, links, labels[7], pers, 0.85, "pers",
                                       weighted)
            self.assertGreater(j["source_term"], 0)
            j = self.check_explanation(db, labels, links, labels[8], pers, 0.85, "pers",
                                       weighted)
            self.assertEqual(j["source_term"], 0)

    def test_explain_what_if_against_the_reference_solver(self):
        labels, links = url_web(6)
        db = self.make(labels, links)
        _, ranks = self.rank(db, "--tol", "1e-14")
        page = max(labels, key=lambda l: ranks[l])
        j = json.loads(self.wr("explain", db, page, "--format", "json", "-k", "3").out)
        self.assertEqual(len(j["paths"]), 3)
        top = max(j["backlinks"], key=lambda b: b["contribution"])
        w = j["what_if"][0]
        self.assertEqual(w["without"], "link from " + top["label"])
        self.assertTrue(w["within_tolerance"])
        without = {k: v for k, v in links.items() if k != (top["label"], page)}
        want = wrcli.reference_pagerank(labels, without, 0.85)[page]
        self.assertLessEqual(abs(w["rank"] - want), w["error_bound"] + 1e-15, (w, want))
        # Without a whole host.
        host = collections.Counter(urllib.parse.urlsplit(b["label"]).hostname
                                   for b in j["backlinks"]).most_common(1)[0][0]
        j = json.loads(self.wr("explain", db, page, "--format", "json", "--no-what-if",
                               "--without-host", host).out)
        w = j["what_if"][0]
        without = {k: v for k, v in links.items() if urllib.parse.urlsplit(k[0]).hostname != host
                   or k[1] != page}
        self.assertEqual(w["links_removed"], len(links) - len(without))
        want = wrcli.reference_pagerank(labels, without, 0.85)[page]
        self.assertLessEqual(abs(w["rank"] - want), w["error_bound"] + 1e-15, (w, want))
        # Text: the terms, the top contributors.
        text = self.wr("explain", db, page, "-k", "2", "--no-what-if").out
        self.assertIn("source term", text)
        self.assertIn(top["label"], text)
        self.wr("explain", db, page + "/", expect=1)

    # ---------------------------------------------------------------------------- hosts
    def test_host_graph_and_hostrank(self):
        labels, links = url_web(8, hosts=7, pages=200, links=1500)
        db = self.make(labels, links)
        j = json.loads(self.wr("hosts", db, "-o", "hosts.db", "--tol", "1e-14", "--json").out)
        host = lambda l: urllib.parse.urlsplit(l).hostname  # noqa: E731
        between = collections.Counter()
        within = 0
        for (u, v) in links:
            if host(u) == host(v):
                within += 1
            else:
                between[(host(u), host(v))] += 1
        self.assertEqual((j["hosts"], j["host_links"], j["page_links_between"],
                          j["page_links_within"]),
                         (7, len(between), sum(between.values()), within))
        exported = self.wr("export", "hosts.db", "--weighted").out.split("\n")
        got = {(a, b): float(w) for a, b, w in (l.split("\t") for l in exported if l)}
        self.assertEqual(got, {k: float(v) for k, v in between.items()})
        G = nx.DiGraph()
        G.add_nodes_from({host(l) for l in labels})
        for (a, b), w in between.items():
            G.add_edge(a, b, weight=w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = nx.pagerank(G, alpha=0.85, tol=1e-15, max_iter=100000, weight="weight")
        self.assertRanksClose(self.stored("hosts.db", "hostrank"), want, 1e-9)
        self.wr("hosts", db, "-o", "hosts.db", "-q", expect=1)  # exists: --force to replace
        self.wr("hosts", db, "-o", "hosts.db", "-q", "--force")

    def test_pay_level_domains(self):
        labels = ["http://a.example.co.uk/", "http://b.example.co.uk/x", "http://www.other.com/",
                  "http://other.com/y", "http://blog.github.io/", "http://site.github.io/"]
        links = {(labels[0], labels[2]): 1, (labels[1], labels[3]): 1,
                 (labels[4], labels[5]): 1, (labels[0], labels[1]): 1}
        db = self.make(labels, links)
        self.wr("hosts", db, "-o", "d.db", "--by", "domain", "-q")
        exported = self.wr("export", "d.db", "--weighted").out.split("\n")
        got = {(a, b): float(w) for a, b, w in (l.split("\t") for l in exported if l)}
        # github.io is a public suffix: blog.github.io and site.github.io are two domains.
        self.assertEqual(got, {("example.co.uk", "other.com"): 2.0,
                               ("blog.github.io", "site.github.io"): 1.0})

    # ---------------------------------------------------------------------------- centrality
    def test_harmonic_centrality_against_networkx(self):
        labels, links = url_web(9, pages=400, links=1600)
        db = self.make(labels, links)
        self.wr("rank", db, "-q")
        G = nx.DiGraph()
        G.add_nodes_from(labels)
        G.add_edges_from(links)
        want = nx.harmonic_centrality(G)
        res = self.wr("centrality", db, "--harmonic", "--counters", "exact", "--out", "h.tsv",
                      "-q")
        self.assertEqual(res.out, "")
        got = wrcli.ranks_dict(wrcli.read_rank_file(self.path("h.tsv")))
        self.assertRanksClose(got, want, 1e-9)
        self.assertRanksClose(self.stored(db, "harmonic"), want, 1e-9)
        j = json.loads(self.wr("centrality", db, "--harmonic", "--counters", "hyperloglog",
                               "--log2m", "10", "--name", "hll", "--json").out)
        self.assertFalse(j["exact"])
        approx = self.stored(db, "hll")
        err = sum(abs(approx[l] - want[l]) for l in labels) / sum(want.values())
        self.assertLess(err, 0.05)  # 2^10 registers: about 3% per counter
        self.assertIn("spearman", j["comparison"])
        self.wr("centrality", db, expect=2)  # which centrality: --harmonic


if __name__ == "__main__":
    wrcli.main()
