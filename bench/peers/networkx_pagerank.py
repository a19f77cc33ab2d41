#!/usr/bin/python3
"""NetworkX peer: nx.pagerank (NetworkX 2.8: the SciPy power iteration) on an edge list.

    /usr/bin/python3 networkx_pagerank.py EDGES [--damping 0.85] [--l1 1e-10] [--out FILE]

Load = read the edge list (same rules as webrank build: '#'/'%' comments, blank lines skipped,
a single field declares a page; pages in order of first appearance) into an nx.DiGraph, which
merges duplicate links and keeps self-links. Rank = nx.pagerank(G, alpha=d, tol=L1/N,
max_iter=1000): NetworkX stops when the L1 change is < N*tol, so tol = L1/N makes its criterion
webrank's (absolute L1 change <= --l1). The time includes NetworkX's conversion of G to a SciPy
matrix, which nx.pagerank does on every call. Dangling pages follow the personalization
(uniform), as webrank's default. NetworkX does not report its iteration count: it is counted by
shadowing the builtin sum() that the loop of pagerank_scipy calls once per iteration.
Prints one JSON object on stdout.
"""
import argparse
import builtins
import json
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("edges")
    ap.add_argument("--damping", type=float, default=0.85)
    ap.add_argument("--l1", type=float, default=1e-10, help="target L1 change (absolute)")
    ap.add_argument("--max-iter", type=int, default=1000)
    ap.add_argument("--out")
    a = ap.parse_args()

    t0 = time.perf_counter()
    import networkx as nx
    import networkx.algorithms.link_analysis.pagerank_alg as pr_mod

    G = nx.DiGraph()
    input_links = 0
    edges = []
    with open(a.edges, "rb") as f:
        for raw in f:
            line = raw.strip()
            if not line or line[:1] in (b"#", b"%"):
                continue
            fields = line.split(b"\t") if b"\t" in line else line.split()
            fields = [x.strip().decode() for x in fields]
            if len(fields) == 1:  # keep the order of first appearance
                G.add_edges_from(edges)
                edges.clear()
                G.add_node(fields[0])
            elif len(fields) == 2:
                edges.append((fields[0], fields[1]))
                input_links += 1
            else:
                sys.exit(f"{a.edges}: line with {len(fields)} fields")
            if len(edges) >= 1 << 16:
                G.add_edges_from(edges)
                edges.clear()
    G.add_edges_from(edges)
    del edges
    t1 = time.perf_counter()

    n = G.number_of_nodes()
    counter = [0]

    def counting_sum(*args, **kw):
        counter[0] += 1
        return builtins.sum(*args, **kw)

    pr_mod.sum = counting_sum  # module global shadows the builtin inside pagerank_scipy
    t2 = time.perf_counter()
    ranks = nx.pagerank(G, alpha=a.damping, tol=a.l1 / n, max_iter=a.max_iter)
    t3 = time.perf_counter()
    del pr_mod.sum

    if a.out:
        with open(a.out, "w") as f:
            f.writelines(f"{k}\t{v!r}\n" for k, v in ranks.items())
    print(json.dumps({
        "tool": "networkx", "precision": "double", "pages": n, "input_links": input_links,
        "links": G.number_of_edges(), "damping": a.damping, "l1_target": a.l1, "nx_tol": a.l1 / n,
        "load_seconds": round(t1 - t0, 6), "rank_seconds": round(t3 - t2, 6),
        "iterations": counter[0], "sum": sum(ranks.values()), "threads": 1,
        "networkx_version": nx.__version__,
    }))


if __name__ == "__main__":
    main()
