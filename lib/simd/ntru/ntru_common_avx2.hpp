// pqkem: helpers shared by the NTRU AVX2 translation units (ntru_*_avx2.cpp) only.
// Included only by files compiled with -mavx2: every function here is `static inline`
// (internal linkage), so no copy of it can be picked by the linker for portable code.
#pragma once

#include "simd/ntru/ntru_isa.hpp"

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pqkem::simd::PQKEM_NTRU_NS::ntru_detail {

/// Words of a coefficient array padded to a multiple of 16, for every n (n <= 821).
constexpr int kPadMax = 832;

/// Zeroes `words` words at p (32-byte aligned, words a multiple of 16), a size known at compile
/// time (the compiler may turn the loop into a memset call: measured, both are as fast); the
/// barrier keeps the stores.
template <int words>
[[gnu::always_inline]] static inline void wipe_vectors(std::uint16_t* p) noexcept {
  static_assert(words % 16 == 0);
  // Both loop bounds are constants, so the 32-byte loop visibly runs (words % 32) / 16 times:
  // with a bound left to the first loop's exit value, GCC 12 unrolled the second loop past the
  // array and warned (-Warray-bounds) about stores that never run.
#ifdef PQKEM_NTRU_EVEX
  // 64 bytes per store (unaligned: p may be 32-byte aligned only). Measured: the standalone
  // products wipe 20-45 KB of workspace, and half the stores made them 5-10% faster.
  constexpr int kWide = words / 32 * 32;
  const __m512i z512 = _mm512_setzero_si512();
#pragma GCC unroll 8
  for (int i = 0; i < kWide; i += 32) _mm512_storeu_si512(p + i, z512);
#else
  constexpr int kWide = 0;
#endif
  if constexpr (kWide < words) {
    const __m256i z = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (int i = kWide; i < words; i += 16) _mm256_store_si256(reinterpret_cast<__m256i*>(p + i), z);
  }
  __asm__ volatile("" : : "r"(p) : "memory");
}

static inline __m256i load16(const std::uint16_t* p) noexcept {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
static inline void store16(std::uint16_t* p, __m256i v) noexcept {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}

/// x mod 3 for x < 2^17: floor(x / 3) = (x * 43691) >> 17 on that range.
static inline std::uint32_t mod3_scalar(std::uint32_t x) noexcept {
  return x - 3 * static_cast<std::uint32_t>((std::uint64_t{x} * 43691u) >> 17);
}

/// x mod 3 in each 16-bit lane, for any uint16 x: the same quotient as mod3_scalar, as the high
/// half of the 16 x 16 product shifted by one.
static inline __m256i mod3_16(__m256i x) noexcept {
  const __m256i q = _mm256_srli_epi16(_mm256_mulhi_epu16(x, _mm256_set1_epi16(static_cast<short>(43691))), 1);
  return _mm256_sub_epi16(x, _mm256_add_epi16(q, _mm256_add_epi16(q, q)));
}

/// All ones in the 16-bit lanes below `count` (a public number, |count| < 2^15), zero in the
/// others.
static inline __m256i lanes_below(int count) noexcept {
  const __m256i lane = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  return _mm256_cmpgt_epi16(_mm256_set1_epi16(static_cast<short>(count)), lane);
}

/// Bit l of `bits` as all ones or zero in 16-bit lane l.
static inline __m256i bits_to_lanes(std::uint16_t bits) noexcept {
  const __m256i lane_bit = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
                                             static_cast<short>(0x8000));
  return _mm256_cmpeq_epi16(_mm256_and_si256(_mm256_set1_epi16(static_cast<short>(bits)), lane_bit), lane_bit);
}

/// The sum of the 16 lanes of v mod 2^16.
static inline std::uint16_t sum_lanes16(__m256i v) noexcept {
  __m128i t = _mm_add_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  t = _mm_add_epi16(t, _mm_shuffle_epi32(t, _MM_SHUFFLE(1, 0, 3, 2)));
  t = _mm_add_epi16(t, _mm_shuffle_epi32(t, _MM_SHUFFLE(2, 3, 0, 1)));
  t = _mm_add_epi16(t, _mm_srli_epi32(t, 16));
  return static_cast<std::uint16_t>(_mm_cvtsi128_si32(t));
}

}  // namespace pqkem::simd::PQKEM_NTRU_NS::ntru_detail
