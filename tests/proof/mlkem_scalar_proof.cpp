// ML-KEM's scalar kernels (lib/mlkem/reduce.hpp, ntt_code.hpp, encoding.hpp), checked for every
// input of their contracts: the exact residue mod q and the stated bound. These are also the
// function contracts that the interval domain of ntt_domain.hpp assumes for each primitive, so
// every postcondition it uses is checked here, on the same functions, over the domain its
// precondition checks.
//
// Each checker returns the first counterexample, or nothing; the tests assert that there is none
// on the contract and that there is one just outside it (the checker can fail).
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "mlkem/encoding.hpp"
#include "mlkem/ntt_code.hpp"
#include "mlkem/reduce.hpp"
#include "mlkem/sampling.hpp"
#include "ntt_domain.hpp"

namespace pqkem::mlkem {
namespace {

using Counterexample = std::optional<std::string>;

std::int64_t mod_q(std::int64_t a) { return ((a % kQ) + kQ) % kQ; }
constexpr std::int64_t kRInv = 169;  // R^-1 mod q: 2^16 169 = 1 (mod q)
std::int64_t pow_mod(std::int64_t b, int e) {
  std::int64_t r = 1;
  for (int i = 0; i < e; ++i) r = r * b % kQ;
  return r;
}
int bit_rev7_of(int i) {
  int r = 0;
  for (int b = 0; b < 7; ++b) r |= ((i >> b) & 1) << (6 - b);
  return r;
}
/// The tight Montgomery bound the interval domain uses: |montgomery_reduce(a)| <= (|a| + q 2^15) >> 16.
std::int64_t mont_bound(std::int64_t abs_product) { return (abs_product + (std::int64_t{kQ} << 15)) >> 16; }

/// montgomery_reduce on [lo, hi]: r = a R^-1 (mod q), |r| < q and |r| <= mont_bound(|a|).
Counterexample check_montgomery_reduce(std::int32_t lo, std::int32_t hi) {
  for (std::int64_t a = lo; a <= hi; ++a) {
    const std::int16_t r = montgomery_reduce(static_cast<std::int32_t>(a));
    if (mod_q(r) != mod_q(a * kRInv) || std::abs(r) >= kQ || std::abs(r) > mont_bound(std::abs(a)))
      return "montgomery_reduce(" + std::to_string(a) + ") = " + std::to_string(r) + ", bound |r| < q";
  }
  return std::nullopt;
}

TEST(ProofScalar, MontgomeryReduceOnItsWholeContract) {
  constexpr std::int32_t kBound = std::int32_t{kQ} << 15;  // In: -q 2^15 <= a < q 2^15
  EXPECT_EQ(mod_q(std::int64_t{kMontR} * kRInv), 1);
  EXPECT_EQ(check_montgomery_reduce(-kBound, kBound - 1), std::nullopt);
  // One past the contract's top, a = q 2^15 gives r = q: the checker sees it.
  const Counterexample past = check_montgomery_reduce(kBound - 1, kBound);
  ASSERT_TRUE(past.has_value());
  EXPECT_NE(past->find("montgomery_reduce(109084672) = 3329"), std::string::npos) << *past;
}

/// fqmul and fqmul16 for |a|, |b| <= bound: equal, r = a b R^-1 (mod q), |r| <= mont_bound(|a b|) < q.
Counterexample check_fqmul(std::int32_t bound) {
  for (std::int32_t a = -bound; a <= bound; ++a)
    for (std::int32_t b = -bound; b <= bound; ++b) {
      const auto a16 = static_cast<std::int16_t>(a), b16 = static_cast<std::int16_t>(b);
      const std::int16_t r = fqmul(a16, b16);
      const std::int64_t ab = std::int64_t{a} * b;
      if (ntt_code::fqmul16(a16, b16) != r || mod_q(r) != mod_q(ab * kRInv) || std::abs(r) >= kQ ||
          std::abs(r) > mont_bound(std::abs(ab)))
        return "fqmul(" + std::to_string(a) + ", " + std::to_string(b) + ") = " + std::to_string(r) + ", bound |r| < q";
    }
  return std::nullopt;
}

TEST(ProofScalar, FqmulAndFqmul16OnEveryPairBelowQ) {
  // MultiplyNTTs' contract: |a_i|, |b_i| < q; fqmul16 is the form the basemul vectorizes.
  EXPECT_EQ(check_fqmul(kQ - 1), std::nullopt);
}

/// mul_zeta(a, z, zt) for every int16 a: equal to fqmul(a, z), and |r| <= mont_bound(|a z|).
Counterexample check_mul_zeta(std::int16_t z, std::int16_t zt, std::int64_t bound_slack) {
  for (std::int32_t a = INT16_MIN; a <= INT16_MAX; ++a) {
    const auto a16 = static_cast<std::int16_t>(a);
    const std::int16_t r = ntt_code::mul_zeta(a16, z, zt);
    if (r != fqmul(a16, z) || std::abs(r) > mont_bound(std::abs(std::int64_t{a} * z)) - bound_slack)
      return "mul_zeta(" + std::to_string(a) + ", " + std::to_string(z) + ") = " + std::to_string(r) +
             ", bound (|a z| + q 2^15) >> 16 = " + std::to_string(mont_bound(std::abs(std::int64_t{a} * z)));
  }
  return std::nullopt;
}

TEST(ProofScalar, MulZetaOnEveryInt16WithEveryConstantTheCodeUses) {
  // Every |z| < q/2, so |a z| < 2^15 q/2 for every int16 a: the contract holds for all a.
  for (int k = 1; k < 128; ++k) {
    ASSERT_EQ(check_mul_zeta(ntt_code::kZ[k], ntt_code::kZTwisted[k], 0), std::nullopt) << "zeta " << k;
    ASSERT_EQ(check_mul_zeta(ntt_code::kGamma[k], ntt_code::kGammaTwisted[k], 0), std::nullopt) << "gamma " << k;
  }
  ASSERT_EQ(check_mul_zeta(ntt_code::kGamma[0], ntt_code::kGammaTwisted[0], 0), std::nullopt);
  ASSERT_EQ(check_mul_zeta(ntt_code::kInvNttScale, ntt_code::kInvNttScaleTwisted, 0), std::nullopt);
  // The bound is tight: one less is broken somewhere.
  EXPECT_TRUE(check_mul_zeta(ntt_code::kZ[1], ntt_code::kZTwisted[1], 1).has_value());
}

TEST(ProofScalar, ConstantsAndTheirMontgomeryExponents) {
  // What ntt_domain.hpp's constant_info says of each constant: z = c R^e (mod q).
  const std::int64_t r = kMontR % kQ;
  for (int k = 1; k < 128; ++k) {
    const proof::ConstantInfo info = proof::constant_info(ntt_code::kZ[k]);
    EXPECT_EQ(mod_q(ntt_code::kZ[k]), pow_mod(17, bit_rev7_of(k)) * r % kQ) << "zeta^BitRev7(" << k << ") R";
    EXPECT_EQ(info.exponent, 1);
    EXPECT_EQ(info.layer, static_cast<int>(std::bit_width(static_cast<unsigned>(k)))) << k;
  }
  for (int i = 0; i < 128; ++i) {
    EXPECT_EQ(mod_q(ntt_code::kGamma[i]), pow_mod(17, 2 * bit_rev7_of(i) + 1) * r % kQ) << "gamma " << i;
    EXPECT_EQ(proof::constant_info(ntt_code::kGamma[i]).exponent, 1);
  }
  // 1/128 R^2: times 128, R^2.
  EXPECT_EQ(mod_q(std::int64_t{ntt_code::kInvNttScale} * 128), r * r % kQ);
  EXPECT_EQ(proof::constant_info(ntt_code::kInvNttScale).exponent, 2);
  EXPECT_EQ(mod_q(kMontR2), r * r % kQ);
  EXPECT_EQ(proof::constant_info(1).exponent, 0) << "an unknown constant has no exponent";
}

TEST(ProofScalar, BarrettReduceOnEveryInt16) {
  for (std::int32_t a = INT16_MIN; a <= INT16_MAX; ++a) {
    const std::int16_t r = barrett_reduce(static_cast<std::int16_t>(a));
    ASSERT_EQ(mod_q(r), mod_q(a)) << a;
    ASSERT_LE(std::abs(r), (kQ - 1) / 2) << a;
    // ntt_domain.hpp's barrett_reduce keeps an interval already inside [-(q-1)/2, (q-1)/2].
    if (std::abs(a) <= (kQ - 1) / 2) {
      ASSERT_EQ(r, a);
    }
  }
}

TEST(ProofScalar, CanonicalFormsAndConditionalSubtraction) {
  for (std::int32_t a = -kQ + 1; a < kQ; ++a) ASSERT_EQ(to_canonical(static_cast<std::int16_t>(a)), mod_q(a)) << a;
  for (std::int32_t a = 0; a < 2 * kQ; ++a) ASSERT_EQ(cond_sub_q(static_cast<std::int16_t>(a)), mod_q(a)) << a;
  // Just outside the contracts, to_canonical(q) and cond_sub_q(2q) leave [0, q).
  EXPECT_EQ(to_canonical(kQ), kQ);
  EXPECT_EQ(cond_sub_q(static_cast<std::int16_t>(2 * kQ)), kQ);
}

TEST(ProofScalar, ToMontOnEveryInt16) {
  // to_mont (poly.hpp): fqmul(x, R^2 mod q) = x R (mod q), |r| < q, for any int16 x.
  for (std::int32_t a = INT16_MIN; a <= INT16_MAX; ++a) {
    const std::int16_t r = fqmul(static_cast<std::int16_t>(a), kMontR2);
    ASSERT_EQ(mod_q(r), mod_q(a * std::int64_t{kMontR})) << a;
    ASSERT_LT(std::abs(r), kQ) << a;
  }
}

/// SamplePolyCBD_eta (sampling.hpp, "Out: |f_i| <= eta"): coefficient i reads bits 2 eta i ..
/// 2 eta i + 2 eta - 1 and is their first eta bits' sum minus the last eta bits' sum (FIPS 203,
/// Algorithm 8). Every coefficient value of 2 eta bits at every position, with its neighbours at
/// other values: 2^(2 eta) inputs, coefficient i of input v holding v + 5 i mod 2^(2 eta).
template <int Eta>
Counterexample check_cbd() {
  constexpr int kBits = 2 * Eta;
  for (int v = 0; v < (1 << kBits); ++v) {
    std::array<std::uint8_t, 64 * Eta> bytes{};
    std::array<int, kN> value{};
    for (int i = 0; i < kN; ++i) {
      value[i] = (v + 5 * i) & ((1 << kBits) - 1);
      for (int b = 0; b < kBits; ++b)
        if ((value[i] >> b) & 1) bytes[(kBits * i + b) / 8] |= static_cast<std::uint8_t>(1 << ((kBits * i + b) % 8));
    }
    const Poly f = sample_poly_cbd_ref<Eta>(bytes);
    for (int i = 0; i < kN; ++i) {
      const int want = std::popcount(static_cast<unsigned>(value[i] & ((1 << Eta) - 1))) -
                       std::popcount(static_cast<unsigned>(value[i] >> Eta));
      if (f.c[i] != want || std::abs(f.c[i]) > Eta)
        return "SamplePolyCBD_" + std::to_string(Eta) + ": coefficient " + std::to_string(i) + " of bits " +
               std::to_string(value[i]) + " = " + std::to_string(f.c[i]) + ", want " + std::to_string(want);
    }
  }
  return std::nullopt;
}

TEST(ProofScalar, SamplePolyCbdEveryCoefficientValueAtEveryPosition) {
  EXPECT_EQ(check_cbd<2>(), std::nullopt);
  EXPECT_EQ(check_cbd<3>(), std::nullopt);
}

// Compress_d / Decompress_d for every d and every input: round(2^d x / q) mod 2^d and
// round(q y / 2^d), in exact integer arithmetic (ties cannot occur: q is odd).
int compress_exact(int d, int x) { return static_cast<int>(((std::int64_t{2} << d) * x + kQ) / (2 * kQ)) % (1 << d); }
int decompress_exact(int d, int y) {
  return static_cast<int>((std::int64_t{2} * kQ * y + (1 << d)) / (std::int64_t{2} << d));
}

template <int D>
void check_compress_all() {
  for (int x = 0; x < kQ; ++x)
    ASSERT_EQ(compress<D>(static_cast<std::int16_t>(x)), compress_exact(D, x)) << "d=" << D << " x=" << x;
  for (int y = 0; y < (1 << D); ++y) {
    const int x = decompress<D>(static_cast<std::int16_t>(y));
    ASSERT_EQ(x, decompress_exact(D, y)) << "d=" << D << " y=" << y;
    ASSERT_LT(x, kQ);
    ASSERT_EQ(compress<D>(static_cast<std::int16_t>(x)), y) << "Compress(Decompress(y)) = y, d=" << D;
  }
  // Decompress(Compress(x)) is within round(q / 2^(d+1)) of x, modulo q (FIPS 203 eq. 4.9).
  const int bound = (kQ + (1 << D)) / (1 << (D + 1));
  for (int x = 0; x < kQ; ++x) {
    int diff = decompress<D>(compress<D>(static_cast<std::int16_t>(x))) - x;
    diff = ((diff % kQ) + kQ) % kQ;
    if (diff > kQ / 2) diff -= kQ;
    ASSERT_LE(std::abs(diff), bound) << "d=" << D << " x=" << x;
  }
}

TEST(ProofScalar, CompressDecompressEveryDEveryInput) {
  check_compress_all<1>();
  check_compress_all<4>();
  check_compress_all<5>();
  check_compress_all<10>();
  check_compress_all<11>();
  // The multiply-and-shift constants hold for every d, not only the ones ML-KEM uses.
  check_compress_all<2>();
  check_compress_all<3>();
  check_compress_all<6>();
  check_compress_all<7>();
  check_compress_all<8>();
  check_compress_all<9>();
}

}  // namespace
}  // namespace pqkem::mlkem
