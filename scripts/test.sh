#!/usr/bin/env bash
# Quick start, part 2: install what is missing, build everything (Release) and run the whole
# test suite with ctest. Extra arguments go to ctest (e.g. scripts/test.sh -L unit).
#
#   scripts/test.sh              the normal build (build/), whole suite, including the
#                                valgrind constant-time tests (label ct)
#   scripts/test.sh --sanitize   build-sanitize/: everything with -fsanitize=address,undefined
#                                -fno-sanitize-recover=all (g++), whole suite (the valgrind
#                                tests are left out: valgrind and ASan do not mix; so are the
#                                10000-iteration CCTV runs, whose code paths the 100-iteration
#                                ones cover, and the docs, man, completion and interop labels)
#   scripts/test.sh --fuzz       build-fuzz/: clang, libFuzzer targets, each run for
#                                PQKEM_FUZZ_SECONDS (default 20) from its seed corpus (label fuzz);
#                                the tests are built too (not run), so that clang compiles
#                                every source and its warnings are counted
#   scripts/test.sh --cross ARCH build-ARCH/ (aarch64 or s390x): Debian's cross compiler and the
#                                target's packages (installed), the suite under qemu-user; left
#                                out: the valgrind tests, the x86 SIMD tests, the long CCTV runs
#                                and what cannot run under qemu (below; docs/building.md, "Other
#                                CPUs", lists it all)
#
# Every build's compiler output is kept in BUILD/build.log, and the number of warnings in it is
# printed. The build is warning-free on GCC 12 and clang 14: with PQKEM_WERROR=ON (the default
# when CI is set, as .ci/run does) warnings are errors, and a log with any warning fails.
#
# The test vectors are read from PQKEM_VECTORS_DIR (default ../shared/vectors beside the
# repository; scripts/fetch-vectors.sh fetches them). If that directory has no README.md, the
# normal and --sanitize modes run every test not labelled vectors and then exit 1, saying so.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=deps.sh
source "$ROOT/scripts/deps.sh"

mode=normal
case "${1:-}" in
  --sanitize) mode=sanitize; shift ;;
  --fuzz) mode=fuzz; shift ;;
  --cross)
    mode=cross
    CROSS_ARCH="${2:-}"
    [[ $CROSS_ARCH == aarch64 || $CROSS_ARCH == s390x ]] ||
      { echo "scripts/test.sh: --cross needs aarch64 or s390x" >&2; exit 2; }
    shift 2 ;;
esac

# with_excluded OPTION LONG_OPTION REGEX ARG...: sets ARGS to the ARGs with every `OPTION R`
# (or `LONG_OPTION R`) taken out and merged into one `OPTION REGEX|(R)...`: ctest keeps only the
# last -E and the last -LE, so a caller's own is merged with the script's.
with_excluded() {
  local opt=$1 long=$2 regex=$3
  shift 3
  ARGS=()
  while (($#)); do
    case "$1" in
      "$opt"|"$long")
        (($# >= 2)) || { echo "scripts/test.sh: $1 needs a regex" >&2; exit 2; }
        regex="$regex|($2)"; shift 2 ;;
      *) ARGS+=("$1"); shift ;;
    esac
  done
  ARGS=("$opt" "$regex" "${ARGS[@]}")
}

VECTORS="${PQKEM_VECTORS_DIR:-$ROOT/../shared/vectors}"
JOBS="$(nproc)"
werror=OFF
[[ -n ${CI:-} && ${CI} != 0 && ${CI} != false ]] && werror=ON
werror=${PQKEM_WERROR:-$werror}
case "$mode" in
  normal)
    pqkem_install_deps
    BUILD="${PQKEM_BUILD_DIR:-$ROOT/build}"
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DPQKEM_BUILD_TESTS=ON \
          -DPQKEM_VECTORS_DIR="$VECTORS" -DPQKEM_WERROR="$werror"
    ;;
  sanitize)
    pqkem_install_deps
    BUILD="${PQKEM_BUILD_DIR:-$ROOT/build-sanitize}"
    # RelWithDebInfo: optimized like the release (the code under test); PQKEM_SANITIZE lowers
    # the debug info to line tables (-g1, the last -g option wins).
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPQKEM_BUILD_TESTS=ON \
          -DPQKEM_SANITIZE=ON -DPQKEM_VECTORS_DIR="$VECTORS" -DPQKEM_WERROR="$werror"
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
    # The 10000-iteration CCTV runs would take about 4 minutes of CI (2 cores) under ASan.
    with_excluded -E --exclude-regex CctvAccumulatedLong "$@"
    set -- "${ARGS[@]}"
    # The documentation's tests (labels docs, man, completion: about 5 minutes of test time under
    # the sanitizers) and the wire format against hpke-js (interop) check nothing the sanitizers
    # see that the cli tests do not; the normal build runs them.
    with_excluded -LE --label-exclude '^(docs|man|completion|interop)$' "$@"
    set -- "${ARGS[@]}"
    ;;
  cross)
    BUILD="${PQKEM_BUILD_DIR:-$ROOT/build-$CROSS_ARCH}"
    SYSROOT="$BUILD/cross-sysroot"
    mkdir -p "$BUILD"
    pqkem_install_cross "$CROSS_ARCH" "$SYSROOT"
    cmake -S "$ROOT" -B "$BUILD" --toolchain "$ROOT/cmake/toolchains/$CROSS_ARCH-linux-gnu.cmake" \
          -DPQKEM_CROSS_SYSROOT="$SYSROOT" -DCMAKE_BUILD_TYPE=Release -DPQKEM_BUILD_TESTS=ON \
          -DPQKEM_CT_TESTING=OFF -DPQKEM_VECTORS_DIR="$VECTORS" -DPQKEM_WERROR="$werror"
    # Under qemu-user: no valgrind (label ct); the 10000-iteration CCTV runs, whose paths the
    # 100-iteration ones take, would take most of an hour; so would the C++ Bench tests, which
    # time every algorithm (cli.bench.emulated prints the tables once instead), and the 4 GiB
    # stream of cli.seal.memory, whose ulimit -v would bound the emulator itself; gtest's death
    # tests hang in qemu-user's fork. The x86 SIMD tests are not built.
    with_excluded -LE --label-exclude '^ct$' "$@"
    set -- "${ARGS[@]}"
    with_excluded -E --exclude-regex 'CctvAccumulatedLong|^cli\.Bench\.|^cli\.seal\.memory$|DeathTest' "$@"
    set -- "${ARGS[@]}"
    ;;
  fuzz)
    pqkem_install_deps "${PQKEM_FUZZ_PACKAGES[@]}"
    BUILD="${PQKEM_BUILD_DIR:-$ROOT/build-fuzz}"
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
          -DPQKEM_BUILD_TESTS=ON -DPQKEM_BUILD_FUZZERS=ON \
          -DPQKEM_FUZZ_SECONDS="${PQKEM_FUZZ_SECONDS:-20}" -DPQKEM_VECTORS_DIR="$VECTORS" \
          -DPQKEM_WERROR="$werror"
    set -- -L fuzz "$@"
    ;;
esac
build_start=$SECONDS
cmake --build "$BUILD" -j"$JOBS" 2>&1 | tee "$BUILD/build.log"
warnings=$(grep -c 'warning:' "$BUILD/build.log" || true)
echo "scripts/test.sh: build took $((SECONDS - build_start)) s; compiler warnings: $warnings (log: $BUILD/build.log)"
if ((warnings > 0)); then
  grep 'warning:' "$BUILD/build.log" | sort | uniq -c | sort -rn | head -n 20 >&2
  if [[ $werror == ON ]]; then
    echo "scripts/test.sh: FAILED: the build must be warning-free (PQKEM_WERROR=ON)" >&2
    exit 1
  fi
fi
# Without the vectors (the directory has no README.md), run everything that does not read them,
# then fail with one line saying what is missing. The fuzz targets read no vectors.
if [[ $mode == fuzz || -f $VECTORS/README.md ]]; then
  ctest --test-dir "$BUILD" --output-on-failure -j"$JOBS" "$@"
  exit 0
fi
with_excluded -LE --label-exclude vectors "$@"
others="the other tests passed"
ctest --test-dir "$BUILD" --output-on-failure -j"$JOBS" "${ARGS[@]}" ||
  others="and some other tests failed (above)"
echo "scripts/test.sh: FAILED: no test vectors in $VECTORS (no README.md), so the tests labelled vectors did not run ($others): fetch them with scripts/fetch-vectors.sh, or set PQKEM_VECTORS_DIR to where they are" >&2
exit 1
