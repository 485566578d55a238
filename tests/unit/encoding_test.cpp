// Compress/Decompress against the exact rational formula, and ByteEncode/ByteDecode round trips.
#include <gtest/gtest.h>

#include <random>

#include "mlkem/encoding.hpp"

namespace pqkem::mlkem {
namespace {

// round(2^d x / q) mod 2^d with exact integer arithmetic (ties cannot occur: q is odd).
// Division is fine here: this is test code on public values.
int compress_exact(int d, int x) { return static_cast<int>(((std::int64_t{2} << d) * x + kQ) / (2 * kQ)) % (1 << d); }
int decompress_exact(int d, int y) { return static_cast<int>((std::int64_t{2} * kQ * y + (1 << d)) / (std::int64_t{2} << d)); }

template <int D>
void check_compress_all() {
  for (int x = 0; x < kQ; ++x) ASSERT_EQ(compress<D>(static_cast<std::int16_t>(x)), compress_exact(D, x)) << "d=" << D << " x=" << x;
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

TEST(Encoding, CompressDecompressEveryD) {
  check_compress_all<1>();
  check_compress_all<4>();
  check_compress_all<5>();
  check_compress_all<10>();
  check_compress_all<11>();
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
  f[0] = 1;  // bit 0 of byte 0
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
  EXPECT_FALSE(is_canonical_encoding(b));
  b[0] = 0x00;  // 0xD00 = 3328 = q - 1: canonical
  EXPECT_EQ(byte_decode<12>(b)[0], kQ - 1);
  EXPECT_TRUE(is_canonical_encoding(b));
  b[383] = 0xFF;  // last coefficient's high byte: 0xFF0 >= q
  EXPECT_FALSE(is_canonical_encoding(b));
}

}  // namespace
}  // namespace pqkem::mlkem
