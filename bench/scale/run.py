#!/usr/bin/python3
"""The whole pipeline at scale: generate, build, rank, index and serve a synthetic text web
(docs/scale.md, "The whole pipeline").

    bench/scale/run.py [--pages 100000,300000,1000000] [--runs 1] [--baseline OTHER_WEBRANK]
                       [--webrank build/webrank] [--scratch DIR] [--seconds 10]
                       [--connections 64] [--threads 0] [--keep]

For each size N, with each binary (this checkout's build/webrank, and OTHER_WEBRANK with its
`webrank-serve` beside it when --baseline is given), in its own directory under --scratch:
  generate  `webrank generate --text --pages N --links 8N --seed 1 -o web.warc` (the web model's
            links; pages of log-normally many Zipf-drawn words, median 400: about 7 KB of HTML
            text each; made once per binary and size, in the first run)
  build     `webrank import web.warc -o web.db --no-index --force` (parse the HTML, write the
            database)
  rank      `webrank rank web.db` (PageRank, stored)
  index     `webrank index web.db` (the full-text index)
  serve     `webrank serve web.db --port 0 --cache-mb 0`, stopped by its PID: wrk on loopback
            (--connections keep-alive connections, two wrk threads, --seconds) requests the
            JSON search of 200 queries in turn (the first two title words of random pages, as
            bench/search/run.py makes them); latency p50/p99 as wrk measures it, requests/s,
            errors, and the server's CPU time and peak RSS (from /proc)
Each step runs under /usr/bin/time -v: wall and CPU seconds (user + system) and peak RSS; disk is
the size of what the step wrote (the WARC, the database without its index, the index). With
--baseline the two binaries run each step in turn, alternating which goes first from run to run
(pairs under the same load); the figures printed are medians over --runs. The pipeline is
build + rank + index (generate is the input's making and is listed apart).

Before serving, both servers' top 10 for every query are compared (JSON, URLs in order) when
--baseline is given: the line "top-10 identical: K of 200" says whether the two builds find the
same pages.

Everything is written under --scratch (default /tmp/webrank-scale), never in the repository;
--keep keeps the webs (default: each size's files are removed after its table is printed, as a
1M-page web takes about 10 GB with both binaries). JSON of every run: SCRATCH/results.json.
Needs wrk (scripts/install-deps.sh installs it).
"""

import argparse
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "serve"))
import run as serve_bench  # noqa: E402  (bench/serve/run.py: wrk and its latency figures)


def du(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(d, f))
            except OSError:
                pass
    return total


def timed(cmd):
    """Runs cmd under GNU time: wall, CPU (user + system) seconds and peak RSS in bytes."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        start = time.monotonic()
        p = subprocess.run(["/usr/bin/time", "-v", "-o", t.name] + [str(c) for c in cmd],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wall = time.monotonic() - start
        if p.returncode != 0:
            sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(map(str, cmd)), p.stderr))
        out = t.read()
    field = lambda name: float(re.search(re.escape(name) + r":\s*([\d.]+)", out).group(1))
    return {"wall": wall, "cpu": field("User time (seconds)") + field("System time (seconds)"),
            "rss": int(field("Maximum resident set size (kbytes)")) * 1024, "stdout": p.stdout}


def proc_status(pid):
    """The server's CPU seconds and peak RSS (VmHWM) from /proc."""
    cpu = serve_bench.cpu_seconds(pid)
    with open("/proc/%d/status" % pid) as f:
        hwm = int(re.search(r"VmHWM:\s*(\d+)", f.read()).group(1)) * 1024
    return cpu, hwm


def queries_of(webrank, db, n=200):
    out = subprocess.run([webrank, "export", db, "--pages"], capture_output=True, check=True)
    rows = [l.split("\t") for l in out.stdout.decode().splitlines()[1:]]
    rnd = random.Random(1)
    return [" ".join(r[2].split()[:2]) for r in rnd.sample([r for r in rows if r[2]], n)]


def top10(url, qs):
    tops = []
    for q in qs:
        with urllib.request.urlopen(url + "/api/v1/search?k=10&q=" + urllib.parse.quote(q)) as r:
            j = json.load(r)
        tops.append([h.get("url") or h.get("page", {}).get("url") for h in j.get("hits", [])])
    return tops


def serve_step(webrank, db, paths, a):
    proc, url = serve_bench.serve(webrank, db, a.threads, 0)
    try:
        tops = top10(url, a.qs) if a.baseline else None
        load = serve_bench.load_average()
        cpu0, _ = proc_status(proc.pid)
        out = subprocess.run(["wrk", "-t2", "-c%d" % a.connections, "-d%ds" % a.seconds,
                              "--latency", "--timeout", "10s", "-s",
                              os.path.join(ROOT, "bench", "serve", "paths.lua"), url, "--",
                              paths], capture_output=True, text=True, check=True).stdout
        cpu1, hwm = proc_status(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = sum(int(x) for x in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if m:
        errors += sum(int(x) for x in m.groups())
    return {"p50": serve_bench.percentile(out, 50), "p99": serve_bench.percentile(out, 99),
            "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "requests": requests, "errors": errors, "cpu": cpu1 - cpu0, "rss": hwm,
            "load": load, "tops": tops}


STEPS = ("generate", "build", "rank", "index")


def run_size(n, binaries, a, results):
    dirs = {label: os.path.join(a.scratch, "%s-%d" % (label, n)) for label, _ in binaries}
    runs = {label: [] for label, _ in binaries}
    for r in range(a.runs):
        order = binaries if r % 2 == 0 else binaries[::-1]
        row = {label: {} for label, _ in binaries}
        for step in STEPS + ("serve",):
            for label, exe in order:
                d = dirs[label]
                os.makedirs(d, exist_ok=True)
                warc, db = os.path.join(d, "web.warc"), os.path.join(d, "web.db")
                if step == "generate":
                    if os.path.exists(warc):
                        continue
                    m = timed([exe, "generate", "--text", "--pages", n, "--links", 8 * n,
                               "--seed", 1, "-q", "-o", warc])
                    m["disk"] = du(warc)
                elif step == "build":
                    m = timed([exe, "import", warc, "-o", db, "--no-index", "--force", "-q"])
                    m["disk"] = du(db)
                elif step == "rank":
                    m = timed([exe, "rank", db, "-q"])
                    m["disk"] = du(os.path.join(db, "ranks"))
                elif step == "index":
                    m = timed([exe, "index", db, "-q"] +
                              (["--threads", a.threads] if a.threads else []))
                    m["disk"] = du(os.path.join(db, "search.xapian"))
                else:
                    if not hasattr(a, "qs") or a.qs_pages != n:
                        a.qs, a.qs_pages = queries_of(exe, db), n
                        a.paths = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
                        a.paths.write("".join("/api/v1/search?q=" + urllib.parse.quote(q) + "\n"
                                              for q in a.qs))
                        a.paths.close()
                    m = serve_step(exe, db, a.paths.name, a)
                m.pop("stdout", None)
                row[label][step] = m
                print("  %d pages, run %d, %-8s %-9s %s" % (
                    n, r + 1, label, step,
                    ", ".join("%s %s" % (k, fmt(k, v)) for k, v in m.items() if k != "tops")),
                    flush=True)
        if len(binaries) == 2:
            a_tops, b_tops = (row[label]["serve"]["tops"] for label, _ in binaries)
            same = sum(x == y for x, y in zip(a_tops, b_tops))
            print("  top-10 identical: %d of %d queries" % (same, len(a_tops)), flush=True)
            row["top10_identical"] = same
        for label, _ in binaries:
            row[label]["serve"].pop("tops", None)
            runs[label].append(row[label])
        results.setdefault(str(n), []).append(row)
    table(n, runs, binaries)
    if not a.keep:
        for d in dirs.values():
            shutil.rmtree(d, ignore_errors=True)


def fmt(k, v):
    if k in ("rss", "disk"):
        return "%.2f GiB" % (v / 2**30) if v >= 2**30 else "%.1f MiB" % (v / 2**20)
    if k in ("p50", "p99"):
        return "%.2f ms" % (1000 * v)
    if isinstance(v, float):
        return "%.2f" % v
    return str(v)


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def table(n, runs, binaries):
    print("\n%d pages (medians of %d runs)" % (n, len(runs[binaries[0][0]])))
    print("| step | binary | wall s | CPU s | peak RSS | disk |")
    print("|---|---|---|---|---|---|")
    for step in STEPS:
        for label, _ in binaries:
            ms = [r[step] for r in runs[label] if step in r]
            if not ms:
                continue
            print("| %s | %s | %.1f | %.1f | %s | %s |" % (
                step, label, med([m["wall"] for m in ms]), med([m["cpu"] for m in ms]),
                fmt("rss", max(m["rss"] for m in ms)), fmt("disk", ms[-1]["disk"])))
    for label, _ in binaries:
        ms = runs[label]
        pipe_wall = med([sum(r[s]["wall"] for s in ("build", "rank", "index")) for r in ms])
        pipe_cpu = med([sum(r[s]["cpu"] for s in ("build", "rank", "index")) for r in ms])
        print("| pipeline (build + rank + index) | %s | %.1f | %.1f | | |" %
              (label, pipe_wall, pipe_cpu))
    print("\n| serve, %s | p50 ms | p99 ms | requests/s | errors | server CPU ms/request | "
          "server peak RSS | load |" % "JSON search")
    print("|---|---|---|---|---|---|---|---|")
    for label, _ in binaries:
        ms = [r["serve"] for r in runs[label]]
        print("| %s | %.2f | %.2f | %.0f | %d | %.3f | %s | %.1f |" % (
            label, 1000 * med([m["p50"] for m in ms]), 1000 * med([m["p99"] for m in ms]),
            med([m["rps"] for m in ms]), sum(m["errors"] for m in ms),
            med([1000 * m["cpu"] / max(1, m["requests"]) for m in ms]),
            fmt("rss", max(m["rss"] for m in ms)), med([m["load"] for m in ms])))
    print(flush=True)


def main():
    class Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
        pass

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=Formatter)
    ap.add_argument("--pages", default="100000,300000,1000000",
                    help="comma-separated sizes of the text webs, in pages")
    ap.add_argument("--runs", type=int, default=1, help="runs of every step (medians printed)")
    ap.add_argument("--webrank", default=os.path.join(ROOT, "build", "webrank"),
                    help="the webrank measured (webrank-serve beside it)")
    ap.add_argument("--baseline", help="another webrank (webrank-serve beside it), run in turn")
    ap.add_argument("--scratch", default="/tmp/webrank-scale")
    ap.add_argument("--seconds", type=int, default=10, help="wrk's duration")
    ap.add_argument("--connections", type=int, default=64, help="wrk's keep-alive connections")
    ap.add_argument("--threads", type=int, default=0,
                    help="index's --threads and the server's (0: their defaults)")
    ap.add_argument("--keep", action="store_true", help="keep the webs after each size")
    a = ap.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (scripts/install-deps.sh)")
    binaries = [("webrank", os.path.abspath(a.webrank))]
    if a.baseline:
        binaries.append(("baseline", os.path.abspath(a.baseline)))
    os.makedirs(a.scratch, exist_ok=True)
    results = {"binaries": dict(binaries), "started": time.strftime("%Y-%m-%d %H:%M:%S"),
               "cores": os.cpu_count()}
    for n in [int(x) for x in a.pages.split(",")]:
        run_size(n, binaries, a, results)
        with open(os.path.join(a.scratch, "results.json"), "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
