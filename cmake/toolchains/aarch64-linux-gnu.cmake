# Cross build for aarch64-linux-gnu with Debian's cross compiler (g++-aarch64-linux-gnu) and the
# target's multiarch -dev packages (docs/building.md, "Other CPUs"; scripts/test.sh --cross aarch64
# installs them). Tests run under qemu-user: CMake's emulator for ctest, and the tool's wrapper
# for the shell tests (tests/CMakeLists.txt).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(PQKEM_TRIPLET aarch64-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/debian-multiarch.cmake)
