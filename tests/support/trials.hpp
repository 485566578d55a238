// How many random inputs a test's loop draws. A cross build's tests run under qemu-user
// (PQKEM_TEST_EMULATED, tests/support/CMakeLists.txt), where one trial costs 10 to 50 times what
// it costs natively: the few loops that dominate the suite there draw one input in eight of their
// native count. Their fixed, edge and structured inputs all run; so do the same code paths.
#pragma once

#include <algorithm>

namespace pqkem::test {

inline constexpr bool kEmulated = PQKEM_TEST_EMULATED != 0;

/// `native` natively; under the emulator native / 8, at least 1.
constexpr int trials(int native) { return kEmulated ? std::max(1, native / 8) : native; }

}  // namespace pqkem::test
