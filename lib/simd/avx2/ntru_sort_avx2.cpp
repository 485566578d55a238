// Constant-time int32 sort in AVX2 for sample_fixed_type (compiled with -mavx2; see ntru_avx2.h).
//
// Bitonic sorting network (Batcher 1968) on N = 2^t >= len elements, the padding being
// INT32_MAX: for block sizes k = 2, 4, ..., N and distances d = k/2, ..., 1, element i is
// compare-exchanged with i + d (i & d = 0), ascending when i & k = 0, descending otherwise.
// Distances >= 8 pair whole 8-lane vectors (min/max), two stages per pass over memory; distances
// 4, 2, 1 pair lanes inside one vector (a lane permutation, min, max, and a blend choosing min or
// max per lane), all three in one pass. Which
// elements are compared depends only on len; data moves only through min/max/blend.
#include <immintrin.h>

#include <climits>
#include <cstring>

#include "simd/avx2/ntru_avx2.h"

namespace pqkem::simd::avx2 {
namespace {

inline __m256i load8(const std::int32_t* p) noexcept { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
inline void store8(std::int32_t* p, __m256i v) noexcept { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }

/// Lane permutation exchanging lanes l and l ^ d (d = 4, 2, 1).
inline __m256i partner(__m256i x, int d) noexcept {
  if (d == 4) return _mm256_permute2x128_si256(x, x, 0x01);
  if (d == 2) return _mm256_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2));
  return _mm256_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1));
}

}  // namespace

void ntru_sort_int32(std::int32_t* x, std::size_t len) noexcept {
  if (len < 2) return;
  std::size_t n = 8;
  while (n < len) n <<= 1;  // public: depends on len only
  alignas(32) std::int32_t buf[kNtruSortMaxLen];
  std::memcpy(buf, x, 4 * len);
  for (std::size_t i = len; i < n; ++i) buf[i] = INT32_MAX;

  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (std::size_t k = 2; k <= n; k <<= 1) {
    std::size_t d = k / 2;
    // Two stages (d, d/2) at once while d/2 >= 8: four vectors at i, i + d/2, i + d, i + 3d/2
    // (i & d = i & d/2 = 0) stay in registers; all lie in one block of size k, one direction.
    for (; d >= 16; d >>= 2) {
      const std::size_t h = d / 2;
      for (std::size_t i = 0; i < n; i += 8) {
        if ((i & (d | h)) != 0) continue;  // public index tests
        __m256i a0 = load8(buf + i), a1 = load8(buf + i + h), a2 = load8(buf + i + d), a3 = load8(buf + i + d + h);
        const bool ascending = (i & k) == 0;
        auto cx = [ascending](__m256i& lo, __m256i& hi) {
          const __m256i mn = _mm256_min_epi32(lo, hi), mx = _mm256_max_epi32(lo, hi);
          lo = ascending ? mn : mx;
          hi = ascending ? mx : mn;
        };
        cx(a0, a2), cx(a1, a3);  // distance d
        cx(a0, a1), cx(a2, a3);  // distance d/2
        store8(buf + i, a0), store8(buf + i + h, a1), store8(buf + i + d, a2), store8(buf + i + d + h, a3);
      }
    }
    if (d >= 8) {  // one stage left at distance 8
      for (std::size_t i = 0; i < n; i += 8) {
        if ((i & d) != 0) continue;
        const __m256i a = load8(buf + i), b = load8(buf + i + d);
        const __m256i lo = _mm256_min_epi32(a, b), hi = _mm256_max_epi32(a, b);
        const bool ascending = (i & k) == 0;
        store8(buf + i, ascending ? lo : hi);
        store8(buf + i + d, ascending ? hi : lo);
      }
    }
    // Distances 4, 2, 1 (those below k) inside each vector. Lane l takes the maximum iff it is
    // the upper element of its pair (l & d) xor its block is descending ((i + l) & k). For
    // k >= 8 the direction is the same for the whole vector: immediate blends.
    if (k >= 8) {
      for (std::size_t i = 0; i < n; i += 8) {
        __m256i v = load8(buf + i);
        const bool ascending = (i & k) == 0;
        __m256i p = partner(v, 4), mn = _mm256_min_epi32(v, p), mx = _mm256_max_epi32(v, p);
        v = ascending ? _mm256_blend_epi32(mn, mx, 0xF0) : _mm256_blend_epi32(mx, mn, 0xF0);
        p = partner(v, 2), mn = _mm256_min_epi32(v, p), mx = _mm256_max_epi32(v, p);
        v = ascending ? _mm256_blend_epi32(mn, mx, 0xCC) : _mm256_blend_epi32(mx, mn, 0xCC);
        p = partner(v, 1), mn = _mm256_min_epi32(v, p), mx = _mm256_max_epi32(v, p);
        v = ascending ? _mm256_blend_epi32(mn, mx, 0xAA) : _mm256_blend_epi32(mx, mn, 0xAA);
        store8(buf + i, v);
      }
    } else {
      __m256i take_max[3];
      const __m256i kv = _mm256_set1_epi32(static_cast<int>(k));
      const __m256i desc = _mm256_cmpeq_epi32(_mm256_and_si256(lane, kv), kv);
      for (int s = 0, dd = 4; s < 3; ++s, dd >>= 1) {
        const __m256i dv = _mm256_set1_epi32(dd);
        take_max[s] = _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_and_si256(lane, dv), dv), desc);
      }
      for (std::size_t i = 0; i < n; i += 8) {
        __m256i v = load8(buf + i);
        for (int s = 0, dd = 4; s < 3; ++s, dd >>= 1) {
          if (static_cast<std::size_t>(dd) >= k) continue;
          const __m256i p = partner(v, dd);
          v = _mm256_blendv_epi8(_mm256_min_epi32(v, p), _mm256_max_epi32(v, p), take_max[s]);
        }
        store8(buf + i, v);
      }
    }
  }
  std::memcpy(x, buf, 4 * len);
  std::memset(buf, 0, sizeof buf);
  __asm__ volatile("" : : "r"(buf) : "memory");
}

}  // namespace pqkem::simd::avx2
