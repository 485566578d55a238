#!/usr/bin/env bash
# Benchmark (not a test): `pqkem seal` / `pqkem open` beside age, as whole processes on one
# file. age (Debian's 1.1.1: an X25519 recipient, ChaCha20-Poly1305 in 64 KiB chunks, no
# post-quantum protection) encrypts and decrypts; pqkem seals and opens with its defaults
# (the key's KEM, ML-KEM-768 here, HKDF-SHA256, AES-256-GCM, 64 KiB chunks). Input: a file of
# random bytes in a tmpfs directory; output: /dev/null.
#
# The four commands run in rounds, each once a round, starting one further on each round, after
# one untimed warm-up round; each is timed in bash with $EPOCHREALTIME. It prints the median
# wall time of each command, and for seal and open the median of the per-round ratios
# pqkem / age. Before timing, both round trips are checked byte for byte.
#
#   scripts/age-compare.sh [--size MIB] [--rounds N] [--dir DIR] [--build DIR] [--help]
#     --size MIB    the file's size in MiB (default 1024)
#     --rounds N    timed rounds (default 15)
#     --dir DIR     where the file goes (default /dev/shm, a tmpfs; it needs 3x the size free)
#     --build DIR   the build directory holding app/pqkem (default $PQKEM_BUILD_DIR, else
#                   build/); the tool is built there (Release) if it is missing
#
# age (Debian's package) is installed with the build's packages if it is missing
# (scripts/deps.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PQKEM_BUILD_DIR:-$ROOT/build}"
SIZE=1024 ROUNDS=15 DIR=/dev/shm

usage() { sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}"; }
die() { echo "age-compare: $*" >&2; exit 1; }
positive() { [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "$1 needs a positive integer"; }

while (($# > 0)); do
  case "$1" in
    --size) positive "$@"; SIZE="$2"; shift 2 ;;
    --rounds) positive "$@"; ROUNDS="$2"; shift 2 ;;
    --dir) [[ $# -ge 2 && -d "$2" ]] || die "--dir needs a directory"; DIR="$2"; shift 2 ;;
    --build) [[ $# -ge 2 ]] || die "--build needs a directory"; BUILD="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done

# shellcheck source=deps.sh
source "$ROOT/scripts/deps.sh"
pqkem_install_deps age

PQKEM="$(pqkem_tool "$ROOT" "$BUILD")"

WORK="$(mktemp -d "$DIR/age-compare.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
head -c "$((SIZE << 20))" /dev/urandom >plain
"$PQKEM" keygen -a ML-KEM-768 --pk pq.pk --sk pq.sk
age-keygen -o age.key 2>/dev/null
RECIPIENT="$(age-keygen -y age.key)"
"$PQKEM" seal --pk pq.pk --in plain --out plain.pq
age -r "$RECIPIENT" -o plain.age plain
"$PQKEM" open --sk pq.sk --in plain.pq --out - | cmp - plain || die "pqkem's round trip differs"
age -d -i age.key plain.age | cmp - plain || die "age's round trip differs"

NAMES=("pqkem seal" "age encrypt" "pqkem open" "age decrypt")
run() {
  case "$1" in
    0) "$PQKEM" seal --pk pq.pk --in plain --out /dev/null ;;
    1) age -r "$RECIPIENT" -o /dev/null plain ;;
    2) "$PQKEM" open --sk pq.sk --in plain.pq --out /dev/null ;;
    3) age -d -i age.key -o /dev/null plain.age ;;
  esac
}
T=()  # T[round * 4 + command]: microseconds
for ((round = 0; round <= ROUNDS; round++)); do
  for ((j = 0; j < 4; j++)); do
    c=$(((round + j) % 4))
    t0=$EPOCHREALTIME
    run "$c" || die "failed: ${NAMES[c]}"
    t1=$EPOCHREALTIME
    ((round == 0)) || T[(round - 1) * 4 + c]=$((10#${t1//[.,]/} - 10#${t0//[.,]/}))
  done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
column() { for ((r = 0; r < ROUNDS; r++)); do echo "${T[r * 4 + $1]}"; done; }
ratios() { for ((r = 0; r < ROUNDS; r++)); do awk -v a="${T[r * 4 + $1]}" -v b="${T[r * 4 + $2]}" 'BEGIN { print a / b }'; done; }

cpu="$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1)"
echo "host CPU: ${cpu:-unknown} ($(nproc) CPUs online); $(df --output=fstype "$WORK" | tail -n1) at $DIR"
echo "pqkem: $("$PQKEM" --version | head -n1); $(age --version | sed 's/^/age /')"
echo "file: $SIZE MiB of random bytes; output /dev/null; $ROUNDS timed rounds, interleaved"
echo
echo "| command | median wall (s) | pqkem / age (median of the rounds' ratios) |"
echo "|---|---:|---:|"
for c in 0 1 2 3; do
  med="$(column "$c" | median | awk '{ printf "%.3f", $1 / 1e6 }')"
  ratio="-"
  ((c % 2 == 0)) && ratio="$(ratios "$c" $((c + 1)) | median | awk '{ printf "%.2f", $1 }')"
  echo "| ${NAMES[c]} | $med | $ratio |"
done
