"""webrank's Python module as a peer: `Database.rank` on a database bench/compare built.

    PYTHON webrank_python_rank.py DB [--method auto] [--precision float] [--tol 1e-6]
                                     [--dangling leak] [--threads 1] [--name bench-python]
                                     [--damping 0.85]

Run by the Python that has the module (build/venv/bin/python). Load = import the module and open
the database (`webrank.Database(DB)`); rank = the call `db.rank(NAME, ...)` as a user makes it
in a notebook: the solve and storing the vector, as GAP's "Trial Time" is its kernel after its
graph is built. Prints one JSON object on stdout (the fields bench/compare's run_peer reads).
"""
import argparse
import json
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--method", default="auto")
    ap.add_argument("--precision", default="float")
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--dangling", default="leak")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--damping", type=float, default=0.85)
    ap.add_argument("--name", default="bench-python")
    a = ap.parse_args()

    t0 = time.perf_counter()
    import webrank

    db = webrank.Database(a.db)
    t1 = time.perf_counter()
    _, info = db.rank(a.name, method=a.method, precision=a.precision, tol=a.tol,
                      dangling=a.dangling, threads=a.threads, damping=a.damping)
    t2 = time.perf_counter()
    print(json.dumps({"load_seconds": t1 - t0, "rank_seconds": t2 - t1,
                      "solver_seconds": info.get("seconds"), "iterations": info.get("iterations"),
                      "final_delta": info.get("final_delta"), "converged": info.get("converged"),
                      "solved_by": info.get("solved_by"), "pages": db.pages, "links": db.links}))


if __name__ == "__main__":
    main()
