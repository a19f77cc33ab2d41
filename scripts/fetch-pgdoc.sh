#!/usr/bin/env bash
# The built-in default web: the PostgreSQL 15 documentation Debian ships (postgresql-doc-15),
# fetched with `apt-get download` (no root, no server installed) and unpacked into out/pgdoc,
# once. Exits 1, saying so, when the Debian archive cannot be reached.
set -euo pipefail
cd "$(dirname "$0")/.."
pg=out/pgdoc
docs=usr/share/doc/postgresql-doc-15/html
[ -f "$pg/$docs/index.html" ] && exit 0
echo "fetching the PostgreSQL 15 documentation (apt-get download postgresql-doc-15)" >&2
mkdir -p out
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$pg.tmp"' EXIT
if (cd "$tmp" && apt-get download postgresql-doc-15 > /dev/null 2>&1) &&
   rm -rf "$pg.tmp" && dpkg-deb -x "$tmp"/postgresql-doc-15_*.deb "$pg.tmp"; then
  rm -rf "$pg" && mv "$pg.tmp" "$pg"
  exit 0
fi
echo "postgresql-doc-15 could not be downloaded (no access to the Debian archive?)" >&2
exit 1
