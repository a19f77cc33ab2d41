#!/usr/bin/env bash
# Distributed ranking (docs/scale.md, "Several processes"): for each graph, the single-machine
# power iteration (pull sweep) against `mpirun -np P webrank rank-mpi` for P = 1, 2, 4 on this
# machine (--oversubscribe; the processes share its cores), double to 1e-10: seconds per
# iteration, the bytes each process sends per iteration and the time it spends in exchanges;
# then, from `webrank partition` alone, the remote pages (hence the bytes per iteration: 8 per
# remote page in double) for P = 8 ... 256.
# GRAPH: cnr (../shared/data/cnr-2000), web (generated, 1M pages, 8.4M links), rmat (1M/16M),
# or a database directory. Needs build/webrank and build/webrank-mpi, and mpirun.
# Usage: bench/mpi.sh [--scratch DIR] GRAPH...
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
W="$repo/build/webrank"
scratch=${WEBRANK_BENCH_SCRATCH:-/tmp/webrank-mpi}
graphs=()
while [ $# -gt 0 ]; do
  case $1 in
    --scratch) scratch=$2; shift 2 ;;
    *) graphs+=("$1"); shift ;;
  esac
done
[ ${#graphs[@]} -gt 0 ] || graphs=(cnr web rmat)
mkdir -p "$scratch"
cd "$scratch"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
field() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
echo "start $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $(git -C "$repo" rev-parse --short HEAD)"
for g in "${graphs[@]}"; do
  case $g in
    cnr) [ -s cnr.db/manifest.json ] || "$W" import "$repo/../shared/data/cnr-2000/cnr-2000" -o cnr.db -q; db=cnr.db ;;
    web) [ -s web.db/manifest.json ] || { "$W" generate --model web --pages 1048576 --links 8388608 --seed 1 -o web.tsv; "$W" build web.tsv -o web.db -q; rm web.tsv; }; db=web.db ;;
    rmat) [ -s rmat.db/manifest.json ] || { "$W" generate --model rmat --pages 1048576 --links 16777216 --seed 1 -o rmat.tsv; "$W" build rmat.tsv -o rmat.db -q; rm rmat.tsv; }; db=rmat.db ;;
    *) db=$g ;;
  esac
  pages=$(field "$db/manifest.json" 'd["pages"]')
  links=$(field "$db/manifest.json" 'd["links"]')
  echo "== $g: $pages pages, $links links"
  "$W" rank "$db" --method power --sweep pull --name single -q
  echo "one machine: $(field "$db/ranks/single.json" 'd["iterations"]') iterations, $(field "$db/ranks/single.json" 'round(1000 * d["seconds"] / d["iterations"], 2)') ms per iteration"
  for p in 1 2 4; do
    "$W" partition "$db" -n $p -o "$g.parts" --force -q
    out=$(mpirun -np $p --oversubscribe "$W" rank-mpi "$g.parts" --name mpi$p 2>&1 | grep -v '^$' | tail -1)
    echo "rank-mpi -np $p: $(field "$db/ranks/mpi$p.json" 'round(1000 * d["seconds"] / d["iterations"], 2)') ms per iteration; bytes sent per iteration by each process: $(field "$db/ranks/mpi$p.json" 'd["bytes_sent_per_iteration"]')"
    echo "   $out"
  done
  /usr/bin/python3 - "$db" <<'PY'
import json, sys
import numpy as np
db = sys.argv[1]
def load(n):
    m = json.load(open("%s/ranks/%s.json" % (db, n)))
    return np.fromfile("%s/ranks/%s.ranks" % (db, n), dtype=np.float64, count=m["pages"], offset=64)
a = load("single")
print("L1 to the single-machine vector:", ", ".join("%d processes %.2e" % (p, np.abs(a - load("mpi%d" % p)).sum()) for p in (1, 2, 4)))
PY
  for p in 8 16 32 64 128 256; do
    [ "$p" -le "$pages" ] || continue
    "$W" partition "$db" -n $p -o "$g.parts" --force --json > part.json
    /usr/bin/python3 - $p "$links" <<'PY'
import json, sys
p, links = int(sys.argv[1]), int(sys.argv[2])
r = json.load(open("part.json"))
remote = [x["remote_pages"] for x in r["parts"]]
pl = [x["links"] for x in r["parts"]]
print("partition -n %d: remote pages %d in all (%.3f per link), at most %d in one part; "
      "bytes per iteration in double %d in all, at most %d into one part; largest part %.2f of the mean links"
      % (p, sum(remote), sum(remote) / links, max(remote), 8 * sum(remote), 8 * max(remote),
         max(pl) * p / links))
PY
  done
  rm -rf "$g.parts" part.json
done
