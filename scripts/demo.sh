#!/usr/bin/env bash
# The main job on the built-in default web: generate a synthetic host-clustered web of 20,000
# pages, build its link database, rank it and show the top pages. Needs a built ./build/webrank.
set -euo pipefail
cd "$(dirname "$0")/.."
W=./build/webrank
out=${WEBRANK_DEMO_DIR:-out/demo}
mkdir -p "$out"
"$W" generate --model web --pages 20000 --links 200000 --seed 1 -o "$out/web.tsv"
"$W" build "$out/web.tsv" -o "$out/web.db" --force
"$W" info "$out/web.db"
"$W" rank "$out/web.db" --out "$out/pagerank.tsv"
"$W" top "$out/web.db" -k 15
