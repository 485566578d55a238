// pqkem: helpers shared by the ML-KEM AVX2 translation units (mlkem_*_avx2.cpp) only.
// Included only by files compiled with -mavx2: every function here is `static inline`
// (internal linkage), so no copy of it can be picked by the linker for portable code.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "mlkem/constants.hpp"  // no intrinsics, no code: safe on both sides
#include "simd/transpose_x86.hpp"

namespace pqkem::simd::avx2::detail {

using mlkem::kBarrettV;
using mlkem::kQ;
using mlkem::kQInv;
using x86::transpose8x8;

/// Montgomery product by a constant with its twisted form zt = z q^-1 mod 2^16:
/// hi(a z) - hi(lo(a zt) q) == montgomery_reduce(a z) exactly. In: |a z| < q 2^15. Out: |r| < q.
static inline __m256i mul_zeta(__m256i a, __m256i z, __m256i zt) {
  const __m256i t = _mm256_mullo_epi16(a, zt);
  return _mm256_sub_epi16(_mm256_mulhi_epi16(a, z), _mm256_mulhi_epi16(t, _mm256_set1_epi16(kQ)));
}

/// fqmul on vectors: montgomery_reduce(a b). In: |a b| < q 2^15. Out: |r| < q.
static inline __m256i fqmul(__m256i a, __m256i b) {
  const __m256i lo = _mm256_mullo_epi16(a, b);
  const __m256i hi = _mm256_mulhi_epi16(a, b);
  const __m256i t = _mm256_mullo_epi16(lo, _mm256_set1_epi16(kQInv));
  return _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, _mm256_set1_epi16(kQ)));
}

/// barrett_reduce on vectors: a - q round(a v / 2^26), bit-exact with mlkem::barrett_reduce.
/// mulhrs(hi(a v), 32) = (hi(a v) + 2^9) >> 10 = (a v + 2^25) >> 26. Out: |r| <= (q-1)/2.
static inline __m256i barrett(__m256i a) {
  __m256i t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(kBarrettV));
  t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(32));
  return _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(kQ)));
}

/// Maps (-q, q) to [0, q).
static inline __m256i to_canonical(__m256i a) {
  return _mm256_add_epi16(a, _mm256_and_si256(_mm256_srai_epi16(a, 15), _mm256_set1_epi16(kQ)));
}

/// Subtracts q where a >= q. In: 0 <= a < 2q. Out: 0 <= r < q.
static inline __m256i cond_sub_q(__m256i a) {
  const __m256i r = _mm256_sub_epi16(a, _mm256_set1_epi16(kQ));
  return _mm256_add_epi16(r, _mm256_and_si256(_mm256_srai_epi16(r, 15), _mm256_set1_epi16(kQ)));
}

/// The second half of a 16 x 16 transposition: row k takes the low 128-bit lanes of rows k and
/// k + 8 of `in`, row k + 8 their high lanes (k < 8); `out` may be `in`.
static inline void exchange_lanes_mem(std::int16_t* out, const std::int16_t* in) {
  const auto* vi = reinterpret_cast<const __m256i*>(in);
  auto* vo = reinterpret_cast<__m256i*>(out);
  for (int k = 0; k < 8; ++k) {
    const __m256i c = _mm256_loadu_si256(vi + k), d = _mm256_loadu_si256(vi + 8 + k);
    _mm256_storeu_si256(vo + k, _mm256_permute2x128_si256(c, d, 0x20));
    _mm256_storeu_si256(vo + 8 + k, _mm256_permute2x128_si256(c, d, 0x31));
  }
}

/// 16 x 16 transposition of 256 int16 in memory (row i = elements 16 i .. 16 i + 15), from `in`
/// to `out` (which may be the same), in two passes of at most eight live registers: the in-lane
/// 8 x 8 transposition of each half, then the exchange of 128-bit lanes between rows k and k + 8
/// (the two commute). Holding all sixteen rows in registers at once spilled: 84 -> 23 ticks.
[[gnu::always_inline]] static inline void transpose16_mem(std::int16_t* out, const std::int16_t* in) {
  const auto* vi = reinterpret_cast<const __m256i*>(in);
  auto* vo = reinterpret_cast<__m256i*>(out);
  for (int h = 0; h < 16; h += 8) {
    __m256i r[8];
    for (int j = 0; j < 8; ++j) r[j] = _mm256_loadu_si256(vi + h + j);
    transpose8x8<16>(r, r);
    for (int j = 0; j < 8; ++j) _mm256_storeu_si256(vo + h + j, r[j]);
  }
  exchange_lanes_mem(out, out);
}

}  // namespace pqkem::simd::avx2::detail
