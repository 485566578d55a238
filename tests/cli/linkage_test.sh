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
# The libraries the binary asks the loader for (readelf reads any architecture's ELF, so this
# also checks a cross build's binary, which ldd cannot run).
libs=$(readelf -d "$PQ" | sed -n 's/.*(NEEDED).*Shared library: \[\(.*\)\]/\1/p') ||
  { echo "FAIL: readelf -d $PQ failed"; exit 1; }
[[ -n $libs ]] || { echo "FAIL: readelf -d $PQ lists no shared library (not a dynamic executable?)"; exit 1; }
echo "$libs"
# Only glibc (libc, and libm where the target's static libraries need it: s390x) and the loader
# itself may remain.
extra=$(grep -vE '^(libc\.so\.6|libm\.so\.6|ld-linux[-a-z0-9_]*\.so\.[0-9]+|ld64\.so\.[0-9]+)$' <<<"$libs")
if [[ -n $extra ]]; then
  echo "FAIL: the tool loads more than libc:"
  echo "$extra"
  exit 1
fi
for lib in libcrypto libstdc++ libfmt libgcc_s libsodium; do
  if grep -qF "$lib" <<<"$libs"; then echo "FAIL: $lib is linked dynamically"; exit 1; fi
done
echo "PASS: only libc is loaded"
