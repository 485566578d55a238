#!/usr/bin/env bash
# check_avx512_ct.sh OBJDUMP LIBRARY.a ALLOWLIST [REQUIRED_MEMBER...]
#
# Constant time of the AVX-512 kernels without valgrind (valgrind 3.19 cannot execute AVX-512):
# the object code of every *_avx512.cpp.o member of LIBRARY.a is disassembled and must contain
#  - no division and no square root instruction (integer div/idiv, any FP div or sqrt): their
#    time depends on the operands;
#  - no conditional branch (jcc, jrcxz, loop*) in a function that is not on ALLOWLIST. The
#    allowlist names the functions that branch on public data or loop counters only, each with
#    the reason: "ERE | why", the ERE matched against the demangled function name; or
#    "@ERE | why", matched against the object file's name, for whole files.
# The kernels are straight-line, data-oblivious code otherwise. REQUIRED_MEMBERs must be present,
# so the check cannot pass on a library where the files were renamed or left out.
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

# "member<TAB>function<TAB>kind<TAB>instruction" for every instruction of interest in the
# AVX-512 members.
hits="$(awk '
  /^[^ ]+\.o:[ \t]+file format/ { member = $1; sub(/:$/, "", member); next }
  /^[0-9a-f]+ <.*>:$/ { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); next }
  member !~ /_avx512\.cpp\.o$/ { next }
  {
    n = split($0, f, "\t")
    if (n < 2) next
    split(f[2], w, " ")
    op = w[1]
    if (op ~ /^(i?div[bwlq]?|v?div[ps][sd]|v?sqrt[ps][sd]|v?rsqrt.*|vrcp.*)$/) print member "\t" fn "\tdivsqrt\t" f[2]
    else if (op ~ /^(j[a-z]+|loop[a-z]*)$/ && op != "jmp" && op != "jmpq") print member "\t" fn "\tbranch\t" f[2]
  }' "$listing")"
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
branchy="$(awk -F'\t' '$3 == "branch" { print $1 "\t" $2 }' <<<"$hits" | sort | uniq -c | sed 's/^ *//')"
nfun=0 nallowed=0
while IFS= read -r row; do
  [[ -z "$row" ]] && continue
  count="${row%% *}" rest="${row#* }"
  member="${rest%%$'\t'*}" fn="${rest#*$'\t'}"
  nfun=$((nfun + 1))
  if allowed "$fn" "$member"; then
    nallowed=$((nallowed + 1))
  else
    echo "FAIL: $count conditional branch(es) in $member: $fn, which is not on the allowlist"
    status=1
  fi
done <<<"$branchy"

if ((status == 0)); then
  echo "ok: $(wc -l <<<"$members") AVX-512 object file(s): no division or square root; $nfun function(s) with conditional branches, all on the allowlist ($(basename "$allowlist"))"
fi
exit $status
