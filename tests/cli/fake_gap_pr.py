#!/usr/bin/python3
"""A stand-in for the GAP Benchmark Suite's `pr` (github.com/sbeamer/gapbs, src/pr.cc), which
Debian does not package, for testing bench/compare's --gap: the same command line (-f FILE.el,
-n trials, -i max iterations, -t tolerance, -l to print each iteration's error), the same reading of an .el file, the same algorithm
(pull iteration in which dangling rank leaks, on the graph without self-links and duplicate
links, ids as given: every id up to the largest is a node) and the same output lines. Stricter
than GAP in one way: a token that is not an integer is an error (GAP silently stops reading
there, so a comment line would quietly cut the graph short). Also records its arguments in
$FAKE_GAP_LOG when set."""
import getopt
import os
import sys
import time


def main():
    opts, _ = getopt.getopt(sys.argv[1:], "f:g:hk:su:an:r:vli:t:")
    o = dict(opts)
    if os.environ.get("FAKE_GAP_LOG"):
        with open(os.environ["FAKE_GAP_LOG"], "a") as f:
            f.write(" ".join(sys.argv[1:]) + "\n")
    path = o.get("-f", "")
    if not path.endswith(".el"):
        print(f"Unrecognized suffix: {os.path.splitext(path)[1]}")
        return 253  # GAP: exit(-3)
    t0 = time.perf_counter()
    with open(path) as f:
        tokens = f.read().split()
    if not all(t.isdigit() for t in tokens) or len(tokens) % 2:
        print(f"fake GAP: {path} is not pairs of integers", file=sys.stderr)
        return 3
    edges = [(int(tokens[i]), int(tokens[i + 1])) for i in range(0, len(tokens), 2)]
    print(f"{'Read Time:':<21}{time.perf_counter() - t0:3.5f}")
    t0 = time.perf_counter()
    n = max(max(e) for e in edges) + 1
    links = sorted({(u, v) for u, v in edges if u != v})
    out_degree = [0] * n
    in_neigh = [[] for _ in range(n)]
    for u, v in links:
        out_degree[u] += 1
        in_neigh[v].append(u)
    print(f"{'Build Time:':<21}{time.perf_counter() - t0:3.5f}")
    print(f"Graph has {n} nodes and {len(links)} directed edges for degree: {len(links) // n}")
    damp, max_iters, tol = 0.85, int(o.get("-i", 20)), float(o.get("-t", 1e-4))
    total = 0.0
    trials = int(o.get("-n", 16))
    for _ in range(trials):
        t0 = time.perf_counter()
        scores = [1.0 / n] * n
        contrib = [s / d if d else 0.0 for s, d in zip(scores, out_degree)]
        for it in range(max_iters):
            error = 0.0
            for u in range(n):  # Gauss–Seidel-like: contributions updated in place, as GAP does
                old = scores[u]
                scores[u] = (1 - damp) / n + damp * sum(contrib[v] for v in in_neigh[u])
                error += abs(scores[u] - old)
                contrib[u] = scores[u] / out_degree[u] if out_degree[u] else 0.0
            if "-l" in o:  # GAP's PrintStep(iter, error): "%5s%23.5lf"
                print(f"{it:>5d}{error:23.5f}")
            if error < tol:
                break
        seconds = time.perf_counter() - t0
        total += seconds
        print(f"{'Trial Time:':<21}{seconds:3.5f}")
    print(f"{'Average Time:':<21}{total / trials:3.5f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
