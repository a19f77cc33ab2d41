#!/usr/bin/python3
"""Randomized cross-checks of `webrank rank` against NetworkX and igraph, property tests and
input-format equivalence, all through the command line.

Run:  /usr/bin/python3 tests/cli/test_crosscheck.py --webrank build/webrank [-v] [-k NAME]

References (Debian packages: python3-networkx 2.8, python3-igraph 0.10):
  nx.pagerank(G, alpha=d, personalization=E, dangling=W, weight="weight", tol=1e-15,
              max_iter=100000)
  Graph.personalized_pagerank(directed=True, damping=d, reset=E, weights=w,
                              implementation="prpack")

Conventions of the references, established by experiment (and re-checked in
test_references_agree_with_each_other against an independent numpy solve):
  * Self-links: both count a self-link as an ordinary out-link (NetworkX through the diagonal
    of its adjacency matrix; igraph 0.10 PRPACK also keeps self-loops, weighted or not), which
    is SPEC 1's convention.  So self-links are included for both references.
  * Duplicate links: webrank counts identical links once and adds their weights.  A networkx
    DiGraph cannot hold multi-edges and igraph would count each copy, so both reference graphs
    are built from the merged link set (weight 1 per distinct link when unweighted, the summed
    weight when --weighted).
  * Dangling pages under personalization: NetworkX with dangling=None sends dangling rank
    along the personalization vector (W = E, webrank's default `source`); igraph 0.10 PRPACK
    (and ARPACK) do the same with `reset`.  NetworkX accepts a separate `dangling` dict, so
    `--dangling uniform` is compared with NetworkX (dangling={all: 1}); igraph has no separate
    dangling distribution, so `uniform` with a non-uniform E is not compared with igraph.
  * Node identity: the reference graphs get vertex ids = positions in our own label list and
    every result is compared per label, so numeric labels are never taken as positions (igraph
    would otherwise invent the missing ids).
  * Accuracy: NetworkX stops when the L1 change is < N * tol (tol=1e-15 -> at most 5e-12 for
    5000 pages); its error vs a direct solve was <= 3e-11 on our graphs.  igraph's PRPACK
    solves small graphs (< 128 vertices) by Gaussian elimination (~1e-16) and larger ones by
    Gauss-Seidel to an internal tolerance of 1e-10, in practice ~1.5e-12 L1 on these graphs.
    Both are comfortably inside the 1e-9 bound, so the bound is not loosened anywhere.
  * Zero-weight links: NetworkX treats a page whose out-weights sum to 0 as dangling; no test
    here relies on that (all generated weights are > 0).
"""

import gzip
import json
import os
import re
import random
import shutil
import subprocess
import sys
import warnings

sys.dont_write_bytecode = True  # keep tests/cli free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrcli  # noqa: E402
from wrcli import WebrankTestCase, json_lines, reference_pagerank  # noqa: E402

import numpy as np  # noqa: E402
import networkx as nx  # noqa: E402
import igraph  # noqa: E402

L1_REF = 1e-9


# --------------------------------------------------------------------------------------------
# web generator
# --------------------------------------------------------------------------------------------
WORDS = ["index", "about us", "news", "a page", "contact", "produits", "café menu", "über",
         "docs", "read me", "blog post", "日本語 ページ"]


class Web:
    """A generated web: `text` (the edge-list file), `labels` (every page), `links`
    ((src, dst) -> merged weight), `order` (labels by first appearance in `text`),
    `E` (label -> weight or None), `dangling` (labels with no out-link)."""


def make_web(seed, n, labels="int", weighted=False, dangling_frac=0.15, self_frac=0.05,
             dup_frac=0.1, n_isolated=3, avg_deg=5, personalize=False, no_dangling=False):
    rng = random.Random(seed)
    n_iso = min(n_isolated, max(0, n - 2))
    n_linked = n - n_iso
    if labels == "int":
        # sparse large integers (labels, not positions), no leading zeros
        pool = rng.sample(range(10 ** 6, 10 ** 15), n)
        linked = [str(x) for x in pool[:n_linked]]
        iso = [str(x) for x in pool[n_linked:]]
    else:
        linked = []
        for i in range(n_linked):
            w = rng.choice(WORDS)
            linked.append("http://h%d.example.org/%s %d.html%s"
                          % (rng.randrange(50), w, i, "#frag %d" % i if i % 7 == 0 else ""))
        iso = ["http://isolated.example.org/p%d" % i for i in range(n_iso)]  # no blanks
    all_labels = linked + iso
    if no_dangling:
        dang = set()
    else:
        dang = set(rng.sample(range(n_linked), max(1, int(dangling_frac * n_linked))))
    nondang = [i for i in range(n_linked) if i not in dang]
    assert nondang

    def weight():
        k = rng.randrange(4)
        if k == 0:
            return str(rng.randint(1, 9))
        if k == 1:
            return repr(rng.uniform(0.01, 10.0))
        if k == 2:
            return "%.3e" % rng.uniform(0.1, 100.0)
        return "%.2f" % rng.uniform(0.05, 3.0)

    raw = []  # (u, v, weight string)
    for i in nondang:
        deg = rng.randint(1, 2 * avg_deg - 1)
        for j in rng.sample(range(n_linked), min(deg, n_linked)):
            raw.append((i, j))
        if rng.random() < self_frac:
            raw.append((i, i))
    hit = set(j for _, j in raw) | set(i for i, _ in raw)
    for j in range(n_linked):  # every linked page appears in at least one link
        if j not in hit:
            raw.append((rng.choice(nondang), j))
    for _ in range(int(dup_frac * len(raw))):
        raw.append(rng.choice(raw))
    links = {}
    entries = []
    for (i, j) in raw:
        u, v = linked[i], linked[j]
        w = weight() if weighted else None
        links[(u, v)] = links.get((u, v), 0.0) + (float(w) if weighted else 0.0)
        entries.append(("link", u, v, w))
    if not weighted:
        links = {k: 1.0 for k in links}
    for lab in iso:
        entries.append(("page", lab))
    # a few one-field declarations of pages that also appear in links (not isolated then);
    # only labels without blanks can be written as one-field lines
    for lab in rng.sample(linked, min(3, n_linked)):
        if " " not in lab:
            entries.append(("page", lab))
    rng.shuffle(entries)
    lines = ["# generated web seed=%d n=%d" % (seed, n), "% another comment style"]
    order, seen = [], set()
    for k, e in enumerate(entries):
        if k % 97 == 5:
            lines.append("")
        if k % 89 == 3:
            lines.append("   # indented comment\twith a tab")
        if e[0] == "page":
            fields = [e[1]]
        else:
            fields = [e[1], e[2]] + ([e[3]] if weighted else [])
        for lab in fields[:2]:
            if lab not in seen:
                seen.add(lab)
                order.append(lab)
        style = k % 11
        if labels == "int" and style == 1 and len(fields) > 1:
            line = "  ".join(fields)                       # runs of blanks, no tab
        elif style == 2:
            line = " " + "\t ".join(fields) + " "          # blanks around tab-separated fields
        else:
            line = "\t".join(fields)
        if style == 3:
            line += "\r"                                   # CRLF line ending
        lines.append(line)
    text = "\n".join(lines) + "\n"
    assert set(order) == set(all_labels), "generator bug"
    web = Web()
    web.text = text
    web.labels = all_labels
    web.links = links
    web.order = order
    web.weighted = weighted
    web.dangling = set(all_labels) - set(u for u, _ in links)
    web.E = None
    if personalize:
        k = max(1, n // 5)
        subset = rng.sample(all_labels, k)
        web.E = {lab: (0.0 if (t % 9 == 8) else round(rng.uniform(0.05, 5.0), 6))
                 for t, lab in enumerate(subset)}
        if not any(v > 0 for v in web.E.values()):
            web.E[subset[0]] = 1.0
    return web


def source_text(E):
    return "".join("%s\t%r\n" % (lab, w) for lab, w in E.items())


# --------------------------------------------------------------------------------------------
# references
# --------------------------------------------------------------------------------------------
def nx_rank(web, d, dangling="E"):
    G = nx.DiGraph()
    G.add_nodes_from(web.labels)
    for (u, v), w in web.links.items():
        G.add_edge(u, v, weight=w)
    pers = None if web.E is None else {k: v for k, v in web.E.items()}
    dang = None if dangling == "E" else {lab: 1.0 for lab in web.labels}
    with warnings.catch_warnings():
        # networkx 2.8's pagerank calls its own deprecated pagerank_scipy
        warnings.simplefilter("ignore", DeprecationWarning)
        return nx.pagerank(G, alpha=d, personalization=pers, dangling=dang, weight="weight",
                           tol=1e-15, max_iter=100000)


def ig_rank(web, d):
    idx = {lab: i for i, lab in enumerate(web.labels)}
    edges = [(idx[u], idx[v]) for (u, v) in web.links]
    g = igraph.Graph(n=len(web.labels), edges=edges, directed=True)
    weights = [w for w in web.links.values()] if web.weighted else None
    reset = None
    if web.E is not None:
        reset = [float(web.E.get(lab, 0.0)) for lab in web.labels]
    r = g.personalized_pagerank(vertices=None, directed=True, damping=d, reset=reset,
                                weights=weights, implementation="prpack")
    return dict(zip(web.labels, r))


def count_fields(obj, prefix=""):
    """Integer fields of an `info --json` document that describe the graph (not sizes, times,
    paths, checksums): path -> value."""
    skip = ("time", "date", "created", "byte", "size", "path", "file", "version", "checksum",
            "hash", "crc", "xxh", "offset", "elapsed", "second", "name", "input", "source",
            "thread", "pid")
    out = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            if any(s in str(k).lower() for s in skip):
                continue
            out.update(count_fields(v, prefix + "/" + str(k)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.update(count_fields(v, prefix + "[%d]" % i))
    elif isinstance(obj, int) and not isinstance(obj, bool):
        out[prefix] = obj
    return out


# --------------------------------------------------------------------------------------------
class CrossCheck(WebrankTestCase):
    """webrank vs NetworkX and igraph (L1 <= 1e-9 per label)."""

    def run_case(self, seed, n, labels, weighted, personalize, d, dangling="source",
                 use_igraph=True, rank_flags=()):
        web = make_web(seed, n, labels=labels, weighted=weighted, personalize=personalize)
        self.assertTrue(web.dangling, "generator must produce dangling pages")
        self.write("web.tsv", web.text)
        self.build("web.tsv", extra=("--weighted",) if weighted else ())
        flags = ["--damping", repr(d), "--tol", "1e-12", "--max-iter", "100000",
                 "--dangling", dangling, *rank_flags]
        if web.E is not None:
            self.write("e.tsv", source_text(web.E))
            flags += ["--source", "e.tsv"]
        rows, got = self.rank("db", *flags)
        self.assertEqual([r[0] for r in rows], web.order, "pages must be in first-appearance "
                         "order")
        ref_nx = nx_rank(web, d, dangling="E" if dangling == "source" else "uniform")
        self.assertRanksClose(got, ref_nx, L1_REF, msg="vs NetworkX")
        if use_igraph:
            ref_ig = ig_rank(web, d)
            self.assertRanksClose(got, ref_ig, L1_REF, msg="vs igraph PRPACK")
        return web, got

    def test_n10_int_uniform(self):
        self.run_case(1, 10, "int", False, False, 0.85)

    def test_n10_str_weighted_personalized(self):
        self.run_case(2, 10, "str", True, True, 0.85)

    def test_n50_int_weighted_personalized_d05(self):
        self.run_case(3, 50, "int", True, True, 0.5)

    def test_n200_str_personalized_d09(self):
        self.run_case(4, 200, "str", False, True, 0.9)

    def test_n1000_int_weighted(self):
        self.run_case(5, 1000, "int", True, False, 0.85)

    def test_n1000_str_weighted_personalized_d099(self):
        self.run_case(6, 1000, "str", True, True, 0.99)

    def test_n5000_int_personalized(self):
        self.run_case(7, 5000, "int", False, True, 0.85)

    def test_n5000_str_weighted(self):
        self.run_case(8, 5000, "str", True, False, 0.85)

    def test_n5000_blocked_sweep(self):
        # propagation blocking with 64-page blocks (79 blocks), as large webs use by default
        for method in ("power", "paper", "extrapolate"):
            with self.subTest(method=method):
                shutil.rmtree(self.path("db"), ignore_errors=True)
                self.run_case(12, 5000, "int", False, True, 0.85,
                              rank_flags=("--sweep", "blocked", "--block-pages", "64",
                                          "--method", method, "--threads", "2"))
                with open(self.path("db/ranks/pagerank.json")) as f:
                    meta = json.load(f)
                self.assertEqual((meta["sweep"], meta["block_pages"]), ("blocked", 64))

    def test_n5000_gauss_seidel_by_component(self):
        # one strongly connected component at a time; uniform dangling with a personalized E
        # is not D = E, so that case runs the whole-web sweeps
        for weighted, dangling in ((False, "source"), (True, "source"), (True, "uniform")):
            with self.subTest(weighted=weighted, dangling=dangling):
                shutil.rmtree(self.path("db"), ignore_errors=True)
                web, _ = self.run_case(13, 5000, "str", weighted, True, 0.85, dangling=dangling,
                                       use_igraph=dangling == "source",
                                       rank_flags=("--method", "gauss-seidel", "--threads", "2"))
        # progress: pages solved while it runs, then one line per sweep index
        res = self.wr("rank", "db", "--method", "gauss-seidel", "--tol", "1e-12",
                      "--progress", "json", "--name", "gs")
        lines = [json.loads(x) for x in res.err.splitlines() if x.startswith("{")]
        solved = [x for x in lines if "pages_solved" in x]
        sweeps = [x for x in lines if "iteration" in x]
        self.assertEqual(solved[0]["stage"], "search", lines)  # first: finding the components
        self.assertEqual(solved[0]["pages_solved"], 0, lines)
        self.assertEqual({x["stage"] for x in solved[1:]}, {"solve"}, lines)
        self.assertTrue(solved and solved[-1]["pages_solved"] == solved[-1]["pages"], lines)
        self.assertEqual([x["iteration"] for x in sweeps], list(range(1, len(sweeps) + 1)))
        self.assertLessEqual(sweeps[-1]["delta"], 1e-12)
        with open(self.path("db/ranks/gs.json")) as f:
            meta = json.load(f)
        self.assertGreater(meta["components"], 1)
        self.assertGreater(meta["largest_component_pages"], 1)
        self.assertIn("strongly connected components", res.err)

    def test_gauss_seidel_progress_ends_once(self):
        # a generated web whose last pages (dangling, solved together) fill a progress report of
        # their own: the end is still reported once
        self.wr("generate", "--model", "web", "--pages", "100000", "--links", "800000",
                "-o", "web.txt")
        self.wr("build", "web.txt", "-o", "web.db")
        res = self.wr("rank", "web.db", "--method", "gauss-seidel", "--progress", "json")
        lines = [x for x in json_lines(res.err) if "stage" in x]
        ends = [x for x in lines if x["pages_solved"] == x["pages"]]
        self.assertEqual(len(ends), 1, lines)
        self.assertEqual(lines[-1], ends[0])

    def test_n5000_auto_method(self):
        # --method auto: a few power iterations, then power or gauss-seidel; the rank's JSON and
        # the summary line say which, and the iterations continue the probe's numbering
        web, _ = self.run_case(14, 5000, "str", False, True, 0.85,
                               rank_flags=("--method", "auto", "--threads", "2"))
        with open(self.path("db/ranks/pagerank.json")) as f:
            meta = json.load(f)
        self.assertEqual(meta["method"], "auto")
        self.assertIn(meta["solved_by"], ("power", "gauss-seidel"))
        res = self.wr("rank", "db", "--method", "auto", "--tol", "1e-12", "--progress", "json",
                      "--name", "auto")
        self.assertIn("auto (%s)" % meta["solved_by"], res.err)
        lines = [x for x in json_lines(res.err) if "iteration" in x]
        self.assertEqual([x["iteration"] for x in lines], list(range(1, len(lines) + 1)))

    def test_n2000_int_weighted_personalized_dangling_uniform(self):
        # igraph has no separate dangling distribution (it always follows `reset`): NetworkX only
        self.run_case(9, 2000, "int", True, True, 0.85, dangling="uniform", use_igraph=False)

    def test_n300_uniform_dangling_equals_source_when_E_uniform(self):
        web, got = self.run_case(10, 300, "str", True, False, 0.85, dangling="uniform")
        rows, src = self.rank("db", "--damping", "0.85", "--tol", "1e-12", out="src.tsv")
        self.assertRanksClose(got, src, 1e-10)

    def test_references_agree_with_each_other(self):
        """Guards the conventions stated in the module docstring: NetworkX, igraph and a
        numpy solve agree on a web with self-links, duplicates, dangling and isolated pages,
        weights and personalization.  (No webrank call.)"""
        web = make_web(11, 400, labels="str", weighted=True, personalize=True)
        a = nx_rank(web, 0.85)
        b = ig_rank(web, 0.85)
        c = reference_pagerank(web.labels, web.links, 0.85, E=web.E)
        self.assertRanksClose(a, c, 1e-10, msg="NetworkX vs numpy")
        self.assertRanksClose(b, c, 1e-10, msg="igraph vs numpy")


# --------------------------------------------------------------------------------------------
class Properties(WebrankTestCase):

    def build_web(self, web, name="web.tsv", db="db"):
        self.write(name, web.text)
        self.build(name, db=db, extra=("--weighted",) if web.weighted else ())
        if web.E is not None:
            self.write("e.tsv", source_text(web.E))
        return db

    def e_flags(self, web):
        return ["--source", "e.tsv"] if web.E is not None else []

    def test_sum_to_one(self):
        web = make_web(21, 1000, labels="str", weighted=True, personalize=True)
        self.assertTrue(web.dangling)
        self.build_web(web)
        for dangling in ("source", "uniform"):
            for method in ("power", "paper", "direct"):
                if method == "paper" and dangling == "uniform":
                    continue  # the paper's computation is W = E (SPEC 1.2)
                with self.subTest(dangling=dangling, method=method):
                    rows, r = self.rank("db", "--dangling", dangling, "--method", method,
                                        "--tol", "1e-12", *self.e_flags(web))
                    self.assertEqual(len(r), len(web.labels))
                    self.assertAlmostEqual(sum(r.values()), 1.0, delta=1e-10)
                    self.assertTrue(all(v >= 0 for v in r.values()))

    def test_invariance_under_line_shuffling(self):
        web = make_web(22, 2000, labels="int", weighted=True, personalize=True)
        self.build_web(web)
        rows1, r1 = self.rank("db", "--tol", "1e-13", *self.e_flags(web), out="r1.tsv")
        lines = web.text.split("\n")
        body = [ln for ln in lines if ln]
        random.Random(5).shuffle(body)
        shuffled = "\n".join(body) + "\n"
        self.write("shuffled.tsv", shuffled)
        self.build("shuffled.tsv", db="db2", extra=("--weighted",))
        rows2, r2 = self.rank("db2", "--tol", "1e-13", *self.e_flags(web), out="r2.tsv")
        # the new id order is the first appearance in the shuffled file
        order, seen = [], set()
        for ln in body:
            s = ln.strip()
            if not s or s[0] in "#%":
                continue
            fields = s.split("\t") if "\t" in s else s.split()
            for f in fields[:2]:
                f = f.strip()
                if f not in seen:
                    seen.add(f)
                    order.append(f)
        self.assertEqual([r[0] for r in rows2], order)
        self.assertNotEqual(order, [r[0] for r in rows1])
        self.assertRanksClose(r2, r1, 1e-10)

    def test_invariance_under_relabeling(self):
        web = make_web(23, 1500, labels="int", weighted=False, personalize=True)
        self.build_web(web)
        rows1, r1 = self.rank("db", "--tol", "1e-13", *self.e_flags(web), out="r1.tsv")
        rng = random.Random(6)
        new = rng.sample(range(1, 10 ** 12), len(web.labels))
        mapping = {old: "page/%d x" % k for old, k in zip(web.labels, new)}
        lines = []
        for (u, v) in web.links:
            lines.append("%s\t%s" % (mapping[u], mapping[v]))
        targets = set(v for (_, v) in web.links)
        for lab in web.labels:
            if lab in web.dangling and lab not in targets:
                lines.append(mapping[lab].replace(" ", "_"))  # isolated: no blank allowed
                mapping[lab] = mapping[lab].replace(" ", "_")
        rng.shuffle(lines)
        self.write("relabeled.tsv", "\n".join(lines) + "\n")
        self.build("relabeled.tsv", db="db2")
        self.write("e2.tsv", "".join("%s\t%r\n" % (mapping[k], w) for k, w in web.E.items()))
        rows2, r2 = self.rank("db2", "--tol", "1e-13", "--source", "e2.tsv", out="r2.tsv")
        back = {mapping[k]: k for k in mapping}
        r2b = {back[k]: v for k, v in r2.items()}
        self.assertRanksClose(r2b, r1, 1e-10)

    def test_float_vs_double(self):
        for n in (1000, 10000):
            with self.subTest(n=n):
                web = make_web(24 + n, n, labels="int", weighted=(n == 1000), personalize=True)
                db = self.build_web(web, name="w%d.tsv" % n, db="db%d" % n)
                _, rd = self.rank(db, "--tol", "1e-12", *self.e_flags(web), out="d.tsv")
                _, rf = self.rank(db, "--precision", "float", "--tol", "1e-6",
                                  *self.e_flags(web), out="f.tsv")
                self.assertRanksClose(rf, rd, 1e-5)

    def test_threads_1_vs_2(self):
        web = make_web(25, 5000, labels="str", weighted=True, personalize=True)
        self.build_web(web)
        for method in ("power", "paper"):
            with self.subTest(method=method):
                _, r1 = self.rank("db", "--method", method, "--threads", "1", "--tol", "1e-13",
                                  *self.e_flags(web), out="t1.tsv")
                _, r2 = self.rank("db", "--method", method, "--threads", "2", "--tol", "1e-13",
                                  *self.e_flags(web), out="t2.tsv")
                self.assertRanksClose(r2, r1, 1e-12)

    def test_short_openmp_spin_by_default(self):
        # webrank asks libgomp for GOMP_SPINCOUNT=10000 unless the user chose a policy, before
        # libgomp initializes and without executing itself again; libgomp prints its settings
        # (once per exec) with OMP_DISPLAY_ENV=verbose.
        self.write("w.tsv", "a\tb\nb\tc\n")
        self.build("w.tsv")

        def spin(**env):
            run_env = dict(os.environ, OMP_DISPLAY_ENV="verbose", OMP_NUM_THREADS="2", **env)
            for k in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT"):
                if k not in env:
                    run_env.pop(k, None)
            p = subprocess.run([wrcli.WEBRANK, "info", "db"], cwd=self.dir, env=run_env,
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            values = [ln.split("'")[1] for ln in p.stderr.splitlines() if "GOMP_SPINCOUNT" in ln]
            self.assertEqual(len(values), 1, "libgomp initialized more than once (a re-exec?)\n"
                             + p.stderr)
            return values[0]

        self.assertEqual(spin(), "10000")
        self.assertEqual(spin(GOMP_SPINCOUNT="1234"), "1234")
        self.assertEqual(spin(OMP_WAIT_POLICY="active"), "30000000000")

    def test_start_up_loads_no_server_or_tls_library(self):
        # Every command pays for the shared libraries it links at start-up: cpp-httplib's brought
        # OpenSSL (~4 ms), so the server moved to webrank-serve. Its HTTP layer (Boost.Beast) is
        # header-only: neither executable loads a TLS or HTTP library, and the server loads
        # nothing the plain command does not.
        def needed(exe):
            out = subprocess.run(["readelf", "-d", exe], capture_output=True, text=True,
                                 check=True).stdout
            libs = re.findall(r"Shared library: \[([^\]]+)\]", out)
            self.assertTrue(libs, out)
            return libs

        libs = needed(wrcli.WEBRANK)
        served = needed(os.path.join(os.path.dirname(wrcli.WEBRANK), "webrank-serve"))
        for lib in libs + served:
            self.assertFalse(re.match(r"lib(ssl|crypto|gnutls|cpp-httplib|microhttpd|h2o|brotli|"
                                      r"curl)", lib), (libs, served))
        self.assertEqual(sorted(set(served) - set(libs)), [], (libs, served))

    def test_leak(self):
        web = make_web(26, 1000, labels="int", weighted=True, personalize=True)
        self.assertTrue(web.dangling)
        self.build_web(web)
        _, r = self.rank("db", "--dangling", "leak", "--tol", "1e-13", *self.e_flags(web))
        want = reference_pagerank(web.labels, web.links, 0.85, E=web.E, W="leak")
        total = sum(r.values())
        self.assertLess(total, 1.0 - 1e-6, "leak ranks must sum to less than 1")
        self.assertAlmostEqual(total, sum(want.values()), delta=1e-9)
        self.assertRanksClose(r, want, L1_REF, msg="vs numpy leak fixed point")

    def test_leak_and_remove_without_dangling_pages_equal_source(self):
        web = make_web(27, 800, labels="str", weighted=True, personalize=False,
                       no_dangling=True, n_isolated=0)
        self.assertFalse(web.dangling)
        self.build_web(web)
        _, src = self.rank("db", "--tol", "1e-13", out="src.tsv")
        self.assertAlmostEqual(sum(src.values()), 1.0, delta=1e-10)
        for mode in ("leak", "remove"):
            with self.subTest(mode=mode):
                _, r = self.rank("db", "--dangling", mode, "--tol", "1e-13", out=mode + ".tsv")
                self.assertAlmostEqual(sum(r.values()), 1.0, delta=1e-10)
                self.assertRanksClose(r, src, 1e-9)

    def test_direct_vs_power(self):
        for n in (10, 200, 1000):
            with self.subTest(n=n):
                web = make_web(28 + n, n, labels="str", weighted=True, personalize=True)
                db = self.build_web(web, name="w%d.tsv" % n, db="db%d" % n)
                for dangling in ("source", "uniform", "leak"):
                    _, rp = self.rank(db, "--method", "power", "--tol", "1e-13",
                                      "--dangling", dangling, *self.e_flags(web), out="p.tsv")
                    _, rd = self.rank(db, "--method", "direct", "--dangling", dangling,
                                      *self.e_flags(web), out="d.tsv")
                    self.assertRanksClose(rd, rp, 1e-9, msg="dangling=" + dangling)

    def test_paper_vs_power(self):
        for n in (200, 5000):
            with self.subTest(n=n):
                web = make_web(29 + n, n, labels="int", weighted=(n == 200), personalize=True)
                db = self.build_web(web, name="w%d.tsv" % n, db="db%d" % n)
                for E in (True, False):
                    ef = self.e_flags(web) if E else []
                    _, rp = self.rank(db, "--method", "power", "--tol", "1e-12", *ef,
                                      out="p.tsv")
                    _, rq = self.rank(db, "--method", "paper", "--tol", "1e-12", *ef,
                                      out="q.tsv")
                    self.assertRanksClose(rq, rp, 1e-9, msg="personalized=%s" % E)

    def test_start_vector_does_not_change_the_limit(self):
        web = make_web(30, 1000, labels="int", weighted=False, personalize=True)
        self.build_web(web)
        rng = random.Random(7)
        self.write("start.tsv", "".join("%s\t%r\n" % (lab, rng.uniform(0.0, 1.0))
                                        for lab in web.labels))
        _, r0 = self.rank("db", "--tol", "1e-13", *self.e_flags(web), out="a.tsv")
        _, r1 = self.rank("db", "--tol", "1e-13", "--start", "start.tsv", *self.e_flags(web),
                          out="b.tsv")
        self.assertRanksClose(r1, r0, 1e-10)


# --------------------------------------------------------------------------------------------
class InputFormats(WebrankTestCase):
    """.gz / .zst / stdin inputs give the same database as the plain text file."""

    def info_counts(self, db):
        res = self.wr("info", db, "--json")
        try:
            doc = json.loads(res.out)
        except ValueError as e:
            self.fail("info --json is not JSON (%s)\n%s" % (e, res.describe()))
        return count_fields(doc)

    def db_fingerprint(self, db):
        counts = self.info_counts(db)
        out = "ranks-%s.tsv" % db
        self.rank(db, "--threads", "1", "--tol", "1e-13", out=out)
        with open(self.path(out), "rb") as f:
            return counts, f.read()

    def test_compressed_and_stdin_inputs(self):
        web = make_web(40, 3000, labels="str", weighted=True, personalize=False)
        data = web.text.encode("utf-8")
        self.write("plain.tsv", data)
        self.build("plain.tsv", db="plain.db", extra=("--weighted",))
        counts, ranks = self.db_fingerprint("plain.db")
        n_links = len(web.links)
        self.assertTrue(counts, "info --json has no count fields")
        self.assertIn(len(web.labels), counts.values(),
                      "info --json does not report the page count %d: %r"
                      % (len(web.labels), counts))
        self.assertIn(n_links, counts.values(),
                      "info --json does not report the distinct-link count %d: %r"
                      % (n_links, counts))

        half = len(data) // 2
        cut = data.index(b"\n", half) + 1
        part1, part2 = data[:cut], data[cut:]
        self.write("edges.gz", gzip.compress(data, mtime=0))
        self.write("gz-without-extension.dat", gzip.compress(data, mtime=0))
        self.write("multi-member.gz", gzip.compress(part1, mtime=0) + gzip.compress(part2, mtime=0))
        self.write("plain-named.gz", data)        # plain text despite the name
        self.write("part1.gz", gzip.compress(part1, mtime=0))
        have_zstd = shutil.which("zstd") is not None
        if have_zstd:
            self.write("part2.src", part2)
            for name, src in (("edges.zst", "plain.tsv"), ("zst-without-extension.bin",
                                                           "plain.tsv")):
                subprocess.run(["zstd", "-q", "-f", "-19", src, "-o", name], cwd=self.dir,
                               check=True, timeout=120)
            subprocess.run(["zstd", "-q", "-f", "part2.src", "-o", "part2.zst"], cwd=self.dir,
                           check=True, timeout=120)
            with open(self.path("multi-frame.zst"), "wb") as f:
                f.write(subprocess.run(["zstd", "-q", "-c", "-"], input=part1,
                                       stdout=subprocess.PIPE, check=True).stdout)
                f.write(subprocess.run(["zstd", "-q", "-c", "-"], input=part2,
                                       stdout=subprocess.PIPE, check=True).stdout)

        variants = [("gz", ["edges.gz"], None),
                    ("gz-magic", ["gz-without-extension.dat"], None),
                    ("gz-multi-member", ["multi-member.gz"], None),
                    ("plain-named-gz", ["plain-named.gz"], None),
                    ("stdin", ["-"], data),
                    ("stdin-gz", ["-"], gzip.compress(data, mtime=0))]
        if have_zstd:
            variants += [("zst", ["edges.zst"], None),
                         ("zst-magic", ["zst-without-extension.bin"], None),
                         ("zst-multi-frame", ["multi-frame.zst"], None),
                         ("two-inputs-gz-zst", ["part1.gz", "part2.zst"], None)]
        else:
            variants += [("two-inputs-gz-plain", ["part1.gz", "part2.src"], None)]
            self.write("part2.src", part2)
        for name, inputs, stdin in variants:
            with self.subTest(variant=name):
                db = name + ".db"
                self.build(inputs, db=db, extra=("--weighted",), input=stdin)
                c, r = self.db_fingerprint(db)
                self.assertEqual(c, counts)
                self.assertEqual(r, ranks, "ranks differ from the plain-text database")
        if not have_zstd:
            self.skipTest("zstd command not found: .zst variants not run")


if __name__ == "__main__":
    wrcli.main()
