#!/usr/bin/env bash
# Benchmark (not a test): what one pqkem operation costs as a whole process, as a shell script
# pays for it. For keygen, encaps and decaps with ML-KEM-768 (binary files), ML-KEM-768 (PEM
# keys), ntruhps2048509 and X-Wing (binary files), and seal and open of a 1 KiB file with the
# ML-KEM-768 key (the default suite), it prints a markdown table of
#   - the instructions of the whole process, by valgrind --tool=callgrind (one run a row), and
#   - the median wall time of N runs, taken in bash with $EPOCHREALTIME around the command
#     (fork, exec, loading, the work and the fsyncs; each run writes fresh names, no --force).
# The runs go in rounds, each running every row once (starting one row further on each round),
# so that a burst of load on the host hits every row alike.
# A floor row sets beside them scripts/process-floor.c, built here with cc -O2 -static: the
# file work of encaps (read 1184 bytes, getrandom, write 1088 + 32 bytes as pqkem does, fsyncs)
# with no cryptography. With OpenSSL 3.5 or later on PATH, OpenSSL's ML-KEM-768 genpkey and
# pkeyutl -encap/-decap run in the same rounds and a column gives pqkem's wall time over theirs.
#
#   scripts/process-cost.sh [--runs N] [--build DIR] [--help]
#     --runs N      timed runs a row (default 200)
#     --build DIR   the build directory holding app/pqkem (default $PQKEM_BUILD_DIR, else
#                   build/); the tool is built there (Release) if it is missing
#
# The wall times include fsync, so they depend on the file system of the temporary directory
# (mktemp -d; set TMPDIR to choose), which the output names.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${PQKEM_BUILD_DIR:-$ROOT/build}"
RUNS=200

usage() { sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "${BASH_SOURCE[0]}"; }
die() { echo "process-cost: $*" >&2; exit 1; }

while (($# > 0)); do
  case "$1" in
    --runs) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "--runs needs a positive integer"
            RUNS="$2"; shift 2 ;;
    --build) [[ $# -ge 2 ]] || die "--build needs a directory"
             BUILD="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done

# shellcheck source=deps.sh
source "$ROOT/scripts/deps.sh"
pqkem_install_deps

PQKEM="$(pqkem_tool "$ROOT" "$BUILD")"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
IN="$WORK/in"    # fixed inputs: keys and ciphertexts, made once
OUT="$WORK/out"  # the timed runs write here (their working directory); emptied each round
CG="$WORK/cg"    # callgrind's output files and logs
mkdir "$IN" "$OUT" "$CG"

# --- the rows: tool, operation, set, format, and (for pqkem) the input prefix in $IN ---
R_TOOL=() R_OP=() R_SET=() R_FMT=() R_KEY=()
add_row() { R_TOOL+=("$1"); R_OP+=("$2"); R_SET+=("$3"); R_FMT+=("$4"); R_KEY+=("$5"); }

# Inputs for encaps and decaps: one key pair and one ciphertext a (set, format).
for spec in "ML-KEM-768 bin mlkem-bin" "ML-KEM-768 pem mlkem-pem" "ntruhps2048509 bin ntru-bin" "X-Wing bin xwing-bin"; do
  read -r alg fmt key <<<"$spec"
  ext=""; [[ $fmt == pem ]] && ext=.pem
  "$PQKEM" keygen -a "$alg" --pk "$IN/$key.pk$ext" --sk "$IN/$key.sk$ext" --format "$fmt"
  "$PQKEM" encaps -a "$alg" --pk "$IN/$key.pk$ext" --ct "$IN/$key.ct" --ss "$IN/$key.ss"
  for op in keygen encaps decaps; do add_row pqkem "$op" "$alg" "$fmt" "$key"; done
done

# seal and open of a 1 KiB file with the ML-KEM-768 key (the default suite).
head -c 1024 /dev/urandom >"$IN/msg"
"$PQKEM" seal --pk "$IN/mlkem-bin.pk" --in "$IN/msg" --out "$IN/mlkem-bin.sealed"
add_row pqkem seal ML-KEM-768 bin mlkem-bin
add_row pqkem open ML-KEM-768 bin mlkem-bin

FLOOR="$WORK/process-floor"
if cc -O2 -static -o "$FLOOR" "$ROOT/scripts/process-floor.c" 2>"$WORK/cc.log"; then
  add_row floor encaps "-" bin mlkem-bin
else
  FLOOR=""
fi

OPENSSL=no
if command -v openssl >/dev/null; then
  ossl_version="$(openssl version | awk '{ print $1, $2 }')"
  if [[ "$ossl_version" =~ ^OpenSSL\ ([0-9]+)\.([0-9]+) ]] &&
     ((BASH_REMATCH[1] > 3 || (BASH_REMATCH[1] == 3 && BASH_REMATCH[2] >= 5))); then
    OPENSSL=yes
    openssl genpkey -algorithm ML-KEM-768 -out "$IN/ossl.key.pem"
    openssl pkey -in "$IN/ossl.key.pem" -pubout -out "$IN/ossl.pub.pem"
    openssl pkeyutl -encap -inkey "$IN/ossl.pub.pem" -pubin -out "$IN/ossl.ct" -secret "$IN/ossl.ss"
    for op in keygen encaps decaps; do add_row openssl "$op" ML-KEM-768 pem ossl; done
  fi
else
  ossl_version="no openssl on PATH"
fi
NROWS=${#R_OP[@]}

# row_cmd ROW TAG: sets CMD to row ROW's command, its outputs named TAG.* (in the working
# directory, $OUT for the timed runs).
row_cmd() {
  local r="$1" t="$2" k="$IN/${R_KEY[$1]}" ext=""
  [[ ${R_FMT[$r]} == pem ]] && ext=.pem
  case "${R_TOOL[$r]}:${R_OP[$r]}" in
    pqkem:keygen) CMD=("$PQKEM" keygen -a "${R_SET[$r]}" --pk "$t.pk$ext" --sk "$t.sk$ext")
                  [[ -z $ext ]] || CMD+=(--format pem) ;;
    pqkem:encaps) CMD=("$PQKEM" encaps -a "${R_SET[$r]}" --pk "$k.pk$ext" --ct "$t.ct" --ss "$t.ss") ;;
    pqkem:decaps) CMD=("$PQKEM" decaps -a "${R_SET[$r]}" --sk "$k.sk$ext" --ct "$k.ct" --ss "$t.ss") ;;
    pqkem:seal) CMD=("$PQKEM" seal --pk "$k.pk" --in "$IN/msg" --out "$t.sealed") ;;
    pqkem:open) CMD=("$PQKEM" open --sk "$k.sk" --in "$k.sealed" --out "$t.msg") ;;
    floor:encaps) CMD=("$FLOOR" "$k.pk" "$t.ct" "$t.ss") ;;
    openssl:keygen) CMD=(openssl genpkey -algorithm ML-KEM-768 -out "$t.pem") ;;
    openssl:encaps) CMD=(openssl pkeyutl -encap -inkey "$k.pub.pem" -pubin -out "$t.ct"
                         -secret "$t.ss") ;;
    openssl:decaps) CMD=(openssl pkeyutl -decap -inkey "$k.key.pem" -in "$k.ct" -out "$t.ss") ;;
  esac
}

# --- instructions: one callgrind run a row ---
INSTR=()
cd "$CG"
for ((r = 0; r < NROWS; r++)); do
  row_cmd "$r" "cg$r"
  valgrind --tool=callgrind --callgrind-out-file="$CG/cg$r.out" "${CMD[@]}" 2>"$CG/cg$r.log" ||
    die "callgrind run failed: ${CMD[*]} (see below)"$'\n'"$(cat "$CG/cg$r.log")"
  INSTR[r]="$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$CG/cg$r.log")"
  [[ -n "${INSTR[r]}" ]] || die "no Collected line from callgrind for: ${CMD[*]}"
done

# --- wall time: RUNS rounds (after one untimed warm-up round), each row once a round ---
TIMES=()  # per row, the microseconds of its runs, space-separated
cd "$OUT"
for ((round = 0; round <= RUNS; round++)); do
  for ((j = 0; j < NROWS; j++)); do
    r=$(((round + j) % NROWS))
    row_cmd "$r" "r${round}x$r"
    t0=$EPOCHREALTIME
    "${CMD[@]}" || die "failed: ${CMD[*]}"
    t1=$EPOCHREALTIME
    # $EPOCHREALTIME has six decimals (its point follows the locale): strip it for microseconds.
    ((round == 0)) || TIMES[r]+=" $((10#${t1//[.,]/} - 10#${t0//[.,]/}))"
  done
  rm -f -- "$OUT"/*
done

# median_ms ROW: the median of row ROW's times, in milliseconds with 2 decimals.
median_ms() {
  tr ' ' '\n' <<<"${TIMES[$1]}" | sed '/^$/d' | sort -n |
    awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
                              printf "%.2f", m / 1000 }'
}
MED=()
for ((r = 0; r < NROWS; r++)); do MED[r]="$(median_ms "$r")"; done

# --- output ---
cpu="$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1)"
fs="$(df --output=fstype "$OUT" | tail -n1)"
echo "host CPU: ${cpu:-unknown} ($(nproc) CPUs online)"
echo "pqkem: $PQKEM ($("$PQKEM" --version | head -n1))"
echo "N: $RUNS timed runs a row, in interleaved rounds after one warm-up round; temp dir on $fs"
if [[ -z "$FLOOR" ]]; then
  echo "floor: not measured, cc -O2 -static failed: $(head -n1 "$WORK/cc.log")"
fi
if [[ $OPENSSL == no ]]; then
  echo "OpenSSL 3.5 is not available (openssl version: $ossl_version), so only the instruction counts and the floor are the comparison."
fi
echo

# ossl_row OP: the OpenSSL row of operation OP.
ossl_row() {
  local r
  for ((r = 0; r < NROWS; r++)); do
    if [[ ${R_TOOL[$r]} == openssl && ${R_OP[$r]} == "$1" ]]; then echo "$r"; return 0; fi
  done
  return 1
}

head="| operation | set | format | instructions | median wall (ms) |"
rule="|---|---|---|---:|---:|"
[[ $OPENSSL == yes ]] && head+=" wall pqkem/openssl |" rule+="---:|"
echo "$head"
echo "$rule"
for op in keygen encaps decaps seal open floor; do  # grouped by operation, the floor last
  for ((r = 0; r < NROWS; r++)); do
    if [[ ${R_TOOL[$r]} == floor ]]; then [[ $op == floor ]] || continue
    else [[ ${R_OP[$r]} == "$op" ]] || continue; fi
    case "${R_TOOL[$r]}" in
      pqkem) name="pqkem ${R_OP[$r]}" ;;
      floor) name="floor (encaps' file work, no crypto)" ;;
      openssl) case "$op" in keygen) name="openssl genpkey" ;;
                             encaps) name="openssl pkeyutl -encap" ;;
                             decaps) name="openssl pkeyutl -decap" ;; esac ;;
    esac
    line="| $name | ${R_SET[$r]} | ${R_FMT[$r]} | $(awk -v n="${INSTR[r]}" 'BEGIN { printf "%.2f M", n / 1e6 }') | ${MED[r]} |"
    if [[ $OPENSSL == yes ]]; then
      if [[ ${R_TOOL[$r]} == pqkem && ${R_SET[$r]} == ML-KEM-768 ]]; then
        o="$(ossl_row "$op")"
        line+=" $(awk -v a="${MED[r]}" -v b="${MED[o]}" 'BEGIN { printf "%.2f", a / b }') |"
      else
        line+=" - |"
      fi
    fi
    echo "$line"
  done
done
