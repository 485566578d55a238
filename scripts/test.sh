#!/usr/bin/env bash
# Quick start, part 2: install what is missing, build everything (Release) and run the whole
# test suite with ctest. Extra arguments go to ctest (e.g. scripts/test.sh -L unit).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PQKEM_BUILD_DIR:-$ROOT/build}"
# shellcheck source=deps.sh
source "$ROOT/scripts/deps.sh"
pqkem_install_deps

VECTORS="${PQKEM_VECTORS_DIR:-$ROOT/../shared/vectors}"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DPQKEM_BUILD_TESTS=ON \
      -DPQKEM_VECTORS_DIR="$VECTORS"
cmake --build "$BUILD" -j"$(nproc)"
ctest --test-dir "$BUILD" --output-on-failure -j"$(nproc)" "$@"
