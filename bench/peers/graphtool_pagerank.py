#!/usr/bin/python3
"""graph-tool peer: graph_tool.centrality.pagerank (C++, OpenMP) on an edge list.

    /usr/bin/python3 graphtool_pagerank.py EDGES [--precision float|double] [--damping 0.85]
                     [--tol 1e-10] [--threads N] [--out FILE]

Load = read the edge list (numeric labels; '#'/'%' comment lines skipped; NumPy's text parser),
Graph.add_edge_list(hashed=True) (vertices in order of first appearance, as webrank numbers
pages) and remove_parallel_edges (duplicate links once, self-links kept: webrank's rules).
Rank = pagerank(g, damping, epsilon=tol, prop=float|double vertex map set to 1/N, the start
vector, ret_iter=True): a power iteration that stops when the total (L1) change is below epsilon; dangling pages spread their
rank uniformly (graph-tool: "assumed to connect to every other node"), webrank's default.
Prints one JSON object on stdout.
"""
import argparse
import json
import sys
import time

import numpy as np


def read_edges(path):
    with open(path, "rb") as f:
        data = f.read()
    # Comment lines usually open the file; drop them cheaply, then check the rest.
    pos = 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        end = len(data) if end < 0 else end
        line = data[pos:end].strip()
        if line and not line.startswith((b"#", b"%")):
            break
        pos = end + 1
    body = data[pos:]
    del data
    if b"#" in body or b"%" in body:
        body = b"\n".join(x for x in body.split(b"\n")
                          if not x.lstrip().startswith((b"#", b"%")))
    arr = np.fromstring(body, dtype=np.int64, sep=" ")
    # Check the parse against the line count (C-speed counts; blank lines are rare).
    lines = body.count(b"\n") + (1 if body and not body.endswith(b"\n") else 0)
    lines -= body.count(b"\n\n")
    if arr.size != 2 * lines:
        sys.exit(f"{path}: graphtool_pagerank needs exactly two numeric labels per line "
                 f"({arr.size} numbers on {lines} lines)")
    return arr.reshape(-1, 2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("edges")
    ap.add_argument("--precision", choices=("float", "double"), default="double")
    ap.add_argument("--damping", type=float, default=0.85)
    ap.add_argument("--tol", type=float, default=1e-10)
    ap.add_argument("--max-iter", type=int, default=10000)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--out")
    a = ap.parse_args()

    import graph_tool as gt
    import graph_tool.centrality as gtc
    import graph_tool.generation as gtg

    if a.threads > 0:
        gt.openmp_set_num_threads(a.threads)
    t0 = time.perf_counter()
    edges = read_edges(a.edges)
    input_links = len(edges)
    g = gt.Graph(directed=True)
    labels = g.add_edge_list(edges, hashed=True)
    del edges
    gtg.remove_parallel_edges(g)
    t1 = time.perf_counter()

    t2 = time.perf_counter()
    # pagerank() starts from `prop` as given ("used uninitialized"): start uniform, as webrank.
    # (From zero it took 132 instead of 111 iterations on web-NotreDame: the missing mass then
    # converges at exactly rate d, whatever the graph.)
    prop = g.new_vertex_property(a.precision)
    prop.a[:] = 1.0 / g.num_vertices()
    rank, iterations = gtc.pagerank(g, damping=a.damping, prop=prop, epsilon=a.tol,
                                    max_iter=a.max_iter, ret_iter=True)
    t3 = time.perf_counter()

    x = rank.a.astype(np.float64)
    if a.out:
        with open(a.out, "w") as f:
            f.writelines(f"{lab}\t{v!r}\n" for lab, v in zip(labels.a.tolist(), x.tolist()))
    print(json.dumps({
        "tool": "graph-tool", "precision": a.precision, "pages": g.num_vertices(),
        "input_links": input_links, "links": g.num_edges(), "damping": a.damping, "tol": a.tol,
        "load_seconds": round(t1 - t0, 6), "rank_seconds": round(t3 - t2, 6),
        "iterations": int(iterations), "converged": int(iterations) < a.max_iter,
        "sum": float(x.sum()), "threads": gt.openmp_get_num_threads(),
        "graph_tool_version": gt.__version__.split()[0],
    }))


if __name__ == "__main__":
    main()
