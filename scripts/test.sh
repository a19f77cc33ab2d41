#!/usr/bin/env bash
# The whole test suite: installs dependencies if missing, builds with warnings as errors,
# checks formatting, and runs every test through CTest (unit, CLI, cross-checks, real graphs),
# then lists the tests that were skipped and why. Each step says what it does and shows its
# progress. Everything builds in build-test/, its own folder: build/webrank (the README's first
# command) keeps working while the tests build and run.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${WEBRANK_TEST_BUILD_DIR:-build-test}
step() { printf '\n== %s\n' "$*"; }
step "dependencies: scripts/install-deps.sh (Debian packages, installed when missing)"
bash scripts/install-deps.sh
step "build: cmake -B $dir, Release, -Wall -Wextra -Werror (WEBRANK_WERROR=ON), -j2, ccache"
# ccache (installed by install-deps) keeps compiled objects between runs, clones included:
# CCACHE_BASEDIR makes the paths it hashes relative to the clone, CCACHE_NOHASHDIR leaves out the
# directory of the sanitizer build's -g objects. A cold cache builds everything, as without it.
# The same cache as scripts/build.sh (the clone's .cache/ccache unless CCACHE_DIR is set), so the
# objects the first command compiled are reused here.
export CCACHE_DIR="${CCACHE_DIR:-$PWD/.cache/ccache}"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
mkdir -p "$dir"
cmake -B "$dir" -DCMAKE_BUILD_TYPE=Release -DWEBRANK_WERROR=ON -DWEBRANK_SANITIZER_TESTS=ON \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache > "$dir/configure.log" 2>&1 ||
  { cat "$dir/configure.log" >&2; exit 1; }
cmake --build "$dir" -j2
files=$(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find src include tests bench -name '*.[ch]pp')
step "format: clang-format --dry-run --Werror on $(echo "$files" | wc -w) files (.clang-format)"
clang-format --dry-run --Werror $files
echo "format: ok"
step "sanitizer build: clang, AddressSanitizer + UndefinedBehaviorSanitizer, the parsers' unit" \
  "tests and the fuzzers, in $dir/sanitize (CTest's \`sanitizers\` then runs them)"
bash tests/build/sanitize.sh "$PWD" "$PWD/$dir/sanitize" ccache build
step "tests: ctest -j2 (GoogleTest units, CLI suites against NetworkX and igraph, real graphs," \
  "the sanitizer build's unit tests and short fuzzer runs, Python, Chromium)"
status=0
(cd "$dir" && ctest --output-on-failure -j2) || status=$?
/usr/bin/python3 scripts/skipped_tests.py "$dir/Testing/Temporary/LastTest.log"
exit $status
