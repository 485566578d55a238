#!/usr/bin/env bash
# The pqkem tool needs nothing from the dynamic loader but libc: libstdc++, libgcc and libcrypto
# are linked in, fmt is header-only (top-level CMakeLists.txt says why).
#
#   linkage_test.sh PQKEM_BINARY LINKAGE WHY
#
# LINKAGE is how the build chose to link the tool (static or dynamic), WHY its reason. A dynamic
# build is skipped (exit 77) with the reason: no static libraries, or a sanitizer build.
set -u
PQ=${1:?usage: linkage_test.sh PQKEM_BINARY LINKAGE WHY}
LINKAGE=${2:?missing LINKAGE}
WHY=${3:-}

if [[ $LINKAGE != static ]]; then
  echo "SKIP: the tool is linked dynamically here: $WHY"
  exit 77
fi
libs=$(ldd "$PQ") || { echo "FAIL: ldd $PQ failed"; exit 1; }
echo "$libs"
# Only the vDSO, libc and the loader itself may remain.
extra=$(grep -vE '^\s*(linux-vdso\.so\.1|libc\.so\.6|/lib64/ld-linux-x86-64\.so\.2)\b' <<<"$libs")
if [[ -n $extra ]]; then
  echo "FAIL: the tool loads more than libc:"
  echo "$extra"
  exit 1
fi
for lib in libcrypto libstdc++ libfmt libgcc_s; do
  if grep -qF "$lib" <<<"$libs"; then echo "FAIL: $lib is linked dynamically"; exit 1; fi
done
echo "PASS: only libc is loaded"
