// Which implementation the NTRU tests run: ctest runs this binary twice, plainly and with
// PQKEM_IMPL=avx2 (tests/ntru/CMakeLists.txt). With PQKEM_IMPL=avx2 on a CPU that has AVX2 (and
// BMI2, POPCNT, PCLMULQDQ) the AVX2 kernel tables must be the ones in use; a silent fallback fails here.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "kernel_table.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"
#include "test_util.hpp"

namespace pqkem::ntru::test {
namespace {

TEST(NtruImpl, ActiveImplementationIsTheRequestedOne) {
  const char* env = std::getenv("PQKEM_IMPL");
  const std::string requested = env != nullptr ? env : "";
  const auto& f = simd::cpu_features();
  const bool cpu_avx2 = f.avx2 && f.bmi1 && f.bmi2 && f.popcnt && f.pclmul;
  if (requested == "avx2" && cpu_avx2) {
    ASSERT_TRUE(simd::impl_usable(simd::Impl::avx2)) << simd::impl_unusable_reason(simd::Impl::avx2);
    EXPECT_EQ(simd::active_impl(), simd::Impl::avx2);
    EXPECT_EQ(active_kernels<NtruHps2048509>().impl, simd::Impl::avx2);
    EXPECT_EQ(active_kernels<NtruHps2048677>().impl, simd::Impl::avx2);
    EXPECT_EQ(active_kernels<NtruHps4096821>().impl, simd::Impl::avx2);
    EXPECT_EQ(active_kernels<NtruHrss701>().impl, simd::Impl::avx2);
  } else if (requested == "avx512") {
    if (!simd::impl_usable(simd::Impl::avx512))
      GTEST_SKIP() << "AVX-512 backend not usable here: " << simd::impl_unusable_reason(simd::Impl::avx512);
    EXPECT_EQ(simd::active_impl(), simd::Impl::avx512);
    EXPECT_EQ(active_kernels<NtruHps2048509>().impl, simd::Impl::avx512);
    EXPECT_EQ(active_kernels<NtruHrss701>().impl, simd::Impl::avx512);
  } else if (requested == "portable" || requested.empty()) {
    const simd::Impl want = requested.empty() ? simd::best_impl() : simd::Impl::portable;
    EXPECT_EQ(simd::active_impl(), want);
    EXPECT_EQ(active_kernels<NtruHps2048509>().impl, want);
  } else {
    EXPECT_EQ(simd::active_impl(), simd::Impl::portable) << "AVX2 requested on a CPU without it";
  }
}

}  // namespace
}  // namespace pqkem::ntru::test
