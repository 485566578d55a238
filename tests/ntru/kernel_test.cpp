// NTRU kernels against straightforward references, for every parameter set (every n):
// multiplications vs schoolbook, inverses (f * f^-1 = 1), reductions, lift, encodings, samplers,
// and the constant-time sort vs std::sort. Random inputs come from a fixed-seed mt19937_64.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <random>
#include <vector>

#include "kernel_table.hpp"
#include "ntru/pack.hpp"
#include "ntru/poly.hpp"
#include "ntru/sample.hpp"
#include "ntru/sort.hpp"
#include "test_util.hpp"

namespace pqkem::ntru::test {
namespace {

template <class P>
using Coeffs = std::array<std::uint32_t, P::n>;

/// Cyclic schoolbook product mod `modulus` (any modulus dividing 2^32... here 2, 3, q, 2^16).
template <class P>
Coeffs<P> naive_cyclic(const Poly<P>& a, const Poly<P>& b, std::uint64_t modulus) {
  std::array<std::uint64_t, P::n> acc{};
  for (std::size_t i = 0; i < P::n; ++i)
    for (std::size_t j = 0; j < P::n; ++j) acc[(i + j) % P::n] += std::uint64_t{a.c[i]} * b.c[j];
  Coeffs<P> r{};
  for (std::size_t i = 0; i < P::n; ++i) r[i] = static_cast<std::uint32_t>(acc[i] % modulus);
  return r;
}

/// r mod (modulus, Phi_n): subtract r_{n-1} from every coefficient.
template <class P>
Coeffs<P> naive_mod_phi(Coeffs<P> r, std::uint32_t modulus) {
  const std::uint32_t t = r[P::n - 1] % modulus;
  for (auto& x : r) x = (x % modulus + modulus - t) % modulus;
  return r;
}

template <class P>
Coeffs<P> coeffs(const Poly<P>& a) {
  Coeffs<P> r{};
  for (std::size_t i = 0; i < P::n; ++i) r[i] = a.c[i];
  return r;
}

template <class P>
Poly<P> random_poly(std::mt19937_64& rng, std::uint32_t modulus) {
  Poly<P> a;
  for (auto& x : a.c) x = static_cast<std::uint16_t>(rng() % modulus);
  return a;
}

template <class P>
Poly<P> constant_poly(std::uint16_t v) {
  Poly<P> a;
  a.c.fill(v);
  return a;
}

template <class P>
Poly<P> one() {
  Poly<P> a;
  a.c[0] = 1;
  return a;
}

/// Operand pairs: random over the whole uint16_t range and the extremes.
template <class P>
std::vector<std::pair<Poly<P>, Poly<P>>> mul_cases(std::mt19937_64& rng) {
  std::vector<std::pair<Poly<P>, Poly<P>>> v;
  for (int i = 0; i < 8; ++i) v.emplace_back(random_poly<P>(rng, 65536), random_poly<P>(rng, 65536));
  for (int i = 0; i < 4; ++i) v.emplace_back(random_poly<P>(rng, P::q), random_poly<P>(rng, P::q));
  const auto qm1 = static_cast<std::uint16_t>(P::q - 1);
  v.emplace_back(constant_poly<P>(qm1), constant_poly<P>(qm1));
  v.emplace_back(constant_poly<P>(0xFFFF), constant_poly<P>(0xFFFF));
  v.emplace_back(constant_poly<P>(0), random_poly<P>(rng, 65536));
  v.emplace_back(one<P>(), random_poly<P>(rng, 65536));
  Poly<P> top;
  top.c[P::n - 1] = qm1;
  v.emplace_back(top, top);  // x^(n-1) * x^(n-1) = x^(n-2): wraps around
  Poly<P> alt;
  for (std::size_t i = 0; i < P::n; ++i) alt.c[i] = (i % 2) ? qm1 : 0;
  v.emplace_back(alt, constant_poly<P>(qm1));
  return v;
}

template <class P>
class NtruKernel : public ::testing::Test {};
TYPED_TEST_SUITE(NtruKernel, AllParams, ParamsName);

TEST(NtruMod3, Div3AndMod3ExhaustiveBelow2To17) {
  for (std::uint32_t x = 0; x < (1u << 17); ++x) {
    ASSERT_EQ(div3(x), x / 3) << x;
    ASSERT_EQ(mod3(x), x % 3) << x;
  }
}

TYPED_TEST(NtruKernel, RqMulMatchesSchoolbook) {
  using P = TypeParam;
  std::mt19937_64 rng(1);
  for (const auto& [a, b] : mul_cases<P>(rng)) {
    Poly<P> r, cyc;
    poly_rq_mul_ref(r, a, b);
    EXPECT_EQ(coeffs(r), naive_cyclic(a, b, P::q));
    poly_mul_cyclic_ref(cyc, a, b);
    EXPECT_EQ(coeffs(cyc), naive_cyclic(a, b, 65536));
    // Output may alias an input.
    Poly<P> x = a;
    poly_rq_mul_ref(x, x, b);
    EXPECT_EQ(coeffs(x), coeffs(r));
  }
}

TYPED_TEST(NtruKernel, SqMulMatchesSchoolbookModPhi) {
  using P = TypeParam;
  std::mt19937_64 rng(2);
  for (const auto& [a, b] : mul_cases<P>(rng)) {
    Poly<P> r;
    poly_sq_mul_ref(r, a, b);
    EXPECT_EQ(coeffs(r), naive_mod_phi<P>(naive_cyclic(a, b, P::q), P::q));
    EXPECT_EQ(r.c[P::n - 1], 0);
  }
}

TYPED_TEST(NtruKernel, S3MulMatchesSchoolbookModPhi) {
  using P = TypeParam;
  std::mt19937_64 rng(3);
  std::vector<std::pair<Poly<P>, Poly<P>>> cases;
  for (int i = 0; i < 10; ++i) cases.emplace_back(random_poly<P>(rng, 3), random_poly<P>(rng, 3));
  cases.emplace_back(constant_poly<P>(2), constant_poly<P>(2));  // largest integer sums, 4n
  cases.emplace_back(one<P>(), random_poly<P>(rng, 3));
  for (const auto& [a, b] : cases) {
    Poly<P> r;
    poly_s3_mul_ref(r, a, b);
    EXPECT_EQ(coeffs(r), naive_mod_phi<P>(naive_cyclic(a, b, 3), 3));
  }
}

TYPED_TEST(NtruKernel, MulByXMinus1) {
  using P = TypeParam;
  std::mt19937_64 rng(4);
  Poly<P> x_minus_1;
  x_minus_1.c[0] = static_cast<std::uint16_t>(P::q - 1);
  x_minus_1.c[1] = 1;
  for (int i = 0; i < 5; ++i) {
    const Poly<P> a = random_poly<P>(rng, 65536);
    Poly<P> r;
    poly_mul_x_minus_1_ref(r, a);
    EXPECT_EQ(coeffs(r), naive_cyclic(a, x_minus_1, P::q));
    Poly<P> x = a;
    poly_mul_x_minus_1_ref(x, x);
    EXPECT_EQ(coeffs(x), coeffs(r));
  }
}

TYPED_TEST(NtruKernel, S3InverseTimesInputIsOne) {
  using P = TypeParam;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 6; ++i) {
    Poly<P> f = random_poly<P>(rng, 3);  // c_{n-1} may be nonzero: any Z3 input is allowed
    if (i == 0) f = one<P>();
    Poly<P> inv, prod;
    poly_s3_inv_ref(inv, f);
    for (std::size_t j = 0; j < P::n; ++j) ASSERT_LE(inv.c[j], 2);
    EXPECT_EQ(inv.c[P::n - 1], 0);
    poly_s3_mul_ref(prod, f, inv);
    EXPECT_EQ(coeffs(prod), coeffs(one<P>())) << "trial " << i;
  }
}

TYPED_TEST(NtruKernel, R2InverseTimesInputIsOne) {
  using P = TypeParam;
  std::mt19937_64 rng(6);
  for (int i = 0; i < 4; ++i) {
    const Poly<P> a = random_poly<P>(rng, 2);  // nonzero mod (2, Phi_n) with overwhelming probability
    Poly<P> inv;
    poly_r2_inv_ref(inv, a);
    EXPECT_EQ(inv.c[P::n - 1], 0);
    EXPECT_EQ(naive_mod_phi<P>(naive_cyclic(a, inv, 2), 2), coeffs(one<P>()));
  }
}

TYPED_TEST(NtruKernel, RqInverseTimesInputIsOne) {
  using P = TypeParam;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 4; ++i) {
    Poly<P> a = random_poly<P>(rng, 65536);
    if (i == 0) {  // the key-generation shape: 3 g f with trinary f, g
      Poly<P> f = random_poly<P>(rng, 3), g = random_poly<P>(rng, 3);
      poly_z3_to_zq_ref(f, f);
      poly_z3_to_zq_ref(g, g);
      for (auto& x : g.c) x = static_cast<std::uint16_t>(3 * x);
      poly_rq_mul_ref(a, g, f);
    }
    Poly<P> inv, prod;
    poly_rq_inv_ref(inv, a);
    EXPECT_EQ(inv.c[P::n - 1], 0);
    for (auto x : inv.c) ASSERT_LT(x, P::q);
    poly_sq_mul_ref(prod, a, inv);
    EXPECT_EQ(coeffs(prod), coeffs(one<P>())) << "trial " << i;
    // In place, as the SIMD twins allow (the backend contract: r may be a).
    Poly<P> in_place = a;
    poly_rq_inv_ref(in_place, in_place);
    EXPECT_EQ(coeffs(in_place), coeffs(inv)) << "in place, trial " << i;
  }
}

TYPED_TEST(NtruKernel, RqToS3CentersThenReduces) {
  using P = TypeParam;
  std::mt19937_64 rng(8);
  for (int i = 0; i < 4; ++i) {
    const Poly<P> a = random_poly<P>(rng, 65536);
    Coeffs<P> want{};
    for (std::size_t j = 0; j < P::n; ++j) {
      std::int64_t c = a.c[j] % P::q;
      if (c >= P::q / 2) c -= P::q;
      want[j] = static_cast<std::uint32_t>(((c % 3) + 3) % 3);
    }
    Poly<P> r;
    poly_rq_to_s3_ref(r, a);
    EXPECT_EQ(coeffs(r), naive_mod_phi<P>(want, 3));
  }
}

TYPED_TEST(NtruKernel, Z3ZqConversionsRoundTrip) {
  using P = TypeParam;
  std::mt19937_64 rng(9);
  const Poly<P> m = random_poly<P>(rng, 3);
  Poly<P> zq, back;
  poly_z3_to_zq_ref(zq, m);
  for (std::size_t j = 0; j < P::n; ++j) ASSERT_EQ(zq.c[j], m.c[j] == 2 ? P::q - 1 : m.c[j]);
  poly_trinary_zq_to_z3_ref(back, zq);
  EXPECT_EQ(coeffs(back), coeffs(m));
}

TYPED_TEST(NtruKernel, LiftIsMModThreeAndSumsToZero) {
  using P = TypeParam;
  std::mt19937_64 rng(10);
  for (int i = 0; i < 5; ++i) {
    Poly<P> m = random_poly<P>(rng, 3);
    m.c[P::n - 1] = 0;
    Poly<P> l;
    active_kernels<P>().poly_lift(l, m);
    if constexpr (P::hps) {
      Poly<P> want;
      poly_z3_to_zq_ref(want, m);
      EXPECT_EQ(coeffs(l), coeffs(want));
    } else {
      // Lift(m) = (x - 1) b with b trinary and b_{n-1} = 0: recover b by prefix sums.
      std::uint32_t prefix = 0, sum = 0;
      for (std::size_t j = 0; j < P::n; ++j) sum += l.c[j];
      EXPECT_EQ(sum % P::q, 0u) << "Lift(m)(1) = 0";
      for (std::size_t j = 0; j < P::n; ++j) {
        prefix = (prefix + l.c[j]) % P::q;
        const std::uint32_t b = (P::q - prefix) % P::q;
        EXPECT_TRUE(b == 0 || b == 1 || b == P::q - 1) << j;
        if (j == P::n - 1) {
          EXPECT_EQ(b, 0u);
        }
      }
      // Centered, reduced mod (3, Phi_n), it is m.
      Poly<P> back;
      poly_rq_to_s3_ref(back, l);
      EXPECT_EQ(coeffs(back), coeffs(m));
    }
  }
}

TYPED_TEST(NtruKernel, SqPackRoundTrip) {
  using P = TypeParam;
  std::mt19937_64 rng(11);
  for (int i = 0; i < 4; ++i) {
    Poly<P> a = random_poly<P>(rng, P::q);
    a.c[P::n - 1] = 0;
    std::array<std::uint8_t, P::pack_q_bytes> bytes{};
    poly_sq_tobytes<P>(bytes, a);
    EXPECT_NE(q_encoding_is_canonical<P>(bytes), 0u);
    Poly<P> b;
    poly_sq_frombytes_ref<P>(b, bytes);
    EXPECT_EQ(coeffs(b), coeffs(a));
    // Bit layout: coefficient 0 is the low logq bits of the first bytes.
    EXPECT_EQ((bytes[0] | (bytes[1] << 8)) & (P::q - 1), a.c[0]);
  }
  // Bytes -> poly -> bytes is the identity on canonical encodings.
  auto bytes = random_bytes(rng, P::pack_q_bytes);
  if constexpr (P::pack_q_pad_bits != 0) bytes.back() &= static_cast<std::uint8_t>(0xFF >> P::pack_q_pad_bits);
  Poly<P> a;
  poly_sq_frombytes_ref<P>(a, std::span<const std::uint8_t, P::pack_q_bytes>(bytes.data(), P::pack_q_bytes));
  std::array<std::uint8_t, P::pack_q_bytes> again{};
  poly_sq_tobytes<P>(again, a);
  EXPECT_TRUE(std::equal(again.begin(), again.end(), bytes.begin()));
  if constexpr (P::pack_q_pad_bits != 0) {
    again.back() |= 0x80;
    EXPECT_EQ(q_encoding_is_canonical<P>(again), 0u);
  }
}

TYPED_TEST(NtruKernel, RqSumZeroPackRoundTrip) {
  using P = TypeParam;
  std::mt19937_64 rng(12);
  Poly<P> a = random_poly<P>(rng, P::q);
  std::uint32_t sum = 0;
  for (std::size_t j = 0; j + 1 < P::n; ++j) sum += a.c[j];
  a.c[P::n - 1] = static_cast<std::uint16_t>((P::q - sum % P::q) % P::q);
  std::array<std::uint8_t, P::pack_q_bytes> bytes{};
  poly_rq_sum_zero_tobytes<P>(bytes, a);
  Poly<P> b;
  poly_rq_sum_zero_frombytes_ref<P>(b, bytes);
  EXPECT_EQ(coeffs(b), coeffs(a));
}

TYPED_TEST(NtruKernel, S3PackRoundTrip) {
  using P = TypeParam;
  std::mt19937_64 rng(13);
  for (int i = 0; i < 4; ++i) {
    Poly<P> a = random_poly<P>(rng, 3);
    a.c[P::n - 1] = 0;
    if (i == 1) {
      a = constant_poly<P>(2);  // largest byte values (242)
      a.c[P::n - 1] = 0;
    }
    std::array<std::uint8_t, P::pack_trinary_bytes> bytes{};
    poly_s3_tobytes_ref<P>(bytes, a);
    for (auto byte : bytes) ASSERT_LT(byte, 243);
    EXPECT_NE(s3_encoding_is_canonical<P>(bytes), 0u);
    Poly<P> b;
    poly_s3_frombytes_ref<P>(b, bytes);
    EXPECT_EQ(coeffs(b), coeffs(a));
    EXPECT_EQ(bytes[0], a.c[0] + 3 * a.c[1] + 9 * a.c[2] + 27 * a.c[3] + 81 * a.c[4]);
  }
  // Non-canonical bytes decode digit by digit (floor(byte / 3^k) mod 3), and are flagged.
  std::array<std::uint8_t, P::pack_trinary_bytes> bytes{};
  bytes[0] = 255;  // digits 0, 1, 1, 0, 3 -> 0
  Poly<P> b;
  poly_s3_frombytes_ref<P>(b, bytes);
  EXPECT_EQ(b.c[0], 0);
  EXPECT_EQ(b.c[1], 1);
  EXPECT_EQ(b.c[2], 1);
  EXPECT_EQ(b.c[3], 0);
  EXPECT_EQ(b.c[4], 0);
  EXPECT_EQ(s3_encoding_is_canonical<P>(bytes), 0u);
  bytes[0] = 243;
  EXPECT_EQ(s3_encoding_is_canonical<P>(bytes), 0u);
  bytes[0] = 242;
  EXPECT_NE(s3_encoding_is_canonical<P>(bytes), 0u);
  if constexpr (P::pack_deg % 5 != 0) {
    bytes.back() = 255;  // a partial last byte holds fewer than five trits
    EXPECT_EQ(s3_encoding_is_canonical<P>(bytes), 0u);
  }
}

TYPED_TEST(NtruKernel, SampleIid) {
  using P = TypeParam;
  std::mt19937_64 rng(14);
  const auto u = random_bytes(rng, P::sample_iid_bytes);
  Poly<P> r;
  sample_iid<P>(r, std::span<const std::uint8_t, P::sample_iid_bytes>(u.data(), u.size()));
  for (std::size_t i = 0; i + 1 < P::n; ++i) ASSERT_EQ(r.c[i], u[i] % 3);
  EXPECT_EQ(r.c[P::n - 1], 0);
}

TYPED_TEST(NtruKernel, SampleIidPlusHasNonNegativeCorrelation) {
  using P = TypeParam;
  std::mt19937_64 rng(15);
  int flipped = 0;
  for (int t = 0; t < 16; ++t) {
    const auto u = random_bytes(rng, P::sample_iid_bytes);
    Poly<P> r;
    sample_iid_plus<P>(r, std::span<const std::uint8_t, P::sample_iid_bytes>(u.data(), u.size()));
    auto centered = [](std::uint32_t c) { return c == 2 ? -1 : static_cast<int>(c); };
    int s = 0;
    for (std::size_t i = 0; i + 1 < P::n; ++i) s += centered(r.c[i]) * centered(r.c[i + 1]);
    EXPECT_GE(s, 0);
    // Odd coefficients are untouched; even ones are all kept or all negated.
    bool negated = false;
    for (std::size_t i = 0; i + 1 < P::n; ++i) {
      const int want = centered(u[i] % 3);
      if (i % 2 == 1)
        ASSERT_EQ(centered(r.c[i]), want);
      else if (want != 0)
        negated = centered(r.c[i]) == -want;
    }
    for (std::size_t i = 0; i + 1 < P::n; i += 2) ASSERT_EQ(centered(r.c[i]), (negated ? -1 : 1) * centered(u[i] % 3));
    flipped += negated;
    EXPECT_EQ(r.c[P::n - 1], 0);
  }
  EXPECT_GT(flipped, 0);
  EXPECT_LT(flipped, 16);
}

// Reference for sample_fixed_type written from the definition, bit by bit: word i is bits
// [30i, 30i + 30) of the little-endian stream; key = (word << 2) | label; sort; take key mod 4.
template <class P>
std::vector<std::uint32_t> fixed_type_reference(const std::vector<std::uint8_t>& u) {
  std::vector<std::int32_t> keys(P::n - 1);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    std::uint32_t w = 0;
    for (std::size_t b = 0; b < 30; ++b) {
      const std::size_t bit = 30 * i + b;
      w |= static_cast<std::uint32_t>((u[bit / 8] >> (bit % 8)) & 1) << b;
    }
    const std::uint32_t label = i < P::weight / 2u ? 1 : i < static_cast<std::size_t>(P::weight) ? 2 : 0;
    keys[i] = static_cast<std::int32_t>((w << 2) | label);
  }
  std::sort(keys.begin(), keys.end());
  std::vector<std::uint32_t> r;
  for (auto k : keys) r.push_back(static_cast<std::uint32_t>(k) & 3);
  r.push_back(0);
  return r;
}

TYPED_TEST(NtruKernel, SampleFixedTypeMatchesDefinition) {
  using P = TypeParam;
  if constexpr (P::hps) {
    std::mt19937_64 rng(16);
    for (int t = 0; t < 4; ++t) {
      const auto u = random_bytes(rng, P::sample_ft_bytes);
      Poly<P> r;
      active_kernels<P>().sample_fixed_type(r, u.data());
      std::vector<std::uint32_t> got(r.c.begin(), r.c.end());
      EXPECT_EQ(got, fixed_type_reference<P>(u));
      EXPECT_EQ(std::count(got.begin(), got.end(), 1u), P::weight / 2);
      EXPECT_EQ(std::count(got.begin(), got.end(), 2u), P::weight / 2);
    }
  } else {
    GTEST_SUCCEED() << "HRSS has no fixed-type sampling";
  }
}

std::vector<std::int32_t> sorted_copy(std::vector<std::int32_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(NtruSort, MatchesStdSort) {
  std::mt19937_64 rng(17);
  const std::size_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 127, 508, 676, 700, 820, 1000};
  for (std::size_t n : sizes) {
    std::vector<std::vector<std::int32_t>> inputs;
    std::vector<std::int32_t> v(n);
    for (auto& x : v) x = static_cast<std::int32_t>(rng());
    inputs.push_back(v);               // random
    inputs.push_back(sorted_copy(v));  // sorted
    auto rev = sorted_copy(v);
    std::reverse(rev.begin(), rev.end());
    inputs.push_back(rev);       // reversed
    inputs.emplace_back(n, 42);  // all equal
    std::vector<std::int32_t> ext(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::int32_t e[] = {INT32_MIN, INT32_MAX, -1, 0, 1, INT32_MIN + 1, INT32_MAX - 1};
      ext[i] = e[rng() % 7];
    }
    inputs.push_back(ext);  // extremes (overflow of a - b)
    std::vector<std::int32_t> few(n);
    for (auto& x : few) x = static_cast<std::int32_t>(rng() % 3) - 1;
    inputs.push_back(few);  // many duplicates
    for (auto& in : inputs) {
      auto got = in;
      sort_int32_ref(got);
      ASSERT_EQ(got, sorted_copy(in)) << "n = " << n;
    }
  }
}

}  // namespace
}  // namespace pqkem::ntru::test
