#!/usr/bin/python3
"""Search benchmarks: index speed, search latency and quality (docs/search.md, "Speed").

    bench/search/run.py [--webs pgdoc,python,apache,sqlite,cmake,text] [--text-pages 10000,30000,100000]
                        [--runs 5] [--repeat 20] [--scratch DIR]

Documentation webs: the Debian package is fetched with `apt-get download` and extracted into
SCRATCH (cached), served by `python3 -m http.server` on 127.0.0.1 and crawled by `webrank crawl`
(as scripts/demo.sh does), ranked, then
  - `webrank index` is timed --runs times (whole process, wall and CPU, median): pages/s;
  - `webrank eval` of the web's query set runs every query --repeat times per mode: hit@1, MRR
    and the latency of one search (p50, p99, max; snippets included) as the library measures it;
  - `webrank search` is timed as a whole process (start-up, opening, loading the rank vector).
Synthetic text webs (`webrank generate --text`, 8 links per page) are imported and measured the
same way, with a query set made of the first two title words of 200 random pages.
Prints one table (hit@1 per mode; `webrank eval DB SET.tsv` for MRR, hit@3 and nDCG@10); needs
build/webrank. Nothing is written inside the repository. A web's database already in SCRATCH is
reused as it is (not crawled or ranked again) and re-indexed by the binary run: give a SCRATCH
of your own when another binary or person uses the default one.
"""

import argparse
import glob
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WEBRANK = os.path.join(REPO, "build", "webrank")
DOCS = {
    "pgdoc": ("postgresql-doc-15", "usr/share/doc/postgresql-doc-15/html", "pgdoc15.tsv"),
    "python": ("python3.11-doc", "usr/share/doc/python3.11/html", "python311.tsv"),
    "apache": ("apache2-doc", "usr/share/doc/apache2-doc/manual/en", "apache24.tsv"),
    "sqlite": ("sqlite3-doc", "usr/share/doc/sqlite3", "sqlite3.tsv"),
    "cmake": ("cmake-doc", "usr/share/doc/cmake-data/html", "cmake325.tsv"),
}


def run(args, **kw):
    return subprocess.run([WEBRANK] + [str(a) for a in args], check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def timed(args, runs):
    """Median wall and CPU seconds of `webrank ARGS` over `runs` runs."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        run(args)
        walls.append(time.monotonic() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def fetch_doc(scratch, package):
    root = os.path.join(scratch, package)
    if os.path.isdir(root):
        return root
    tmp = os.path.join(scratch, package + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    subprocess.run(["apt-get", "download", package], cwd=tmp, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deb = glob.glob(os.path.join(tmp, package + "_*.deb"))[0]
    subprocess.run(["dpkg-deb", "-x", deb, os.path.join(tmp, "root")], check=True)
    os.rename(os.path.join(tmp, "root"), root)
    shutil.rmtree(tmp)
    return root


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def crawl_doc(scratch, name):
    package, path, _ = DOCS[name]
    db = os.path.join(scratch, name + ".db")
    if os.path.isdir(db):
        return db
    root = fetch_doc(scratch, package)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1",
                               "--directory", root, str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                time.sleep(0.1)
        base = "http://127.0.0.1:%d/%s/" % (port, path)
        run(["crawl", base + "index.html", "-o", db, "--scope", base, "--force", "-q",
             "--delay", "0", "--per-host", "4", "--connections", "4"])
    finally:
        server.terminate()
        server.wait()
    run(["rank", db, "-q"])
    return db


def text_web(scratch, pages):
    db = os.path.join(scratch, "text%d.db" % pages)
    if os.path.isdir(db):
        return db
    warc = os.path.join(scratch, "text%d.warc" % pages)
    run(["generate", "--text", "--pages", pages, "--links", 8 * pages, "--seed", 1, "-o", warc])
    run(["import", warc, "-o", db, "--force", "-q", "--no-index"])
    os.unlink(warc)
    run(["rank", db, "-q"])
    run(["index", db, "-q"])
    # Queries: the first two title words of random pages, each expecting its page.
    rows = [l.split("\t") for l in run(["export", db, "--pages"]).stdout.decode().splitlines()[1:]]
    rnd = random.Random(1)
    with open(db + ".queries.tsv", "w") as f:
        for url, status, title, *_ in rnd.sample([r for r in rows if r[2]], 200):
            f.write("%s\t%s\n" % (" ".join(title.split()[:2]), url))
    return db


def measure(name, db, queries, runs, repeat):
    pages = json.loads(run(["info", db, "--json"]).stdout)["pages"]
    wall, cpu = timed(["index", db, "-q"], runs)
    size = os.path.getsize(os.path.join(db, "search.xapian"))
    ev = json.loads(run(["eval", db, queries, "--json", "--repeat", repeat]).stdout)
    modes = {m["mode"]: m for m in ev["modes"]}
    first = open(queries).read().splitlines()
    query = next(l.split("\t")[0] for l in first if l and not l.startswith("#"))
    swall, _ = timed(["search", db, query], runs)
    row = {"web": name, "pages": pages, "index_s": wall, "index_cpu_s": cpu,
           "pages_per_s": pages / wall, "index_mb": size / 1e6, "search_process_ms": 1000 * swall}
    for m, q in modes.items():
        row[m] = {k: q[k] for k in ("hit1", "mrr", "p50_seconds", "p99_seconds", "max_seconds")}
    return row


def main():
    global WEBRANK
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--webs", default="pgdoc,python,apache,sqlite,cmake,text",
                    help="comma-separated: %s, and text (the synthetic webs of --text-pages; "
                    "100,000 pages take several minutes) (default: %%(default)s)"
                    % ", ".join(DOCS))
    ap.add_argument("--text-pages", default="10000,30000,100000",
                    help="sizes of the synthetic text webs (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=5,
                    help="timed `webrank index` runs per web (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=20,
                    help="times each query runs per mode in `webrank eval` (default: %(default)s)")
    ap.add_argument("--scratch", default=os.environ.get("WEBRANK_SEARCH_BENCH_SCRATCH",
                                                        "/tmp/webrank-search-bench"),
                    help="where packages, crawls and databases are kept and reused "
                    "(default: $WEBRANK_SEARCH_BENCH_SCRATCH or %(default)s)")
    ap.add_argument("--webrank", default=WEBRANK, help="the binary (default: %(default)s)")
    a = ap.parse_args()
    WEBRANK = os.path.abspath(a.webrank)
    os.makedirs(a.scratch, exist_ok=True)
    rows = []
    for web in a.webs.split(","):
        if web in DOCS:
            db = crawl_doc(a.scratch, web)
            rows.append(measure(web, db, os.path.join(REPO, "bench", "search", DOCS[web][2]),
                                a.runs, a.repeat))
        elif web == "text":
            for pages in [int(p) for p in a.text_pages.split(",")]:
                db = text_web(a.scratch, pages)
                rows.append(measure("text %d" % pages, db, db + ".queries.tsv",
                                    max(1, a.runs // 2 if pages > 30000 else a.runs), a.repeat))
        else:
            sys.exit("unknown web %r" % web)
        sys.stderr.write(json.dumps(rows[-1]) + "\n")
    print("%-12s %7s %8s %8s %8s %8s %9s | %-23s | %-23s | %-23s" % (
        "web", "pages", "index s", "cpu s", "pages/s", "MB", "search ms",
        "title hit@1 p50/p99 ms", "text hit@1 p50/p99 ms", "full hit@1 p50/p99 ms"))
    for r in rows:
        cells = ["%.3f %6.2f/%6.2f" % (r[m]["hit1"], 1000 * r[m]["p50_seconds"],
                                       1000 * r[m]["p99_seconds"]) for m in ("title", "text", "full")]
        print("%-12s %7d %8.2f %8.2f %8.0f %8.1f %9.1f | %-23s | %-23s | %-23s" % (
            r["web"], r["pages"], r["index_s"], r["index_cpu_s"], r["pages_per_s"], r["index_mb"],
            r["search_process_ms"], *cells))


if __name__ == "__main__":
    main()
