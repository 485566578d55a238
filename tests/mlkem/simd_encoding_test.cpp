// The encoding kernels of the ML-KEM AVX2 backend against their portable twins
// (lib/mlkem/encoding.cpp, RefBackend): Compress + ByteEncode on every value, ByteDecode +
// Decompress, ByteEncode12 / ByteDecode12 and the modulus check. Built with the other ML-KEM
// SIMD tests (mlkem_avx2_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "mlkem/backend.hpp"
#include "mlkem/encoding.hpp"
#include "simd_fixture.hpp"

namespace pqkem::mlkem {
namespace {

#if PQKEM_HAVE_AVX2
template <int D>
void check_compress_encode(Avx2Kernel& self, const Arr& a) {
  (void)self;
  std::array<std::uint8_t, 32 * D> want{};
  RefBackend::compress_encode<D>(Poly{a}, want);
  std::vector<std::uint8_t> got(32 * D);  // exactly: ASan catches a write past it
  av::compress_encode_avx2(got.data(), a.data(), D);
  ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << "d = " << D;
}

template <int D>
void check_decode_decompress(const std::vector<std::uint8_t>& bytes) {
  // Exactly 32 D bytes on the heap, so that ASan catches a read past them.
  const std::vector<std::uint8_t> exact(bytes.begin(), bytes.begin() + 32 * D);
  const auto in = std::span<const std::uint8_t, 32 * D>(exact.data(), 32 * D);
  const Poly want = RefBackend::decode_decompress<D>(in);
  Arr got;
  av::decode_decompress_avx2(got.data(), exact.data(), D);
  ASSERT_EQ(got, want.c) << "d = " << D;
}

TEST_F(Avx2Kernel, CompressEncodeMatchesPortableOnEveryValue) {
  // Every representative in (-q, q) appears at every position of some polynomial.
  std::vector<Arr> polys;
  for (int start = -(kQ - 1); start < kQ; start += kN) {
    Arr a;
    for (int i = 0; i < kN; ++i) a[i] = static_cast<std::int16_t>(std::min(start + i, kQ - 1));
    polys.push_back(a);
    std::rotate(a.begin(), a.begin() + 77, a.end());
    polys.push_back(a);
  }
  for (const Arr& a : inputs(kQ)) polys.push_back(a);
  for (const Arr& a : polys) {
    check_compress_encode<1>(*this, a);
    check_compress_encode<4>(*this, a);
    check_compress_encode<5>(*this, a);
    check_compress_encode<10>(*this, a);
    check_compress_encode<11>(*this, a);
  }
}

TEST_F(Avx2Kernel, DecodeDecompressMatchesPortable) {
  for (int t = 0; t < 300; ++t) {
    std::vector<std::uint8_t> b = random_bytes(32 * 11);
    if (t == 0) std::fill(b.begin(), b.end(), 0xFF);
    if (t == 1) std::fill(b.begin(), b.end(), 0x00);
    check_decode_decompress<1>(b);
    check_decode_decompress<4>(b);
    check_decode_decompress<5>(b);
    check_decode_decompress<10>(b);
    check_decode_decompress<11>(b);
  }
}

TEST_F(Avx2Kernel, ByteEncodeDecode12MatchPortable) {
  for (int t = 0; t < 300; ++t) {
    std::vector<std::uint8_t> b = random_bytes(kPolyBytes);
    if (t == 0) std::fill(b.begin(), b.end(), 0xFF);  // 4095 everywhere
    if (t == 1)
      for (std::size_t p = 0; p < kPolyBytes; p += 3) {  // q - 1 and q alternately... both slots
        b[p] = static_cast<std::uint8_t>((kQ - 1) & 0xFF);
        b[p + 1] = static_cast<std::uint8_t>(((kQ - 1) >> 8) | ((kQ & 0xF) << 4));
        b[p + 2] = static_cast<std::uint8_t>(kQ >> 4);
      }
    const auto in = std::span<const std::uint8_t, kPolyBytes>(b.data(), kPolyBytes);
    const NttPoly want = decode12_ref(in);
    Arr got;
    av::decode12_avx2(got.data(), b.data());
    ASSERT_EQ(transposed(got), want.c);
    ASSERT_EQ(av::is_canonical12_avx2(b.data()), is_canonical12_ref(in));

    const Arr a = random_coeffs(kQ);
    std::array<std::uint8_t, kPolyBytes> e_ref{}, e_avx{};
    encode12_ref(NttPoly{a}, e_ref);
    av::encode12_avx2(e_avx.data(), transposed(a).data());
    ASSERT_EQ(e_avx, e_ref);
    // Nothing is written past the 384 bytes (the kernel stores 16 bytes at a time).
    std::array<std::uint8_t, kPolyBytes + 32> guarded;
    guarded.fill(0xA5);
    av::encode12_avx2(guarded.data(), transposed(a).data());
    ASSERT_TRUE(std::equal(e_ref.begin(), e_ref.end(), guarded.begin()));
    ASSERT_TRUE(std::all_of(guarded.begin() + kPolyBytes, guarded.end(), [](std::uint8_t x) { return x == 0xA5; }));
  }
  // A single unreduced coefficient at each position is caught.
  for (int pos = 0; pos < kN; ++pos) {
    std::array<std::uint8_t, kPolyBytes> b{};
    const std::size_t p = 3 * static_cast<std::size_t>(pos / 2);
    if (pos % 2 == 0) {
      b[p] = kQ & 0xFF;
      b[p + 1] = kQ >> 8;
    } else {
      b[p + 1] = static_cast<std::uint8_t>((kQ & 0xF) << 4);
      b[p + 2] = static_cast<std::uint8_t>(kQ >> 4);
    }
    ASSERT_FALSE(av::is_canonical12_avx2(b.data())) << pos;
  }
}
#endif  // PQKEM_HAVE_AVX2

}  // namespace
}  // namespace pqkem::mlkem
