#!/usr/bin/env bash
# CTest `portable_build`: -DWEBRANK_PORTABLE=ON configures and builds, and its code runs on any
# x86-64 CPU. Kept cheap (a few seconds): it configures a scratch build and compiles two
# translation units, the power iteration with the pull kernels (the code -march=native vectorizes
# most) and the snippets' scan (64, 32 or 16 bytes at a time: AVX-512, AVX2, SSE2), then
# checks their flags (no -march=native) and, on x86-64, that the objects use no AVX register
# (%ymm, %zmm), which an older CPU could not run. The full portable build is the same sources
# with the same flags.
#   tests/build/portable_build.sh SOURCE_DIR SCRATCH_DIR [COMPILER_LAUNCHER]
set -euo pipefail
src=$1 scratch=$2 launcher=${3:-}
rm -rf "$scratch"
args=(-S "$src" -B "$scratch" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release -DWEBRANK_PORTABLE=ON -DWEBRANK_TESTS=OFF
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
[ -n "$launcher" ] && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
cmake "${args[@]}" > "$scratch.configure.log" 2>&1 || { cat "$scratch.configure.log"; exit 1; }
if grep -q -- "-march=native" "$scratch/compile_commands.json"; then
  echo "portable build: -march=native in its compile commands"; exit 1
fi
for unit in rank/power_iteration search/snippet; do
  layer=${unit%/*} file=${unit#*/}.cpp
  make -C "$scratch/src/$layer" "$file.o" > "$scratch.build.log" 2>&1 ||
    { cat "$scratch.build.log"; exit 1; }
  if [ "$(uname -m)" = x86_64 ]; then
    object=$scratch/src/$layer/CMakeFiles/webrank_$layer.dir/$file.o
    avx=$(objdump -d "$object" 2> /dev/null | grep -c -E '%[yz]mm' || true)
    if [ "$avx" != 0 ]; then
      echo "portable build: $avx instructions on AVX registers in $file.o"; exit 1
    fi
  fi
done
echo "portable build: configured, power_iteration.cpp and snippet.cpp compiled without" \
  "-march=native or AVX"
rm -rf "$scratch" "$scratch".*.log
