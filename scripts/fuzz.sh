#!/usr/bin/env bash
# libFuzzer targets (tests/fuzz):
#   scripts/fuzz.sh --list             the target names, one per line
#   scripts/fuzz.sh TARGET SECONDS     build (build-fuzz/, clang) and run one target
#   scripts/fuzz.sh --all SECONDS      every target in turn
#   scripts/fuzz.sh --seeds            rewrite the committed seed corpus (tests/fuzz/corpus)
# Extra arguments after SECONDS go to libFuzzer (e.g. -jobs=2 -workers=2). Inputs found are
# kept in build-fuzz/tests/fuzz/work/TARGET/corpus (reused by the next run), findings as
# build-fuzz/tests/fuzz/work/TARGET/crash-* (reproduce: build-fuzz/tests/fuzz/TARGET FILE).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PQKEM_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"

targets() { sed -n 's/^  \(fuzz_[a-z0-9_]*\).*/\1/p' "$ROOT/tests/fuzz/CMakeLists.txt"; }

configure() {
  # shellcheck source=deps.sh
  source "$ROOT/scripts/deps.sh"
  pqkem_install_deps "${PQKEM_FUZZ_PACKAGES[@]}"
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
        -DPQKEM_BUILD_TESTS=OFF -DPQKEM_BUILD_FUZZERS=ON >/dev/null
}

run_one() {
  local t="$1" seconds="$2"
  shift 2
  targets | grep -qx -- "$t" || { echo "fuzz.sh: unknown target '$t' (see --list)" >&2; exit 2; }
  cmake --build "$BUILD" -j"$(nproc)" --target "$t"
  bash "$ROOT/tests/fuzz/run_fuzzer.sh" "$BUILD/tests/fuzz/$t" "$ROOT/tests/fuzz/corpus/$t" \
    "$BUILD/tests/fuzz/work/$t" "$seconds" "$@"
}

case "${1:-}" in
  --list) targets ;;
  --seeds)
    configure
    cmake --build "$BUILD" -j"$(nproc)" --target fuzz_make_seeds
    rm -rf "$ROOT/tests/fuzz/corpus"
    ASAN_OPTIONS=detect_leaks=0 "$BUILD/tests/fuzz/fuzz_make_seeds" "$ROOT/tests/fuzz/corpus"
    for t in $(targets); do echo "$t: $(ls "$ROOT/tests/fuzz/corpus/$t" | wc -l) seeds"; done ;;
  --all)
    [[ $# -ge 2 ]] || { echo "usage: scripts/fuzz.sh --all SECONDS" >&2; exit 2; }
    seconds="$2"
    shift 2
    configure
    for t in $(targets); do echo "== $t"; run_one "$t" "$seconds" "$@"; done ;;
  "" | -h | --help)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    [[ -n "${1:-}" ]] ;;
  *)
    [[ $# -ge 2 ]] || { echo "usage: scripts/fuzz.sh TARGET SECONDS (targets: --list)" >&2; exit 2; }
    t="$1" seconds="$2"
    shift 2
    configure
    run_one "$t" "$seconds" "$@" ;;
esac
