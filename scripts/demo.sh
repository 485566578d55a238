#!/usr/bin/env bash
# Quick start, part 1: install what is missing, build pqkem (Release), and run a real
# ML-KEM-768 key exchange: keygen -> encaps -> decaps, checking both sides hold the same secret.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PQKEM_BUILD_DIR:-$ROOT/build}"
# shellcheck source=deps.sh
source "$ROOT/scripts/deps.sh"
pqkem_install_deps

# A fresh build directory is configured without the tests (the demo needs only the tool); one
# that scripts/test.sh configured keeps its tests, so ctest still works there afterwards.
tests_off=()
[[ -f "$BUILD/CMakeCache.txt" ]] || tests_off=(-DPQKEM_BUILD_TESTS=OFF)
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release "${tests_off[@]}" >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target pqkem >/dev/null
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
