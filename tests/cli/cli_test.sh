#!/usr/bin/env bash
# CLI tests for pqkem: run the built binary and check exit codes, stderr, output bytes, files
# left behind (none on failure, not even temporary files) and file modes.
#
#   cli_test.sh PQKEM_BINARY VECTORS_DIR GROUP
#
# GROUP: help roundtrip stdio vectors kat usage failures outputs engine keyfile hostile (or "all").
# The hostile group also needs PQKEM_TEST_HOOKS_BINARY: the pqkem_test_hooks binary.
# Needs bash, coreutils, grep, sed, awk, find and (for the terminal test) script(1) from
# bsdutils, all present on Debian 12, and strace (scripts/deps.sh) to count fsync calls. No
# python3, no jq.
PQ=${1:?usage: cli_test.sh PQKEM_BINARY VECTORS_DIR GROUP}
VEC=${2:?missing VECTORS_DIR}
GROUP=${3:-all}

# shellcheck source=cli_lib.sh
source "${BASH_SOURCE[0]%/*}/cli_lib.sh"

# Sizes from FIPS 203 (independent of the binary under test), used by the groups.
declare -A PK=([ML-KEM-512]=800 [ML-KEM-768]=1184 [ML-KEM-1024]=1568)
declare -A SK=([ML-KEM-512]=1632 [ML-KEM-768]=2400 [ML-KEM-1024]=3168)
declare -A CT=([ML-KEM-512]=768 [ML-KEM-768]=1088 [ML-KEM-1024]=1568)
ALGS=(ML-KEM-512 ML-KEM-768 ML-KEM-1024)
# NTRU round 3 (sizes from the submission's api.h files).
PK+=([ntruhps2048509]=699 [ntruhps2048677]=930 [ntruhps4096821]=1230 [ntruhrss701]=1138)
SK+=([ntruhps2048509]=935 [ntruhps2048677]=1234 [ntruhps4096821]=1590 [ntruhrss701]=1450)
CT+=([ntruhps2048509]=699 [ntruhps2048677]=930 [ntruhps4096821]=1230 [ntruhrss701]=1138)
NTRU_ALGS=(ntruhps2048509 ntruhps2048677 ntruhps4096821 ntruhrss701)

# The groups, one file per concern (each defines group_NAME for its groups).
for f in commands vectors errors outputs engine keyfile hostile; do
  # shellcheck source=/dev/null
  source "${BASH_SOURCE[0]%/*}/groups/$f.sh" || { echo "FATAL: cannot read groups/$f.sh" >&2; exit 1; }
done

case $GROUP in
  all) for g in help roundtrip stdio vectors kat usage failures outputs engine keyfile hostile; do "group_$g"; done ;;
  help | roundtrip | stdio | vectors | kat | usage | failures | outputs | engine | keyfile | hostile) "group_$GROUP" ;;
  *) echo "unknown group '$GROUP'" >&2; exit 1 ;;
esac

finish "$GROUP"
