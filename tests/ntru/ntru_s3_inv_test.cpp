// The S3 inversion (poly_s3_inv_avx2, lib/simd/ntru/ntru_s3_inv_avx2.cpp: bit-sliced divsteps in a
// lane-interleaved layout) against its portable twin poly_s3_inv_ref, for every n, on 320 seeded
// random inputs each and on edge inputs; every result is also checked independently: a r = 1 mod
// (3, Phi_n) by a schoolbook GF(3) product written here, or r = 0 when a = 0 mod (3, Phi_n).
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

template <class P>
class NtruS3Inv : public ::testing::Test {
protected:
  void SetUp() override {
    if (test::testing_avx512_kernels()) {
      if (!simd::impl_usable(simd::Impl::avx512))
        GTEST_SKIP() << "AVX-512 kernels not usable here: " << simd::impl_unusable_reason(simd::Impl::avx512);
      ASSERT_EQ(kernels<P>(simd::Impl::avx512).impl, simd::Impl::avx512);
    } else if (cpu_has_avx2_kernels()) {
      ASSERT_TRUE(simd::impl_usable(simd::Impl::avx2)) << simd::impl_unusable_reason(simd::Impl::avx2);
      ASSERT_EQ(kernels<P>(simd::Impl::avx2).impl, simd::Impl::avx2);
    }
  }

  /// The kernel under test: the SIMD one (test::simd_under_test), else the portable table's.
  static void inv(Poly<P>& r, const Poly<P>& a) { kernels<P>(test::simd_under_test()).poly_s3_inv(r, a); }

  /// a mod (3, Phi_n), coefficients in {0, 1, 2}, coefficient n - 1 = 0.
  static std::vector<int> mod_phi3(const std::vector<int>& c) {
    std::vector<int> r(P::n);
    for (std::size_t i = 0; i < P::n; ++i) r[i] = ((c[i] - c[P::n - 1]) % 3 + 3) % 3;
    return r;
  }
  static std::vector<int> as_ints(const Poly<P>& a) {
    std::vector<int> r(P::n);
    for (std::size_t i = 0; i < P::n; ++i) r[i] = a.c[i] % 3;
    return r;
  }

  /// Runs the kernel on a and checks: equal to the twin; in S3; a r = 1 mod (3, Phi_n), or r = 0
  /// when a = 0 mod (3, Phi_n) (Phi_n is irreducible mod 3 for these n, so nothing else occurs).
  static void check(const Poly<P>& a, const std::string& what) {
    Poly<P> want, got;
    poly_s3_inv_ref(want, a);
    inv(got, a);
    ASSERT_EQ(got.c, want.c) << what;
    ASSERT_EQ(got.c[P::n - 1], 0) << what;
    for (std::size_t i = 0; i < P::n; ++i) ASSERT_LE(got.c[i], 2) << what << " coefficient " << i;
    const std::vector<int> am = mod_phi3(as_ints(a));
    bool a_zero = true;
    for (int x : am) a_zero = a_zero && x == 0;
    std::vector<int> prod(P::n, 0);  // a r mod (3, x^n - 1), schoolbook
    for (std::size_t i = 0; i < P::n; ++i) {
      if (am[i] == 0) continue;
      for (std::size_t j = 0; j < P::n; ++j) {
        const std::size_t k = (i + j) % P::n;
        prod[k] = (prod[k] + am[i] * got.c[j]) % 3;
      }
    }
    const std::vector<int> one = mod_phi3(prod);
    for (std::size_t i = 0; i < P::n; ++i) {
      const int expect = a_zero ? 0 : (i == 0 ? 1 : 0);
      ASSERT_EQ(one[i], expect) << what << ": a r mod (3, Phi_n) at " << i;
    }
  }

  static Poly<P> random_z3(std::mt19937_64& rng) {
    Poly<P> a;
    for (auto& x : a.c) x = static_cast<std::uint16_t>(rng() % 3);
    return a;
  }
};

TYPED_TEST_SUITE(NtruS3Inv, AllParams, ParamsName);

TYPED_TEST(NtruS3Inv, RandomInputsMatchTwinAndInvert) {
  using P = TypeParam;
  std::mt19937_64 rng(9300 + P::n);
  for (int it = 0; it < pqkem::test::trials(320); ++it) this->check(this->random_z3(rng), "random #" + std::to_string(it));
}

TYPED_TEST(NtruS3Inv, SparseDenseAndShortInputs) {
  using P = TypeParam;
  std::mt19937_64 rng(9310 + P::n);
  for (int it = 0; it < 60; ++it) {
    Poly<P> a;
    for (std::size_t i = 0; i < P::n; ++i) {
      const std::uint64_t x = rng();
      switch (it % 4) {
        case 0: a.c[i] = static_cast<std::uint16_t>(x % 50 == 0 ? 1 + (x >> 8) % 2 : 0); break;       // sparse
        case 1: a.c[i] = static_cast<std::uint16_t>(x % 50 == 0 ? 0 : 1 + (x >> 8) % 2); break;       // dense
        case 2: a.c[i] = static_cast<std::uint16_t>(i < 2 + std::size_t(it % 9) ? x % 3 : 0); break;  // low degree
        default: a.c[i] = static_cast<std::uint16_t>(i + 3 + std::size_t(it % 9) >= P::n ? x % 3 : 0); break;
      }
    }
    this->check(a, "structured #" + std::to_string(it));
  }
}

TYPED_TEST(NtruS3Inv, EdgeInputs) {
  using P = TypeParam;
  Poly<P> a;
  this->check(a, "0");
  a.c[0] = 1;
  this->check(a, "1");
  a.c[0] = 2;
  this->check(a, "-1");
  a.c[0] = 0, a.c[1] = 1;
  this->check(a, "x");
  a.c[1] = 0, a.c[P::n - 1] = 1;
  this->check(a, "x^(n-1)");
  a.c[P::n - 1] = 2;
  this->check(a, "-x^(n-1)");
  a.c.fill(1);
  this->check(a, "Phi_n");
  {
    Poly<P> want;
    this->inv(want, a);
    EXPECT_EQ(want.c, Poly<P>().c) << "Phi_n is not invertible";
  }
  a.c.fill(2);
  this->check(a, "all 2 (-Phi_n)");
  a.c.fill(1), a.c[0] = 2;
  this->check(a, "Phi_n + 1");
  for (std::size_t i = 0; i < P::n; ++i) a.c[i] = static_cast<std::uint16_t>(i % 3);
  this->check(a, "0, 1, 2, ...");
}

/// a (x - 1) for random a: x - 1 is invertible mod (3, Phi_n) (n is not a multiple of 3), so the
/// result is invertible iff a is; also a Phi_n-multiple-free check of the non-invertible case.
TYPED_TEST(NtruS3Inv, MultiplesOfXMinusOne) {
  using P = TypeParam;
  std::mt19937_64 rng(9320 + P::n);
  for (int it = 0; it < 20; ++it) {
    const Poly<P> a = this->random_z3(rng);
    Poly<P> b;
    for (std::size_t i = 0; i < P::n; ++i)  // b = a (x - 1) mod (3, x^n - 1)
      b.c[i] = static_cast<std::uint16_t>((a.c[(i + P::n - 1) % P::n] + 2 * a.c[i]) % 3);
    this->check(b, "a (x - 1) #" + std::to_string(it));
  }
}

TYPED_TEST(NtruS3Inv, AliasedOutput) {
  using P = TypeParam;
  std::mt19937_64 rng(9330 + P::n);
  for (int it = 0; it < 10; ++it) {
    const Poly<P> a = this->random_z3(rng);
    Poly<P> want, got = a;
    poly_s3_inv_ref(want, a);
    this->inv(got, got);
    EXPECT_EQ(got.c, want.c) << "r = a, #" << it;
  }
}

}  // namespace
}  // namespace pqkem::ntru
