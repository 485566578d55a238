// The S2 inversion (poly_r2_inv_avx2, lib/simd/ntru/ntru_r2_inv_avx2.cpp: jump divsteps with
// carry-less products) against its portable twin poly_r2_inv_ref, for every n, on 320 seeded random
// inputs each and on edge inputs; every result is also checked independently: a r = 1 mod (2, Phi_n)
// by a schoolbook GF(2) product written here, or r = 0 when a = 0 mod (2, Phi_n).
//
// On a CPU with AVX2, BMI1, BMI2, POPCNT and PCLMULQDQ the AVX2 kernel must be the one tested (a test
// FAILS otherwise); on a CPU without them the tests check the portable table.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernel_table.hpp"
#include "ntru/ntru.hpp"
#include "ntru/poly.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"
#include "trials.hpp"
#include "test_util.hpp"
#if PQKEM_HAVE_AVX2
#include "simd/ntru/ntru_avx2.hpp"
#endif

namespace pqkem::ntru {
namespace {

using test::AllParams;
using test::cpu_has_avx2_kernels;
using test::ParamsName;

/// a b mod (2, Phi_n) with coefficients in {0, 1} and c_{n-1} = 0: the product mod x^n - 1,
/// then minus c_{n-1} Phi_n.
template <class P>
std::vector<std::uint8_t> mul_s2(const Poly<P>& a, const Poly<P>& b) {
  constexpr std::size_t n = P::n;
  std::vector<std::uint8_t> c(n, 0), abit(n);
  for (std::size_t j = 0; j < n; ++j) abit[j] = static_cast<std::uint8_t>(a.c[j] & 1u);
  for (std::size_t i = 0; i < n; ++i) {
    if ((b.c[i] & 1u) == 0) continue;
    for (std::size_t j = 0; j + i < n; ++j) c[i + j] ^= abit[j];
    for (std::size_t j = n - i; j < n; ++j) c[i + j - n] ^= abit[j];
  }
  const std::uint8_t top = c[n - 1];
  for (auto& x : c) x ^= top;
  return c;
}

/// a = 0 mod (2, Phi_n): a mod 2 is 0 or Phi_n (all coefficients equal).
template <class P>
bool zero_mod_2_phi(const Poly<P>& a) {
  for (std::size_t i = 1; i < P::n; ++i)
    if (((a.c[i] ^ a.c[0]) & 1u) != 0) return false;
  return true;
}

template <class P>
class NtruR2Inv : public ::testing::Test {
protected:
  void SetUp() override {
    if (test::testing_avx512_kernels()) {
      if (!simd::impl_usable(simd::Impl::avx512))
        GTEST_SKIP() << "AVX-512 kernels not usable here: " << simd::impl_unusable_reason(simd::Impl::avx512);
      ASSERT_EQ(avx2().impl, simd::Impl::avx512);
    } else if (cpu_has_avx2_kernels()) {
      ASSERT_TRUE(simd::impl_usable(simd::Impl::avx2)) << simd::impl_unusable_reason(simd::Impl::avx2);
      ASSERT_EQ(avx2().impl, simd::Impl::avx2);
    }
  }
  static const Kernels<P>& avx2() { return kernels<P>(test::simd_under_test()); }

  /// Compares with the twin and checks the inverse independently.
  static void check(const Poly<P>& a, const std::string& what) {
    Poly<P> want, got, direct;
    poly_r2_inv_ref(want, a);
    avx2().poly_r2_inv(got, a);
    ASSERT_TRUE(got.c == want.c) << what << ": differs from poly_r2_inv_ref";
#if PQKEM_HAVE_AVX2
    if (cpu_has_avx2_kernels()) {  // the kernel itself, not only through the table
      simd::avx2::poly_r2_inv_avx2(direct.c.data(), a.c.data(), static_cast<int>(P::n));
      ASSERT_TRUE(direct.c == want.c) << what << ": poly_r2_inv_avx2 differs from poly_r2_inv_ref";
    }
#endif
    for (std::size_t i = 0; i < P::n; ++i) ASSERT_LE(got.c[i], 1u) << what << ": not in {0, 1} at " << i;
    ASSERT_EQ(got.c[P::n - 1], 0u) << what;
    if (zero_mod_2_phi(a)) {
      for (std::size_t i = 0; i < P::n; ++i) ASSERT_EQ(got.c[i], 0u) << what << ": not invertible, expected 0";
      return;
    }
    const auto prod = mul_s2(a, got);
    ASSERT_EQ(prod[0], 1u) << what << ": a r != 1";
    for (std::size_t i = 1; i < P::n; ++i) ASSERT_EQ(prod[i], 0u) << what << ": a r != 1 at " << i;
  }
};
TYPED_TEST_SUITE(NtruR2Inv, AllParams, ParamsName);

TYPED_TEST(NtruR2Inv, RandomInputsMatchTwinAndInvert) {
  using P = TypeParam;
  std::mt19937_64 rng(0x52324956u + P::n);
  for (int it = 0; it < pqkem::test::trials(320); ++it) {
    Poly<P> a;
    const std::uint32_t modulus = it % 3 == 0 ? 2u : (it % 3 == 1 ? 65536u : P::q);  // only a_i mod 2 counts
    for (auto& x : a.c) x = static_cast<std::uint16_t>(rng() % modulus);
    this->check(a, "random " + std::to_string(it));
  }
}

TYPED_TEST(NtruR2Inv, SparseAndDenseInputs) {
  using P = TypeParam;
  std::mt19937_64 rng(0x53504152u + P::n);
  for (int it = 0; it < 40; ++it) {
    Poly<P> a;
    const int weight = 1 + static_cast<int>(rng() % 6);
    for (int j = 0; j < weight; ++j) a.c[rng() % P::n] ^= 1;
    this->check(a, "sparse " + std::to_string(it));
    for (auto& x : a.c) x ^= 1;  // dense: the complement
    this->check(a, "dense " + std::to_string(it));
  }
}

TYPED_TEST(NtruR2Inv, EdgeInputs) {
  using P = TypeParam;
  constexpr std::size_t n = P::n;
  Poly<P> a;
  this->check(a, "a = 0");
  a.c[0] = 1;
  this->check(a, "a = 1");
  a.c[0] = 3;
  this->check(a, "a = 3 (= 1 mod 2)");
  a.c[0] = 0, a.c[1] = 1;
  this->check(a, "a = x");
  a.c[1] = 0, a.c[n - 1] = 1;
  this->check(a, "a = x^(n-1)");
  a.c[n - 1] = 0, a.c[n - 2] = 0xFFFF;
  this->check(a, "a = x^(n-2)");
  Poly<P> ones;
  ones.c.fill(1);
  this->check(ones, "a = Phi_n (not invertible)");
  ones.c.fill(0xFFFF);
  this->check(ones, "a = 0xFFFF Phi_n (not invertible)");
  ones.c.fill(2);
  this->check(ones, "a = 2 Phi_n (0 mod 2)");
  for (std::size_t hole : {std::size_t{0}, std::size_t{1}, n / 2, n - 2, n - 1}) {
    Poly<P> b;
    b.c.fill(1);
    b.c[hole] = 0;
    this->check(b, "all ones except " + std::to_string(hole));
  }
  Poly<P> alt;
  for (std::size_t i = 0; i < n; ++i) alt.c[i] = static_cast<std::uint16_t>(i % 2);
  this->check(alt, "alternating");
}

TYPED_TEST(NtruR2Inv, MultiplesOfXMinusOne) {
  using P = TypeParam;
  constexpr std::size_t n = P::n;
  std::mt19937_64 rng(0x584d3149u + n);
  for (int it = 0; it < 30; ++it) {
    Poly<P> b, a;
    for (auto& x : b.c) x = static_cast<std::uint16_t>(rng());
    for (std::size_t i = 0; i < n; ++i)  // a = (x - 1) b mod x^n - 1
      a.c[i] = static_cast<std::uint16_t>(b.c[(i + n - 1) % n] - b.c[i]);
    this->check(a, "(x - 1) b, " + std::to_string(it));
  }
}

TYPED_TEST(NtruR2Inv, AliasedOutput) {
  using P = TypeParam;
  std::mt19937_64 rng(0x414c4941u + P::n);
  for (int it = 0; it < 10; ++it) {
    Poly<P> a, want;
    for (auto& x : a.c) x = static_cast<std::uint16_t>(rng());
    poly_r2_inv_ref(want, a);
    this->avx2().poly_r2_inv(a, a);
    ASSERT_TRUE(a.c == want.c) << "aliased r = a, case " << it;
  }
}

}  // namespace
}  // namespace pqkem::ntru
