// FIPS 203 Algorithms 5 and 6 (ByteEncode_d, ByteDecode_d) and Compress_d / Decompress_d
// (section 4.2.1). All branch-free and division-free: Compress on secret data must not use
// `/` (the KyberSlash timing leak), so the division by q is a multiplication by a constant.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "mlkem/poly.hpp"

namespace pqkem::mlkem {

using Coeffs = std::array<std::int16_t, kN>;

/// Compress_d(x) = round(2^d / q * x) mod 2^d. In: 0 <= x < q. Out: 0 <= r < 2^d.
/// floor(((x << d) + (q-1)/2) / q) equals the rounding (q is odd, so no ties), and the
/// quotient is (n * ceil(2^36 / q)) >> 36, exact for every n < 2^23 (error n*e/2^36 < 1,
/// e = M*q - 2^36 < 2^12); checked exhaustively in the unit tests.
template <int D>
constexpr std::int16_t compress(std::int16_t x) noexcept {
  static_assert(D >= 1 && D <= 11);
  constexpr std::uint64_t kMagic = ((std::uint64_t{1} << 36) + kQ - 1) / kQ;
  const std::uint64_t n = (static_cast<std::uint64_t>(static_cast<std::uint16_t>(x)) << D) + (kQ - 1) / 2;
  return static_cast<std::int16_t>(((n * kMagic) >> 36) & ((1u << D) - 1));
}

/// Decompress_d(y) = round(q / 2^d * y). In: 0 <= y < 2^d. Out: 0 <= r < q.
template <int D>
constexpr std::int16_t decompress(std::int16_t y) noexcept {
  static_assert(D >= 1 && D <= 11);
  return static_cast<std::int16_t>((static_cast<std::uint32_t>(y) * kQ + (1u << (D - 1))) >> D);
}

/// ByteEncode_d (Algorithm 5): 256 d-bit integers, little-endian bit order, into 32 d bytes.
/// In: 0 <= f_i < 2^d (d < 12) or 0 <= f_i < q (d = 12).
template <int D>
void byte_encode(const Coeffs& f, std::span<std::uint8_t, 32 * D> out) noexcept {
  static_assert(D >= 1 && D <= 12);
  std::uint64_t acc = 0;
  int bits = 0;
  std::size_t o = 0;
  for (int i = 0; i < kN; ++i) {
    acc |= static_cast<std::uint64_t>(static_cast<std::uint16_t>(f[i]) & ((1u << D) - 1)) << bits;
    bits += D;
    while (bits >= 8) {  // the loop count depends only on D and i, never on data
      out[o++] = static_cast<std::uint8_t>(acc);
      acc >>= 8;
      bits -= 8;
    }
  }
}

/// ByteDecode_d (Algorithm 6). Out: 0 <= f_i < 2^d; for d = 12 the values are reduced mod q
/// (0 <= f_i < q), as the standard defines ByteDecode_12 into Z_q.
template <int D>
Coeffs byte_decode(std::span<const std::uint8_t, 32 * D> in) noexcept {
  static_assert(D >= 1 && D <= 12);
  Coeffs f{};
  std::uint64_t acc = 0;
  int bits = 0;
  std::size_t p = 0;
  for (int i = 0; i < kN; ++i) {
    while (bits < D) {
      acc |= static_cast<std::uint64_t>(in[p++]) << bits;
      bits += 8;
    }
    f[i] = static_cast<std::int16_t>(acc & ((1u << D) - 1));
    acc >>= D;
    bits -= D;
    if constexpr (D == 12) f[i] = cond_sub_q(f[i]);
  }
  return f;
}

/// Compress_d applied to every coefficient of a polynomial with |f_i| < q.
template <int D>
Coeffs compress_poly(const Poly& f) noexcept {
  Coeffs r{};
  for (int i = 0; i < kN; ++i) r[i] = compress<D>(to_canonical(f.c[i]));
  return r;
}

template <int D>
Poly decompress_poly(const Coeffs& y) noexcept {
  Poly r;
  for (int i = 0; i < kN; ++i) r.c[i] = decompress<D>(y[i]);
  return r;
}

/// ByteEncode_12 of a T_q element with |f_i| < q (mapped to [0, q) first).
void encode_ntt_poly(const NttPoly& f, std::span<std::uint8_t, kPolyBytes> out) noexcept;
/// ByteDecode_12 into T_q. Out: 0 <= f_i < q.
NttPoly decode_ntt_poly(std::span<const std::uint8_t, kPolyBytes> in) noexcept;
/// The modulus check of FIPS 203 section 7.2 on one 384-byte block: every 12-bit value < q.
/// Works on public data (an encapsulation key).
bool is_canonical_encoding(std::span<const std::uint8_t, kPolyBytes> in) noexcept;

}  // namespace pqkem::mlkem
