#!/usr/bin/env bash
# The main job on the built-in default web: a real web, the PostgreSQL 15 documentation shipped
# by Debian (postgresql-doc-15: `apt-get download` + `dpkg-deb -x` into out/pgdoc, cached; no
# server is installed), served on 127.0.0.1 by `python3 -m http.server`, crawled by webrank's
# own crawler, ranked, its top pages shown and searched. Without network access to the Debian archive
# it falls back to the synthetic web (a host-clustered web of 20,000 pages). Needs a built
# ./build/webrank (bash scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
W=./build/webrank
# webrank remembers verified databases in $XDG_CACHE_HOME/webrank (docs/format.md): the demo keeps
# that in the clone too, so the first command writes nothing outside it but the packages.
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$PWD/.cache}"
[ -x "$W" ] || { echo "demo: $W is not built; run bash scripts/build.sh first" >&2; exit 1; }
out=${WEBRANK_DEMO_DIR:-out/demo}
mkdir -p "$out"

pg=out/pgdoc
docs=usr/share/doc/postgresql-doc-15/html
# Fetched once (scripts/fetch-pgdoc.sh, shared with the tests of the README's tour).
bash scripts/fetch-pgdoc.sh || true

if [ ! -f "$pg/$docs/index.html" ]; then
  echo "demo: postgresql-doc-15 could not be downloaded (no network?); ranking the synthetic" \
       "web instead" >&2
  "$W" generate --model web --pages 20000 --links 200000 --seed 1 -o "$out/web.tsv"
  "$W" build "$out/web.tsv" -o "$out/web.db" --force
  "$W" info "$out/web.db"
  "$W" rank "$out/web.db" --out "$out/pagerank.tsv"
  "$W" top "$out/web.db" -k 15
  exit 0
fi

# Serve the documentation's own folder on a free loopback port, so that pages are labelled by
# their paths in the site (http://127.0.0.1:PORT/index.html), which `top` shows under the site's
# name; the server is stopped by its PID.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$pg/$docs" "$port" > /dev/null 2>&1 &
server=$!
trap 'kill "$server" 2> /dev/null || true' EXIT
for _ in $(seq 100); do
  (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null && break
  sleep 0.1
done

base="http://127.0.0.1:$port/"
"$W" crawl "${base}index.html" -o "$out/pg.db" --scope "$base" --force \
  --delay 0 --per-host 4 --connections 4
kill "$server" 2> /dev/null || true
"$W" info "$out/pg.db"
"$W" rank "$out/pg.db" --out "$out/pagerank.tsv"
"$W" top "$out/pg.db" -k 20
# The crawl built the search index: full-text search merged with PageRank (docs/search.md).
"$W" search "$out/pg.db" "create table" -k 3
