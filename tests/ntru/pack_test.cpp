// NTRU encodings (pack.cpp) and the representation changes poly_rq_to_s3_ref / poly_z3_to_zq_ref against
// bit-by-bit and digit-by-digit oracles written here, for every parameter set: seeded random
// inputs, edge cases, garbage in the unused high bits, any byte value for S3, round trips.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "ntru/pack.hpp"
#include "ntru/poly.hpp"
#include "test_util.hpp"

namespace pqkem::ntru::test {
namespace {

template <class P>
using QBytes = std::array<std::uint8_t, P::pack_q_bytes>;
template <class P>
using TBytes = std::array<std::uint8_t, P::pack_trinary_bytes>;
template <class P>
using Coeffs = std::array<std::uint16_t, P::n>;

constexpr int kRandomCases = 250;

// ---- oracles ---------------------------------------------------------------------------

/// Bit i logq + b of the stream is bit b of (c_i mod q), for i < n - 1; other bits 0.
template <class P>
QBytes<P> oracle_q_tobytes(const Coeffs<P>& c) {
  QBytes<P> out{};
  for (std::size_t i = 0; i + 1 < P::n; ++i)
    for (int b = 0; b < P::logq; ++b) {
      const std::size_t pos = i * P::logq + b;
      out[pos / 8] = static_cast<std::uint8_t>(out[pos / 8] | (((c[i] % P::q) >> b) & 1) << (pos % 8));
    }
  return out;
}

/// Coefficients 0..n-2 bit by bit; c_{n-1} = 0 (Sq) or minus the sum of the others mod q (Rq0).
template <class P>
Coeffs<P> oracle_q_frombytes(const QBytes<P>& in, bool sum_zero) {
  Coeffs<P> c{};
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i + 1 < P::n; ++i) {
    for (int b = 0; b < P::logq; ++b) {
      const std::size_t pos = i * P::logq + b;
      c[i] = static_cast<std::uint16_t>(c[i] | ((in[pos / 8] >> (pos % 8)) & 1) << b);
    }
    sum += c[i];
  }
  c[P::n - 1] = sum_zero ? static_cast<std::uint16_t>((P::q - sum % P::q) % P::q) : 0;
  return c;
}

/// Byte j = sum_k 3^k c_{5j+k} (mod 256) over the stored coefficients 5j + k < n - 1.
template <class P>
TBytes<P> oracle_s3_tobytes(const Coeffs<P>& c) {
  TBytes<P> out{};
  for (std::size_t j = 0; j < P::pack_trinary_bytes; ++j) {
    unsigned v = 0, w = 1;
    for (std::size_t k = 0; k < 5; ++k, w *= 3)
      if (5 * j + k + 1 < P::n) v += w * c[5 * j + k];
    out[j] = static_cast<std::uint8_t>(v % 256);
  }
  return out;
}

/// c_{5j+k} = floor(byte_j / 3^k) mod 3, c_{n-1} = 0.
template <class P>
Coeffs<P> oracle_s3_frombytes(const TBytes<P>& in) {
  Coeffs<P> c{};
  for (std::size_t j = 0; j < P::pack_trinary_bytes; ++j) {
    unsigned w = 1;
    for (std::size_t k = 0; k < 5; ++k, w *= 3)
      if (5 * j + k + 1 < P::n) c[5 * j + k] = static_cast<std::uint16_t>((in[j] / w) % 3);
  }
  return c;
}

template <class P>
bool oracle_s3_canonical(const TBytes<P>& in) {
  for (std::size_t j = 0; j < P::pack_trinary_bytes; ++j) {
    const std::size_t digits = std::min<std::size_t>(5, P::n - 1 - 5 * j);
    unsigned limit = 1;
    for (std::size_t k = 0; k < digits; ++k) limit *= 3;
    if (in[j] >= limit) return false;
  }
  return true;
}

template <class P>
bool oracle_q_canonical(const QBytes<P>& in) {
  for (std::size_t pos = (P::n - 1) * P::logq; pos < 8 * P::pack_q_bytes; ++pos)
    if ((in[pos / 8] >> (pos % 8)) & 1) return false;
  return true;
}

/// Signed representative in [-q/2, q/2) mod 3, then mod (3, Phi_n).
template <class P>
Coeffs<P> oracle_rq_to_s3(const Coeffs<P>& a) {
  std::array<int, P::n> m{};
  for (std::size_t i = 0; i < P::n; ++i) {
    int v = a[i] % static_cast<int>(P::q);
    if (v >= static_cast<int>(P::q / 2)) v -= static_cast<int>(P::q);
    m[i] = ((v % 3) + 3) % 3;
  }
  Coeffs<P> r{};
  for (std::size_t i = 0; i < P::n; ++i) r[i] = static_cast<std::uint16_t>((m[i] - m[P::n - 1] + 3) % 3);
  return r;
}

// ---- helpers ---------------------------------------------------------------------------

template <class P>
Poly<P> to_poly(const Coeffs<P>& c) {
  Poly<P> p;
  p.c = c;
  return p;
}

/// A polynomial filled with a marker, so that a coefficient left unwritten shows.
template <class P>
Poly<P> garbage_poly() {
  Poly<P> p;
  p.c.fill(0xBEEF);
  return p;
}

template <class P>
Coeffs<P> random_coeffs(std::mt19937_64& rng, std::uint32_t bound) {
  Coeffs<P> c{};
  for (auto& x : c) x = static_cast<std::uint16_t>(rng() % bound);
  return c;
}

template <class A>
A random_array(std::mt19937_64& rng) {
  A a{};
  for (auto& x : a) x = static_cast<std::uint8_t>(rng());
  return a;
}

/// Edge-case polynomials over the values {lo, hi}: all lo, all hi, alternating both ways,
/// and runs of 3, 5 and 8 (the S3 byte and Sq group sizes).
template <class P>
std::vector<Coeffs<P>> edge_coeffs(std::uint16_t lo, std::uint16_t hi) {
  std::vector<Coeffs<P>> v;
  for (int pattern = 0; pattern < 6; ++pattern) {
    Coeffs<P> c{};
    for (std::size_t i = 0; i < P::n; ++i) {
      bool high = false;
      switch (pattern) {
        case 0: high = false; break;
        case 1: high = true; break;
        case 2: high = i % 2 == 0; break;
        case 3: high = i % 2 == 1; break;
        case 4: high = (i / 5) % 2 == 0; break;
        default: high = (i / 8 + i / 3) % 2 == 1; break;
      }
      c[i] = high ? hi : lo;
    }
    v.push_back(c);
  }
  return v;
}

template <class P>
class NtruPack : public ::testing::Test {};
TYPED_TEST_SUITE(NtruPack, AllParams, ParamsName);

// ---- Sq / Rq0 ----------------------------------------------------------------------------

template <class P>
void check_q_tobytes(const Coeffs<P>& c) {
  const QBytes<P> want = oracle_q_tobytes<P>(c);
  QBytes<P> got;
  got.fill(0xA5);
  poly_sq_tobytes<P>(got, to_poly<P>(c));
  ASSERT_EQ(got, want);
  got.fill(0x5A);
  poly_rq_sum_zero_tobytes<P>(got, to_poly<P>(c));
  ASSERT_EQ(got, want);
  EXPECT_NE(q_encoding_is_canonical<P>(got), 0u);
}

template <class P>
void check_q_frombytes(const QBytes<P>& in) {
  Poly<P> r = garbage_poly<P>();
  poly_sq_frombytes_ref<P>(r, in);
  ASSERT_EQ(r.c, oracle_q_frombytes<P>(in, false));
  r = garbage_poly<P>();
  poly_rq_sum_zero_frombytes_ref<P>(r, in);
  ASSERT_EQ(r.c, oracle_q_frombytes<P>(in, true));
  EXPECT_EQ(q_encoding_is_canonical<P>(in) != 0, oracle_q_canonical<P>(in));
}

TYPED_TEST(NtruPack, SqToBytesMatchesOracle) {
  using P = TypeParam;
  std::mt19937_64 rng(0x5107);
  for (int t = 0; t < kRandomCases; ++t) check_q_tobytes<P>(random_coeffs<P>(rng, P::q));
  // Unreduced inputs: only the low logq bits count.
  for (int t = 0; t < kRandomCases; ++t) check_q_tobytes<P>(random_coeffs<P>(rng, 65536));
  for (const auto& c : edge_coeffs<P>(0, P::q - 1)) check_q_tobytes<P>(c);
  for (const auto& c : edge_coeffs<P>(0x5555 & (P::q - 1), 0x2AAA & (P::q - 1))) check_q_tobytes<P>(c);
  for (const auto& c : edge_coeffs<P>(1, 0xFFFF)) check_q_tobytes<P>(c);
}

TYPED_TEST(NtruPack, SqFromBytesMatchesOracle) {
  using P = TypeParam;
  std::mt19937_64 rng(0x5108);
  // Random bytes, the unused high bits of the last byte included (they must be ignored).
  for (int t = 0; t < kRandomCases; ++t) check_q_frombytes<P>(random_array<QBytes<P>>(rng));
  for (int fill : {0x00, 0xFF, 0x55, 0xAA, 0x0F, 0xF0}) {
    QBytes<P> in;
    in.fill(static_cast<std::uint8_t>(fill));
    check_q_frombytes<P>(in);
  }
  // Every coefficient q - 1 (canonical), then with garbage pad bits.
  Coeffs<P> ones;
  ones.fill(P::q - 1);
  QBytes<P> in = oracle_q_tobytes<P>(ones);
  check_q_frombytes<P>(in);
  in.back() = 0xFF;
  check_q_frombytes<P>(in);
}

TYPED_TEST(NtruPack, SqRoundTrips) {
  using P = TypeParam;
  std::mt19937_64 rng(0x5109);
  for (int t = 0; t < kRandomCases; ++t) {
    // Sq element -> bytes -> the same element.
    Coeffs<P> c = random_coeffs<P>(rng, P::q);
    c[P::n - 1] = 0;
    QBytes<P> bytes;
    poly_sq_tobytes<P>(bytes, to_poly<P>(c));
    Poly<P> back = garbage_poly<P>();
    poly_sq_frombytes_ref<P>(back, bytes);
    ASSERT_EQ(back.c, c);
    // Rq element with a(1) = 0 -> bytes -> the same element.
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i + 1 < P::n; ++i) sum += c[i];
    c[P::n - 1] = static_cast<std::uint16_t>((P::q - sum % P::q) % P::q);
    poly_rq_sum_zero_tobytes<P>(bytes, to_poly<P>(c));
    back = garbage_poly<P>();
    poly_rq_sum_zero_frombytes_ref<P>(back, bytes);
    ASSERT_EQ(back.c, c);
    // Canonical bytes -> element -> the same bytes; with pad garbage, the bytes with pad cleared.
    QBytes<P> in = random_array<QBytes<P>>(rng);
    QBytes<P> canonical = in;
    if constexpr (P::pack_q_pad_bits != 0)
      canonical.back() = static_cast<std::uint8_t>(canonical.back() & (0xFF >> P::pack_q_pad_bits));
    poly_sq_frombytes_ref<P>(back, in);
    QBytes<P> again;
    poly_sq_tobytes<P>(again, back);
    ASSERT_EQ(again, canonical);
    poly_rq_sum_zero_frombytes_ref<P>(back, in);
    poly_rq_sum_zero_tobytes<P>(again, back);
    ASSERT_EQ(again, canonical);
  }
}

// ---- S3 ------------------------------------------------------------------------------------

template <class P>
void check_s3_tobytes(const Coeffs<P>& c) {
  TBytes<P> got;
  got.fill(0xA5);
  poly_s3_tobytes_ref<P>(got, to_poly<P>(c));
  ASSERT_EQ(got, oracle_s3_tobytes<P>(c));
  EXPECT_NE(s3_encoding_is_canonical<P>(got), 0u);
}

template <class P>
void check_s3_frombytes(const TBytes<P>& in) {
  Poly<P> r = garbage_poly<P>();
  poly_s3_frombytes_ref<P>(r, in);
  ASSERT_EQ(r.c, oracle_s3_frombytes<P>(in));
  EXPECT_EQ(s3_encoding_is_canonical<P>(in) != 0, oracle_s3_canonical<P>(in));
}

TYPED_TEST(NtruPack, S3ToBytesMatchesOracle) {
  using P = TypeParam;
  std::mt19937_64 rng(0x5301);
  for (int t = 0; t < kRandomCases; ++t) check_s3_tobytes<P>(random_coeffs<P>(rng, 3));
  for (const auto& c : edge_coeffs<P>(0, 2)) check_s3_tobytes<P>(c);
  for (const auto& c : edge_coeffs<P>(1, 2)) check_s3_tobytes<P>(c);
  for (const auto& c : edge_coeffs<P>(0, 1)) check_s3_tobytes<P>(c);
}

TYPED_TEST(NtruPack, S3FromBytesMatchesOracle) {
  using P = TypeParam;
  std::mt19937_64 rng(0x5302);
  // Any byte value (bytes >= 243 and partial last bytes above 3^k decode digit by digit).
  for (int t = 0; t < kRandomCases; ++t) check_s3_frombytes<P>(random_array<TBytes<P>>(rng));
  // Mostly canonical inputs, with bytes near the limits.
  for (int t = 0; t < kRandomCases; ++t) {
    TBytes<P> in = random_array<TBytes<P>>(rng);
    for (auto& b : in) b = static_cast<std::uint8_t>(rng() % 2 ? b % 243 : 236 + rng() % 14);
    check_s3_frombytes<P>(in);
  }
  // Every byte value at every position (each position class of the loops and the last byte).
  for (unsigned v = 0; v < 256; ++v) {
    TBytes<P> in;
    in.fill(static_cast<std::uint8_t>(v));
    check_s3_frombytes<P>(in);
    in.fill(static_cast<std::uint8_t>(255 - v));
    in.back() = static_cast<std::uint8_t>(v);
    check_s3_frombytes<P>(in);
  }
}

TYPED_TEST(NtruPack, S3RoundTrips) {
  using P = TypeParam;
  std::mt19937_64 rng(0x5303);
  for (int t = 0; t < kRandomCases; ++t) {
    Coeffs<P> c = random_coeffs<P>(rng, 3);
    c[P::n - 1] = 0;
    TBytes<P> bytes;
    poly_s3_tobytes_ref<P>(bytes, to_poly<P>(c));
    Poly<P> back = garbage_poly<P>();
    poly_s3_frombytes_ref<P>(back, bytes);
    ASSERT_EQ(back.c, c);
    // Canonical bytes -> element -> the same bytes.
    TBytes<P> in = random_array<TBytes<P>>(rng);
    for (std::size_t j = 0; j < in.size(); ++j) {
      const std::size_t digits = std::min<std::size_t>(5, P::n - 1 - 5 * j);
      unsigned limit = 1;
      for (std::size_t k = 0; k < digits; ++k) limit *= 3;
      in[j] = static_cast<std::uint8_t>(in[j] % limit);
    }
    ASSERT_TRUE(oracle_s3_canonical<P>(in));
    poly_s3_frombytes_ref<P>(back, in);
    TBytes<P> again;
    poly_s3_tobytes_ref<P>(again, back);
    ASSERT_EQ(again, in);
  }
}

// ---- representation changes (poly.cpp) ----------------------------------------------------

TYPED_TEST(NtruPack, RqToS3MatchesOracle) {
  using P = TypeParam;
  std::mt19937_64 rng(0x5304);
  std::vector<Coeffs<P>> cases;
  for (int t = 0; t < kRandomCases; ++t) cases.push_back(random_coeffs<P>(rng, 65536));
  for (int t = 0; t < kRandomCases; ++t) cases.push_back(random_coeffs<P>(rng, P::q));
  for (const auto& c : edge_coeffs<P>(0, P::q - 1)) cases.push_back(c);
  for (const auto& c : edge_coeffs<P>(P::q / 2 - 1, P::q / 2)) cases.push_back(c);
  for (const auto& c : edge_coeffs<P>(0xFFFF, 1)) cases.push_back(c);
  for (const auto& c : cases) {
    const Coeffs<P> want = oracle_rq_to_s3<P>(c);
    Poly<P> r = garbage_poly<P>();
    poly_rq_to_s3_ref(r, to_poly<P>(c));
    ASSERT_EQ(r.c, want);
    Poly<P> alias = to_poly<P>(c);  // output aliasing the input
    poly_rq_to_s3_ref(alias, alias);
    ASSERT_EQ(alias.c, want);
  }
}

TYPED_TEST(NtruPack, Z3ToZqMatchesOracle) {
  using P = TypeParam;
  std::mt19937_64 rng(0x5305);
  std::vector<Coeffs<P>> cases;
  for (int t = 0; t < kRandomCases; ++t) cases.push_back(random_coeffs<P>(rng, 3));
  for (const auto& c : edge_coeffs<P>(0, 2)) cases.push_back(c);
  for (const auto& c : cases) {
    Coeffs<P> want{};
    for (std::size_t i = 0; i < P::n; ++i) want[i] = static_cast<std::uint16_t>(c[i] == 2 ? P::q - 1 : c[i]);
    Poly<P> r = garbage_poly<P>();
    poly_z3_to_zq_ref(r, to_poly<P>(c));
    ASSERT_EQ(r.c, want);
    Poly<P> alias = to_poly<P>(c);
    poly_z3_to_zq_ref(alias, alias);
    ASSERT_EQ(alias.c, want);
  }
}

}  // namespace
}  // namespace pqkem::ntru::test
