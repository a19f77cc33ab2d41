#!/usr/bin/env bash
# Installs every Debian package webrank needs to build, test and benchmark.
# Idempotent; must run as root (or with sudo available). Debian 12.
set -euo pipefail
pkgs=(
  build-essential cmake pkg-config git
  libcli11-dev nlohmann-json3-dev zlib1g-dev libzstd-dev libxxhash-dev libeigen3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format zstd gzip
  python3 python3-networkx python3-igraph python3-scipy python3-numpy
  libcurl4-openssl-dev libgumbo-dev wget
  libexpat1-dev
  libxapian-dev
  pybind11-dev python3-dev python3-pytest python3-matplotlib
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages are installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
