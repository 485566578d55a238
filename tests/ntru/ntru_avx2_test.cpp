// NTRU AVX2 kernels against their portable `_ref` twins, for every parameter set: seeded random
// inputs, extreme inputs (all zeros, all q - 1, all 0xFFFF, all 2 in S3, x^(n-1)), inputs that
// are not invertible (both twins must then agree on the output too), aliasing (r = a), and the
// whole KEM once per implementation, byte for byte.
//
// On a CPU with AVX2, BMI1, BMI2, POPCNT and PCLMULQDQ the AVX2 kernels must be usable and actually selected:
// anything else FAILS (never skips). On a CPU without them the tests check the portable fallback.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "hash.hpp"
#include "kernel_table.hpp"
#include "ntru/ntru.hpp"
#include "ntru/pack.hpp"
#include "ntru/poly.hpp"
#include "ntru/sample.hpp"
#include "ntru/sort.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"
#include "test_util.hpp"
#if PQKEM_HAVE_AVX2
#include "simd/ntru/ntru_avx2.hpp"
#include "simd/ntru/ntru_avx512.hpp"
#endif

namespace pqkem::ntru {
namespace {

using test::AllParams;
using test::cpu_has_avx2_kernels;
using test::ParamsName;

TEST(NtruAvx2, UsableWheneverTheCpuHasAvx2) {
  if (cpu_has_avx2_kernels()) {
    EXPECT_TRUE(simd::impl_usable(simd::Impl::avx2)) << simd::impl_unusable_reason(simd::Impl::avx2);
    EXPECT_EQ(kernels<NtruHps2048509>(simd::Impl::avx2).impl, simd::Impl::avx2);
    EXPECT_EQ(kernels<NtruHrss701>(simd::Impl::avx2).impl, simd::Impl::avx2);
    EXPECT_NE(simd::best_impl(), simd::Impl::portable);  // avx2, or avx512 where it is the automatic choice
  } else {
    EXPECT_FALSE(simd::impl_usable(simd::Impl::avx2));
    EXPECT_EQ(simd::best_impl(), simd::Impl::portable);
  }
}

template <class P>
class NtruAvx2Kernel : public ::testing::Test {
protected:
  void SetUp() override {
    if (test::testing_avx512_kernels()) {
      if (!simd::impl_usable(simd::Impl::avx512))
        GTEST_SKIP() << "AVX-512 kernels not usable here: " << simd::impl_unusable_reason(simd::Impl::avx512);
      ASSERT_EQ(avx2().impl, simd::Impl::avx512);
    } else if (cpu_has_avx2_kernels()) {
      ASSERT_TRUE(simd::impl_usable(simd::Impl::avx2))
          << "the CPU has AVX2 but the AVX2 kernels are not usable: " << simd::impl_unusable_reason(simd::Impl::avx2);
      ASSERT_EQ(avx2().impl, simd::Impl::avx2);
    }
  }
  static const Kernels<P>& ref() { return kernels_ref<P>(); }
  /// The SIMD table under test (test::simd_under_test: AVX2, or AVX-512 in the avx512.* runs;
  /// the portable one on a CPU without AVX2: the comparison is then trivial).
  static const Kernels<P>& avx2() { return kernels<P>(test::simd_under_test()); }

  using Unary = void (*)(Poly<P>&, const Poly<P>&) noexcept;
  /// A kernel r = f(a) against its twin on every input: out of place (the outputs pre-filled
  /// with different garbage) and in place (r = a).
  static void expect_unary_twins(const char* what, Unary ref_fn, Unary avx_fn, const std::vector<Poly<P>>& inputs) {
    for (std::size_t idx = 0; idx < inputs.size(); ++idx) {
      const Poly<P>& a = inputs[idx];
      Poly<P> want = constant(0xABCD), got = constant(0x1234), inplace = a;
      ref_fn(want, a), avx_fn(got, a), avx_fn(inplace, inplace);
      EXPECT_TRUE(got.c == want.c) << what << " differs (case " << idx << ")";
      EXPECT_TRUE(inplace.c == want.c) << what << " (in place) differs (case " << idx << ")";
    }
  }

  static Poly<P> random_poly(std::mt19937_64& rng, std::uint32_t modulus) {
    Poly<P> a;
    for (auto& x : a.c) x = static_cast<std::uint16_t>(rng() % modulus);
    return a;
  }
  static Poly<P> constant(std::uint16_t v) {
    Poly<P> a;
    a.c.fill(v);
    return a;
  }
  static Poly<P> monomial(std::size_t i, std::uint16_t v) {
    Poly<P> a;
    a.c[i] = v;
    return a;
  }
  /// Single operands: random in several ranges and the extremes.
  static std::vector<Poly<P>> operands(std::mt19937_64& rng) {
    std::vector<Poly<P>> v;
    for (int i = 0; i < 6; ++i) v.push_back(random_poly(rng, 65536));
    for (int i = 0; i < 6; ++i) v.push_back(random_poly(rng, P::q));
    for (int i = 0; i < 6; ++i) v.push_back(random_poly(rng, 3));
    for (int i = 0; i < 3; ++i) v.push_back(random_poly(rng, 2));
    for (std::uint32_t c : {0u, 1u, 2u, 3u, P::q - 1, P::q / 2, 0xFFFFu, 0x8000u})
      v.push_back(constant(static_cast<std::uint16_t>(c)));
    v.push_back(monomial(0, 1));
    v.push_back(monomial(P::n - 1, static_cast<std::uint16_t>(P::q - 1)));
    v.push_back(monomial(P::n - 2, 1));
    Poly<P> alt, ramp;
    for (std::size_t i = 0; i < P::n; ++i) {
      alt.c[i] = static_cast<std::uint16_t>((i % 2) ? P::q - 1 : 0);
      ramp.c[i] = static_cast<std::uint16_t>(i * 977u);
    }
    v.push_back(alt);
    v.push_back(ramp);
    return v;
  }
  static std::vector<Poly<P>> z3_operands(std::mt19937_64& rng) {
    std::vector<Poly<P>> v;
    for (int i = 0; i < 12; ++i) v.push_back(random_poly(rng, 3));
    for (int i = 0; i < 3; ++i) {  // sparse
      Poly<P> a;
      for (int j = 0; j < 5; ++j) a.c[rng() % P::n] = static_cast<std::uint16_t>(1 + rng() % 2);
      v.push_back(a);
    }
    for (std::uint16_t c = 0; c < 3; ++c) v.push_back(constant(c));  // 0, Phi_n, 2 Phi_n: not invertible in S3
    v.push_back(monomial(0, 1));
    v.push_back(monomial(0, 2));
    v.push_back(monomial(P::n - 1, 2));  // x^(n-1) = -(1 + ... + x^(n-2)) mod Phi_n
    Poly<P> s3;                          // canonical S3 element (c_{n-1} = 0)
    for (std::size_t i = 0; i + 1 < P::n; ++i) s3.c[i] = static_cast<std::uint16_t>(rng() % 3);
    v.push_back(s3);
    Poly<P> phi_plus_one = constant(1);  // Phi_n + 1 = 1 mod Phi_n: inverse 1
    phi_plus_one.c[0] = 2;
    v.push_back(phi_plus_one);
    return v;
  }
};
TYPED_TEST_SUITE(NtruAvx2Kernel, AllParams, ParamsName);

#define EXPECT_POLY_EQ(got, want, what) EXPECT_TRUE((got).c == (want).c) << what << " differs (case " << idx << ")"

TYPED_TEST(NtruAvx2Kernel, Multiplications) {
  using P = TypeParam;
  const auto& ref = this->ref();
  const auto& avx = this->avx2();
  std::mt19937_64 rng(8000 + P::n);
  const auto ops = this->operands(rng);
  std::size_t idx = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    for (std::size_t j : {i, (i + 1) % ops.size(), (i * 7 + 3) % ops.size()}) {
      const Poly<P>& a = ops[i];
      const Poly<P>& b = ops[j];
      Poly<P> want, got;
      ref.poly_mul_cyclic(want, a, b), avx.poly_mul_cyclic(got, a, b);
      EXPECT_POLY_EQ(got, want, "poly_mul_cyclic");
      ref.poly_rq_mul(want, a, b), avx.poly_rq_mul(got, a, b);
      EXPECT_POLY_EQ(got, want, "poly_rq_mul");
      ref.poly_sq_mul(want, a, b), avx.poly_sq_mul(got, a, b);
      EXPECT_POLY_EQ(got, want, "poly_sq_mul");
      got = a;  // aliasing: r = a, then r = b
      avx.poly_rq_mul(got, got, b);
      ref.poly_rq_mul(want, a, b);
      EXPECT_POLY_EQ(got, want, "poly_rq_mul (r = a)");
      got = b;
      avx.poly_sq_mul(got, a, got);
      ref.poly_sq_mul(want, a, b);
      EXPECT_POLY_EQ(got, want, "poly_sq_mul (r = b)");
      ++idx;
    }
  }
}

/// The products through ProductScratch: one scratch carries the data of every earlier product
/// (of all three kinds) into the next, and the results must not depend on it; the wipe at the
/// end must zero it.
TYPED_TEST(NtruAvx2Kernel, MultiplicationsSharingScratch) {
  using P = TypeParam;
  const auto& ref = this->ref();
  std::mt19937_64 rng(8020 + P::n);
  const auto ops = this->operands(rng);
  const auto z3 = this->z3_operands(rng);
  std::size_t idx = 0;
  {
    TableScratch<P> mul(this->avx2());
    for (std::size_t i = 0; i < ops.size(); ++i, ++idx) {
      const Poly<P>& a = ops[i];
      const Poly<P>& b = ops[(i * 5 + 1) % ops.size()];
      Poly<P> want, got = a;
      ref.poly_rq_mul(want, a, b), mul.rq_mul(got, got, b);  // r = a
      EXPECT_POLY_EQ(got, want, "rq_mul");
      ref.poly_sq_mul(want, a, b), mul.sq_mul(got, a, b);
      EXPECT_POLY_EQ(got, want, "sq_mul");
      const Poly<P>& x = z3[i % z3.size()];
      const Poly<P>& y = z3[(i * 3 + 2) % z3.size()];
      got = y;
      ref.poly_s3_mul(want, x, y), mul.s3_mul(got, x, got);  // r = b
      EXPECT_POLY_EQ(got, want, "s3_mul");
    }
  }
  // wipe_product_scratch zeroes every byte a product wrote: fill the scratch with a marker, run
  // the three products, and after the wipe, every byte they changed must be zero.
  const Kernels<P>& k = this->avx2();
  alignas(64) static unsigned char scratch[kProductScratchBytes];
  std::fill(std::begin(scratch), std::end(scratch), 0xA5);
  Poly<P> r;
  k.poly_rq_mul_in(r, ops[1], ops[2], scratch);
  k.poly_sq_mul_in(r, ops[3], ops[4], scratch);
  k.poly_s3_mul_in(r, z3[1], z3[2], scratch);
  const std::vector<unsigned char> used(std::begin(scratch), std::end(scratch));
  k.wipe_product_scratch(scratch);
  std::size_t written = 0, left = 0;
  for (std::size_t i = 0; i < kProductScratchBytes; ++i) {
    if (used[i] == 0xA5) continue;
    ++written;
    left += scratch[i] != 0;
  }
  EXPECT_EQ(left, 0u) << "bytes the products wrote survive the wipe";
  if (k.impl != simd::Impl::portable)
    EXPECT_GT(written, kProductScratchBytes / 4);  // the workspace is in scratch
  else
    EXPECT_EQ(written, 0u);  // portable: scratch unused
}

/// The internal Toom-4 product (behind the Rq, Sq, S3 products and the Rq inversion) is the
/// cyclic product mod 2^13: compare it with poly_mul_cyclic_ref in the low 13 bits, on the operands
/// above plus all-0xFFFF, all-(q-1), a single 1 at each end, and products of random pairs.
TYPED_TEST(NtruAvx2Kernel, ToomProductMod8192) {
#if PQKEM_HAVE_AVX2
  using P = TypeParam;
  if (!cpu_has_avx2_kernels()) GTEST_SKIP() << "no AVX2";
  std::mt19937_64 rng(8050 + P::n);
  auto ops = this->operands(rng);
  ops.push_back(this->monomial(P::n - 1, 1));
  ops.push_back(this->monomial(0, 0xFFFF));
  ops.push_back(this->monomial(P::n - 1, 0xFFFF));
  std::size_t idx = 0;
  auto check = [&](const Poly<P>& a, const Poly<P>& b) {
    Poly<P> want, got = a;
    poly_mul_cyclic_ref(want, a, b);
    simd::avx2::poly_mul_cyclic_mod8192_avx2(got.c.data(), got.c.data(), b.c.data(), static_cast<int>(P::n));  // r = a
    for (auto* p : {&want, &got})
      for (auto& x : p->c) x = static_cast<std::uint16_t>(x & 0x1FFF);
    EXPECT_POLY_EQ(got, want, "poly_mul_cyclic_mod8192_avx2");
    ++idx;
  };
  for (std::size_t i = 0; i < ops.size(); ++i)
    for (std::size_t j = 0; j < ops.size(); ++j) check(ops[i], ops[j]);
  for (int i = 0; i < 50; ++i) check(this->random_poly(rng, 65536), this->random_poly(rng, 65536));
  // Squares with r = a = b (the Rq inversion squares in place).
  for (const Poly<P>& a : ops) {
    Poly<P> want, got = a;
    poly_mul_cyclic_ref(want, a, a);
    simd::avx2::poly_mul_cyclic_mod8192_avx2(got.c.data(), got.c.data(), got.c.data(), static_cast<int>(P::n));
    for (auto* p : {&want, &got})
      for (auto& x : p->c) x = static_cast<std::uint16_t>(x & 0x1FFF);
    EXPECT_POLY_EQ(got, want, "poly_mul_cyclic_mod8192_avx2 (r = a = b)");
    ++idx;
  }
#else
  GTEST_SKIP() << "AVX2 kernels not compiled in";
#endif
}

TYPED_TEST(NtruAvx2Kernel, S3Multiplication) {
  using P = TypeParam;
  const auto& ref = this->ref();
  const auto& avx = this->avx2();
  std::mt19937_64 rng(8100 + P::n);
  const auto ops = this->z3_operands(rng);
  std::size_t idx = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    for (std::size_t j = 0; j < ops.size(); j += 3) {
      Poly<P> want, got = ops[i];
      ref.poly_s3_mul(want, ops[i], ops[j]);
      avx.poly_s3_mul(got, got, ops[j]);
      EXPECT_POLY_EQ(got, want, "poly_s3_mul");
      ++idx;
    }
  }
}

TYPED_TEST(NtruAvx2Kernel, MultiplicationByXMinus1) {
  using P = TypeParam;
  std::mt19937_64 rng(8200 + P::n);
  this->expect_unary_twins("poly_mul_x_minus_1", this->ref().poly_mul_x_minus_1, this->avx2().poly_mul_x_minus_1,
                           this->operands(rng));
}

TYPED_TEST(NtruAvx2Kernel, S2Inversion) {
  using P = TypeParam;
  std::mt19937_64 rng(8300 + P::n);
  auto cases = this->operands(rng);  // includes 0 and Phi_n (all ones, all 3, all 0xFFFF): not invertible
  for (int i = 0; i < 8; ++i) cases.push_back(this->random_poly(rng, 2));
  std::size_t idx = 0, zero = 0;
  for (const Poly<P>& a : cases) {
    Poly<P> want, got = a;
    this->ref().poly_r2_inv(want, a);
    this->avx2().poly_r2_inv(got, got);
    EXPECT_POLY_EQ(got, want, "poly_r2_inv");
    zero += want.c == Poly<P>().c;
    ++idx;
  }
  EXPECT_GE(zero, 4u) << "the non-invertible cases are there";
}

TYPED_TEST(NtruAvx2Kernel, RqInversion) {
  using P = TypeParam;
  std::mt19937_64 rng(8400 + P::n);
  auto cases = this->operands(rng);
  std::size_t idx = 0;
  for (const Poly<P>& a : cases) {
    Poly<P> want, got = a;
    this->ref().poly_rq_inv(want, a);
    this->avx2().poly_rq_inv(got, got);
    EXPECT_POLY_EQ(got, want, "poly_rq_inv");
    ++idx;
  }
  // Key-generation shaped inputs: 3 g f with g of fixed type / f ternary.
  for (int i = 0; i < 4; ++i) {
    Poly<P> f = this->random_poly(rng, 3), g = this->random_poly(rng, 3), gf;
    poly_z3_to_zq_ref(f, f);
    poly_z3_to_zq_ref(g, g);
    for (auto& x : g.c) x = static_cast<std::uint16_t>((3u * x) & (P::q - 1));
    this->ref().poly_rq_mul(gf, g, f);
    Poly<P> want, got;
    this->ref().poly_rq_inv(want, gf);
    this->avx2().poly_rq_inv(got, gf);
    EXPECT_POLY_EQ(got, want, "poly_rq_inv (3 g f)");
    Poly<P> one;
    this->ref().poly_sq_mul(one, got, gf);
    Poly<P> expect_one;
    expect_one.c[0] = 1;
    EXPECT_POLY_EQ(one, expect_one, "a * a^-1");
    ++idx;
  }
}

TYPED_TEST(NtruAvx2Kernel, S3Inversion) {
  using P = TypeParam;
  std::mt19937_64 rng(8500 + P::n);
  std::size_t idx = 0, zero = 0;
  for (const Poly<P>& a : this->z3_operands(rng)) {
    Poly<P> want, got = a;
    this->ref().poly_s3_inv(want, a);
    this->avx2().poly_s3_inv(got, got);
    EXPECT_POLY_EQ(got, want, "poly_s3_inv");
    zero += want.c == Poly<P>().c;
    ++idx;
  }
  EXPECT_GE(zero, 3u) << "0, Phi_n and 2 Phi_n are not invertible";
}

/// The AVX2 divsteps skip registers above public degree bounds (lib/simd/ntru/ntru_s3_inv_avx2.cpp)
/// and keep sign bits only where they matter: inputs of low and high degree, sparse and periodic
/// ones, and arbitrary 16-bit values, for the S2, S3 and Sq inversions.
TYPED_TEST(NtruAvx2Kernel, InversionsOnStructuredInputs) {
  using P = TypeParam;
  std::mt19937_64 rng(8550 + P::n);
  std::size_t idx = 0;
  for (int it = 0; it < 120; ++it) {
    Poly<P> a;
    for (std::size_t i = 0; i < P::n; ++i) {
      const std::uint64_t x = rng();
      switch (it % 6) {
        case 0: a.c[i] = static_cast<std::uint16_t>(x % 3); break;
        case 1: a.c[i] = static_cast<std::uint16_t>(x % 40 == 0 ? 1 + (x >> 8) % 2 : 0); break;       // sparse
        case 2: a.c[i] = static_cast<std::uint16_t>(i < 4 + std::size_t(it % 5) ? x % 3 : 0); break;  // low degree
        case 3: a.c[i] = static_cast<std::uint16_t>(i + 8 >= P::n ? x % 3 : 0); break;                // only high terms
        case 4: a.c[i] = static_cast<std::uint16_t>(i % (1 + it % 7) == 0 ? 2 : 1); break;            // periodic
        default: a.c[i] = static_cast<std::uint16_t>(x); break;
      }
    }
    Poly<P> want, got;
    this->ref().poly_s3_inv(want, a), this->avx2().poly_s3_inv(got, a);
    EXPECT_POLY_EQ(got, want, "poly_s3_inv");
    this->ref().poly_r2_inv(want, a), this->avx2().poly_r2_inv(got, a);
    EXPECT_POLY_EQ(got, want, "poly_r2_inv");
    if (it % 4 == 0) {
      this->ref().poly_rq_inv(want, a), this->avx2().poly_rq_inv(got, a);
      EXPECT_POLY_EQ(got, want, "poly_rq_inv");
    }
    ++idx;
  }
}

TYPED_TEST(NtruAvx2Kernel, SortAndSampleFixedType) {
  using P = TypeParam;
  std::mt19937_64 rng(8600 + P::n);
  std::vector<std::size_t> lengths = {0,   1,   2,   3,   7,   8,   9,    15,   16,   17,   100,
                                      255, 256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, P::n - 1};
  for (std::size_t len : lengths) {
    for (int variant = 0; variant < 5; ++variant) {
      std::vector<std::int32_t> x(len);
      for (auto& v : x) {
        switch (variant) {
          case 0: v = static_cast<std::int32_t>(rng()); break;
          case 1: v = static_cast<std::int32_t>(rng() % 4) - 2; break;  // many duplicates
          case 2: v = (rng() & 1) ? INT32_MAX : INT32_MIN; break;
          default: v = static_cast<std::int32_t>(rng() >> 40); break;
        }
      }
      if (variant == 4) std::sort(x.rbegin(), x.rend());  // descending input
      std::vector<std::int32_t> want = x, got = x;
      this->ref().sort_int32(want);
      this->avx2().sort_int32(got);
      EXPECT_EQ(got, want) << "sort_int32, length " << len << ", variant " << variant;
      std::sort(x.begin(), x.end());
      EXPECT_EQ(want, x);
    }
  }
  if constexpr (P::hps) {
    std::size_t idx = 0;
    for (int i = 0; i < 20; ++i) {
      std::array<std::uint8_t, P::sample_ft_bytes> u{};
      for (auto& b : u) b = static_cast<std::uint8_t>(i == 0 ? 0 : i == 1 ? 0xFF : rng());
      Poly<P> want, got;
      this->ref().sample_fixed_type(want, u.data());
      this->avx2().sample_fixed_type(got, u.data());
      EXPECT_POLY_EQ(got, want, "sample_fixed_type");
      ++idx;
    }
  }
}

/// The decodings on random bytes (so S3 bytes above 242 and nonzero unused bits of the last Sq
/// byte, as an attacker's ciphertext or a corrupted key may hold), all zeros, all 0xFF, and the
/// encodings of random elements; each output poly starts filled with garbage, which must not
/// survive in any coefficient.
TYPED_TEST(NtruAvx2Kernel, Decodings) {
  using P = TypeParam;
  std::mt19937_64 rng(8600 + P::n);
  std::size_t idx = 0;
  for (int i = 0; i < 40; ++i, ++idx) {
    std::array<std::uint8_t, P::pack_trinary_bytes> t{};
    std::array<std::uint8_t, P::pack_q_bytes> q{};
    const int kind = i % 4;  // 0: random bytes, 1: zeros, 2: 0xFF, 3: encodings of random elements
    if (kind == 0 || kind == 2) {
      for (auto& b : t) b = static_cast<std::uint8_t>(kind == 2 ? 0xFF : rng());
      for (auto& b : q) b = static_cast<std::uint8_t>(kind == 2 ? 0xFF : rng());
    } else if (kind == 3) {
      Poly<P> a = this->random_poly(rng, 3), b = this->random_poly(rng, P::q);
      poly_s3_tobytes_ref<P>(t, a);
      poly_sq_tobytes<P>(q, b);
    }
    Poly<P> want = this->constant(0xABCD), got = this->constant(0x1234);
    this->ref().poly_s3_frombytes(want, t), this->avx2().poly_s3_frombytes(got, t);
    EXPECT_POLY_EQ(got, want, "poly_s3_frombytes");
    want = this->constant(0xABCD), got = this->constant(0x1234);
    this->ref().poly_sq_frombytes(want, q), this->avx2().poly_sq_frombytes(got, q);
    EXPECT_POLY_EQ(got, want, "poly_sq_frombytes");
    want = this->constant(0xABCD), got = this->constant(0x1234);
    this->ref().poly_rq_sum_zero_frombytes(want, q), this->avx2().poly_rq_sum_zero_frombytes(got, q);
    EXPECT_POLY_EQ(got, want, "poly_rq_sum_zero_frombytes");
  }
#if PQKEM_HAVE_AVX2
  if (cpu_has_avx2_kernels()) {  // the raw kernels read exactly the encoding: end it at a page edge
    std::vector<std::uint8_t> t(P::pack_trinary_bytes), q(P::pack_q_bytes);
    for (auto& b : t) b = static_cast<std::uint8_t>(rng());
    for (auto& b : q) b = static_cast<std::uint8_t>(rng());
    Poly<P> want, got;
    poly_s3_frombytes_ref<P>(want, std::span<const std::uint8_t, P::pack_trinary_bytes>(t.data(), t.size()));
    simd::avx2::poly_s3_frombytes_avx2(got.c.data(), t.data(), static_cast<int>(P::n));
    EXPECT_POLY_EQ(got, want, "poly_s3_frombytes_avx2 (heap, exact size)");
    poly_rq_sum_zero_frombytes_ref<P>(want, std::span<const std::uint8_t, P::pack_q_bytes>(q.data(), q.size()));
    simd::avx2::poly_q_frombytes_avx2(got.c.data(), q.data(), static_cast<int>(P::n), P::logq, true);
    EXPECT_POLY_EQ(got, want, "poly_q_frombytes_avx2 (heap, exact size)");
  }
#endif
}

/// pack_S3 on the Z3 operand set (including c_{n-1} != 0, which the encoding leaves out): the
/// same bytes as the portable twin, and nothing written past the encoding.
TYPED_TEST(NtruAvx2Kernel, S3Encoding) {
  using P = TypeParam;
  constexpr std::size_t t = P::pack_trinary_bytes;
  std::mt19937_64 rng(8660 + P::n);
  const auto ops = this->z3_operands(rng);
  std::size_t idx = 0;
  for (const Poly<P>& a : ops) {
    std::array<std::uint8_t, t + 32> want{}, got{};
    want.fill(0xA5), got.fill(0xA5);
    this->ref().poly_s3_tobytes(std::span<std::uint8_t, t>(want.data(), t), a);
    this->avx2().poly_s3_tobytes(std::span<std::uint8_t, t>(got.data(), t), a);
    EXPECT_TRUE(got == want) << "poly_s3_tobytes differs (case " << idx << ")";
    EXPECT_TRUE(std::all_of(got.begin() + t, got.end(), [](std::uint8_t b) { return b == 0xA5; }))
        << "written past the encoding (case " << idx << ")";
    Poly<P> back;
    poly_s3_frombytes_ref<P>(back, std::span<const std::uint8_t, t>(got.data(), t));
    Poly<P> canon = a;
    canon.c[P::n - 1] = 0;
    EXPECT_POLY_EQ(back, canon, "unpack_S3(pack_S3(a))");
    ++idx;
  }
}

/// The coefficient conversions Rq -> S3 (any 16-bit input), Z3 -> Zq and trinary Zq -> Z3 (any
/// 16-bit input too: the contract maps everything to {0..3}), out of place and in place.
TYPED_TEST(NtruAvx2Kernel, Conversions) {
  using P = TypeParam;
  std::mt19937_64 rng(8670 + P::n);
  std::vector<Poly<P>> wide;  // any 16-bit values
  for (int i = 0; i < 8; ++i) wide.push_back(this->random_poly(rng, 65536));
  for (int i = 0; i < 4; ++i) wide.push_back(this->random_poly(rng, P::q));
  for (const std::uint32_t c : {0u, 1u, 2u, P::q / 2 - 1, P::q / 2, P::q - 1, 65535u})
    wide.push_back(this->constant(static_cast<std::uint16_t>(c)));
  Poly<P> trinary;
  for (auto& c : trinary.c) c = static_cast<std::uint16_t>(rng() % 3 == 2 ? P::q - 1 : rng() % 2);
  wide.push_back(trinary);
  const auto& ref = this->ref();
  const auto& avx = this->avx2();
  this->expect_unary_twins("poly_rq_to_s3", ref.poly_rq_to_s3, avx.poly_rq_to_s3, wide);
  this->expect_unary_twins("poly_z3_to_zq", ref.poly_z3_to_zq, avx.poly_z3_to_zq, this->z3_operands(rng));
  this->expect_unary_twins("poly_trinary_zq_to_z3", ref.poly_trinary_zq_to_z3, avx.poly_trinary_zq_to_z3, wide);
}

/// The message lift (HRSS: a division by x - 1 mod (3, Phi_n), then the product by x - 1) on
/// Z3 inputs, including m_{n-1} != 0, all twos and aliasing (r = m).
TYPED_TEST(NtruAvx2Kernel, Lift) {
  using P = TypeParam;
  std::mt19937_64 rng(8650 + P::n);
  this->expect_unary_twins("poly_lift", this->ref().poly_lift, this->avx2().poly_lift, this->z3_operands(rng));
}

/// Decapsulation's two hashes, K = H(rm) and the rejection key H(prf || c): at the real sizes, and
/// at lengths around the rate (136) with either input the longer one, so the AVX2 entry's switch
/// from two lanes to one state happens at every block count up to four.
TYPED_TEST(NtruAvx2Kernel, DecapsulationHashes) {
  using P = TypeParam;
  std::mt19937_64 rng(8680 + P::n);
  std::vector<std::pair<std::size_t, std::size_t>> sizes = {{P::owcpa_msg_bytes, P::prf_key_bytes + P::ct_bytes}};
  for (const std::size_t a : {0, 1, 135, 136, 137, 271, 272, 300, 543})
    for (const std::size_t b : {0, 1, 135, 136, 137, 271, 272, 544}) sizes.emplace_back(a, b);
  for (const auto& [alen, blen] : sizes) {
    std::vector<std::uint8_t> a(alen + 1), b(blen + 1);
    for (auto& x : a) x = static_cast<std::uint8_t>(rng());
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    const std::size_t split = static_cast<std::size_t>(rng() % (blen + 1));
    const ByteView m0(a.data(), alen), m1a(b.data(), split), m1b(b.data() + split, blen - split);
    std::array<std::uint8_t, 32> k0{}, k1{}, w0{}, w1{};
    this->ref().sha3_256_pair(w0, m0, w1, m1a, m1b);
    this->avx2().sha3_256_pair(k0, m0, k1, m1a, m1b);
    EXPECT_EQ(k0, w0) << "first hash, lengths " << alen << ", " << blen;
    EXPECT_EQ(k1, w1) << "second hash, lengths " << alen << ", " << blen << " split " << split;
    std::array<std::uint8_t, 32> h{};
    hash::sha3_256(h, {ByteView(b.data(), blen)});
    EXPECT_EQ(w1, h) << "the portable pair hashes the concatenation";
  }
}

/// The KEM instantiated on each backend gives the same bytes.
TYPED_TEST(NtruAvx2Kernel, KemIsIdenticalUnderBothImplementations) {
  using P = TypeParam;
  std::mt19937_64 rng(8700 + P::n);
  struct Out {
    std::vector<std::uint8_t> pk, sk, ct, ss, ss_dec, ss_bad, pk2;
    bool operator==(const Out&) const = default;
  };
  const std::vector<simd::Impl> impls =
      cpu_has_avx2_kernels() ? std::vector{simd::Impl::portable, simd::Impl::avx2} : std::vector{simd::Impl::portable};
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<std::uint8_t> seed(P::sample_fg_bytes), prf(32), coins(P::sample_rm_bytes);
    for (auto* v : {&seed, &prf, &coins})
      for (auto& b : *v) b = static_cast<std::uint8_t>(rng());
    std::vector<Out> outs;
    std::vector<std::uint8_t> kg_coins(seed);
    kg_coins.insert(kg_coins.end(), prf.begin(), prf.end());
    // The whole KEM once per backend: Kem<P, B> as lib/scheme.cpp instantiates it.
    auto run = [&]<class B>() {
      using K = Kem<P, B>;
      Out o{std::vector<std::uint8_t>(P::pk_bytes), std::vector<std::uint8_t>(P::sk_bytes),
            std::vector<std::uint8_t>(P::ct_bytes), std::vector<std::uint8_t>(32),
            std::vector<std::uint8_t>(32),          std::vector<std::uint8_t>(32),
            std::vector<std::uint8_t>(P::pk_bytes)};
      K::keygen_derand(std::span<const std::uint8_t, K::keygen_coin_bytes>(kg_coins),
                       std::span<std::uint8_t, P::pk_bytes>(o.pk), std::span<std::uint8_t, P::sk_bytes>(o.sk));
      K::encaps_derand(std::span<const std::uint8_t, P::pk_bytes>(o.pk),
                       std::span<const std::uint8_t, P::sample_rm_bytes>(coins),
                       std::span<std::uint8_t, P::ct_bytes>(o.ct), std::span<std::uint8_t, 32>(o.ss));
      K::decaps(std::span<const std::uint8_t, P::sk_bytes>(o.sk), std::span<const std::uint8_t, P::ct_bytes>(o.ct),
                std::span<std::uint8_t, 32>(o.ss_dec));
      std::vector<std::uint8_t> bad = o.ct;
      bad[trial] ^= 0x10;
      K::decaps(std::span<const std::uint8_t, P::sk_bytes>(o.sk), std::span<const std::uint8_t, P::ct_bytes>(bad),
                std::span<std::uint8_t, 32>(o.ss_bad));
      K::pk_from_sk(std::span<const std::uint8_t, P::sk_bytes>(o.sk), std::span<std::uint8_t, P::pk_bytes>(o.pk2));
      EXPECT_EQ(o.ss, o.ss_dec) << simd::impl_name(B::kImpl);
      EXPECT_EQ(o.pk, o.pk2) << simd::impl_name(B::kImpl);
      EXPECT_NE(o.ss, o.ss_bad) << simd::impl_name(B::kImpl);
      outs.push_back(std::move(o));
    };
    for ([[maybe_unused]] simd::Impl impl : impls) {  // unused in a build without AVX2
#if PQKEM_HAVE_AVX2
      if (impl == simd::Impl::avx2) {
        run.template operator()<Avx2Backend>();
        continue;
      }
#endif
      run.template operator()<RefBackend>();
    }
    for (std::size_t i = 1; i < outs.size(); ++i) EXPECT_TRUE(outs[i] == outs[0]) << "trial " << trial;
  }
}

/// The SIMD sort (test::simd_under_test: AVX2, 8 lanes, or AVX-512, 16 lanes, in the avx512.*
/// runs) against the portable one for every length 0 .. 1025 (every size of network, from the
/// smallest, 64 or 256 wires, and their boundary lengths), with random keys; the lengths that sample_fixed_type sorts
/// (n - 1 for every parameter set) and the boundaries also with structured inputs: all equal, ascending, descending,
/// organ pipe, INT32_MIN/INT32_MAX only, extremes mixed with small values, and the keys
/// sample_fixed_type builds (30 random bits, a 2-bit label).
TEST(NtruAvx2Sort, EveryLengthAndStructuredInputs) {
  if (test::testing_avx512_kernels() && !simd::impl_usable(simd::Impl::avx512))
    GTEST_SKIP() << "AVX-512 kernels not usable here: " << simd::impl_unusable_reason(simd::Impl::avx512);
  const Kernels<NtruHps2048509>& ref = kernels_ref<NtruHps2048509>();
  const Kernels<NtruHps2048509>& avx2 = kernels<NtruHps2048509>(test::simd_under_test());
  if (cpu_has_avx2_kernels()) {
    ASSERT_NE(avx2.impl, simd::Impl::portable);
  }
  std::mt19937_64 rng(8650);
  auto check = [&](std::vector<std::int32_t> x, const char* what) {
    std::vector<std::int32_t> want = x, got = x;
    ref.sort_int32(want);
    avx2.sort_int32(got);
    std::sort(x.begin(), x.end());
    ASSERT_EQ(want, x) << what << ", length " << x.size();
    ASSERT_EQ(got, want) << what << ", length " << x.size();
  };
  for (std::size_t len = 0; len <= 1025; ++len) {
    std::vector<std::int32_t> x(len);
    for (auto& v : x) v = static_cast<std::int32_t>(rng());
    check(x, "random");
  }
  std::vector<std::size_t> lengths = {2,   7,   8,   9,   63,  64,  65,  127, 128, 129, 255, 256,  257,  383,
                                      384, 385, 447, 448, 449, 511, 512, 513, 767, 768, 769, 1000, 1023, 1024};
  for (std::size_t n : {NtruHps2048509::n, NtruHps2048677::n, NtruHps4096821::n, NtruHrss701::n})
    lengths.push_back(n - 1);
  for (std::size_t len : lengths) {
    for (int variant = 0; variant < 10; ++variant) {
      std::vector<std::int32_t> x(len);
      for (std::size_t i = 0; i < len; ++i) {
        const std::uint64_t r = rng();
        switch (variant) {
          case 0: x[i] = 7; break;                                                     // all equal
          case 1: x[i] = static_cast<std::int32_t>(i) - 300; break;                    // ascending
          case 2: x[i] = 1000 - static_cast<std::int32_t>(i); break;                   // descending
          case 3: x[i] = static_cast<std::int32_t>(i < len / 2 ? i : len - i); break;  // organ pipe
          case 4: x[i] = (r & 1) ? INT32_MAX : INT32_MIN; break;                       // extremes only
          case 5:
            x[i] = (r % 3 == 0) ? INT32_MAX : (r % 3 == 1) ? INT32_MIN : static_cast<std::int32_t>(r >> 60) - 8;
            break;
          case 6: x[i] = INT32_MAX; break;
          case 7: x[i] = INT32_MIN; break;
          case 8: x[i] = static_cast<std::int32_t>(r & 1); break;  // 0/1
          default:
            x[i] = static_cast<std::int32_t>((static_cast<std::uint32_t>(r) << 2) | (i < len / 4   ? 1u
                                                                                     : i < len / 2 ? 2u
                                                                                                   : 0u));
        }
      }
      check(x, ("variant " + std::to_string(variant)).c_str());
    }
  }
}

#if PQKEM_HAVE_AVX2
/// The raw SIMD kernels under test: simd::avx2's, or simd::avx512's in the avx512.* runs (the
/// test skips, saying why, where those cannot run).
struct RawKernels {
  void (*sort_int32)(std::int32_t*, std::size_t) noexcept;
  void (*sample_fixed_type)(std::uint16_t*, const std::uint8_t*, int, int) noexcept;
};
const RawKernels* raw_kernels_or_null() {
  static constexpr RawKernels kAvx2{&simd::avx2::sort_int32_avx2, &simd::avx2::sample_fixed_type_avx2};
  if (!test::testing_avx512_kernels()) return cpu_has_avx2_kernels() ? &kAvx2 : nullptr;
#if PQKEM_HAVE_AVX512
  static constexpr RawKernels kAvx512{&simd::avx512::sort_int32_avx512, &simd::avx512::sample_fixed_type_avx512};
  if (simd::impl_usable(simd::Impl::avx512)) return &kAvx512;
#endif
  return nullptr;
}
#define PQKEM_RAW_KERNELS_OR_SKIP(k)           \
  const RawKernels* k = raw_kernels_or_null(); \
  if (k == nullptr) GTEST_SKIP() << (test::testing_avx512_kernels() ? "AVX-512 kernels not usable here" : "no AVX2")

/// The raw kernel at the largest length, and on an unaligned array (the kernel table passes
/// std::span data, which need not be 32-byte aligned).
TEST(NtruAvx2Sort, RawKernelMaxLengthAndUnalignedArray) {
  PQKEM_RAW_KERNELS_OR_SKIP(raw);
  std::mt19937_64 rng(8651);
  for (std::size_t len : {std::size_t{508}, std::size_t{820}, simd::avx2::kNtruSortMaxLen}) {
    std::vector<std::int32_t> storage(len + 1);
    std::int32_t* x = storage.data() + 1;
    for (std::size_t i = 0; i < len; ++i) x[i] = static_cast<std::int32_t>(rng());
    std::vector<std::int32_t> want(x, x + len);
    std::sort(want.begin(), want.end());
    raw->sort_int32(x, len);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), x)) << "length " << len;
  }
}

/// The AVX2 Sample_fixed_type (keys built 8 at a time, the AVX2 sort, labels packed 16 at a
/// time) against sample_fixed_type with the portable kernels, on all-zero, all-ones and random
/// bytes, and bytes that make many equal 30-bit keys.
TYPED_TEST(NtruAvx2Kernel, SampleFixedTypeAvx2MatchesPortable) {
  using P = TypeParam;
  if constexpr (P::hps) {
    PQKEM_RAW_KERNELS_OR_SKIP(raw);
    std::mt19937_64 rng(8660 + P::n);
    for (int idx = 0; idx < 40; ++idx) {
      const int it = idx;
      std::array<std::uint8_t, P::sample_ft_bytes> u{};
      for (auto& b : u)
        b = static_cast<std::uint8_t>(it == 0 ? 0 : it == 1 ? 0xFF : it % 5 == 2 ? (rng() % 3 == 0 ? 0xFF : 0) : rng());
      Poly<P> want, got;
      got.c.fill(0xABCD);
      this->ref().sample_fixed_type(want, u.data());
      raw->sample_fixed_type(got.c.data(), u.data(), P::n, P::weight);
      EXPECT_POLY_EQ(got, want, "sample_fixed_type_avx2");
      int ones = 0, twos = 0;
      for (auto c : got.c) ones += c == 1, twos += c == 2;
      EXPECT_EQ(ones, P::weight / 2);
      EXPECT_EQ(twos, P::weight / 2);
    }
  }
}
#endif

}  // namespace
}  // namespace pqkem::ntru
