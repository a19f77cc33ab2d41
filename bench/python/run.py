#!/usr/bin/python3
"""The Python module beside nx.pagerank and igraph (docs/python.md).

    build/venv/bin/python bench/python/run.py [--runs 3] [GRAPH ...]

GRAPH is a numeric edge list (plain, .gz, .zst); by default the shared real graphs
(../shared/data: wb-cs-stanford, hollins, web-NotreDame, cnr-2000). For each graph, in one
process, the median of --runs runs of each, webrank's alternated with the peer's:
  from a NetworkX DiGraph (conversion included):  nx.pagerank(G)  vs  webrank.pagerank(G)
                                                  (both with NetworkX's stopping rule, N*1e-6)
  from an igraph Graph:  g.pagerank() (PRPACK, exact)  vs  webrank.pagerank_scipy(g,
                         abs_tol=1e-10) with conversion, and webrank.rank on the converted graph
  from (src, dst) arrays:  webrank.pagerank_scipy((src, dst)) with conversion, and the solve
                           alone (webrank.rank on a prepared webrank.Graph)
and the L1 distance of webrank's vector to NetworkX's and to igraph's. Prints a table
(Markdown) to stdout.
"""
import argparse
import gzip
import os
import statistics
import subprocess
import sys
import time
import warnings

import igraph
import networkx as nx
import numpy as np

import webrank

warnings.simplefilter("ignore", DeprecationWarning)
DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    "..", "shared", "data")
DEFAULT = ["wb-cs-stanford/wb-cs.stanford.edges.tsv.zst", "hollins/hollins.edges.tsv.gz",
           "web-NotreDame/web-NotreDame.txt.zst", "cnr-2000/cnr-2000.edges.tsv.zst"]


def read_edges(path):
    if path.endswith(".zst"):
        data = subprocess.run(["zstd", "-dc", path], check=True, stdout=subprocess.PIPE).stdout
    elif path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            data = f.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    lines = [l for l in data.split(b"\n") if l and not l.startswith((b"#", b"%"))]
    a = np.array(b" ".join(lines).split(), dtype=np.int64).reshape(-1, 2)
    return a[:, 0].copy(), a[:, 1].copy()


def paired(peer, ours, runs):
    """Medians of `runs` runs of each, alternated (peer, ours, peer, ...) so that the load of a
    shared machine falls on both alike; returns (peer seconds, its result, our seconds, ours)."""
    times = ([], [])
    out = [None, None]
    for _ in range(runs):
        for k, fn in enumerate((peer, ours)):
            if fn is None:
                continue
            t = time.perf_counter()
            out[k] = fn()
            times[k].append(time.perf_counter() - t)
    med = [statistics.median(t) if t else None for t in times]
    return med[0], out[0], med[1], out[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graphs", nargs="*")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    graphs = args.graphs or [os.path.join(DATA, g) for g in DEFAULT]
    print("| graph | pages | links | how | NetworkX s | igraph s | webrank s | ratio | L1 to peer |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in graphs:
        if not os.path.exists(path):
            print("skipped: %s not found" % path, file=sys.stderr)
            continue
        name = os.path.basename(path).split(".")[0]
        src, dst = read_edges(path)
        # Pages are the ids that appear (NetworkX's and webrank's convention), numbered densely
        # so that igraph invents none.
        ids, inverse = np.unique(np.concatenate([src, dst]), return_inverse=True)
        src, dst = inverse[: len(src)], inverse[len(src):]
        n = len(ids)
        G = nx.DiGraph()
        G.add_nodes_from(range(n))
        G.add_edges_from(zip(src.tolist(), dst.tolist()))
        m = G.number_of_edges()
        g = igraph.Graph(n=n, edges=np.stack([src, dst], axis=1).tolist(), directed=True)
        g.simplify(multiple=True, loops=False)
        row = lambda how, nxs, igs, wrs, peer, l1: print(
            "| %s | %d | %d | %s | %s | %s | %.4f | %s | %.1e |"
            % (name, n, m, how, "%.4f" % nxs if nxs else "", "%.4f" % igs if igs else "", wrs,
               "%.1f× faster" % (peer / wrs) if peer / wrs >= 1 else "%.2f×" % (peer / wrs), l1),
            flush=True)

        nx_s, ref, wr_s, ours = paired(lambda: nx.pagerank(G), lambda: webrank.pagerank(G),
                                       args.runs)
        l1 = sum(abs(ours[k] - ref[k]) for k in ref)
        row("NetworkX graph, N·tol (conversion included)", nx_s, None, wr_s, nx_s, l1)

        prpack = lambda: g.pagerank(implementation="prpack")
        tight = dict(abs_tol=1e-10, max_iter=1000)
        ig_s, igref, wr_s, x = paired(prpack, lambda: webrank.pagerank_scipy(g, **tight),
                                      args.runs)
        igref = np.array(igref)
        row("igraph Graph, exact / abs_tol 1e-10 (conversion included)", None, ig_s, wr_s, ig_s,
            float(np.abs(x - igref).sum()))
        ig_s, _, wr_s, x = paired(prpack, lambda: webrank.pagerank_scipy(g, method="auto", **tight),
                                  args.runs)
        row("igraph Graph, method=auto (conversion included)", None, ig_s, wr_s, ig_s,
            float(np.abs(x - igref).sum()))

        ig_s, _, wr_s, x = paired(prpack, lambda: webrank.pagerank_scipy((src, dst), pages=n,
                                                                         **tight), args.runs)
        row("(src, dst) arrays, abs_tol 1e-10 (conversion included)", None, ig_s, wr_s, ig_s,
            float(np.abs(x - igref).sum()))
        graph = webrank.Graph.from_arrays(n, src, dst)
        for method in ("power", "auto"):
            ig_s, _, wr_s, (x, _) = paired(
                prpack, lambda: webrank.rank(graph, tol=1e-10, method=method), args.runs)
            row("solve alone, %s, abs_tol 1e-10" % method, None, ig_s, wr_s, ig_s,
                float(np.abs(x - igref).sum()))


if __name__ == "__main__":
    main()
