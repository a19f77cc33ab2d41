#!/usr/bin/env bash
# The whole test suite: installs dependencies if missing, builds with warnings as errors,
# checks formatting, and runs every test through CTest (unit, CLI, cross-checks, real graphs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -B build -DCMAKE_BUILD_TYPE=Release -DWEBRANK_WERROR=ON > /dev/null
cmake --build build -j2
files=$(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find src include tests bench -name '*.[ch]pp')
clang-format --dry-run --Werror $files
cd build && ctest --output-on-failure -j2
