#!/usr/bin/env bash
# install_test.sh CMAKE BUILD_DIR WORK_DIR CONSUMER_SRC CXX PKG_CONFIG
# Installs BUILD_DIR into WORK_DIR/prefix with `cmake --install --prefix`, checks the installed
# files, then builds the consumer program against that prefix with find_package (CMake) and with
# pkg-config, and runs both: each does an ML-KEM-768 keygen/encaps/decaps and exits 0 only when
# the shared secrets match.
set -euo pipefail
cmake=$1 build=$2 work=$3 src=$4 cxx=$5 pkgconfig=$6

fail() { echo "install_test: FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }

# The installed tree: binary, library, headers, CMake package, pkg-config file, man page, completion.
libdir=$(dirname "$(find "$prefix" -name libpqkem.a | head -n1)")
[[ -f $libdir/libpqkem.a ]] || fail "libpqkem.a not installed"
for f in bin/pqkem include/pqkem/pqkem.hpp include/pqkem/error.hpp include/pqkem/secret.hpp \
         include/pqkem/kat.hpp share/man/man1/pqkem.1 share/bash-completion/completions/pqkem; do
  [[ -f $prefix/$f ]] || fail "$f not installed"
done
for f in cmake/pqkem/pqkemConfig.cmake cmake/pqkem/pqkemConfigVersion.cmake \
         cmake/pqkem/pqkemTargets.cmake pkgconfig/pqkem.pc; do
  [[ -f $libdir/$f ]] || fail "${libdir#"$prefix"/}/$f not installed"
done
[[ -x $prefix/bin/pqkem ]] || fail "bin/pqkem is not executable"
if grep -rq pqkem_json "$libdir/cmake/pqkem"; then fail "the internal target pqkem_json is exported"; fi
"$prefix/bin/pqkem" --version >/dev/null || fail "installed pqkem --version"
if command -v man >/dev/null; then
  [[ $(man -M "$prefix/share/man" -w pqkem 2>/dev/null) == "$prefix/share/man/man1/pqkem.1" ]] \
    || fail "man -M PREFIX/share/man does not find pqkem(1)"
fi
bash -c "source \"$prefix/share/bash-completion/completions/pqkem\" && complete -p pqkem" >/dev/null \
  || fail "the installed bash completion does not register for pqkem"

# 1. CMake: find_package(pqkem CONFIG) with CMAKE_PREFIX_PATH.
"$cmake" -S "$src" -B "$work/cmake-build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake-configure.log" 2>&1 \
  || { cat "$work/cmake-configure.log"; fail "consumer: cmake configure (find_package)"; }
"$cmake" --build "$work/cmake-build" >"$work/cmake-build.log" 2>&1 \
  || { cat "$work/cmake-build.log"; fail "consumer: cmake build"; }
"$work/cmake-build/consumer" || fail "consumer (find_package) did not round-trip"

# 2. pkg-config: a plain compiler command line.
export PKG_CONFIG_PATH=$libdir/pkgconfig
"$pkgconfig" --exists pqkem || fail "pkg-config does not find pqkem"
[[ $("$pkgconfig" --modversion pqkem) == "$("$prefix/bin/pqkem" --version | head -n1 | grep -o '[0-9][0-9.]*' | head -n1)" ]] \
  || fail "pkg-config --modversion disagrees with pqkem --version"
flags=$("$pkgconfig" --cflags --libs pqkem)
# shellcheck disable=SC2086  # word splitting of the flags is intended
"$cxx" -std=c++20 -O1 -o "$work/consumer-pc" "$src/main.cpp" $flags \
  || fail "consumer: c++ ... \$(pkg-config --cflags --libs pqkem)"
"$work/consumer-pc" || fail "consumer (pkg-config) did not round-trip"

echo "install_test: ok (prefix $prefix)"
