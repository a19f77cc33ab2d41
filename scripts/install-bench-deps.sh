#!/usr/bin/env bash
# Installs the Debian 12 packages the benchmark harness (bench/) compares webrank against:
#   libigraph-dev     igraph C library (PageRank via PRPACK)          -> bench/peers/igraph_pagerank.c
#   libgraphblas-dev  SuiteSparse:GraphBLAS                           -> bench/peers/graphblas_pagerank.c
#   python3-networkx python3-scipy python3-numpy python3-igraph       -> bench/peers/networkx_pagerank.py
#   python3-graph-tool (graph-tool 2.45, Debian 12 main; ~340 MB)     -> bench/peers/graphtool_pagerank.py
#   default-jdk-headless liblucene8-java (Lucene 8.7)                -> bench/search/peers/LuceneBaseline.java
#   (Pagefind and Lunr, bench/search's other peers, are web/'s npm packages: scripts/install-deps.sh)
#   hyperfine, linux-perf, time (GNU time: peak RSS), zstd, build tools
#   python3-scrapy    Scrapy 2.8, the crawler's peer                      -> bench/peers/scrapy_crawl.py
# The GAP Benchmark Suite is not packaged by Debian 12 and is not installed.
# Idempotent: installs only what is missing. Runs as root, or through sudo otherwise.
set -euo pipefail
pkgs=(
  build-essential cmake pkg-config make
  libigraph-dev libgraphblas-dev
  python3 python3-networkx python3-scipy python3-numpy python3-igraph python3-graph-tool
  default-jdk-headless liblucene8-java
  hyperfine linux-perf time zstd gzip
  python3-scrapy
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-bench-deps: all ${#pkgs[@]} packages already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-bench-deps: not root and no sudo" >&2; exit 1; }
  SUDO="sudo"
fi
echo "install-bench-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
