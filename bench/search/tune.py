#!/usr/bin/python3
"""The grid the search defaults were chosen on (docs/search.md, "How the merge was tuned").

    bench/search/tune.py NAME=DB [NAME=DB ...] [--fields "6,1,10,2,0;..."] [--bm25 "1.2,0.2;..."]
                         [--weights 0.15,0.2,0.25,0.3] [--names 0.2,0.3,0.5]
                         [--anchor-names 0.05,0.1]
                         [--family-names 0,0.5,1] [--out grid.jsonl] [--hold k1,b,...]
    bench/search/tune.py --from grid.jsonl [--hold k1,b,...]

NAME is a web of bench/search/run.py (pgdoc, python, apache, sqlite, cmake) and DB its crawled
database (run.py leaves them in its scratch directory). For every field weighting
(title,text,anchor,url,chrome) the databases are re-indexed (`webrank index --field-weights`),
then every BM25 (k1, b), rank weight, name weight, anchor name weight and family name weight is
evaluated on each web's query set (`webrank eval --bm25-k1 --bm25-b --rank-weight --name-weight
--anchor-name-weight --family-name-weight`). --fields and --bm25 separate settings with ';' (each
setting's numbers with ','), the other lists with ','. Prints the best settings by the mean of hit@1 and MRR over all webs, for
full mode and for text mode (each tuned on its own; text mode depends on the fields and BM25
only), the worst web's hit@1 at those settings, and the
cross-validation: settings tuned on all webs but one, measured on the one left out. The
databases are indexed again with the default field weights at the end.

--hold k1,b,name,anchor,family: the cross-validation of full mode again with those parameters
held at the values chosen on all webs, the others (e.g. fields and rank weight) tuned per fold:
whether what the free parameters gain carries over to the web left out. Parameters: fields, k1,
b, weight (the rank weight), name, anchor, family. Cross-validation needs two webs or more. --from FILE: the
results of an earlier run (its --out), nothing evaluated.
"""

import argparse
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
WEBRANK = os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "webrank")
QUERIES = {"pgdoc": "pgdoc15.tsv", "python": "python311.tsv", "apache": "apache24.tsv",
           "sqlite": "sqlite3.tsv", "cmake": "cmake325.tsv"}
PARAMETERS = ("fields", "k1", "b", "weight", "name", "anchor", "family")


def wr(*args):
    return subprocess.run([WEBRANK] + [str(a) for a in args], check=True,
                          stdout=subprocess.PIPE).stdout


def main():
    global WEBRANK
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("webs", nargs="*", help="NAME=DB, NAME one of " + ", ".join(QUERIES))
    ap.add_argument("--fields", default="6,1,10,2,0;6,1,10,4,0;6,1,10,6,0;6,1,10,8,0;"
                    "6,1,10,10,0;6,1,10,12,0;10,1,10,8,0;6,1,10,8,1",
                    help="title,text,anchor,url,chrome settings separated by ';' "
                    "(default: %(default)s)")
    for flag, default, what in (
            ("--bm25", "1.2,0.1;1.2,0.2;1.2,0.3;2,0.1;2,0.2;2,0.3",
             "k1,b settings separated by ';'"),
            ("--weights", "0.15,0.2,0.25,0.3", "rank weights"),
            ("--names", "0.2,0.3,0.5", "name weights"),
            ("--anchor-names", "0.05,0.1", "anchor name weights"),
            ("--family-names", "0,0.5,1", "family name weights")):
        ap.add_argument(flag, default=default, help=what + " (default: %(default)s)")
    ap.add_argument("--out", default="/tmp/webrank-tune.jsonl",
                    help="every setting's results, one JSON line each (default: %(default)s)")
    ap.add_argument("--from", dest="rows_from", help="analyse the rows of an earlier --out")
    ap.add_argument("--hold", default="",
                    help="parameters held in a second cross-validation: " + ", ".join(PARAMETERS))
    ap.add_argument("--webrank", default=WEBRANK, help="the binary (a copy: not one being rebuilt)")
    a = ap.parse_args()
    WEBRANK = os.path.abspath(a.webrank)
    for h in filter(None, a.hold.split(",")):
        if h not in PARAMETERS:
            ap.error("--hold: unknown parameter %r (one of %s)" % (h, ", ".join(PARAMETERS)))
    if a.rows_from:
        with open(a.rows_from) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        if not rows:
            ap.error("--from %s: no results in it" % a.rows_from)
        webs = list(dict.fromkeys(k.split(".")[0] for k in rows[0] if "." in k))
        report(rows, webs, a.hold)
        return
    if not a.webs:
        ap.error("NAME=DB arguments or --from FILE")
    for setting in a.bm25.split(";"):
        if len(setting.split(",")) != 2:
            ap.error("--bm25: %r is not k1,b (settings are separated by ';')" % setting)
    sets = {}
    for w in a.webs:
        name, _, db = w.partition("=")
        if name not in QUERIES or not db:
            ap.error("%r: expected NAME=DB, NAME one of %s" % (w, ", ".join(QUERIES)))
        if not os.path.isdir(db):
            ap.error("%s: no database there" % db)
        sets[name] = (db, os.path.join(HERE, QUERIES[name]))
    rows = []
    with open(a.out, "w") as out:
        for fields in a.fields.split(";"):
            for db, _ in sets.values():
                wr("index", db, "-q", "--field-weights", fields)
            for bm25 in a.bm25.split(";"):
                k1, b = bm25.split(",")
                for w in a.weights.split(","):
                    for v in a.names.split(","):
                        for va in a.anchor_names.split(","):
                            for vf in a.family_names.split(","):
                                row = {"fields": fields, "k1": float(k1), "b": float(b),
                                       "weight": float(w), "name": float(v), "anchor": float(va),
                                       "family": float(vf)}
                                for name, (db, queries) in sets.items():
                                    j = json.loads(wr("eval", db, queries, "--json", "--bm25-k1",
                                                      k1, "--bm25-b", b, "--rank-weight", w,
                                                      "--name-weight", v,
                                                      "--anchor-name-weight", va,
                                                      "--family-name-weight", vf))
                                    for m in j["modes"]:
                                        row["%s.%s" % (name, m["mode"])] = [m["hit1"], m["mrr"]]
                                rows.append(row)
                                out.write(json.dumps(row) + "\n")
                                out.flush()
    for db, _ in sets.values():
        wr("index", db, "-q")  # the default field weights again
    report(rows, list(sets), a.hold)


def report(rows, webs, hold):
    score = lambda r, m, ws=webs: sum(sum(r["%s.%s" % (w, m)]) for w in ws) / (2 * len(ws))
    worst = lambda r, m: min(r["%s.%s" % (w, m)][0] for w in webs)
    describe = lambda r, m: "fields %s, k1 %g, b %g" % (r["fields"], r["k1"], r["b"]) + (
        ", rank weight %g, name weight %g, anchor name weight %g, family name weight %g" % (
            r["weight"], r["name"], r["anchor"], r["family"]) if m == "full" else "")
    for mode in ("full", "text"):
        best = max(rows, key=lambda r: (score(r, mode), worst(r, mode)))
        print("best %s: %s: mean of hit@1 and MRR %.3f, worst hit@1 %.3f" % (
            mode, describe(best, mode), score(best, mode), worst(best, mode)))
        for w in webs:
            print("  %-7s hit@1 %.3f MRR %.3f" % (w, *best["%s.%s" % (w, mode)]))
    if len(webs) < 2:
        print("no cross-validation: it needs two webs or more")
    else:
        for test in webs:
            train = [w for w in webs if w != test]
            for mode in ("full", "text"):
                best = max(rows, key=lambda r: score(r, mode, train))
                print("%s tuned without %s (%s) -> on %s: hit@1 %.3f MRR %.3f" % (
                    mode, test, describe(best, mode), test, *best["%s.%s" % (test, mode)]))
        if hold:
            held = hold.split(",")
            chosen = max(rows, key=lambda r: (score(r, "full"), worst(r, "full")))
            kept = [r for r in rows if all(r[h] == chosen[h] for h in held)]
            for test in webs:
                train = [w for w in webs if w != test]
                best = max(kept, key=lambda r: score(r, "full", train))
                print("full tuned without %s, %s held (%s) -> on %s: hit@1 %.3f MRR %.3f" % (
                    test, hold, describe(best, "full"), test, *best["%s.full" % test]))


if __name__ == "__main__":
    main()
