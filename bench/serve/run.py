#!/usr/bin/python3
"""Server load benchmark: `webrank serve` under wrk on loopback (docs/search.md, "Speed").

    bench/serve/run.py [--webs pgdoc,text100000] [--runs 3] [--seconds 10] [--connections 8]
                       [--threads 0] [--cache-mb 0] [--baseline OTHER_WEBRANK] [--scratch DIR]
                       [--baseline-scratch DIR]

The webs are those of bench/search/run.py (its crawl of the PostgreSQL documentation from
127.0.0.1, "pgdoc", and its synthetic text webs, "textN" for N pages, cached in the same scratch
directory and made on first use). Each web's search index is rebuilt by the binary measured
before it is served, so an index left in the scratch by another build is never what is measured.
For each web the server is started on 127.0.0.1 (port 0, stopped by its PID), and wrk (one thread, --connections
keep-alive connections, --seconds per run, bench/serve/paths.lua) requests the web's query set in
turn, as JSON (/api/v1/search) and as the HTML result page (/search), --runs times each. Printed:
requests/s (median), latency p50/p99 as wrk measures it, errors (non-200 answers, socket
errors), the server's CPU time per request (from /proc, so a busy machine changes the
throughput but less this) and the 1-minute load average of the machine when each run started
(median; it counts the benchmark's own server and wrk too). The server's cache of repeated
searches is off unless --cache-mb: the query set repeats, so with it on every request after the
first round is a cache hit.

--baseline OTHER_WEBRANK: a paired comparison on a shared, noisy machine (OTHER_WEBRANK is a
`webrank` with its `webrank-serve` beside it, built from another commit in another worktree). Each
run starts the two servers in turn (alternating which goes first) and measures both under the same
conditions; the last column ("ratio") is the median over runs of this run's requests/s divided by
the baseline's in the same run. The baseline serves its own copy of each web, in --baseline-scratch
(default: the scratch directory's name with "-baseline"): a copy of this binary's database made
there on first use and kept, its index rebuilt by the baseline at every run of this script (the
two may read different versions of the search index); the scratch itself is refused as the
baseline's. A baseline that cannot read this tree's database (a build from before a change of
the database format) needs its copy made by itself: run bench/search/run.py with that build and
--scratch pointing at the baseline scratch. Needs wrk (scripts/install-deps.sh installs it).
Nothing is written inside the repository.
"""

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "search"))
import run as search_bench  # noqa: E402  (bench/search/run.py: the crawls and text webs)


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


UNITS = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0, "": 1.0, "m": 60.0,
         "min": 60.0, "h": 3600.0}


def seconds_of(text):
    """Seconds in a wrk latency figure: "500.00us", "1.23ms", "1.02s", "2.00m", "0.00us", "1e-3s"."""
    m = re.fullmatch(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([a-z\u00b5]*)\s*",
                     text, re.IGNORECASE)
    if not m or m.group(2).lower() not in UNITS:
        raise ValueError("wrk latency figure %r: expected a number and one of %s"
                         % (text, ", ".join(u for u in UNITS if u)))
    return float(m.group(1)) * UNITS[m.group(2).lower()]


def wrk(url, paths, seconds, connections):
    out = subprocess.run(["wrk", "-t1", "-c%d" % connections, "-d%ds" % seconds, "--latency",
                          "--timeout", "10s", "-s", os.path.join(HERE, "paths.lua"), url, "--",
                          paths], capture_output=True, text=True, check=True).stdout
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = sum(int(x) for x in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if m:
        errors += sum(int(x) for x in m.groups())
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "p50": percentile(out, 50), "p99": percentile(out, 99),
            "requests": requests, "errors": errors}


def percentile(out, p):
    """Latency percentile `p` from wrk's "Latency Distribution" block (a line "  99%  1.23ms"),
    not from the "+/- Stdev" column of the thread stats above it, which also ends in '%'."""
    block = out.split("Latency Distribution", 1)
    m = re.search(r"^\s*%d%%\s+(\S+)\s*$" % p, block[-1], re.MULTILINE) if len(block) == 2 else None
    if not m:
        raise ValueError("no %d%% latency in wrk's output:\n%s" % (p, out))
    return seconds_of(m.group(1))


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def serve(webrank, db, threads, cache_mb):
    proc = subprocess.Popen([webrank, "serve", db, "--port", "0", "--threads",
                             str(threads), "--cache-mb", str(cache_mb)], stderr=subprocess.PIPE,
                            text=True)
    line = proc.stderr.readline()
    if "serving" not in line:
        proc.kill()
        sys.exit("server did not start: " + line)
    return proc, line.split(" on ", 1)[1].split("/ ", 1)[0]


def reindex(webrank, db):
    """Rebuilds db's search index with `webrank` (the index is the binary's own version)."""
    subprocess.run([webrank, "index", db, "-q"], check=True)


def baseline_copy(db, other, baseline):
    """The baseline's copy of db in `other`: made on first use (without db's index), then
    indexed by the baseline."""
    copy = os.path.join(other, os.path.basename(db))
    if not os.path.isdir(copy):
        os.makedirs(other, exist_ok=True)
        shutil.copytree(db, copy, ignore=shutil.ignore_patterns("search.xapian"))
        queries = db + ".queries.tsv"
        if os.path.exists(queries):
            shutil.copy(queries, copy + ".queries.tsv")
    reindex(baseline, copy)
    return copy


def main():
    class Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
        pass

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=Formatter)
    ap.add_argument("--webs", default="pgdoc,text100000",
                    help="comma-separated: pgdoc (the PostgreSQL 15 documentation crawled from "
                    "127.0.0.1) and textN (the synthetic text web of N pages, e.g. text10000; "
                    "text100000 takes a few minutes to make the first time)")
    ap.add_argument("--runs", type=int, default=3, help="runs of each binary and page kind")
    ap.add_argument("--seconds", type=int, default=10, help="wrk's duration of each run")
    ap.add_argument("--connections", type=int, default=8, help="wrk's keep-alive connections")
    ap.add_argument("--threads", type=int, default=0,
                    help="the server's --threads (0: its default)")
    ap.add_argument("--cache-mb", type=int, default=0,
                    help="the server's cache of repeated searches (0: every search computed)")
    ap.add_argument("--scratch", default=os.environ.get("WEBRANK_SEARCH_BENCH_SCRATCH",
                                                        "/tmp/webrank-search-bench"),
                    help="where the webs are made and kept (env WEBRANK_SEARCH_BENCH_SCRATCH)")
    ap.add_argument("--webrank", default=search_bench.WEBRANK, help="the binary measured")
    ap.add_argument("--baseline", help="another webrank binary (webrank-serve beside it), "
                    "measured in alternation with it")
    ap.add_argument("--baseline-scratch",
                    help="where the baseline's copies of the webs are kept "
                    "(default: SCRATCH-baseline)%(default).0s")
    a = ap.parse_args()
    search_bench.WEBRANK = os.path.abspath(a.webrank)
    binaries = [("webrank", search_bench.WEBRANK)]
    if a.baseline:
        binaries.append(("baseline", os.path.abspath(a.baseline)))
    os.makedirs(a.scratch, exist_ok=True)
    other = a.baseline_scratch or a.scratch.rstrip("/") + "-baseline"
    if a.baseline and os.path.realpath(other) == os.path.realpath(a.scratch):
        sys.exit("--baseline-scratch must differ from --scratch: each binary serves its own index")
    rows = []
    for web in a.webs.split(","):
        if web in search_bench.DOCS:
            db = search_bench.crawl_doc(a.scratch, web)
            queries = os.path.join(os.path.dirname(HERE), "search", search_bench.DOCS[web][2])
        elif web.startswith("text") and web[4:].isdigit():
            db = search_bench.text_web(a.scratch, int(web[4:]))
            queries = db + ".queries.tsv"
        else:
            sys.exit("unknown web %r (pgdoc, or textN for a text web of N pages)" % web)
        reindex(search_bench.WEBRANK, db)
        dbs = {"webrank": db}
        if a.baseline:
            dbs["baseline"] = baseline_copy(db, other, os.path.abspath(a.baseline))
        with open(queries) as f:
            qs = [l.split("\t")[0] for l in f if l.strip() and not l.startswith("#")]
        paths = {}
        for kind, prefix in (("json", "/api/v1/search?q="), ("html", "/search?q=")):
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
                f.write("".join(prefix + urllib.parse.quote(q) + "\n" for q in qs))
                paths[kind] = f.name
        runs = {}  # (binary, kind) -> the runs
        try:
            for r in range(a.runs):
                order = binaries if r % 2 == 0 else binaries[::-1]
                for label, exe in order:
                    proc, url = serve(exe, dbs[label], a.threads, a.cache_mb)
                    try:
                        for kind in ("json", "html"):
                            load = load_average()
                            before = cpu_seconds(proc.pid)
                            m = wrk(url, paths[kind], a.seconds, a.connections)
                            m["cpu_ms"] = (1000 * (cpu_seconds(proc.pid) - before)
                                           / max(1, m["requests"]))
                            m["load"] = load
                            runs.setdefault((label, kind), []).append(m)
                            sys.stderr.write("%s %s %s run %d: %s\n" % (web, label, kind, r + 1, m))
                    finally:
                        proc.send_signal(signal.SIGTERM)
                        proc.wait(timeout=30)
        finally:
            for p in paths.values():
                os.unlink(p)
        for kind in ("json", "html"):
            for label, _ in binaries:
                rs = runs[(label, kind)]
                row = {"web": web, "binary": label, "kind": kind, "queries": len(qs),
                       "errors": sum(x["errors"] for x in rs),
                       "requests": sum(x["requests"] for x in rs)}
                for k in ("rps", "p50", "p99", "cpu_ms", "load"):
                    row[k] = statistics.median(x[k] for x in rs)
                if a.baseline and label == "webrank":
                    row["ratio"] = statistics.median(
                        x["rps"] / y["rps"] for x, y in zip(rs, runs[("baseline", kind)]))
                rows.append(row)
    print("%-12s %-9s %-5s %8s %9s %9s %9s %11s %6s %13s%s" % (
        "web", "binary", "page", "queries", "req/s", "p50 ms", "p99 ms", "cpu ms/req", "load",
        "errors", " ratio" if a.baseline else ""))
    for r in rows:
        print("%-12s %-9s %-5s %8d %9.0f %9.2f %9.2f %11.2f %6.1f %13s%s" % (
            r["web"], r["binary"], r["kind"], r["queries"], r["rps"], 1000 * r["p50"],
            1000 * r["p99"], r["cpu_ms"], r["load"], "%d/%d" % (r["errors"], r["requests"]),
            " %5.2f" % r["ratio"] if "ratio" in r else ""))


if __name__ == "__main__":
    main()
