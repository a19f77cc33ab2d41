#!/usr/bin/python3
"""The grid the search defaults were chosen on (docs/search.md, "How the merge was tuned").

    bench/search/tune.py PG.db PYTHON.db [--fields "6,1,10,2;..."] [--bm25 "1.2,0.2;..."]
                         [--weights 0,0.1,0.15,0.2,0.3] [--out grid.jsonl]

For every field weighting the two databases are re-indexed (`webrank index --field-weights`),
then every BM25 (k1, b) and rank weight is evaluated on bench/search/pgdoc15.tsv and
python311.tsv (`webrank eval --bm25-k1 --bm25-b --rank-weight`). Prints the best settings by
the mean of hit@1 and MRR over both sets, for full mode and for text mode (each tuned on its
own), and the cross-validation: settings tuned on one web, measured on the other. The held-out
set (apache24.tsv) is never read here. The databases' indexes are left as the last grid point
built them: run `webrank index DB` afterwards.
"""

import argparse
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
WEBRANK = os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "webrank")


def wr(*args):
    return subprocess.run([WEBRANK] + [str(a) for a in args], check=True,
                          stdout=subprocess.PIPE).stdout


def main():
    global WEBRANK
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pg_db")
    ap.add_argument("python_db")
    ap.add_argument("--fields", default="4,1,3,2;6,1,3,2;10,1,3,2;4,1,6,2;6,1,6,2;10,1,6,2;"
                                        "6,1,10,2;10,1,10,2")
    ap.add_argument("--bm25", default="0.9,0.1;0.9,0.2;0.9,0.3;1.2,0.1;1.2,0.2;1.2,0.3;"
                                      "2,0.1;2,0.2;2,0.3")
    ap.add_argument("--weights", default="0,0.1,0.15,0.2,0.3")
    ap.add_argument("--out", default="/tmp/webrank-tune.jsonl")
    ap.add_argument("--webrank", default=WEBRANK, help="the binary (a copy: not one being rebuilt)")
    a = ap.parse_args()
    WEBRANK = os.path.abspath(a.webrank)
    sets = {"pg": (a.pg_db, os.path.join(HERE, "pgdoc15.tsv")),
            "py": (a.python_db, os.path.join(HERE, "python311.tsv"))}
    rows = []
    with open(a.out, "w") as out:
        for fields in a.fields.split(";"):
            for db, _ in sets.values():
                wr("index", db, "-q", "--field-weights", fields)
            for bm25 in a.bm25.split(";"):
                k1, b = bm25.split(",")
                for w in a.weights.split(","):
                    row = {"fields": fields, "k1": float(k1), "b": float(b), "weight": float(w)}
                    for name, (db, queries) in sets.items():
                        j = json.loads(wr("eval", db, queries, "--json", "--bm25-k1", k1,
                                          "--bm25-b", b, "--rank-weight", w))
                        for m in j["modes"]:
                            row["%s.%s" % (name, m["mode"])] = [m["hit1"], m["mrr"]]
                    rows.append(row)
                    out.write(json.dumps(row) + "\n")
    score = lambda r, m, webs=("pg", "py"): sum(sum(r["%s.%s" % (w, m)]) for w in webs) / (
        2 * len(webs))
    describe = lambda r: "fields %s, k1 %g, b %g, rank weight %g" % (
        r["fields"], r["k1"], r["b"], r["weight"])
    for mode in ("full", "text"):
        best = max(rows, key=lambda r: score(r, mode))
        print("best %s: %s: PG hit@1 %.3f MRR %.3f, Python hit@1 %.3f MRR %.3f" % (
            mode, describe(best), *best["pg." + mode], *best["py." + mode]))
    for train, test in (("pg", "py"), ("py", "pg")):
        for mode in ("full", "text"):
            best = max(rows, key=lambda r: score(r, mode, (train,)))
            print("%s tuned on %s (%s) -> on %s: hit@1 %.3f MRR %.3f" % (
                mode, train, describe(best), test, *best["%s.%s" % (test, mode)]))


if __name__ == "__main__":
    main()
