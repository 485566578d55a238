// The fixtures the ML-KEM SIMD kernel tests (tests/mlkem) and the Keccak SIMD tests
// (tests/keccak/keccak_simd_test.cpp) share: the CPU checks, made independently of the
// dispatcher, and Avx2Kernel / Avx512Kernel, which give each test random polynomials and bytes
// from a fixed seed. Avx2Kernel exists only where the build has the AVX2 kernels
// (PQKEM_HAVE_AVX2), Avx512Kernel only where it has the AVX-512 ones too.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "backends/backends.hpp"  // the kernels, and PQKEM_HAVE_AVX2 / PQKEM_HAVE_AVX512 (0 if unset)
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"

namespace pqkem::mlkem {

inline bool cpu_has_avx2() {
  const auto& f = simd::cpu_features();
  return f.avx2 && f.bmi1 && f.bmi2 && f.popcnt && f.pclmul;
}

inline bool cpu_has_avx512() {
  const auto& f = simd::cpu_features();
  return cpu_has_avx2() && f.avx512f && f.avx512vl && f.avx512bw && f.avx512dq && f.avx512vbmi && f.avx512vbmi2;
}

#if PQKEM_HAVE_AVX2
namespace av = simd::avx2;
using Arr = std::array<std::int16_t, kN>;

class Avx2Kernel : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(cpu_has_avx2()) << "no AVX2 on this CPU: the kernel tests cannot run the AVX2 code";
    ASSERT_TRUE(simd::impl_usable(simd::Impl::avx2)) << simd::impl_unusable_reason(simd::Impl::avx2);
  }
  std::mt19937_64 rng{12345};

  Arr random_coeffs(int bound) {  // |c| < bound
    Arr a;
    for (auto& x : a) x = static_cast<std::int16_t>(static_cast<int>(rng() % (2 * bound - 1)) - (bound - 1));
    return a;
  }
  std::vector<Arr> inputs(int bound) {  // random ones, then extremes
    std::vector<Arr> v;
    for (int i = 0; i < 200; ++i) v.push_back(random_coeffs(bound));
    for (const int c : {0, 1, -1, bound - 1, -(bound - 1)}) {
      Arr a;
      a.fill(static_cast<std::int16_t>(c));
      v.push_back(a);
    }
    Arr alt;
    for (int i = 0; i < kN; ++i) alt[i] = static_cast<std::int16_t>((i & 1) ? bound - 1 : -(bound - 1));
    v.push_back(alt);
    return v;
  }
  std::vector<std::uint8_t> random_bytes(std::size_t n) {
    std::vector<std::uint8_t> b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return b;
  }
};

inline Arr transposed(Arr a) {
  av::transpose_avx2(a.data());
  return a;
}

#if PQKEM_HAVE_AVX512
class Avx512Kernel : public Avx2Kernel {
protected:
  void SetUp() override {
    if (!cpu_has_avx512())
      GTEST_SKIP() << "this CPU lacks AVX-512 F/VL/BW/DQ/VBMI/VBMI2: the AVX-512 kernels cannot run here";
    ASSERT_TRUE(simd::impl_usable(simd::Impl::avx512)) << simd::impl_unusable_reason(simd::Impl::avx512);
    rng.seed(54321);
  }
};
#endif  // PQKEM_HAVE_AVX512
#endif  // PQKEM_HAVE_AVX2

}  // namespace pqkem::mlkem
