#!/usr/bin/env bash
# `pqkem bench` in a cross build, run under the emulator (tests/cli/CMakeLists.txt registers this
# test only there; the C++ Bench tests, which time every algorithm many times, are left out under
# emulation). The operations table of ML-KEM-768 and the NTT plans table must print, on the only
# implementation there is (portable), and name their clock: off x86 that is nanoseconds of
# clock_gettime, never rdtsc ticks. One round of one call per row: an emulator's figures mean
# nothing, the tables and their labels do.
#
#   bench_emulated_test.sh PQKEM ARCH     (PQKEM: the emulator's wrapper of the tool)
PQ=${1:?usage: bench_emulated_test.sh PQKEM ARCH}
ARCH=${2:?missing ARCH}

# shellcheck source=cli_lib.sh
source "${BASH_SOURCE[0]%/*}/cli_lib.sh"

CLOCK_LINE="^pqkem bench: clock_gettime(CLOCK_MONOTONIC) ns per call"

RUN_STDOUT=$T/ops run 0 "" "$PQ" bench -a ML-KEM-768 --rounds 1 --iterations 1
for op in keypair encaps decaps "seal 1 KiB" "open 1 KiB" "seal 64 MiB" "open 64 MiB"; do
  check "bench -a ML-KEM-768: the $op row, portable" grep -Eq "^ML-KEM-768 $op +portable +[0-9,]+ " "$T/ops"
done
# A 64 MiB seal takes seconds under the emulator: its ops/s must read as such, not as 0.
check "the 64 MiB rows' ops/s are not 0 ($(awk '/ 64 MiB /{printf "%s ", $(NF-1)}' "$T/ops"))" \
  test "$(awk '/ 64 MiB / && $(NF-1) ~ /^[0-9.]+$/ && $(NF-1) + 0 > 0' "$T/ops" | wc -l)" = 2
check "the table counts nanoseconds of clock_gettime" grep -q "$CLOCK_LINE" "$T/ops"
check "the table names the CPU's architecture ($ARCH)" grep -q "this CPU, $ARCH, has no rdtsc" "$T/ops"
check "the table never says ticks or rdtsc but there" test "$(grep -ci 'tick\|rdtsc' "$T/ops")" = 1

# The JSON of the NTT plans (the same writer as the operations'; a second run of those would
# double this test's time under the emulator).
RUN_STDOUT=$T/plans.json run 0 "" "$PQ" bench --ntt-plans --rounds 1 --iterations 1 --json
check "bench --json: every entry in ns of clock_gettime" \
  test "$(grep -c '"unit": "ns", "clock": "clock_gettime(CLOCK_MONOTONIC)"' "$T/plans.json")" = \
  "$(grep -c '"name": ' "$T/plans.json")"
check "bench --json: 88 entries" test "$(grep -c '"name": ' "$T/plans.json")" = 88

RUN_STDOUT=$T/help run 0 "" "$PQ" bench --help
check "bench --help: names nanoseconds of clock_gettime" grep -q "in nanoseconds (clock_gettime)" "$T/help"
check "bench --help: says nothing of rdtsc ticks" test "$(grep -c 'rdtsc ticks\|rdtsc reads' "$T/help")" = 0

RUN_STDOUT=$T/plans run 0 "" "$PQ" bench --ntt-plans --rounds 1 --iterations 1
for way in forward inverse; do
  check "bench --ntt-plans: 44 $way plans" test "$(grep -Ec "^ML-KEM NTT plans, $way [123]+ +portable " "$T/plans")" = 44
done
check "bench --ntt-plans: names the clock" grep -q "$CLOCK_LINE" "$T/plans"

((FAILED)) && { echo "the tables:"; cat "$T/ops" "$T/plans"; } >&2
finish bench_emulated
