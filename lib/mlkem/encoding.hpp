// FIPS 203 Algorithms 5 and 6 (ByteEncode_d, ByteDecode_d) and Compress_d / Decompress_d
// (section 4.2.1). All branch-free and division-free: Compress on secret data must not use
// `/` (the KyberSlash timing leak), so the division by q is a multiplication by a constant.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>

#include "mlkem/poly.hpp"
#include "util/le_bytes.hpp"

namespace pqkem::mlkem {

using Coeffs = std::array<std::int16_t, kN>;

/// Compress_d(x) = round(2^d / q * x) mod 2^d. In: 0 <= x < q. Out: 0 <= r < 2^d.
/// Computed as floor((x M + c) / 2^(31-d)) mod 2^d with M = round(2^31 / q) = 645084 and
/// c = 2^(30-d) - 500: x M / 2^(31-d) is x 2^d / q with a relative error below 2^-21, and the
/// offset c (one half, less a margin) rounds to nearest. No division (KyberSlash); all in
/// 32 bits (x M + c < 2^32), so the compiler can vectorize it; x M is formed as
/// x (M mod 2^16) + (9 x) 2^16 (M = 9 2^16 + 55260), two 16-bit multiplies that SSE2 has
/// (a 32-bit one it would emulate). Exact for every d in 1..11 and every x in [0, q):
/// checked exhaustively in the unit tests.
template <int D>
constexpr std::int16_t compress(std::int16_t x) noexcept {
  static_assert(D >= 1 && D <= 11);
  constexpr std::uint32_t kM = 645084;  // round(2^31 / q)
  constexpr std::uint32_t kMHi = kM >> 16, kMLo = kM & 0xffff;
  constexpr std::uint32_t kC = (std::uint32_t{1} << (30 - D)) - 500;
  const auto u = static_cast<std::uint16_t>(x);
  const auto hi = static_cast<std::uint16_t>(u * kMHi);  // 9 x < 2^16 for x < q
  const std::uint32_t n = static_cast<std::uint32_t>(u) * kMLo + (static_cast<std::uint32_t>(hi) << 16) + kC;
  return static_cast<std::int16_t>((n >> (31 - D)) & ((1u << D) - 1));
}

/// Decompress_d(y) = round(q / 2^d * y). In: 0 <= y < 2^d. Out: 0 <= r < q.
template <int D>
constexpr std::int16_t decompress(std::int16_t y) noexcept {
  static_assert(D >= 1 && D <= 11);
  return static_cast<std::int16_t>((static_cast<std::uint32_t>(y) * kQ + (1u << (D - 1))) >> D);
}

namespace detail {

/// Coefficient J (0 <= J < 8) of a group of eight D-bit values packed little-endian into the
/// 8 D bits lo | hi << 64. All shifts are compile-time constants.
template <int D, int J>
inline std::uint32_t unpack(std::uint64_t lo, std::uint64_t hi) noexcept {
  constexpr int kS = D * J;
  constexpr std::uint64_t kMask = (std::uint64_t{1} << D) - 1;
  if constexpr (kS >= 64) {
    return static_cast<std::uint32_t>((hi >> (kS - 64)) & kMask);
  } else if constexpr (kS + D <= 64) {
    return static_cast<std::uint32_t>((lo >> kS) & kMask);
  } else {
    return static_cast<std::uint32_t>(((lo >> kS) | (hi << (64 - kS))) & kMask);
  }
}

/// The inverse of unpack: ors the D-bit value v into position J of (lo, hi).
template <int D, int J>
inline void pack(std::uint64_t& lo, std::uint64_t& hi, std::uint64_t v) noexcept {
  constexpr int kS = D * J;
  if constexpr (kS >= 64) {
    hi |= v << (kS - 64);
  } else {
    lo |= v << kS;
    if constexpr (kS + D > 64) hi |= v >> (64 - kS);
  }
}

/// ByteEncode_D of eight values (D bytes), f[j] already in [0, 2^D).
template <int D, class Get>
inline void encode_group(std::uint8_t* out, Get&& get) noexcept {
  std::uint64_t lo = 0, hi = 0;
  [&]<int... J>(std::integer_sequence<int, J...>) { (pack<D, J>(lo, hi, static_cast<std::uint64_t>(get(J))), ...); }
  (std::make_integer_sequence<int, 8>{});
  if constexpr (D <= 8) {
    store_le<D>(out, lo);
  } else {
    store_le<8>(out, lo);
    store_le<D - 8>(out + 8, hi);
  }
}

/// ByteDecode_D of eight values from D bytes: put(j, f_j) for j < 8, 0 <= f_j < 2^D.
template <int D, class Put>
inline void decode_group(const std::uint8_t* in, Put&& put) noexcept {
  std::uint64_t lo, hi = 0;
  if constexpr (D <= 8) {
    lo = load_le<D>(in);
  } else {
    lo = load_le<8>(in);
    hi = load_le<D - 8>(in + 8);
  }
  [&]<int... J>(std::integer_sequence<int, J...>) { (put(J, unpack<D, J>(lo, hi)), ...); }
  (std::make_integer_sequence<int, 8>{});
}

}  // namespace detail

/// ByteEncode_d (Algorithm 5): 256 d-bit integers, little-endian bit order, into 32 d bytes.
/// In: 0 <= f_i < 2^d (d < 12) or 0 <= f_i < q (d = 12); higher bits are ignored. Eight
/// coefficients (d bytes) at a time, or one byte at a time when d divides 8; every shift is
/// fixed at compile time: no data-dependent control flow or index.
template <int D>
void byte_encode(const Coeffs& f, std::span<std::uint8_t, 32 * D> out) noexcept {
  static_assert(D >= 1 && D <= 12);
  if constexpr (8 % D == 0) {  // d = 1, 2, 4, 8: whole coefficients per byte, a loop that vectorizes
    constexpr int kPer = 8 / D;
    for (int i = 0; i < 32 * D; ++i) {
      unsigned b = 0;
      for (int j = 0; j < kPer; ++j) b |= (static_cast<unsigned>(f[kPer * i + j]) & ((1u << D) - 1)) << (D * j);
      out[i] = static_cast<std::uint8_t>(b);
    }
  } else {
    for (int g = 0; g < kN / 8; ++g) {
      detail::encode_group<D>(out.data() + D * g,
                              [&](int j) { return static_cast<std::uint16_t>(f[8 * g + j]) & ((1u << D) - 1); });
    }
  }
}

/// ByteDecode_d (Algorithm 6). Out: 0 <= f_i < 2^d; for d = 12 the values are reduced mod q
/// (0 <= f_i < q), as the standard defines ByteDecode_12 into Z_q.
template <int D>
Coeffs byte_decode(std::span<const std::uint8_t, 32 * D> in) noexcept {
  static_assert(D >= 1 && D <= 12);
  Coeffs f;
  if constexpr (8 % D == 0) {  // d = 1, 2, 4, 8: whole coefficients per byte, a loop that vectorizes
    constexpr int kPer = 8 / D;
    for (int i = 0; i < 32 * D; ++i) {
      const unsigned b = in[i];
      for (int j = 0; j < kPer; ++j) f[kPer * i + j] = static_cast<std::int16_t>((b >> (D * j)) & ((1u << D) - 1));
    }
  } else {
    for (int g = 0; g < kN / 8; ++g) {
      detail::decode_group<D>(in.data() + D * g,
                              [&](int j, std::uint32_t v) { f[8 * g + j] = static_cast<std::int16_t>(v); });
    }
  }
  if constexpr (D == 12) {
    for (auto& x : f) x = cond_sub_q(x);  // a separate pass, so that it vectorizes
  }
  return f;
}

/// Compress_d applied to every coefficient of a polynomial with |f_i| < q.
template <int D>
Coeffs compress_poly(const Poly& f) noexcept {
  Coeffs r;
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
void encode12_ref(const NttPoly& f, std::span<std::uint8_t, kPolyBytes> out) noexcept;
/// ByteDecode_12 into T_q. Out: 0 <= f_i < q.
NttPoly decode12_ref(std::span<const std::uint8_t, kPolyBytes> in) noexcept;
/// The modulus check of FIPS 203 section 7.2 on one 384-byte block: every 12-bit value < q.
/// Works on public data (an encapsulation key).
bool is_canonical12_ref(std::span<const std::uint8_t, kPolyBytes> in) noexcept;

}  // namespace pqkem::mlkem
