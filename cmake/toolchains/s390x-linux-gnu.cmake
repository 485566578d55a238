# Cross build for s390x-linux-gnu with Debian's cross compiler (g++-s390x-linux-gnu) and the
# target's multiarch -dev packages (docs/building.md, "Other CPUs"; scripts/test.sh --cross s390x
# installs them). Tests run under qemu-user: CMake's emulator for ctest, and the tool's wrapper
# for the shell tests (tests/CMakeLists.txt).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(PQKEM_TRIPLET s390x-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/debian-multiarch.cmake)
