// Built once per x86 ISA: ntru_pack_avx2.cpp and ntru_pack_avx512.cpp include this file.
// NTRU decodings in AVX2 (ntru_kernels.inc has the contract): unpack_S3
// and unpack_Sq / unpack_Rq0, 16 coefficients per step; and the encoding pack_S3 (at its
// function).
//
//  - S3: coefficient i is digit i mod 5 of byte i / 5. Each 128-bit half of a step holds eight
//    consecutive coefficients, which read at most three consecutive bytes: one byte shuffle
//    puts each coefficient's byte b in its 16-bit lane, and floor(b / 3^k) is a high-half
//    product by a per-lane constant (exact for b < 256), so digit k = q_k - 3 q_(k+1). The
//    shuffle and the constants depend only on the step's position mod 5 (80 coefficients = 16
//    bytes): five patterns.
//  - Sq: eight D-bit fields (D = logq = 11, 12, 13) are D bytes. Both halves of a 32-bit-lane
//    vector see the group's 16 bytes; a byte shuffle puts the three bytes that hold field t in
//    lane t, a per-lane variable shift and a mask finish it; two groups pack to 16 lanes.
//
// Loads of 16 bytes run past a group; near the end they read from a zero-padded copy of the
// encoding's last 32 bytes (class Encoding; every encoding has more than 100), so nothing
// outside the encoding is read. The patterns are tables built at compile time. Positions are public; coefficient
// values move only through shuffles, shifts, masks and multiplications by constants.
#pragma once
#include <immintrin.h>

#include <cstring>

#include "secret.hpp"  // secure_wipe: defined in portable code (secret.cpp)
#include "simd/ntru/ntru_common_avx2.hpp"
#include "simd/ntru/ntru_isa.hpp"

namespace pqkem::simd::PQKEM_NTRU_NS {
namespace {

using ntru_detail::lanes_below;
using ntru_detail::sum_lanes16;

/// floor(2x * c / 2^16) = floor(x / 3^k) for x < 256 with c = ceil(2^15 / 3^k), k = 0 .. 5.
constexpr std::uint16_t kDiv[6] = {32768, 10923, 3641, 1214, 405, 135};
static_assert(3 * 10923 * 2 - 65536 < 256 && 9 * 3641 * 2 - 65536 < 256 && 27 * 1214 * 2 - 65536 < 256 &&
              81 * 405 * 2 - 65536 < 256 && 243 * 135 * 2 - 65536 < 256);

/// The S3 patterns of a step at position p mod 5 (16 = 1 mod 5, so step s has p = s mod 5): its
/// low half starts at phase phi = p, its high half at (p + 3) mod 5 (8 = 3 mod 5). For a half
/// starting at coefficient 5 o + phi, lane t reads byte o + (phi + t) / 5 (the byte shuffle;
/// high bytes zero) and takes digit k = (phi + t) mod 5 (the divisors 3^k and 3^(k+1)).
struct S3Patterns {
  alignas(32) std::uint8_t shuf[5][32] = {};
  alignas(32) std::uint16_t div_lo[5][16] = {}, div_hi[5][16] = {};
  constexpr S3Patterns() {
    for (int p = 0; p < 5; ++p)
      for (int h = 0; h < 2; ++h)
        for (int t = 0; t < 8; ++t) {
          const int phi = (p + 3 * h) % 5;
          shuf[p][16 * h + 2 * t] = static_cast<std::uint8_t>((phi + t) / 5);
          shuf[p][16 * h + 2 * t + 1] = 0x80;
          div_lo[p][8 * h + t] = kDiv[(phi + t) % 5];
          div_hi[p][8 * h + t] = kDiv[(phi + t) % 5 + 1];
        }
  }
};
alignas(32) constexpr S3Patterns kS3;

/// The Sq patterns for D-bit fields (D = 11, 12, 13): field t of a group of eight (t < 8; lanes
/// 0..3 in the low half, 4..7 in the high half, both halves reading the group's 16 bytes)
/// starts at bit D t: the byte shuffle takes bytes D t / 8 .. + 2 (D + 7 <= 20 bits fit in
/// three), the shift is D t mod 8.
struct QPatterns {
  alignas(32) std::uint8_t shuf[3][32] = {};
  alignas(32) std::uint32_t shift[3][8] = {};
  constexpr QPatterns() {
    for (int d = 0; d < 3; ++d)
      for (int t = 0; t < 8; ++t) {
        const int D = 11 + d, byte = D * t / 8;
        for (int j = 0; j < 4; ++j)
          shuf[d][16 * (t / 4) + 4 * (t % 4) + j] = j < 3 ? static_cast<std::uint8_t>(byte + j) : 0x80;
        shift[d][t] = static_cast<std::uint32_t>(D * t % 8);
      }
  }
};
alignas(32) constexpr QPatterns kQ;

inline __m256i load32(const void* p) noexcept { return _mm256_load_si256(static_cast<const __m256i*>(p)); }
inline __m128i loadu16(const std::uint8_t* p) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

/// An encoding of `len` bytes (len >= 32) read 16 bytes at a time: in place where the 16 bytes
/// stay inside it, else from a zero-padded copy of its last 32 bytes (wiped on destruction).
class Encoding {
public:
  Encoding(const std::uint8_t* in, int len) noexcept : m_in(in), m_len(len) { std::memcpy(m_tail, in + len - 32, 32); }
  ~Encoding() { secure_wipe(m_tail, sizeof m_tail); }
  Encoding(const Encoding&) = delete;
  Encoding& operator=(const Encoding&) = delete;
  int size() const noexcept { return m_len; }
  /// Bytes off .. off + 15 (zeros past the end); off is public.
  __m128i at(int off) const noexcept {
    return off + 16 <= m_len ? loadu16(m_in + off) : loadu16(m_tail + (off - (m_len - 32)));
  }

private:
  const std::uint8_t* m_in;
  int m_len;
  alignas(32) std::uint8_t m_tail[64] = {};
};

/// Sixteen S3 coefficients from step s = 5 S + j (j < 5, coefficients 16 s ..): the byte
/// shuffle, 2 b, floor(b / 3^k) and floor(b / 3^(k+1)) per lane, digit k.
template <int j>
inline __m256i s3_step(__m128i lo_bytes, __m128i hi_bytes) noexcept {
  const __m256i x = _mm256_inserti128_si256(_mm256_castsi128_si256(lo_bytes), hi_bytes, 1);
  const __m256i b2 = _mm256_slli_epi16(_mm256_shuffle_epi8(x, load32(kS3.shuf[j])), 1);
  const __m256i qk = _mm256_mulhi_epu16(b2, load32(kS3.div_lo[j])), qk1 = _mm256_mulhi_epu16(b2, load32(kS3.div_hi[j]));
  return _mm256_sub_epi16(qk, _mm256_add_epi16(qk1, _mm256_add_epi16(qk1, qk1)));
}

/// Stores the first `count` lanes of v at r (count <= 16).
inline void store_first(std::uint16_t* r, __m256i v, int count) noexcept {
  if (count >= 16) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(r), v);
  } else {
    alignas(32) std::uint16_t last[16];
    _mm256_store_si256(reinterpret_cast<__m256i*>(last), v);
    std::memcpy(r, last, 2 * static_cast<std::size_t>(count));
    secure_wipe(last, sizeof last);
  }
}

/// The eight D-bit fields of a group from its first 16 bytes, as 32-bit lanes.
template <int D>
inline __m256i q_group(__m128i bytes) noexcept {
  const __m256i x = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(bytes), load32(kQ.shuf[D - 11]));
  return _mm256_and_si256(_mm256_srlv_epi32(x, load32(kQ.shift[D - 11])), _mm256_set1_epi32((1 << D) - 1));
}

template <int D>
void q_frombytes(std::uint16_t* r, const std::uint8_t* in, int n, bool sum_zero) noexcept {
  const int deg = n - 1;
  const Encoding enc(in, (deg * D + 7) / 8);
  auto step = [&](__m128i lo, __m128i hi) noexcept {  // 16 fields from two groups' bytes
    return _mm256_permute4x64_epi64(_mm256_packus_epi32(q_group<D>(lo), q_group<D>(hi)), 0xD8);
  };
  __m256i sum = _mm256_setzero_si256();
  int c = 0;
  for (; c + 16 <= deg && D * (c / 8) + D + 16 <= enc.size(); c += 16) {  // both loads in place
    const std::uint8_t* p = in + D * (c / 8);
    const __m256i v = step(loadu16(p), loadu16(p + D));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(r + c), v);
    sum = _mm256_add_epi16(sum, v);
  }
  for (; c < deg; c += 16) {  // public; lanes from deg on (unused bits, then zeros) are dropped
    const int off = D * (c / 8);
    const __m256i v = _mm256_and_si256(step(enc.at(off), enc.at(off + D)), lanes_below(deg - c));
    store_first(r + c, v, deg - c);
    sum = _mm256_add_epi16(sum, v);
  }
  // Sq: r_{n-1} = 0. Rq0: r_{n-1} = -(r_0 + ... + r_{n-2}) mod q (the sum mod 2^16 is enough).
  r[n - 1] = sum_zero ? static_cast<std::uint16_t>((0u - sum_lanes16(sum)) & ((1u << D) - 1)) : 0;
  sum = _mm256_setzero_si256();
  __asm__ volatile("" : : "x"(sum));
}

}  // namespace

void PQKEM_NTRU_KERNEL(poly_s3_frombytes)(std::uint16_t* r, const std::uint8_t* in, int n) noexcept {
  const int deg = n - 1;
  const Encoding enc(in, (deg + 4) / 5);
  // Five steps (80 coefficients, 16 bytes) at a time: step j of block S reads 16 bytes at
  // 16 S + 16 j / 5 and at 16 S + (16 j + 8) / 5, in place while the block's last load (at
  // 16 S + 14) stays inside the encoding; the remaining steps one at a time through enc.at.
  int S = 0;
  for (; 80 * S + 80 <= deg && 16 * S + 14 + 16 <= enc.size(); ++S) {
    const std::uint8_t* p = in + 16 * S;
    std::uint16_t* o = r + 80 * S;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), s3_step<0>(loadu16(p), loadu16(p + 1)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 16), s3_step<1>(loadu16(p + 3), loadu16(p + 4)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32), s3_step<2>(loadu16(p + 6), loadu16(p + 8)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 48), s3_step<3>(loadu16(p + 9), loadu16(p + 11)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 64), s3_step<4>(loadu16(p + 12), loadu16(p + 14)));
  }
  for (int c = 80 * S; c < deg; c += 16) {  // public
    const __m128i lo = enc.at(c / 5), hi = enc.at((c + 8) / 5);
    __m256i d;
    switch ((c / 16) % 5) {
      case 0: d = s3_step<0>(lo, hi); break;
      case 1: d = s3_step<1>(lo, hi); break;
      case 2: d = s3_step<2>(lo, hi); break;
      case 3: d = s3_step<3>(lo, hi); break;
      default: d = s3_step<4>(lo, hi); break;
    }
    store_first(r + c, d, deg - c);
  }
  r[n - 1] = 0;
}

void PQKEM_NTRU_KERNEL(poly_s3_tobytes)(std::uint8_t* out, const std::uint16_t* c, int n) noexcept {
  const int deg = n - 1, full = deg / 5;
  // Byte j is the dot product of c[5j .. 5j + 8) with (1, 3, 9, 27, 81, 0, 0, 0): one 128-bit
  // load and half a vpmaddwd leave four 32-bit partial sums, which two rounds of (pack to 16
  // bits, vpmaddwd by ones) add up: fewer shuffles than vphaddd, measured as fast. Sixteen bytes
  // a step while its last load (c[5 (j + 15) .. + 8)) stays inside the n coefficients.
  const __m256i w = _mm256_setr_epi16(1, 3, 9, 27, 81, 0, 0, 0, 1, 3, 9, 27, 81, 0, 0, 0);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  // Bytes j .. j + 7 as 32-bit lanes: j .. j + 3 in the low half, j + 4 .. j + 7 in the high half.
  const auto eight = [&](int j) noexcept {
    __m256i m[4];
    for (int t = 0; t < 4; ++t) {
      const auto* lo = reinterpret_cast<const __m128i*>(c + 5 * (j + t));
      m[t] = _mm256_madd_epi16(_mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(c + 5 * (j + t + 4)), lo), w);
    }
    const __m256i ones = _mm256_set1_epi16(1);
    const __m256i x = _mm256_madd_epi16(_mm256_packus_epi32(m[0], m[1]), ones);
    const __m256i y = _mm256_madd_epi16(_mm256_packus_epi32(m[2], m[3]), ones);
    return _mm256_madd_epi16(_mm256_packus_epi32(x, y), ones);
  };
  int j = 0;
  for (; j + 16 <= full && 5 * (j + 15) + 8 <= n; j += 16) {            // public bounds
    const __m256i words = _mm256_packus_epi32(eight(j), eight(j + 8));  // j..j+3, j+8..j+11 | j+4..j+7, j+12..j+15
    const __m256i b = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(words, words), order);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j), _mm256_castsi256_si128(b));
  }
  for (; j < (deg + 4) / 5; ++j) {  // the last bytes (the very last may hold fewer than five)
    unsigned byte = 0;
    for (int k = 4; k >= 0; --k) byte = 3 * byte + (5 * j + k < deg ? c[5 * j + k] : 0u);  // public test
    out[j] = static_cast<std::uint8_t>(byte);
  }
}

void PQKEM_NTRU_KERNEL(poly_q_frombytes)(std::uint16_t* r, const std::uint8_t* in, int n, int logq,
                                         bool sum_zero) noexcept {
  switch (logq) {  // public
    case 11: q_frombytes<11>(r, in, n, sum_zero); return;
    case 12: q_frombytes<12>(r, in, n, sum_zero); return;
    default: q_frombytes<13>(r, in, n, sum_zero); return;
  }
}

}  // namespace pqkem::simd::PQKEM_NTRU_NS
