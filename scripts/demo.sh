#!/usr/bin/env bash
# Quick start, part 1: install what the build is missing, build the pqkem tool (Release), and run
# a real ML-KEM-768 key exchange: keygen -> encaps -> decaps, checking both sides hold the same
# secret. Only the tool is built, and quietly: the compiler's output goes to a log, shown (its
# end) and named only if the build fails.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PQKEM_BUILD_DIR:-$ROOT/build}"
start=$SECONDS
# shellcheck source=deps.sh
source "$ROOT/scripts/deps.sh"
pqkem_install_packages "${PQKEM_BUILD_PACKAGES[@]}"

# A fresh build directory is configured without the tests (the demo needs only the tool); one
# that scripts/test.sh configured keeps its tests, so ctest still works there afterwards.
tests_off=()
[[ -f "$BUILD/CMakeCache.txt" ]] || tests_off=(-DPQKEM_BUILD_TESTS=OFF)
mkdir -p "$BUILD"
LOG="$BUILD/demo-build.log"
echo "demo: building the pqkem tool in $BUILD (about 2 minutes on 2 cores; log: $LOG)"
if ! { cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release "${tests_off[@]}" &&
       cmake --build "$BUILD" -j"$(nproc)" --target pqkem; } >"$LOG" 2>&1; then
  tail -n 40 "$LOG" >&2
  echo "demo: FAILED: the build failed; the whole log is $LOG" >&2
  exit 1
fi
warnings=$(grep -c 'warning:' "$LOG" || true)
echo "demo: built in $((SECONDS - start)) s ($warnings compiler warnings; log: $LOG)"
PQKEM="$BUILD/app/pqkem"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
ALG=ML-KEM-768
set -x
"$PQKEM" keygen -a "$ALG" --pk alice.pk --sk alice.sk           # Alice makes a key pair
"$PQKEM" encaps --pk alice.pk --ct bob.ct --ss bob.ss           # Bob encapsulates to Alice's key
"$PQKEM" decaps --sk alice.sk --ct bob.ct --ss alice.ss         # Alice decapsulates Bob's ciphertext
{ set +x; } 2>/dev/null
ls -l alice.pk alice.sk bob.ct bob.ss alice.ss
if cmp -s bob.ss alice.ss; then
  echo "demo: OK, both sides hold the same $ALG shared secret ($(stat -c %s bob.ss) bytes; not printed)"
else
  echo "demo: FAILED, the shared secrets differ" >&2
  exit 1
fi
echo "demo: done in $((SECONDS - start)) s; the tool is $PQKEM"
