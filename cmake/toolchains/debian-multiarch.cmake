# Shared by the cross toolchain files: PQKEM_TRIPLET names the target (aarch64-linux-gnu ...).
# Debian's cross compiler and the target's multiarch -dev packages; OpenSSL from
# PQKEM_CROSS_SYSROOT when given (scripts/deps.sh, pqkem_install_cross, says why).
set(CMAKE_C_COMPILER ${PQKEM_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${PQKEM_TRIPLET}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${PQKEM_TRIPLET})
set(CMAKE_FIND_ROOT_PATH /usr/${PQKEM_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${PQKEM_TRIPLET}/pkgconfig:/usr/share/pkgconfig)
# try_compile projects read this file again: pass the sysroot on to them.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES PQKEM_CROSS_SYSROOT)
if(PQKEM_CROSS_SYSROOT)
  set(OPENSSL_ROOT_DIR ${PQKEM_CROSS_SYSROOT}/usr)
  list(APPEND CMAKE_FIND_ROOT_PATH ${PQKEM_CROSS_SYSROOT})
  # Its headers before /usr/include, which holds the host's.
  set(CMAKE_CXX_FLAGS_INIT
      "-isystem ${PQKEM_CROSS_SYSROOT}/usr/include/${PQKEM_TRIPLET} -isystem ${PQKEM_CROSS_SYSROOT}/usr/include")
endif()
# qemu-user runs the target's programs (ctest, gtest discovery). -L / takes the target's loader
# and libraries from the multiarch packages (/lib/<triplet>, libc6:<arch>, which the -dev
# packages pull in), not from the cross compiler's /usr/<triplet>: that libc6-<arch>-cross is
# another build of glibc (2.36-8cross1 against 2.36-9+deb12u14), and the two mixed made every
# dynamically linked s390x program abort ("stack smashing detected") and threaded aarch64 ones hang.
string(REGEX REPLACE "-linux-gnu$" "" _pqkem_qemu_arch ${PQKEM_TRIPLET})
find_program(PQKEM_QEMU NAMES qemu-${_pqkem_qemu_arch}-static qemu-${_pqkem_qemu_arch} REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${PQKEM_QEMU} -L /)
