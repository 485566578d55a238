#!/usr/bin/env bash
# check_avx512_selftest.sh OBJDUMP CANARY.a ALLOWLIST
#
# The proof of check_avx512_ct.sh (ct.avx512_objects.selftest): run on the canary library
# (ct_canary_avx512.cpp, compiled with the AVX-512 flags) it must fail, flag the division and
# every leaky function, each leaky_*_loop function for the reason its loop breaks the
# counted-loop rule (branch_scan.awk), and accept the two nested counted loops of
# counted_loops_avx512. The canary's functions are built to give these results at -O2 (the
# RelWithDebInfo build) and -O3 (Release).
set -uo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
out="$(bash "$here/check_avx512_ct.sh" "$@")"
rc=$?
printf '%s\n' "$out"
echo "--"

status=0
fail() {
  echo "SELFTEST FAIL: $*"
  status=1
}
# The indented reason lines under the FAIL line of function $1.
reasons() {
  awk -v f="$1" '/^FAIL: / { cur = index($0, ": " f ", which is not on the allowlist") > 0; next }
                 /^  / && cur' <<<"$out"
}
# expect FUNCTION ERE: FUNCTION is flagged, and one of its reasons matches ERE.
expect() {
  local r
  r="$(reasons "$1")"
  if [[ -z "$r" ]]; then
    fail "$1 was not flagged"
  elif ! grep -Eq -- "$2" <<<"$r"; then
    fail "$1 was flagged, but not for the expected reason /$2/"
  fi
}

((rc == 1)) || fail "the check exited $rc on the canary library, not 1"
grep -q '^  ct_canary_avx512\.cpp\.o: leaky_divide_avx512: ' <<<"$out" ||
  fail "the division in leaky_divide_avx512 was not flagged"
expect leaky_select_avx512 '.'
expect leaky_until_loop_avx512 'its flags come from `kortest'
expect leaky_bound_loop_avx512 'has no constant operand'
expect leaky_start_loop_avx512 'starts at the run-time value'
expect leaky_reload_loop_avx512 'counter %rax is also set by `vmovd'
expect leaky_entry_loop_avx512 'enters the loop from outside'
expect leaky_flags_loop_avx512 'past the compare that sets its flags'
if grep -q ': counted_loops_avx512, which is not on the allowlist' <<<"$out"; then
  fail "counted_loops_avx512 (two nested counted loops) was refused"
fi
n="$(grep -c '^counted loop: ct_canary_avx512\.cpp\.o: counted_loops_avx512: ' <<<"$out")"
((n == 2)) || fail "counted_loops_avx512: $n counted-loop back-edge(s) accepted, not 2"

if ((status == 0)); then
  echo "ok: the check refuses the division and the 7 leaky functions, each leaky loop for its own reason, and accepts the counted loops"
fi
exit $status
