#!/usr/bin/env bash
# CTest `sanitizers`: the AddressSanitizer + UndefinedBehaviorSanitizer build (WEBRANK_SANITIZE,
# clang, -O1) of the unit tests of the layers that read untrusted bytes, run; then every libFuzzer
# target of tests/fuzz/ for a few seconds each, seeded with tests/fuzz/corpus/. A separate build
# directory, kept between runs (incremental), of only those targets (its cost: docs/testing.md).
#   tests/build/sanitize.sh SOURCE_DIR BUILD_DIR [COMPILER_LAUNCHER] [SECONDS_PER_FUZZER]
# SECONDS_PER_FUZZER: 3 by default; 0 builds and runs the unit tests only; "build" only builds,
# showing its progress (scripts/test.sh does that as a step of its own before CTest, whose output
# of a test comes only when it ends).
set -euo pipefail
src=$1 dir=$2 launcher=${3:-} seconds=${4:-3}
args=(-S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++
      -DWEBRANK_SANITIZE=ON -DWEBRANK_WERROR=OFF)
[ -n "$launcher" ] && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
start=$SECONDS
cmake "${args[@]}" > "$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
if [ "$seconds" = build ]; then
  cmake --build "$dir" -j2 --target webrank_sanitized_tests fuzzers
  echo "sanitizers: built in $((SECONDS - start)) s"
  exit 0
fi
cmake --build "$dir" -j2 --target webrank_sanitized_tests fuzzers -- -k > "$dir.build.log" 2>&1 ||
  { tail -50 "$dir.build.log"; exit 1; }
echo "sanitizers: built in $((SECONDS - start)) s"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
start=$SECONDS
"$dir/tests/webrank_sanitized_tests" --gtest_brief=1
echo "sanitizers: unit tests ran in $((SECONDS - start)) s"
[ "$seconds" -gt 0 ] || exit 0  # 0: build and unit tests only (libFuzzer's 0 is "forever")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for fuzzer in "$dir"/tests/fuzz/fuzz_*; do
  [ -f "$fuzzer" ] && [ -x "$fuzzer" ] || continue
  name=${fuzzer##*/fuzz_}
  mkdir -p "$scratch/$name"
  cp "$src/tests/fuzz/corpus/$name"/* "$scratch/$name/"
  if ! (cd "$scratch" && TMPDIR="$scratch" "$fuzzer" "$scratch/$name" -max_total_time="$seconds" \
          -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=20 -print_final_stats=0 \
          > "$scratch/$name.log" 2>&1); then
    tail -40 "$scratch/$name.log"
    mkdir -p "$dir/fuzz-failures"
    cp "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* "$scratch"/oom-* \
       "$dir/fuzz-failures/" 2> /dev/null || true
    echo "sanitizers: fuzz_$name failed; its input is in $dir/fuzz-failures/"
    exit 1
  fi
  echo "sanitizers: fuzz_$name: $(grep -o 'cov: [0-9]*' "$scratch/$name.log" | tail -1)," \
       "$(grep -c '' "$scratch/$name.log") log lines, no failure in $seconds s"
done
