#!/usr/bin/env bash
# install_test.sh CMAKE BUILD_DIR WORK_DIR CONSUMER_SRC CXX PKG_CONFIG NM [--shared-from SOURCE_DIR GENERATOR]
# Installs BUILD_DIR into WORK_DIR/prefix with `cmake --install --prefix`, checks the installed
# files, then builds the consumer program against that prefix with find_package (CMake) and with
# pkg-config, and runs both: each does an ML-KEM-768 keygen/encaps/decaps and exits 0 only when
# the shared secrets match.
#
# With --shared-from, BUILD_DIR is not installed: SOURCE_DIR is first configured into
# WORK_DIR/build as a shared, library-only build (-DBUILD_SHARED_LIBS=ON -DPQKEM_BUILD_APP=OFF
# -DPQKEM_BUILD_TESTS=OFF), only the library target is built, and that is installed and tested.
# Its compiles go through reuse_objects.sh, which copies BUILD_DIR's object where BUILD_DIR made
# it with the very same command and it is up to date (the objects are position-independent in
# every configuration), and compiles otherwise.
#
# A shared libpqkem.so (whichever way it was built) is also checked for its SONAME and symlinks,
# for its DT_NEEDED libcrypto, and for its exports: every dynamic symbol it defines must demangle
# to a declaration of the installed headers (a pqkem:: function or class marked PQKEM_API; no
# pqkem::mlkem::, ntru::, simd::, hash:: ... internals, no std:: or OpenSSL symbols), and every
# PQKEM_API declaration must be exported. The consumers find it through RPATH (CMake's, and
# -Wl,-rpath with pkg-config) and through LD_LIBRARY_PATH. The library built with --shared-from
# must hold no benchmark code either (no_bench_test.sh).
set -euo pipefail
cmake=$1 build=$2 work=$3 src=$4 cxx=$5 pkgconfig=$6 nm=$7
shift 7
shared_from="" generator=""
if [[ ${1-} == --shared-from ]]; then
  shared_from=$2 generator=$3
fi

fail() { echo "install_test: FAIL: $*" >&2; exit 1; }
step_start=$SECONDS
step() {  # step NAME: prints the time the previous step took
  echo "install_test: $1 ($((SECONDS - step_start)) s so far)"
}

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
with_app=yes

if [[ -n $shared_from ]]; then
  with_app=no
  main_build=$build
  build=$work/build
  # The main build's own settings, so that the commands (and so the objects) are the same.
  cache() { sed -n "s/^$1:[A-Z]*=//p" "$main_build/CMakeCache.txt"; }
  step "configuring a shared library-only build of $shared_from"
  "$cmake" -S "$shared_from" -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE="$(cache CMAKE_BUILD_TYPE)" \
    -DCMAKE_CXX_COMPILER="$cxx" -DBUILD_SHARED_LIBS=ON -DPQKEM_BUILD_APP=OFF \
    -DPQKEM_BUILD_TESTS=OFF -DPQKEM_CT_TESTING=OFF -DPQKEM_WERROR="$(cache PQKEM_WERROR)" \
    -DCMAKE_CXX_COMPILER_LAUNCHER="bash;$(dirname "$0")/reuse_objects.sh;$main_build;$build" \
    >"$work/configure.log" 2>&1 \
    || { cat "$work/configure.log"; fail "cmake configure (shared build)"; }
  step "building libpqkem.so"
  "$cmake" --build "$build" --target pqkemlib -j2 >"$work/build.log" 2>&1 \
    || { cat "$work/build.log"; fail "cmake --build --target pqkemlib (shared build)"; }
  reused=$(wc -l <"$build/reused-objects.txt" 2>/dev/null || echo 0)
  compiled=$(grep -c 'Building CXX object' "$work/build.log")
  step "built: $reused of $compiled objects reused from $main_build (the rest compiled)"
fi

"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }

# The installed tree: library, headers, CMake package, pkg-config file; with the tool, the binary,
# the man page and the completions.
lib=$(find "$prefix" -name libpqkem.so -o -name libpqkem.a | head -n1)
[[ -n $lib ]] || fail "neither libpqkem.a nor libpqkem.so installed"
libdir=$(dirname "$lib")
case $lib in
  *.so) kind=shared ;;
  *) kind=static ;;
esac
if [[ -n $shared_from && $kind != shared ]]; then fail "the shared build installed $lib"; fi
# install.no_bench checks the build's own library; this one is built here.
if [[ -n $shared_from ]]; then
  bash "$(dirname "$0")/no_bench_test.sh" "$nm" "$prefix" || fail "benchmark code in libpqkem.so"
fi
if [[ $kind == shared && -e $libdir/libpqkem.a ]]; then fail "a shared build installed libpqkem.a too"; fi
headers=(include/pqkem/pqkem.hpp include/pqkem/error.hpp include/pqkem/secret.hpp
         include/pqkem/kat.hpp include/pqkem/hpke.hpp include/pqkem/export.hpp)
for f in "${headers[@]}"; do
  [[ -f $prefix/$f ]] || fail "$f not installed"
done
# ... and nothing else: an internal header (lib/) must not reach the installed include/.
while IFS= read -r f; do
  [[ " ${headers[*]} " == *" $f "* ]] || fail "$f installed: only the public headers belong in include/"
done < <(cd "$prefix" && find include ! -type d)
for f in cmake/pqkem/pqkemConfig.cmake cmake/pqkem/pqkemConfigVersion.cmake \
         cmake/pqkem/pqkemTargets.cmake pkgconfig/pqkem.pc; do
  [[ -f $libdir/$f ]] || fail "${libdir#"$prefix"/}/$f not installed"
done
if grep -rqE 'pqkem_(core|objects)' "$libdir/cmake/pqkem"; then
  fail "an internal target (pqkem_core, pqkem_objects) is exported"
fi
if [[ $with_app == yes ]]; then
  for f in bin/pqkem share/man/man1/pqkem.1 share/bash-completion/completions/pqkem \
           share/zsh/site-functions/_pqkem; do
    [[ -f $prefix/$f ]] || fail "$f not installed"
  done
  [[ -x $prefix/bin/pqkem ]] || fail "bin/pqkem is not executable"
  "$prefix/bin/pqkem" --version >/dev/null || fail "installed pqkem --version"
  if command -v man >/dev/null; then
    [[ $(man -M "$prefix/share/man" -w pqkem 2>/dev/null) == "$prefix/share/man/man1/pqkem.1" ]] \
      || fail "man -M PREFIX/share/man does not find pqkem(1)"
  fi
  bash -c "source \"$prefix/share/bash-completion/completions/pqkem\" && complete -p pqkem" >/dev/null \
    || fail "the installed bash completion does not register for pqkem"
  if command -v zsh >/dev/null; then
    # compinit reads the #compdef line of every file on $fpath: _pqkem must be bound to pqkem.
    HOME=$work zsh -f -c "fpath=($prefix/share/zsh/site-functions \$fpath); autoload -Uz compinit; compinit -u -D; [[ \${_comps[pqkem]} == _pqkem ]]" \
      || fail "zsh's compinit does not bind the installed _pqkem to pqkem"
  else
    echo "install_test: zsh is not installed: the zsh completion's registration is not checked"
  fi
else
  [[ ! -e $prefix/bin/pqkem ]] || fail "a library-only build (PQKEM_BUILD_APP=OFF) installed bin/pqkem"
fi

# The shared library itself: SONAME, symlinks, dependencies, exports.
if [[ $kind == shared ]]; then
  version=$(sed -n 's/^Version: *//p' "$libdir/pkgconfig/pqkem.pc")
  # The SONAME version: major.minor while the major is 0 (lib/CMakeLists.txt), else the major.
  major=${version%%.*}
  [[ $major == 0 ]] && major=$(cut -d. -f1-2 <<<"$version")
  [[ -L $libdir/libpqkem.so && $(readlink "$libdir/libpqkem.so") == "libpqkem.so.$major" ]] \
    || fail "libpqkem.so is not a symlink to libpqkem.so.$major"
  [[ -L $libdir/libpqkem.so.$major && $(readlink "$libdir/libpqkem.so.$major") == "libpqkem.so.$version" ]] \
    || fail "libpqkem.so.$major is not a symlink to libpqkem.so.$version"
  [[ -f $libdir/libpqkem.so.$version && ! -L $libdir/libpqkem.so.$version ]] || fail "libpqkem.so.$version missing"
  dyn=$(readelf -d "$libdir/libpqkem.so.$version")
  grep -q "Library soname: \[libpqkem.so.$major\]" <<<"$dyn" || fail "SONAME is not libpqkem.so.$major: $(grep -i soname <<<"$dyn")"
  grep -q "Shared library: \[libcrypto.so" <<<"$dyn" || fail "libpqkem.so does not name libcrypto (DT_NEEDED)"

  # The public API: what the installed headers declare with PQKEM_API, a function name
  # (the identifier before its parameter list) or a class name (class PQKEM_API Name).
  api=$(cat "$prefix"/include/pqkem/{pqkem,error,secret,kat,hpke}.hpp | tr '\n' ' ' | tr ';{' '\n\n' |
        sed -n -e 's/.*class PQKEM_API \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' \
               -e 's/.*PQKEM_API [^(]*[^A-Za-z0-9_]\([A-Za-z_][A-Za-z0-9_]*\) *(.*/\1/p' | sort -u)
  for name in keygen encaps decaps version secure_wipe errc_name kat_rsp Error KatDrbg; do
    grep -qx "$name" <<<"$api" || fail "the installed headers do not mark $name with PQKEM_API"
  done
  "$nm" -D --defined-only "$libdir/libpqkem.so.$version" | awk 'NF >= 3 { print $3 }' >"$work/exports.mangled"
  c++filt <"$work/exports.mangled" >"$work/exports.txt"
  count=$(wc -l <"$work/exports.txt")
  bad=0
  while IFS= read -r sym; do
    entity=$sym
    for p in "typeinfo name for " "typeinfo for " "vtable for "; do
      entity=${entity#"$p"}
    done
    first=""
    # pqkem::hpke:: (hpke.hpp) is the one nested public namespace.
    if [[ $entity =~ ^pqkem::(hpke::)?([A-Za-z_][A-Za-z0-9_]*) ]]; then
      first=${BASH_REMATCH[2]}
    fi
    if [[ -z $first ]] || ! grep -qx "$first" <<<"$api"; then
      echo "install_test: exported symbol outside the public API: $sym" >&2
      bad=1
    fi
  done <"$work/exports.txt"
  ((bad == 0)) || fail "libpqkem.so exports symbols that are not public API (list in $work/exports.txt)"
  while IFS= read -r name; do
    grep -qE "^(typeinfo for |vtable for )?pqkem::(hpke::)?$name([^A-Za-z0-9_]|\$)" "$work/exports.txt" \
      || fail "pqkem::$name is declared PQKEM_API but libpqkem.so does not export it"
  done <<<"$api"
  echo "install_test: libpqkem.so.$version exports $count symbols, all public API ($(wc -l <<<"$api") declarations)"
fi

# The exported target asks its consumers for C++20 (the consumer below does not set it).
grep -q 'INTERFACE_COMPILE_FEATURES "cxx_std_20"' "$libdir/cmake/pqkem/pqkemTargets.cmake" \
  || fail "pqkemTargets.cmake does not give pqkem::pqkem INTERFACE_COMPILE_FEATURES cxx_std_20"
if grep -v '^ *#' "$src/CMakeLists.txt" | grep -qE 'CMAKE_CXX_STANDARD|cxx_std_'; then
  fail "the consumer's CMakeLists.txt asks for a C++ standard itself: it must come from pqkem::pqkem"
fi

# 1. CMake: find_package(pqkem CONFIG) with CMAKE_PREFIX_PATH. A shared libpqkem is found at
#    run time through the RPATH CMake gives the consumer in its build tree.
step "consumer with find_package"
"$cmake" -S "$src" -B "$work/cmake-build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake-configure.log" 2>&1 \
  || { cat "$work/cmake-configure.log"; fail "consumer: cmake configure (find_package)"; }
"$cmake" --build "$work/cmake-build" >"$work/cmake-build.log" 2>&1 \
  || { cat "$work/cmake-build.log"; fail "consumer: cmake build"; }
env -u LD_LIBRARY_PATH "$work/cmake-build/consumer" || fail "consumer (find_package) did not round-trip"

# 2. pkg-config: a plain compiler command line.
step "consumer with pkg-config"
export PKG_CONFIG_PATH=$libdir/pkgconfig
"$pkgconfig" --exists pqkem || fail "pkg-config does not find pqkem"
if [[ $with_app == yes ]]; then
  [[ $("$pkgconfig" --modversion pqkem) == "$("$prefix/bin/pqkem" --version | head -n1 | grep -o '[0-9][0-9.]*' | head -n1)" ]] \
    || fail "pkg-config --modversion disagrees with pqkem --version"
fi
flags=$("$pkgconfig" --cflags --libs pqkem)
if [[ $kind == static ]]; then
  [[ " $flags " == *" -lcrypto "* ]] || fail "pkg-config --libs of a static libpqkem lacks -lcrypto: $flags"
else
  [[ " $flags " != *" -lcrypto "* ]] || fail "pkg-config --libs of a shared libpqkem has -lcrypto: $flags"
  grep -q '^Requires.private: libcrypto' "$libdir/pkgconfig/pqkem.pc" || fail "pqkem.pc lacks Requires.private: libcrypto"
fi
# pqkem.pc has no -std (see cmake/pqkem.pc.in): compiled as C++17, the headers stop with one
# clear #error rather than a cascade about std::span.
[[ " $flags " != *" -std="* ]] || fail "pkg-config --cflags pqkem sets a -std: $flags"
# shellcheck disable=SC2086
if "$cxx" -std=c++17 -fsyntax-only "$src/main.cpp" $flags >"$work/cxx17.log" 2>&1; then
  fail "the installed headers compile as C++17; expected their #error asking for C++20"
fi
grep -q "pqkem's headers need C++20" "$work/cxx17.log" \
  || { cat "$work/cxx17.log"; fail "compiled as C++17, the headers do not say they need C++20"; }
# shellcheck disable=SC2086  # word splitting of the flags is intended
"$cxx" -std=c++20 -O1 -o "$work/consumer-pc" "$src/main.cpp" $flags \
  || fail "consumer: c++ ... \$(pkg-config --cflags --libs pqkem)"
if [[ $kind == static ]]; then
  "$work/consumer-pc" || fail "consumer (pkg-config) did not round-trip"
else
  readelf -d "$work/consumer-pc" | grep -q "Shared library: \[libpqkem.so.$major\]" \
    || fail "the pkg-config consumer does not link libpqkem.so.$major"
  LD_LIBRARY_PATH=$libdir "$work/consumer-pc" || fail "consumer (pkg-config, LD_LIBRARY_PATH) did not round-trip"
  pc_libdir=$("$pkgconfig" --variable=libdir pqkem)
  # shellcheck disable=SC2086
  "$cxx" -std=c++20 -O1 -o "$work/consumer-pc-rpath" "$src/main.cpp" $flags -Wl,-rpath,"$pc_libdir" \
    || fail "consumer: c++ ... \$(pkg-config --cflags --libs pqkem) -Wl,-rpath,..."
  env -u LD_LIBRARY_PATH "$work/consumer-pc-rpath" || fail "consumer (pkg-config, RPATH) did not round-trip"
  readelf -d "$work/cmake-build/consumer" | grep -q "Shared library: \[libpqkem.so.$major\]" \
    || fail "the find_package consumer does not link libpqkem.so.$major"
fi

step "done"
echo "install_test: ok ($kind libpqkem, prefix $prefix, $((SECONDS - step_start)) s)"
