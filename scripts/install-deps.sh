#!/usr/bin/env bash
# Installs every Debian package webrank needs to build, test and benchmark, and the npm packages
# of web/ (uPlot, built into the binary; playwright-core, which drives Debian's chromium in the
# browser tests). Idempotent; must run as root (or with sudo available). Debian 12.
set -euo pipefail
pkgs=(
  build-essential cmake pkg-config git ccache
  libcli11-dev nlohmann-json3-dev zlib1g-dev libzstd-dev libxxhash-dev libeigen3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format zstd gzip
  python3 python3-networkx python3-igraph python3-scipy python3-numpy
  libcurl4-openssl-dev libgumbo-dev wget
  libexpat1-dev
  libxapian-dev xapian-tools
  libopenmpi-dev openmpi-bin
  libboost-dev wrk
  libctemplate-dev
  libpsl-dev publicsuffix
  clang libfuzzer-14-dev libomp-14-dev strace
  pybind11-dev python3-dev python3-venv python3-pip python3-pytest python3-matplotlib
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The browser side: Debian's nodejs and npm (Debian 12: node 18, npm 9; a node and npm already on
# the PATH, from another packaging, are used as they are) and chromium, which the browser tests
# drive (Playwright never downloads a browser here).
command -v node > /dev/null 2>&1 || missing+=(nodejs)
command -v npm > /dev/null 2>&1 || missing+=(npm)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages, node, npm and chromium are installed"
else
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# web/'s npm packages, exactly as web/package-lock.json pins them; again only when that file
# changed since the last install (a copy of it is kept in node_modules/).
web="$(cd "$(dirname "$0")/.." && pwd)/web"
if ! cmp -s "$web/package-lock.json" "$web/node_modules/.webrank-installed-lock.json"; then
  echo "install-deps: npm ci in web/ (uplot, playwright-core, pagefind, lunr)"
  (cd "$web" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  cp "$web/package-lock.json" "$web/node_modules/.webrank-installed-lock.json"
else
  echo "install-deps: web/node_modules is up to date with web/package-lock.json"
fi
