#!/usr/bin/env bash
# Installs the Debian packages pqkem needs to build and test, if any is missing.
# Sourced by demo.sh and test.sh. Needs root (or sudo) only when something is missing.
set -euo pipefail

# Building the library and the tool (all scripts/demo.sh needs): cmake, make, g++, pkg-config
# (finds libsodium), libssl-dev, libsodium-dev (X25519 for the hybrid KEMs), libcli11-dev,
# libfmt-dev and nlohmann-json3-dev (JSON in and out).
PQKEM_BUILD_PACKAGES=(cmake make g++ pkg-config libssl-dev libsodium-dev libcli11-dev libfmt-dev nlohmann-json3-dev)
# The tests (scripts/test.sh) also need: GoogleTest; valgrind, whose memcheck runs the
# constant-time tests (ctest label ct) and whose valgrind/memcheck.h they include (without it,
# configure still succeeds and one test, ct.valgrind, fails naming the package); gzip; binutils
# (objdump, nm; pulled in by g++), which checks the object code; strace, with which the CLI tests
# count the fsync calls of a write (cli.outputs).
PQKEM_PACKAGES=("${PQKEM_BUILD_PACKAGES[@]}" libgtest-dev gzip valgrind binutils strace)
# The interop test (ctest label interop) runs hpke-js, which it installs with npm: it needs the
# commands node and npm, which Debian's nodejs and npm provide. The commands are checked, not
# the packages: a Node.js from elsewhere (NodeSource's nodejs, which brings its own npm and
# conflicts with Debian's npm package) serves as well.
pqkem_node_packages() {
  command -v node >/dev/null || echo nodejs
  command -v npm >/dev/null || echo npm
}
# Only for the libFuzzer targets (scripts/fuzz.sh, scripts/test.sh --fuzz): clang with its
# sanitizer and libFuzzer runtimes, and llvm-symbolizer for readable stack traces.
PQKEM_FUZZ_PACKAGES=(clang libclang-rt-14-dev llvm)

# pqkem_install_deps [EXTRA_PACKAGE...]: the packages of the tests (Node.js and npm included)
# plus any extra ones.
pqkem_install_deps() {
  local node_packages
  mapfile -t node_packages < <(pqkem_node_packages)
  pqkem_install_packages "${PQKEM_PACKAGES[@]}" "${node_packages[@]}" "$@"
}

# pqkem_install_packages PACKAGE...: installs those of the packages that are missing.
pqkem_install_packages() {
  local missing=()
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  echo "pqkem: installing missing packages: ${missing[*]}" >&2
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "pqkem: need root to install ${missing[*]}" >&2; return 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# pqkem_tool ROOT BUILD: prints the absolute path of BUILD/app/pqkem, building it first (Release)
# if it is missing. As scripts/demo.sh, a fresh build directory is configured without the tests.
pqkem_tool() {
  local root=$1 build=$2 tests_off=()
  if [[ ! -x "$build/app/pqkem" ]]; then
    [[ -f "$build/CMakeCache.txt" ]] || tests_off=(-DPQKEM_BUILD_TESTS=OFF)
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${tests_off[@]}" >/dev/null || return 1
    cmake --build "$build" -j"$(nproc)" --target pqkem >/dev/null || return 1
  fi
  echo "$(cd "$build/app" && pwd)/pqkem"
}

# pqkem_install_cross ARCH SYSROOT: what a cross build for ARCH (aarch64 or s390x) needs:
# Debian's cross compiler, qemu-user, and the target's libsodium, GoogleTest and fmt as multiarch
# packages (dpkg --add-architecture). OpenSSL's libssl-dev and libssl3 are unpacked into SYSROOT
# instead: a multiarch libssl-dev must have exactly the host's version, which the archive does
# not carry for every architecture at once (bookworm, 2026-12: 3.0.22 for amd64, 3.0.20 for
# s390x). The toolchain files (cmake/toolchains/) take SYSROOT as PQKEM_CROSS_SYSROOT.
pqkem_install_cross() {
  local arch=$1 sysroot=$2 deb
  case "$arch" in
    aarch64) deb=arm64 ;;
    s390x) deb=s390x ;;
    *) echo "pqkem: no cross build for '$arch' (aarch64 or s390x)" >&2; return 2 ;;
  esac
  local sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  if ! dpkg --print-foreign-architectures | grep -qx "$deb"; then
    echo "pqkem: adding the $deb architecture to dpkg" >&2
    "${sudo[@]}" dpkg --add-architecture "$deb"
    "${sudo[@]}" apt-get update -qq
  fi
  pqkem_install_deps "g++-$arch-linux-gnu" qemu-user-static "libsodium-dev:$deb" "libgtest-dev:$deb" "libfmt-dev:$deb"
  if [[ ! -f "$sysroot/.complete" ]]; then
    rm -rf "$sysroot" && mkdir -p "$sysroot/debs"
    (cd "$sysroot/debs" && apt-get download -qq -o APT::Sandbox::User=root "libssl-dev:$deb" "libssl3:$deb") || return 1
    local d
    for d in "$sysroot"/debs/*.deb; do dpkg -x "$d" "$sysroot" || return 1; done
    touch "$sysroot/.complete"
  fi
}
