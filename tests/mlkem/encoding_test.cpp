// Compress/Decompress against the exact rational formula, and ByteEncode/ByteDecode round trips.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "mlkem/encoding.hpp"

namespace pqkem::mlkem {
namespace {

// round(2^d x / q) mod 2^d with exact integer arithmetic (ties cannot occur: q is odd).
// Division is fine here: this is test code on public values.
int compress_exact(int d, int x) { return static_cast<int>(((std::int64_t{2} << d) * x + kQ) / (2 * kQ)) % (1 << d); }
int decompress_exact(int d, int y) {
  return static_cast<int>((std::int64_t{2} * kQ * y + (1 << d)) / (std::int64_t{2} << d));
}

// Compress_d / Decompress_d themselves are checked for every d and every input in
// tests/proof/mlkem_scalar_proof.cpp.

TEST(Encoding, CompressPolyMapsSignedRepresentatives) {
  // compress_poly / decompress_poly (the vectorized loops) against compress_exact on every
  // representative in (-q, q), 256 at a time.
  for (int base = -kQ + 1; base < kQ; base += kN) {
    Poly f;
    for (int i = 0; i < kN; ++i) f.c[i] = static_cast<std::int16_t>(std::min(base + i, kQ - 1));
    const Coeffs c10 = compress_poly<10>(f), c4 = compress_poly<4>(f), c1 = compress_poly<1>(f);
    for (int i = 0; i < kN; ++i) {
      const int x = f.c[i] < 0 ? f.c[i] + kQ : f.c[i];
      ASSERT_EQ(c10[i], compress_exact(10, x)) << x;
      ASSERT_EQ(c4[i], compress_exact(4, x)) << x;
      ASSERT_EQ(c1[i], compress_exact(1, x)) << x;
    }
  }
  Coeffs y{};
  for (int i = 0; i < kN; ++i) y[i] = static_cast<std::int16_t>(i * 8 + 7);  // up to 2^11 - 1
  const Poly r = decompress_poly<11>(y);
  for (int i = 0; i < kN; ++i) ASSERT_EQ(r.c[i], decompress_exact(11, y[i])) << i;
}

// Algorithms 5 and 6 bit by bit, as written in FIPS 203 (b_{i d + j} = bit j of f_i).
template <int D>
std::array<std::uint8_t, 32 * D> byte_encode_bitwise(const Coeffs& f) {
  std::array<std::uint8_t, 32 * D> b{};
  for (int i = 0; i < kN; ++i)
    for (int j = 0; j < D; ++j)
      b[(i * D + j) / 8] = static_cast<std::uint8_t>(b[(i * D + j) / 8] | (((f[i] >> j) & 1) << ((i * D + j) % 8)));
  return b;
}
template <int D>
Coeffs byte_decode_bitwise(const std::array<std::uint8_t, 32 * D>& b) {
  Coeffs f{};
  for (int i = 0; i < kN; ++i) {
    int x = 0;
    for (int j = 0; j < D; ++j) x |= ((b[(i * D + j) / 8] >> ((i * D + j) % 8)) & 1) << j;
    f[i] = static_cast<std::int16_t>(D == 12 ? x % kQ : x);
  }
  return f;
}

template <int D>
void check_against_bitwise(std::mt19937& rng) {
  const int limit = D == 12 ? kQ : (1 << D);
  std::uniform_int_distribution<int> dist(0, limit - 1);
  for (int t = 0; t < 50; ++t) {
    Coeffs f{};
    for (auto& x : f) x = static_cast<std::int16_t>(dist(rng));
    std::array<std::uint8_t, 32 * D> out{};
    byte_encode<D>(f, out);
    ASSERT_EQ(out, byte_encode_bitwise<D>(f)) << "d=" << D;
    std::array<std::uint8_t, 32 * D> raw{};
    for (auto& b : raw) b = static_cast<std::uint8_t>(rng());
    ASSERT_EQ(byte_decode<D>(raw), byte_decode_bitwise<D>(raw)) << "d=" << D;
  }
}

TEST(Encoding, ByteEncodeDecodeMatchAlgorithms5And6EveryD) {
  std::mt19937 rng(5);
  check_against_bitwise<1>(rng);
  check_against_bitwise<2>(rng);
  check_against_bitwise<3>(rng);
  check_against_bitwise<4>(rng);
  check_against_bitwise<5>(rng);
  check_against_bitwise<6>(rng);
  check_against_bitwise<7>(rng);
  check_against_bitwise<8>(rng);
  check_against_bitwise<9>(rng);
  check_against_bitwise<10>(rng);
  check_against_bitwise<11>(rng);
  check_against_bitwise<12>(rng);
}

TEST(Encoding, Decode12AndModulusCheckOnEveryValueAtEveryPosition) {
  // Every 12-bit value v in every coefficient slot i (the other slots random and canonical):
  // decode12_ref gives v mod q there, and is_canonical12_ref is v < q.
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> dist(0, kQ - 1);
  Coeffs base{};
  for (auto& x : base) x = static_cast<std::int16_t>(dist(rng));
  for (int i = 0; i < kN; ++i) {
    for (int v = 0; v < 4096; v += (i % 8 == 0 || i >= kN - 8) ? 1 : 37) {
      Coeffs f = base;
      f[i] = static_cast<std::int16_t>(v);
      std::array<std::uint8_t, kPolyBytes> b = byte_encode_bitwise<12>(f);
      ASSERT_EQ(is_canonical12_ref(b), v < kQ) << "i=" << i << " v=" << v;
      const NttPoly p = decode12_ref(b);
      ASSERT_EQ(p.c[i], v % kQ) << "i=" << i << " v=" << v;
      ASSERT_EQ(p.c[(i + 1) % kN], base[(i + 1) % kN]);
    }
  }
}

TEST(Encoding, Encode12MapsSignedRepresentatives) {
  // encode12_ref on |f_i| < q equals ByteEncode_12 of the canonical representatives.
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> dist(-kQ + 1, kQ - 1);
  for (int t = 0; t < 50; ++t) {
    NttPoly f;
    Coeffs canon{};
    for (int i = 0; i < kN; ++i) {
      const int x = t == 0 ? (i % 2 ? -kQ + 1 : kQ - 1) : t == 1 ? (i % 2 ? -1 : 0) : dist(rng);
      f.c[i] = static_cast<std::int16_t>(x);
      canon[i] = static_cast<std::int16_t>(x < 0 ? x + kQ : x);
    }
    std::array<std::uint8_t, kPolyBytes> out{};
    encode12_ref(f, out);
    ASSERT_EQ(out, byte_encode_bitwise<12>(canon)) << t;
  }
}

template <int D>
void check_byte_round_trip(std::mt19937& rng) {
  const int limit = D == 12 ? kQ : (1 << D);
  std::uniform_int_distribution<int> dist(0, limit - 1);
  for (int t = 0; t < 100; ++t) {
    Coeffs f{};
    for (auto& x : f) x = static_cast<std::int16_t>(t == 0 ? limit - 1 : dist(rng));
    std::array<std::uint8_t, 32 * D> bytes{};
    byte_encode<D>(f, bytes);
    ASSERT_EQ(byte_decode<D>(bytes), f) << "d=" << D;
    if constexpr (D < 12) {  // every byte string is a valid encoding for d < 12
      std::array<std::uint8_t, 32 * D> raw{};
      for (auto& b : raw) b = static_cast<std::uint8_t>(rng());
      std::array<std::uint8_t, 32 * D> again{};
      byte_encode<D>(byte_decode<D>(raw), again);
      ASSERT_EQ(again, raw) << "d=" << D;
    }
  }
}

TEST(Encoding, ByteEncodeDecodeRoundTripEveryD) {
  std::mt19937 rng(12);
  check_byte_round_trip<1>(rng);
  check_byte_round_trip<4>(rng);
  check_byte_round_trip<5>(rng);
  check_byte_round_trip<10>(rng);
  check_byte_round_trip<11>(rng);
  check_byte_round_trip<12>(rng);
}

TEST(Encoding, ByteEncodeBitOrderIsLittleEndian) {
  Coeffs f{};
  f[0] = 1;      // bit 0 of byte 0
  f[1] = 0x800;  // d = 12: coefficient 1 occupies bits 12..23, its top bit is bit 23
  std::array<std::uint8_t, 384> b{};
  byte_encode<12>(f, b);
  EXPECT_EQ(b[0], 0x01);
  EXPECT_EQ(b[1], 0x00);
  EXPECT_EQ(b[2], 0x80);
}

TEST(Encoding, ByteDecode12ReducesModQAndModulusCheckFlagsIt) {
  std::array<std::uint8_t, 384> b{};
  b[0] = 0x01;  // coefficient 0 = 0xD01 = 3329 = q -> decodes to 0, and is not canonical
  b[1] = 0x0D;
  EXPECT_EQ(byte_decode<12>(b)[0], 0);
  EXPECT_FALSE(is_canonical12_ref(b));
  b[0] = 0x00;  // 0xD00 = 3328 = q - 1: canonical
  EXPECT_EQ(byte_decode<12>(b)[0], kQ - 1);
  EXPECT_TRUE(is_canonical12_ref(b));
  b[383] = 0xFF;  // last coefficient's high byte: 0xFF0 >= q
  EXPECT_FALSE(is_canonical12_ref(b));
}

}  // namespace
}  // namespace pqkem::mlkem
