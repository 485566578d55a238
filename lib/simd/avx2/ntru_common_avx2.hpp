// pqkem: helpers shared by the NTRU AVX2 translation units (ntru_*_avx2.cpp) only.
// Included only by files compiled with -mavx2: every function here is `static inline`
// (internal linkage), so no copy of it can be picked by the linker for portable code.
#pragma once

#include <immintrin.h>

namespace pqkem::simd::avx2::ntru_detail {

/// x mod 3 in each 16-bit lane, for any uint16 x: floor(x / 3) = (x * 43691) >> 17 below 2^17,
/// the high half of the 16 x 16 product shifted by one.
static inline __m256i mod3_16(__m256i x) noexcept {
  const __m256i q = _mm256_srli_epi16(_mm256_mulhi_epu16(x, _mm256_set1_epi16(static_cast<short>(43691))), 1);
  return _mm256_sub_epi16(x, _mm256_add_epi16(q, _mm256_add_epi16(q, q)));
}

}  // namespace pqkem::simd::avx2::ntru_detail
