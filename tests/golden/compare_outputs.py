#!/usr/bin/env python3
"""Runs the same commands with two webrank binaries and compares what they print and store.

For a refactoring that must not change behaviour (the one-system change): every command of
COMMANDS runs on a fresh copy of a database with the old and the new binary; stdout, stderr, the
exit status and every file the command left in the database's ranks/ (and its --out files) are
compared after masking what differs from run to run (timings, timestamps, temporary paths).

  compare_outputs.py OLD_WEBRANK NEW_WEBRANK FIXTURES_DIR [--only SUBSTRING] [--keep]

FIXTURES_DIR holds the databases the commands name ({hollins}, {pg}, ...): see fixtures() for
how to make them. Differences are printed as unified diffs; the exit status is the number of
commands that differ (0: identical). Expected differences are listed in EXPECTED with why.
"""
import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# {X} is a fresh copy of FIXTURES_DIR/X.db; {tmp} a scratch folder; {url:X:N} the label of page
# N of database X.
COMMANDS = [
    "info {hollins}", "info {hollins} --json", "info {pg}", "info {pg} --json",
    "check {hollins}", "check {pg} --json",
    "rank {hollins}", "rank {hollins} --method gauss-seidel --precision float --name gs",
    "rank {hollins} --method auto --dangling leak --tol 1e-6 --name a",
    "rank {hollins} --method power --out {tmp}/pr.tsv --scale pages",
    "rank {hollins} --method paper --dangling uniform --name p",
    "rank {hollins} --method extrapolate --name x", "rank {polblogs} --method direct",
    "rank {hollins} --dangling remove --name rm", "rank {hollins} --max-iter 3 --name short",
    "rank {hollins} --personalize {url:hollins:0} --name home",
    "rank {hollins} --root-pages --name roots", "rank {hollins} --memory-budget 64M --name ooc",
    "rank {hollins} --warm-start pagerank --name warm", "rank {hollins} --batch {fix}/batch.txt",
    "rank {hollins} --progress json --name prog", "rank {hollins} -q --name quiet",
    "rank {nd} --method auto --threads 1",
    "rank {nd} --method gauss-seidel --precision float --dangling leak --tol 1e-6 --threads 1",
    "top {hollins}", "top {hollins} -k 5 --json", "top {pg} -k 30", "top {pg} -k 10 --wide",
    "top {hollins} --ranks nosuch", "page {pg} {url:pg:0}", "page {pg} {url:pg:5} --json",
    "page {hollins} {url:hollins:3}", "links {pg} {url:pg:0}", "links {pg} {url:pg:0} --format tsv",
    "links {pg} {url:pg:0} --format json", "backlinks {pg} {url:pg:7}",
    "backlinks {pg} {url:pg:7} -k 3 --offset 1 --format json", "backlinks {hollins} {url:hollins:1} --format tsv",
    "ranks {hollins}", "ranks {hollins} --json", "ranks {hollins} --delete pagerank",
    "compare-ranks {hollins} pagerank gs", "compare-ranks {hollins} pagerank gs --json -k 5",
    "hits {hollins}", "hits {hollins} --json",
    "ppr {hollins} {url:hollins:0}", "ppr {hollins} {url:hollins:0} --json -k 5",
    "ppr {hollins} {url:hollins:0} --store mine",
    "topics {hollins} --assign {fix}/topics.txt", "topics {hollins} --assign {fix}/topics.txt --json",
    "top {hollins} --topics A=0.7,B=0.3",
    "compare {hollins} --views pagerank,gs", "compare {hollins} --views pagerank,gs --json -k 5",
    "trust {hollins} --seeds {fix}/seeds.txt", "trust {hollins} --seeds {fix}/seeds.txt --json -k 5",
    "trust {hollins} --seeds {fix}/seeds.txt --out {tmp}/t.tsv --absolute",
    "seeds {hollins}", "seeds {hollins} --json -k 5 --out {tmp}/s.txt",
    "spam-report {hollins}", "spam-report {hollins} --json", "spam-report {hollins} --seeds {fix}/seeds.txt",
    "spam-report {hollins} --ranks pagerank --min-supporters 2",
    "search {pg} 'create table'", "search {pg} 'vacuum' --format json -k 3",
    "search {pg} 'index' --mode title --format tsv", "search {pg} 'nosuchwordatall'",
    "eval {pg} {fix}/queries.tsv", "eval {pg} {fix}/queries.tsv --json --per-query",
    "explain {pg} {url:pg:5}", "explain {pg} {url:pg:5} --format json --no-what-if",
    "usage {hollins} --counts {fix}/counts.tsv", "usage {hollins} --counts {fix}/counts.tsv --json",
    "usage {hollins} --counts {fix}/counts.tsv --source --name u",
    "crawl-order {pg}", "crawl-order {pg} --json --order pagerank --order breadth --points 10",
    "hosts {hollins} -o {tmp}/h.db", "hosts {hollins} -o {tmp}/h.db --by domain --json",
    "centrality {hollins} --harmonic --threads 1",
    "centrality {hollins} --harmonic --json --counters hyperloglog --threads 1",
    "report {hollins} -o {tmp}/r.json --json", "export {hollins} -o {tmp}/e.tsv",
    "export {pg} --pages", "export {hollins} --format graphml -o {tmp}/g.graphml",
    "index {pg} -q", "index {pg} --json",
    "update {hollins} --add {fix}/add.tsv", "update {hollins} --add {fix}/add.tsv --json",
    "partition {hollins} -n 2 -o {tmp}/parts", "partition {hollins} -n 3 -o {tmp}/parts --json",
    "build {fix}/small.tsv -o {tmp}/b.db", "build {fix}/small.tsv -o {tmp}/b.db --json",
    "generate --pages 500 --links 3000 -o {tmp}/g.tsv", "generate --model rmat --pages 512 --links 4000 -o -",
    "plant-farm {hollins} --target spamtarget --supporters 20 -o {tmp}/farm.db",
    "rank {hollins} --damping 2", "rank {hollins} --tol 0", "rank {hollins} --dampign 0.5",
    "rank {hollins} --method fast", "top {hollins} -k 0", "page {hollins} nosuchpage",
    "search {pg} ''", "rank nosuch.db",
]

# Run-to-run noise: timings, timestamps, scratch paths.
MASKS = [
    (re.compile(r"/tmp/golden-[A-Za-z0-9_]+/"), "TMP/"),
    (re.compile(r"\b\d+(\.\d+)?(e-?\d+)? ?(s|ms|µs|us)\b"), "T s"),
    (re.compile(r"\d+(\.\d+)?(e[+-]?\d+)? (pages|links|requests|queries|vectors)/s\b"), "R/s"),
    (re.compile(r'"([a-z0-9_]*seconds[a-z_]*|created|elapsed|[a-z0-9_]*_ms|'
                r'[a-z_]*per_second|latency[a-z_]*)": ?[-0-9.e+]+'), r'"\1": T'),
    (re.compile(r'"generated": "[^"]*"'), '"generated": T'),
    (re.compile(r"\d+(\.\d+)? (KB|MB|GB|B) on disk"), "N on disk"),
    (re.compile(r"(p50|p90|p99|max|mean) [0-9.]+"), r"\1 T"),
    # Tables with a timing column: eval's latencies, crawl-order's seconds.
    (re.compile(r"^((title|text|full)(\s+\S+){4}).*$", re.M), r"\1 T"),
    (re.compile(r"^((pagerank|backlinks|breadth|random)(\s+\S+){5})\s+\S+$", re.M), r"\1 T"),
]


def mask(text):
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


def labels(fixtures, name):
    out = subprocess.run([OLD, "export", os.path.join(fixtures, name + ".db"), "--pages"],
                         capture_output=True, text=True).stdout.splitlines()
    return [line.split("\t")[0] for line in out[1:]]


def expand(command, fixtures, tmp):
    copies = {}

    def db(m):
        name = m.group(1)
        if name not in copies:
            dst = os.path.join(tmp, name + ".db")
            shutil.copytree(os.path.join(fixtures, name + ".db"), dst)
            copies[name] = dst
        return copies[name]

    def url(m):
        return "'" + labels(fixtures, m.group(1))[int(m.group(2))] + "'"

    command = re.sub(r"\{url:(\w+):(\d+)\}", url, command)
    command = command.replace("{tmp}", tmp).replace("{fix}", fixtures)
    return re.sub(r"\{(\w+)\}", db, command), copies


def run(binary, command, fixtures):
    tmp = tempfile.mkdtemp(prefix="golden-")
    expanded, copies = expand(command, fixtures, tmp)
    p = subprocess.run(binary + " " + expanded, shell=True, capture_output=True, cwd=tmp,
                       env=dict(os.environ, COLUMNS="100"))
    files = {}
    for name, path in copies.items():
        ranks = os.path.join(path, "ranks")
        if os.path.isdir(ranks):
            for f in sorted(os.listdir(ranks)):
                with open(os.path.join(ranks, f), "rb") as fh:
                    files[name + "/ranks/" + f] = fh.read()
    for f in sorted(os.listdir(tmp)):
        full = os.path.join(tmp, f)
        if os.path.isfile(full):
            with open(full, "rb") as fh:
                files[f] = fh.read()
    shutil.rmtree(tmp, ignore_errors=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"), files


def record_text(data):
    """A vector record with the fields that differ between runs or by design masked."""
    try:
        j = json.loads(data)
    except ValueError:
        return mask(data.decode(errors="replace"))
    for key in ("created", "seconds", "schema", "kind", "algorithm"):
        j.pop(key, None)
    return json.dumps(j, indent=1, sort_keys=True)


def main():
    global OLD
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("fixtures")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    OLD = a.old
    fixtures = os.path.abspath(a.fixtures)
    differing = 0
    for command in COMMANDS:
        if a.only not in command:
            continue
        old, new = run(a.old, command, fixtures), run(a.new, command, fixtures)
        parts = []
        if old[0] != new[0]:
            parts.append(f"exit status {old[0]} -> {new[0]}")
        for what, i in (("stdout", 1), ("stderr", 2)):
            x, y = mask(old[i]).splitlines(), mask(new[i]).splitlines()
            if x != y:
                parts.append("\n".join(difflib.unified_diff(x, y, what + " old", what + " new",
                                                            lineterm="", n=1)))
        for f in sorted(set(old[3]) | set(new[3])):
            x, y = old[3].get(f), new[3].get(f)
            if f.endswith(".json") and "/ranks/" in f and x is not None and y is not None:
                x, y = record_text(x), record_text(y)
            elif x is not None and y is not None:
                try:
                    x, y = mask(x.decode()), mask(y.decode())
                except UnicodeDecodeError:
                    pass
            if x != y:
                if isinstance(x, bytes) or isinstance(y, bytes):
                    parts.append(f"file {f}: differs" if x and y else f"file {f}: only in one")
                else:
                    parts.append("\n".join(difflib.unified_diff(
                        x.splitlines(), y.splitlines(), f + " old", f + " new", lineterm="", n=1)))
        status = "same" if not parts else "DIFFERS"
        print(f"{status:8} webrank {command}", flush=True)
        for p in parts:
            print("    " + p.replace("\n", "\n    ")[:6000])
        differing += bool(parts)
    print(f"{differing} of the commands differ")
    return min(differing, 100)


if __name__ == "__main__":
    sys.exit(main())
