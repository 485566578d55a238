#!/usr/bin/env bash
# run_fuzzer.sh FUZZER SEED_CORPUS WORK_DIR SECONDS [extra libFuzzer options...]
# Runs one libFuzzer target for SECONDS from its seed corpus. New inputs go to
# WORK_DIR/corpus (the committed seeds are never written), crashes to WORK_DIR/crash-*. Fails
# if the fuzzer finds anything (crash, leak, timeout, sanitizer report) or the seeds are missing.
set -euo pipefail
fuzzer="$1" seeds="$2" work="$3" seconds="$4"
shift 4
if [[ ! -d "$seeds" ]] || [[ -z "$(ls -A "$seeds")" ]]; then
  echo "FAIL: no seed corpus in $seeds (scripts/fuzz.sh --seeds writes it)"
  exit 1
fi
mkdir -p "$work/corpus"
log="$work/last-run.log"
set +e
"$fuzzer" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -max_len=16384 -print_final_stats=1 \
  -artifact_prefix="$work/" "$@" "$work/corpus" "$seeds" >"$log" 2>&1
rc=$?
set -e
grep -E '^#[0-9]+.*(INITED|DONE)|stat::number_of_executed_units|stat::peak_rss|cov: ' "$log" | tail -n 4
if [[ $rc -ne 0 ]]; then
  echo "FAIL: $(basename "$fuzzer") exited with $rc; the report:"
  tail -n 60 "$log"
  exit 1
fi
echo "ok: $(basename "$fuzzer") ran ${seconds}s without a finding (log: $log)"
