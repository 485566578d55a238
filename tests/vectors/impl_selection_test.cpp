// Linked into every vector-test executable: proves which implementation the vectors ran on.
// The ctest runs with TEST_PREFIX "avx2." set PQKEM_IMPL=avx2 (tests/vectors/CMakeLists.txt);
// there the AVX2 backend must really be active when the CPU has AVX2 (otherwise the whole run
// would silently test the portable code twice), and the portable one when it has not.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"

#ifndef PQKEM_IMPL_SELECTION_SUITE
#define PQKEM_IMPL_SELECTION_SUITE ImplSelection
#endif

namespace pqkem::test {
namespace {

TEST(PQKEM_IMPL_SELECTION_SUITE, EnvironmentImplIsInEffect) {
  const char* env = std::getenv("PQKEM_IMPL");
  const std::string want = env != nullptr ? env : "auto";
  const auto& f = simd::cpu_features();
  const bool cpu_avx2 = f.avx2 && f.bmi1 && f.bmi2 && f.popcnt && f.pclmul;
  if (want == "avx2") {
    if (cpu_avx2) {
      ASSERT_TRUE(simd::impl_usable(simd::Impl::avx2)) << simd::impl_unusable_reason(simd::Impl::avx2);
      EXPECT_EQ(simd::active_impl(), simd::Impl::avx2);
    } else {
      EXPECT_EQ(simd::active_impl(), simd::Impl::portable);
    }
  } else if (want == "avx512") {
    // The avx512.* runs fall back to the automatic choice on a CPU without AVX-512: say so.
    if (!simd::impl_usable(simd::Impl::avx512))
      GTEST_SKIP() << "AVX-512 backend not usable here (" << simd::impl_unusable_reason(simd::Impl::avx512)
                   << "): the avx512.* vector runs test the automatic choice instead";
    EXPECT_EQ(simd::active_impl(), simd::Impl::avx512);
  } else if (want == "portable") {
    EXPECT_EQ(simd::active_impl(), simd::Impl::portable);
  } else {
    EXPECT_EQ(simd::active_impl(), simd::best_impl());
  }
}

}  // namespace
}  // namespace pqkem::test
