#!/usr/bin/env bash
# The 1-billion-link scale run (docs/performance.md, "Scale"): generates a Kronecker graph of
# 1e9 links over 2^26 ids as text (16.3 GB), builds its database (8.6 GB), and ranks it in float
# and double to an L1 change of 1e-6, recording wall time and peak RSS of each step.
# Needs ~26 GB of free disk in SCRATCH (default /tmp/webrank-billion) and a built build/webrank.
# Usage: bench/billion.sh [SCRATCH] [LINKS]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
W="$repo/build/webrank"
scratch=${1:-/tmp/webrank-billion}
links=${2:-1000000000}
mkdir -p "$scratch"
cd "$scratch"
log="$scratch/billion.log"
step() {  # step NAME COMMAND...: runs it under GNU time, appending to the log
  local name=$1
  shift
  /usr/bin/time -f "$name: %e s wall, %U s user, %M KB peak RSS" "$@" 2>> "$log"
}
echo "start $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" | tee "$log"
[ -s k26.tsv ] || step generate "$W" generate --model rmat --pages 67108864 --links "$links" --seed 7 -o k26.tsv
step build "$W" build k26.tsv -o k26.db --force --progress never -q
du -sh k26.db >> "$log"
echo "load before rank: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$log"
for p in float double; do
  step "rank $p" "$W" rank k26.db --precision "$p" --tol 1e-6 --name "$p" -q --progress never
  /usr/bin/python3 -c "import json; d=json.load(open('k26.db/ranks/$p.json')); print('rank $p:', d['iterations'], 'iterations,', round(d['seconds'], 1), 's solve,', round(d['seconds'] / d['iterations'], 3), 's per iteration, converged', d['converged'])" >> "$log"
done
echo "end $(date -u +%FT%TZ)" >> "$log"
cat "$log"
