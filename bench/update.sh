#!/usr/bin/env bash
# Incremental updates (docs/scale.md, "Updates after a recrawl"): 1% of the links change (half
# removed, half added; a tenth of the added links lead to new pages), then
#   - `webrank update DB --remove R --add A` against `webrank build` of the edited edge list
#     (medians of RUNS runs, each update on a fresh copy of the database);
#   - `rank --warm-start` from the vector of the previous version against a cold start, at 1e-10,
#     for --method power and gauss-seidel.
# GRAPH: `cnr` (../shared/data/cnr-2000, 3.2M links), `web1m` (a generated web of 1M pages,
# 8.4M links) or `web10m` (10M pages, 80M links, about 6 GB of text in SCRATCH). Needs build/webrank.
# Usage: bench/update.sh [--runs N] [--scratch DIR] GRAPH...
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
W="$repo/build/webrank"
scratch=${WEBRANK_BENCH_SCRATCH:-/tmp/webrank-update}
runs=3
graphs=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --scratch) scratch=$2; shift 2 ;;
    *) graphs+=("$1"); shift ;;
  esac
done
[ ${#graphs[@]} -gt 0 ] || graphs=(cnr)
mkdir -p "$scratch"
cd "$scratch"
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
wall() {  # wall seconds of a command (GNU time), its output discarded
  /usr/bin/time -f "%e" -o .t "$@" > /dev/null 2>&1
  cat .t
}
field() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

for g in "${graphs[@]}"; do
  case $g in
    cnr)
      [ -s cnr.db/manifest.json ] || "$W" import "$repo/../shared/data/cnr-2000/cnr-2000" -o cnr.db -q --force
      "$W" export cnr.db --links -o cnr.tsv ;;
    web1m)
      [ -s web1m.db/manifest.json ] || { "$W" generate --model web --pages 1048576 --links 8388608 --seed 11 -q -o web1m.gen.tsv; "$W" build web1m.gen.tsv -o web1m.db -q --force; rm -f web1m.gen.tsv; }
      "$W" export web1m.db --links -o web1m.tsv ;;
    web10m)
      [ -s web10m.tsv ] || "$W" generate --model web --pages 10000000 --links 80000000 --seed 11 -o web10m.gen.tsv
      [ -s web10m.db/manifest.json ] || "$W" build web10m.gen.tsv -o web10m.db -q --force
      rm -f web10m.gen.tsv
      "$W" export web10m.db --links -o web10m.tsv ;;
    *) echo "unknown graph $g" >&2; exit 2 ;;
  esac
  text=$g.tsv
  links=$(wc -l < "$text")
  # The change: 0.5% of the lines removed, as many links added between pages seen in the text,
  # a tenth of them to new pages.
  awk -v seed=5 -v p=0.005 -v k=$((links / 200)) -v total="$links" '
    BEGIN { srand(seed); FS = "\t"; n = 0 }
    { if (rand() < p) print > "rm.tsv"; else print > "kept.tsv";
      if (n < k && rand() < 1.2 * k / total) { s[n] = $1; t[n] = $2; n++ } }
    END { for (i = 0; i < n; i++) {
            tgt = (i % 10 == 0) ? "http://new.example/" i : t[(i * 7919) % n];
            print s[i] "\t" tgt > "add.tsv" } }' "$text"
  cat kept.tsv add.tsv > edited.tsv
  echo "== $g: $links links; removed $(wc -l < rm.tsv), added $(wc -l < add.tsv)"

  # The previous version's vectors, cold.
  "$W" rank "$g.db" --name pagerank -q
  "$W" rank "$g.db" --name gs --method gauss-seidel -q

  rebuild=() update=()
  for r in $(seq "$runs"); do
    rebuild+=("$(wall "$W" build edited.tsv -o rebuilt.db --force -q)")
    rm -rf upd.db
    cp -r "$g.db" upd.db
    update+=("$(wall "$W" update upd.db --remove rm.tsv --add add.tsv -q)")
  done
  rm -rf upd.db && cp -r "$g.db" upd.db
  update_nv=$(wall "$W" update upd.db --remove rm.tsv --add add.tsv -q --no-verify)
  rb=$(printf '%s\n' "${rebuild[@]}" | median)
  up=$(printf '%s\n' "${update[@]}" | median)
  echo "rebuild (build of the edited text): ${rebuild[*]} s, median $rb"
  echo "update (merge, with checksum verification): ${update[*]} s, median $up; ratio $(awk -v a="$up" -v b="$rb" 'BEGIN{printf "%.3f", a/b}')"
  echo "update --no-verify (one run): $update_nv s"

  for m in power gauss-seidel; do
    from=pagerank
    [ $m = gauss-seidel ] && from=gs
    "$W" rank upd.db --method $m --name cold-$m -q
    "$W" rank upd.db --method $m --warm-start $from --name warm-$m -q
    cold_it=$(field upd.db/ranks/cold-$m.json 'd["iterations"]')
    cold_s=$(field upd.db/ranks/cold-$m.json 'round(d["seconds"], 3)')
    warm_it=$(field upd.db/ranks/warm-$m.json 'd["iterations"]')
    warm_s=$(field upd.db/ranks/warm-$m.json 'round(d["seconds"], 3)')
    echo "$m to 1e-10: cold $cold_it iterations ${cold_s} s, warm $warm_it iterations ${warm_s} s"
  done
  rm -f kept.tsv edited.tsv
done
