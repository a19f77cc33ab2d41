#!/usr/bin/env bash
# Pull sweep against propagation blocking on one database (docs/performance.md, "Propagation
# blocking"): runs `webrank rank --sweep pull|blocked` alternately, RUNS times each, and prints
# per run the solve time, the first iteration (which includes the blocked setup) and the median
# of the later ones, then the medians over runs. Ranks of both sweeps are compared bit for bit.
# Usage: bench/sweeps.sh DB [THREADS=2] [PRECISION=float] [TOL=1e-6] [RUNS=3] [BLOCK_PAGES=0]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
W=${WEBRANK:-$repo/build/webrank}
db=${1:?usage: bench/sweeps.sh DB [THREADS] [PRECISION] [TOL] [RUNS] [BLOCK_PAGES]}
threads=${2:-2}
precision=${3:-float}
tol=${4:-1e-6}
runs=${5:-3}
block_pages=${6:-0}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "# $db: threads $threads, $precision, tol $tol, block pages $block_pages (0 = default)"
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$runs"); do
  for sweep in pull blocked; do
    "$W" rank "$db" --sweep "$sweep" --block-pages "$block_pages" --threads "$threads" \
      --precision "$precision" --tol "$tol" --name "sweep-$sweep" --progress json \
      2> "$out/$sweep.$r.json" || true
    /usr/bin/python3 - "$db" "$sweep" "$out/$sweep.$r.json" "$r" <<'EOF'
import json, statistics, sys
db, sweep, log, run = sys.argv[1:]
meta = json.load(open("%s/ranks/sweep-%s.json" % (db, sweep)))
t = [json.loads(l)["seconds"] for l in open(log) if l.startswith('{"iteration"')]
steps = [b - a for a, b in zip(t, t[1:])]
print("run %s %-7s solve %7.3f s  iterations %3d  first %7.3f s  later median %8.2f ms  sweep=%s"
      % (run, sweep, meta["seconds"], meta["iterations"], t[0],
         1000 * statistics.median(steps) if steps else float("nan"), meta.get("sweep")))
EOF
  done
done | tee "$out/table"
/usr/bin/python3 - "$out/table" <<'EOF'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"run \d+ (\S+) +solve +([\d.]+) s .* first +([\d.]+) s +later median +([\d.]+) ms", line)
    if m:
        rows.setdefault(m.group(1), []).append([float(x) for x in m.groups()[1:]])
for sweep, r in rows.items():
    med = [statistics.median(c) for c in zip(*r)]
    print("median %-7s solve %.3f s, first iteration %.3f s, later iterations %.2f ms" % (sweep, *med))
if "pull" in rows and "blocked" in rows:
    p = statistics.median(x[2] for x in rows["pull"])
    b = statistics.median(x[2] for x in rows["blocked"])
    print("per iteration: blocked %.2fx faster than pull" % (p / b))
EOF
cmp -s "$db/ranks/sweep-pull.ranks" "$db/ranks/sweep-blocked.ranks" &&
  echo "ranks: identical" || echo "ranks: DIFFER (expected only for --method paper)"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
