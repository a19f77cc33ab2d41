#!/usr/bin/env bash
# Builds what the demo needs, and nothing more: the command line build/webrank (Release), through
# ccache from the first compile (a later build, from any clone on this machine, recompiles only
# what changed). No unit tests, no MPI launcher, no web server, no Python module: each is one
# target away in the same folder (docs/getting-started.md):
#   bash scripts/build.sh webrank-serve        # `webrank serve`
#   bash scripts/build.sh webrank_venv         # build/venv: Python with `import webrank`
#   bash scripts/build.sh webrank-mpi          # `webrank rank-mpi`
# The tests build in their own folder, build-test/ (scripts/test.sh), so build/webrank keeps
# working while they do. Progress: CMake's [ NN%] line per compiled file.
#   bash scripts/build.sh --dry-run [TARGET...]   # configure, then list what would be compiled
# WEBRANK_BUILD_DIR: another folder than build/.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${WEBRANK_BUILD_DIR:-build}
dry=()
if [ "${1:-}" = --dry-run ]; then
  dry=(-- -n -k)  # -k: a link whose objects are not built yet fails
  shift
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(webrank)
command -v ccache > /dev/null ||
  { echo "build: ccache is missing; run bash scripts/install-deps.sh first" >&2; exit 1; }
# The compiled objects are kept in the clone (.cache/ccache), so that the first command writes
# nothing outside it but the packages it installs; a CCACHE_DIR of your own (e.g. ~/.cache/ccache)
# shares them between clones. CCACHE_BASEDIR: paths hashed relative to the clone.
export CCACHE_DIR="${CCACHE_DIR:-$PWD/.cache/ccache}"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
echo "build: configuring $dir/ (Release, ccache; tests off: they build in build-test/)"
mkdir -p "$dir"
cmake -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DWEBRANK_TESTS=OFF > "$dir/configure.log" 2>&1 ||
  { cat "$dir/configure.log" >&2; exit 1; }
start=$SECONDS
echo "build: cmake --build $dir -j2 --target ${targets[*]}"
if [ ${#dry[@]} -gt 0 ]; then
  cmake --build "$dir" -j2 --target "${targets[@]}" "${dry[@]}" 2>&1 || true
  exit 0
fi
cmake --build "$dir" -j2 --target "${targets[@]}"
echo "build: ${targets[*]} built in $((SECONDS - start)) s"
