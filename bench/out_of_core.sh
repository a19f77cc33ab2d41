#!/usr/bin/env bash
# Out-of-core ranking (docs/scale.md, "Out of core"): by default bench/billion.sh's R-MAT graph
# (2^26 ids, seed 7, 1e9 links; LINKS and LOG2_PAGES choose a smaller one), generated straight
# into `webrank build` through a pipe (no text on disk) within a 4 GiB build budget, then ranked
# in double to 1e-6
#   - in memory (the whole database mapped), and
#   - with --memory-budget BUDGET (links streamed from disk),
# RUNS times each, alternating, recording wall time and peak RSS (GNU time) and the solve's
# seconds per iteration; and the floor: one read of what an iteration streams (bwd.offsets and
# bwd.sources) with cat from the page cache and with dd from the disk itself (O_DIRECT).
# At a billion links: ~26 GB free in SCRATCH while building (8.6 GB after). Needs build/webrank.
# Usage: bench/out_of_core.sh [SCRATCH] [BUDGET] [RUNS] [LINKS] [LOG2_PAGES]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
W="$repo/build/webrank"
scratch=${1:-/tmp/webrank-billion}
budget=${2:-2G}
runs=${3:-3}
links=${4:-1000000000}
log2_pages=${5:-26}
db=k$log2_pages.db
mkdir -p "$scratch"
cd "$scratch"
log="$scratch/out_of_core.log"
step() {  # step NAME COMMAND...: runs it under GNU time, appending to the log
  local name=$1
  shift
  /usr/bin/time -f "$name: %e s wall, %U s user, %M KB peak RSS" "$@" 2>> "$log"
}
per_iteration() {  # NAME: iterations and seconds per iteration of stored vector NAME
  /usr/bin/python3 -c "import json; d=json.load(open('$db/ranks/$1.json')); print('  $1:', d['iterations'], 'iterations,', round(d['seconds'], 2), 's solve,', round(d['seconds'] / d['iterations'], 3), 's per iteration;', d.get('streamed_blocks', 0), 'blocks of', d.get('stream_block_bytes', 0), 'bytes')" >> "$log"
}
echo "start $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $(git -C "$repo" rev-parse --short HEAD)" | tee -a "$log"
if [ ! -s $db/manifest.json ]; then
  step "generate | build --memory-budget 4G" sh -c "'$W' generate --model rmat --pages $((1 << log2_pages)) --links $links --seed 7 -o - | '$W' build - -o $db --memory-budget 4G --force -q --progress never"
fi
du -sh $db >> "$log"
ls -l $db/bwd.offsets $db/bwd.sources >> "$log"
step "floor: cat bwd.offsets bwd.sources (page cache)" sh -c "cat $db/bwd.offsets $db/bwd.sources > /dev/null"
step "floor: dd bwd.sources, O_DIRECT (disk)" dd if=$db/bwd.sources of=/dev/null bs=64M iflag=direct status=none
for r in $(seq "$runs"); do
  echo "run $r, load $(cut -d' ' -f1-3 /proc/loadavg), free $(free -g | awk '/Mem/ {print $7}') GiB available" >> "$log"
  step "rank in memory" "$W" rank $db --tol 1e-6 --sweep pull --name mem -q --progress never
  per_iteration mem
  step "rank --memory-budget $budget" "$W" rank $db --tol 1e-6 --memory-budget "$budget" --name ooc -q --progress never
  per_iteration ooc
done
/usr/bin/python3 - "$db" >> "$log" <<'EOF'
import numpy as np, json, sys
db = sys.argv[1]
def load(name):
    m = json.load(open("%s/ranks/%s.json" % (db, name)))
    return np.fromfile("%s/ranks/%s.ranks" % (db, name), dtype=np.float64, count=m["pages"], offset=64)
a, b = load("mem"), load("ooc")
print("L1 between the in-memory and the out-of-core vector:", float(np.abs(a - b).sum()),
      "identical:", bool(np.array_equal(a, b)))
EOF
echo "end $(date -u +%FT%TZ)" >> "$log"
cat "$log"
