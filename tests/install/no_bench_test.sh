#!/usr/bin/env bash
# no_bench_test.sh NM PREFIX [CMAKE BUILD_DIR]
# The installed library holds no benchmark or kernel-timing code: that lives in the tool's own
# pqkem_bench (app/bench/), never in libpqkem. Fails if any symbol of the installed libpqkem.a or
# libpqkem.so (nm -C, the dynamic table too) contains "bench" in any case. With CMAKE and
# BUILD_DIR, first installs BUILD_DIR into PREFIX (emptied first) with `cmake --install --prefix`;
# install_test.sh runs it on the prefix it has installed.
set -euo pipefail
nm=$1 prefix=$2

fail() { echo "no_bench_test: FAIL: $*" >&2; exit 1; }

if (($# >= 4)); then
  cmake=$3 build=$4
  rm -rf "$prefix"
  "$cmake" --install "$build" --prefix "$prefix" >/dev/null || fail "cmake --install $build --prefix $prefix"
fi

# libpqkem.a, or the file libpqkem.so's links lead to.
mapfile -t libs < <(find "$prefix" \( -name 'libpqkem.a' -o -name 'libpqkem.so*' \) -type f | sort)
((${#libs[@]} > 0)) || fail "no libpqkem.a or libpqkem.so installed under $prefix"
bad=0
for lib in "${libs[@]}"; do
  # Symbol lines only: an archive's listing also names its members ("file.o:"), and those are files.
  syms=$({ "$nm" -C "$lib" 2>/dev/null || true; [[ $lib == *.a ]] || "$nm" -C -D "$lib"; } | grep -v ':$' || true)
  [[ -n $syms ]] || fail "nm -C $lib listed no symbols"
  hits=$(grep -i bench <<<"$syms" || true)
  if [[ -n $hits ]]; then
    echo "no_bench_test: ${lib#"$prefix"/} holds $(wc -l <<<"$hits") benchmark symbols, e.g.:" >&2
    head -n 5 <<<"$hits" >&2
    bad=1
  else
    echo "no_bench_test: ${lib#"$prefix"/}: $(wc -l <<<"$syms") symbols, none of benchmark code"
  fi
done
((bad == 0)) || fail "benchmark code is in the installed library"
