#!/usr/bin/python3
"""Search benchmarks: index speed, search latency and quality (docs/search.md, "Speed").

    bench/search/run.py [--webs pgdoc,python,apache,sqlite,cmake,text] [--text-pages 10000,30000,100000]
                        [--runs 5] [--repeat 20] [--scratch DIR] [--peers lucene,pagefind,lunr]

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
build/webrank. --peers: then, for each documentation web, webrank's full mode beside the engines
documentation sites use, run on the same fetched pages and the same query set (peers.py: Lucene's
BM25 with the title boosted, Pagefind in Chromium, Lunr with MkDocs' settings): hit@1, hit@3,
MRR@10 and the latency of one search; an engine that is not installed is skipped, saying so.
--peers none: webrank alone. Webs: the five the defaults were tuned on (pgdoc, python, apache,
sqlite, cmake), the six held out (vim, zsh, octave, gnuplot, postfix, wireshark: query sets
written before any engine ran on them, never tuned on), and git, nodejs, cppreference (no query
set: crawled only). Nothing is written inside the repository. A web's database already in SCRATCH is
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

import peers

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WEBRANK = os.path.join(REPO, "build", "webrank")
# name: (Debian package, the directory served and crawled (its index.html is the start), query
# set). The first five are the webs the defaults were tuned on; vim, zsh, octave, gnuplot,
# postfix and wireshark are the held-out webs (query sets written before any engine ran on them, never tuned on); git, nodejs
# and cppreference have no query set here (crawled for tests of single cases and for tune.py).
DOCS = {
    "pgdoc": ("postgresql-doc-15", "usr/share/doc/postgresql-doc-15/html", "pgdoc15.tsv"),
    "python": ("python3.11-doc", "usr/share/doc/python3.11/html", "python311.tsv"),
    "apache": ("apache2-doc", "usr/share/doc/apache2-doc/manual/en", "apache24.tsv"),
    "sqlite": ("sqlite3-doc", "usr/share/doc/sqlite3", "sqlite3.tsv"),
    "cmake": ("cmake-doc", "usr/share/doc/cmake-data/html", "cmake325.tsv"),
    "vim": ("vim-doc", "usr/share/doc/vim/html", "vim90.tsv"),
    "zsh": ("zsh-doc", "usr/share/doc/zsh-common/html", "zsh59.tsv"),
    "octave": ("octave-doc", "usr/share/doc/octave/octave.html", "octave73.tsv"),
    "gnuplot": ("gnuplot-doc", "usr/share/doc/gnuplot/htmldocs", "gnuplot54.tsv"),
    "postfix": ("postfix-doc", "usr/share/doc/postfix/html", "postfix37.tsv"),
    "wireshark": ("wireshark-doc", "usr/share/doc/wireshark/wsug_html_chunked", "wireshark40.tsv"),
    "git": ("git-doc", "usr/share/doc/git-doc", None),
    "nodejs": ("nodejs-doc", "usr/share/doc/nodejs/api", None),
    "cppreference": ("cppreference-doc-en-html", "usr/share/cppreference/doc/html/en", None),
}
TUNED = ("pgdoc", "python", "apache", "sqlite", "cmake")
HELD_OUT = ("vim", "zsh", "octave", "gnuplot", "postfix", "wireshark")


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
        row[m] = {k: q[k] for k in ("hit1", "hit3", "mrr", "p50_seconds", "p99_seconds",
                                    "max_seconds")}
    return row


def print_peers(table):
    """The comparison: per web, webrank's full mode and each peer that ran."""
    print()
    print("%-9s %-28s %6s %6s %6s %7s %7s %8s" % ("set", "engine", "hit@1", "hit@3", "MRR@10",
                                                   "p50 ms", "p99 ms", "pages"))
    for web, qset, row, others in table:
        full = row["full"]
        # The pages every engine searches: the fetched, titled pages (webrank also indexes the
        # pages known only from links, which its default leaves out of a crawl of one site).
        pages = others[0]["pages"] if others else row["pages"]
        lines = [("webrank full", full["hit1"], full["hit3"], full["mrr"],
                  1000 * full["p50_seconds"], 1000 * full["p99_seconds"], pages)]
        for o in others:
            lines.append((o["label"], o["hit1"], o["hit3"], o["mrr"], o["p50_ms"], o["p99_ms"],
                          o["pages"]))
        for i, (label, h1, h3, mrr, p50, p99, pages) in enumerate(lines):
            print("%-9s %-28s %6.3f %6.3f %6.3f %7.2f %7.2f %8d" % (
                qset if i == 0 else "", label, h1, h3, mrr, p50, p99, pages))
        behind = [o["label"] for o in others if o["hit1"] >= full["hit1"]]
        if behind:
            print("%-9s %-28s %s" % ("", "NOT AHEAD (hit@1) of:", ", ".join(behind)))


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
    ap.add_argument("--peers", default=",".join(peers.ENGINES),
                    help="engines to compare on the documentation webs, comma-separated (%s), or "
                    "none (default: %%(default)s)" % ", ".join(peers.ENGINES))
    a = ap.parse_args()
    engines = [] if a.peers in ("", "none") else a.peers.split(",")
    for e in engines:
        if e not in peers.ENGINES:
            sys.exit("unknown peer %r (%s)" % (e, ", ".join(peers.ENGINES)))
    WEBRANK = os.path.abspath(a.webrank)
    os.makedirs(a.scratch, exist_ok=True)
    rows, compared = [], []
    for web in a.webs.split(","):
        if web in DOCS:
            db = crawl_doc(a.scratch, web)
            if DOCS[web][2] is None:
                sys.stderr.write("%s: crawled into %s (no query set)\n" % (web, db))
                continue
            qset = os.path.join(REPO, "bench", "search", DOCS[web][2])
            rows.append(measure(web, db, qset, a.runs, a.repeat))
            if engines:
                others = peers.measure(engines, WEBRANK, db, os.path.join(a.scratch, DOCS[web][0]),
                                       qset, a.repeat, os.path.join(a.scratch, web + ".peers"))
                compared.append((web, DOCS[web][2][:-4], rows[-1], others))
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
    if compared:
        print_peers(compared)


if __name__ == "__main__":
    main()
