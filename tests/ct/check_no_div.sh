#!/usr/bin/env bash
# check_no_div.sh OBJDUMP LIBRARY.a
#
# KyberSlash check: no division instruction in the object code that handles secret data.
# x86 `div`/`idiv` take a data-dependent number of cycles on most CPUs, so a division whose
# operand depends on a secret (as in Compress of the reference Kyber code, "KyberSlash") leaks
# it; floating-point divisions (divss, divsd, vdivps, ...) are variable-time too. Division by
# a constant is compiled to a multiplication, so only real `div` instructions are found here,
# and none may remain in code that sees secrets.
#
# Granularity: every object file (translation unit) of the shipped library is checked, whole
# (all its functions, including the inline and template code instantiated in it: compress,
# decompress, Barrett/Montgomery reductions, mod 3, the samplers), except the translation units
# listed in PUBLIC_ONLY below, which never touch a secret. New files are checked by default.
# Files that must be present (so the check cannot silently pass on an empty or renamed
# library) are listed in REQUIRED.
set -euo pipefail
objdump="$1" lib="$2"

# Translation units that handle public data only (may divide): error messages, the KAT DRBG
# (known test seeds), CPU detection and dispatch, the DER TLV reader (lengths and tags of the
# public structure; the key bytes themselves are copied, not computed on).
PUBLIC_ONLY=(error.cpp.o kat.cpp.o cpu.cpp.o dispatch.cpp.o der.cpp.o)
# Translation units that handle secrets and must be in the library.
REQUIRED=(secret.cpp.o hash.cpp.o rng.cpp.o scheme.cpp.o
          ntt.cpp.o sampling.cpp.o encoding.cpp.o mlkem_kpke.cpp.o mlkem_kem.cpp.o hybrid.cpp.o
          mul.cpp.o poly.cpp.o inv.cpp.o pack.cpp.o sort.cpp.o sample.cpp.o ntru_owcpa.cpp.o ntru_kem.cpp.o
          keyfile.cpp.o oids.cpp.o pem.cpp.o pkcs.cpp.o)

listing="$(mktemp)"
trap 'rm -f "$listing"' EXIT
"$objdump" -d -C --no-show-raw-insn "$lib" >"$listing"

# Members present, and per member the division instructions found: "member<TAB>function<TAB>insn".
members="$(sed -n 's/^\([^ ]*\.o\):[[:space:]]*file format.*/\1/p' "$listing" | sort -u)"
hits="$(awk '
  /^[^ ]+\.o:[ \t]+file format/ { member = $1; sub(/:$/, "", member); next }
  /^[0-9a-f]+ <.*>:$/ { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); next }
  {
    n = split($0, f, "\t")
    if (n < 2) next
    split(f[2], w, " ")
    if (w[1] ~ /^(i?div[bwlq]?|v?div[ps][sd])$/) print member "\t" fn "\t" f[2]
  }' "$listing")"

status=0
for r in "${REQUIRED[@]}"; do
  if ! grep -qx -- "$r" <<<"$members"; then
    echo "FAIL: $r is not in $lib (renamed? update REQUIRED in $0)"
    status=1
  fi
done

checked=0 public=0
while read -r m; do
  [[ -z "$m" ]] && continue
  is_public=0
  for p in "${PUBLIC_ONLY[@]}"; do [[ "$m" == "$p" ]] && is_public=1; done
  mine="$(awk -F'\t' -v m="$m" '$1 == m' <<<"$hits")"
  if ((is_public)); then
    public=$((public + 1))
    [[ -n "$mine" ]] && echo "note: division in public-data unit $m (allowed): $(wc -l <<<"$mine") instruction(s)"
    continue
  fi
  checked=$((checked + 1))
  if [[ -n "$mine" ]]; then
    echo "FAIL: division instruction in $m, which handles secret data:"
    awk -F'\t' '{ printf "  %s: %s\n", $2, $3 }' <<<"$mine"
    status=1
  fi
done <<<"$members"

if ((status == 0)); then
  echo "ok: no div/idiv/FP division in the $checked secret-handling object files of $(basename "$lib") ($public public-only files not checked)"
fi
exit $status
