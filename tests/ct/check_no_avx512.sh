#!/usr/bin/env bash
# check_no_avx512.sh OBJDUMP BINARY: fails if BINARY contains an AVX-512 instruction (any use
# of a zmm register or of an opmask register k0..k7), which valgrind 3.19 cannot execute.
set -euo pipefail
objdump="$1" bin="$2"
hits="$("$objdump" -d --no-show-raw-insn "$bin" | grep -E '%zmm[0-9]|%k[0-7]\b|\{%k[0-7]\}' | head -n 20 || true)"
if [[ -n "$hits" ]]; then
  echo "FAIL: AVX-512 instructions in $bin:"
  echo "$hits"
  exit 1
fi
echo "ok: no AVX-512 instruction in $(basename "$bin")"
