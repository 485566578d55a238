#!/usr/bin/env bash
# check_avx512_ct.sh OBJDUMP LIBRARY.a ALLOWLIST [REQUIRED_MEMBER...]
#
# Constant time of the AVX-512 kernels without valgrind (valgrind 3.19 cannot execute AVX-512):
# the object code of every *_avx512.cpp.o member of LIBRARY.a is disassembled and must contain
#  - no division and no square root instruction (integer div/idiv, any FP div or sqrt): their
#    time depends on the operands;
#  - no conditional branch (jcc, jrcxz, loop*) in a function that is not on ALLOWLIST, except
#    the back-edges of counted loops: a counter that starts at a constant, changes only by
#    constant steps and is compared with a constant (the exact rule, and why it is sound, is in
#    branch_scan.awk). Such a branch goes the same way on every run; whether the compiler
#    leaves one depends on the optimization level (-O2 keeps a 256-coefficient loop that -O3
#    unrolls). Any other branch (on kortest, vptest, vpmovmskb, a GPR loaded from vector data,
#    a run-time bound ...) needs the allowlist. The allowlist names the functions that branch
#    on public data only, each with the reason: "ERE | why", the ERE matched against the
#    demangled function name; or "@ERE | why", matched against the object file's name, for
#    whole files.
# The kernels are straight-line, data-oblivious code otherwise. REQUIRED_MEMBERs must be present,
# so the check cannot pass on a library where the files were renamed or left out. Every branch
# refused is printed with the reason the counted-loop rule refused it; every counted loop
# accepted outside the allowlist is printed too ("counted loop:").
set -euo pipefail
objdump="$1" lib="$2" allowlist="$3"
shift 3
required=("$@")

patterns=()
member_patterns=()
status=0
while IFS= read -r line; do
  [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
  if [[ "$line" != *"|"* || -z "$(sed 's/^[^|]*|[[:space:]]*//' <<<"$line")" ]]; then
    echo "FAIL: allowlist entry without a reason (want 'ERE | why'): $line"
    status=1
    continue
  fi
  pat="$(sed 's/[[:space:]]*|.*$//' <<<"$line")"
  if [[ "$pat" == @* ]]; then member_patterns+=("${pat#@}"); else patterns+=("$pat"); fi
done <"$allowlist"

listing="$(mktemp)"
trap 'rm -f "$listing"' EXIT
"$objdump" -d -C --no-show-raw-insn "$lib" >"$listing"

# "member<TAB>function<TAB>kind<TAB>instruction[<TAB>note]" for every instruction of interest in
# the AVX-512 members; kind: divsqrt, branch (with why it is not a counted-loop back-edge) or
# loop (a counted-loop back-edge, with its counter).
hits="$(awk -f "$(dirname "${BASH_SOURCE[0]}")/branch_scan.awk" "$listing")"
members="$(sed -n 's/^\([^ ]*_avx512\.cpp\.o\):[[:space:]]*file format.*/\1/p' "$listing" | sort -u)"

for r in "${required[@]}"; do
  if ! grep -qx -- "$r" <<<"$members"; then
    echo "FAIL: $r is not in $(basename "$lib") (renamed? update the test's required list)"
    status=1
  fi
done
if [[ -z "$members" ]]; then
  echo "FAIL: no *_avx512.cpp.o member in $(basename "$lib")"
  exit 1
fi

divs="$(awk -F'\t' '$3 == "divsqrt"' <<<"$hits")"
if [[ -n "$divs" ]]; then
  echo "FAIL: division or square root in the AVX-512 kernels:"
  awk -F'\t' '{ printf "  %s: %s: %s\n", $1, $2, $4 }' <<<"$divs"
  status=1
fi

allowed() {
  local member="$2" fn="$1" p
  for p in "${member_patterns[@]}"; do
    if grep -Eq -- "$p" <<<"$member"; then return 0; fi
  done
  for p in "${patterns[@]}"; do
    if grep -Eq -- "$p" <<<"$fn"; then return 0; fi
  done
  return 1
}
# Functions with a conditional branch that is not a counted-loop back-edge.
branchy="$(awk -F'\t' '$3 == "branch" { print $1 "\t" $2 }' <<<"$hits" | sort | uniq -c | sed 's/^ *//')"
nfun=0 nallowed=0
declare -A refused=()
while IFS= read -r row; do
  [[ -z "$row" ]] && continue
  count="${row%% *}" rest="${row#* }"
  member="${rest%%$'\t'*}" fn="${rest#*$'\t'}"
  nfun=$((nfun + 1))
  if allowed "$fn" "$member"; then
    nallowed=$((nallowed + 1))
  else
    refused["$member"$'\t'"$fn"]=1
    echo "FAIL: $count conditional branch(es) in $member: $fn, which is not on the allowlist"
    awk -F'\t' -v m="$member" -v f="$fn" '$1 == m && $2 == f && $3 == "branch" { print "  " $4 ": " $5 }' <<<"$hits"
    status=1
  fi
done <<<"$branchy"

# Counted loops outside the allowlist, accepted by the rule: listed, so that what the rule let
# through can be read (the functions that also failed above are left out).
nloops=0
while IFS=$'\t' read -r member fn kind insn note; do
  [[ "$kind" == loop ]] || continue
  [[ -n "${refused["$member"$'\t'"$fn"]:-}" ]] && continue
  allowed "$fn" "$member" && continue
  nloops=$((nloops + 1))
  echo "counted loop: $member: $fn: $insn: $note"
done <<<"$hits"

if ((status == 0)); then
  echo "ok: $(wc -l <<<"$members") AVX-512 object file(s): no division or square root; $nfun function(s) with conditional branches, all on the allowlist ($(basename "$allowlist")); $nloops counted-loop back-edge(s) elsewhere"
fi
exit $status
