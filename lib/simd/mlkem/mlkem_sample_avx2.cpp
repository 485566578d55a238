// ML-KEM AVX2 sampling kernels: rejection sampling (SampleNTT), CBD (SamplePolyCBD), and the
// batch that feeds them from the 4-way Keccak (contracts in mlkem_avx2.hpp).
// Compiled with -mavx2 -mbmi -mbmi2 -mpopcnt; internal helpers have internal linkage, no STL.
#include <string.h>

#include "secret.hpp"  // secure_wipe: defined in portable code (secret.cpp)
#include "simd/keccak/keccak_avx2.hpp"
#include "simd/mlkem/mlkem_avx2.hpp"
#include "simd/mlkem/mlkem_common_avx2.hpp"
#include "simd/mlkem/xof_batch_x86.hpp"

namespace pqkem::simd::avx2 {
namespace {

using namespace detail;

/// For each 8-bit acceptance mask, the pshufb control that moves the accepted 16-bit lanes
/// (byte pairs 2k, 2k+1 for each set bit k, in order) to the front.
struct CompressTable {
  std::uint8_t idx[256][16];
};
constexpr CompressTable make_compress_table() {
  CompressTable t{};
  for (int m = 0; m < 256; ++m) {
    int n = 0;
    for (int k = 0; k < 8; ++k)
      if (m & (1 << k)) {
        t.idx[m][2 * n] = static_cast<std::uint8_t>(2 * k);
        t.idx[m][2 * n + 1] = static_cast<std::uint8_t>(2 * k + 1);
        ++n;
      }
    for (int j = 2 * n; j < 16; ++j) t.idx[m][j] = 0x80;
  }
  return t;
}
alignas(16) constexpr CompressTable kCompress = make_compress_table();

// Forty-eight bits (two 12-bit candidates per 3 bytes) per 16-bit lane pair: lane 2t gets bytes
// 3t, 3t+1 (low 12 bits), lane 2t+1 gets bytes 3t+1, 3t+2 (high 12 bits). The 128-bit lanes
// see bytes 0..15 and 8..23 of the 24-byte chunk after the qword permutation [0,1,1,2].
alignas(32) constexpr std::uint8_t kRejShuffle[32] = {0, 1, 1, 2, 3, 4, 4, 5, 6,  7,  7,  8,  9,  10, 10, 11,
                                                      4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15};

}  // namespace

unsigned rej_uniform_avx2(std::int16_t a[256], unsigned ctr, const std::uint8_t* buf, std::size_t len) noexcept {
  std::size_t pos = 0;
  const __m256i shuf = _mm256_load_si256(reinterpret_cast<const __m256i*>(kRejShuffle));
  const __m256i mask12 = _mm256_set1_epi16(0x0FFF);
  const __m256i bound = _mm256_set1_epi16(kQ);
  // 24 bytes -> 16 candidates per step; the 32-byte load reads 8 bytes past the step, which
  // the contract allows (buf is readable up to len + 8). Stores of 8 lanes at a + ctr stay
  // inside a[256] while ctr <= 240 at the start of a step.
  while (ctr <= 256 - 16 && pos + 24 <= len) {
    __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(buf + pos));
    x = _mm256_permute4x64_epi64(x, 0x94);
    x = _mm256_shuffle_epi8(x, shuf);
    const __m256i v = _mm256_blend_epi16(_mm256_and_si256(x, mask12), _mm256_srli_epi16(x, 4), 0xAA);
    const __m256i good = _mm256_cmpgt_epi16(bound, v);
    const unsigned mm = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_packs_epi16(good, _mm256_setzero_si256())));
    const unsigned m0 = mm & 0xFF, m1 = (mm >> 16) & 0xFF;  // public: rejection on rho's stream
    const __m128i lo = _mm_shuffle_epi8(_mm256_castsi256_si128(v),
                                        _mm_load_si128(reinterpret_cast<const __m128i*>(kCompress.idx[m0])));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(a + ctr), lo);
    ctr += static_cast<unsigned>(_mm_popcnt_u32(m0));
    const __m128i hi = _mm_shuffle_epi8(_mm256_extracti128_si256(v, 1),
                                        _mm_load_si128(reinterpret_cast<const __m128i*>(kCompress.idx[m1])));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(a + ctr), hi);
    ctr += static_cast<unsigned>(_mm_popcnt_u32(m1));
    pos += 24;
  }
  // The rest, three bytes at a time, exactly as the portable loop.
  for (; pos + 3 <= len && ctr < 256; pos += 3) {
    const int d1 = buf[pos] | ((buf[pos + 1] & 0x0f) << 8);
    const int d2 = (buf[pos + 1] >> 4) | (buf[pos + 2] << 4);
    if (d1 < kQ) a[ctr++] = static_cast<std::int16_t>(d1);
    if (d2 < kQ && ctr < 256) a[ctr++] = static_cast<std::int16_t>(d2);
  }
  return ctr;
}

namespace {

// eta = 2: per byte, two coefficients (low nibble first); nibble = a0 a1 b0 b1 (bits), value
// (a0 + a1) - (b0 + b1). 16 input bytes -> 32 coefficients.
void cbd2(std::int16_t* a, const std::uint8_t* bytes) {
  const __m128i m55 = _mm_set1_epi8(0x55), m33 = _mm_set1_epi8(0x33), m0f = _mm_set1_epi8(0x0F);
  for (int c = 0; c < 8; ++c) {
    const __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + 16 * c));
    const __m128i d = _mm_add_epi8(_mm_and_si128(t, m55), _mm_and_si128(_mm_srli_epi16(t, 1), m55));
    // each 2-bit field of d is a bit sum; per nibble: low field minus high field
    const __m128i lo = _mm_and_si128(d, m33), hi = _mm_and_si128(_mm_srli_epi16(d, 2), m33);
    // As a byte: (a0 - c0) + 16 (a1 - c1); adding 0x22 makes both nibbles a - c + 2 in [0, 4],
    // so the byte value (in [0, 68]) splits into nibbles without borrows.
    const __m128i off = _mm_add_epi8(_mm_sub_epi8(lo, hi), _mm_set1_epi8(0x22));
    const __m128i e = _mm_sub_epi8(_mm_and_si128(off, m0f), _mm_set1_epi8(2));
    const __m128i o = _mm_sub_epi8(_mm_and_si128(_mm_srli_epi16(off, 4), m0f), _mm_set1_epi8(2));
    const __m128i c0 = _mm_unpacklo_epi8(e, o), c1 = _mm_unpackhi_epi8(e, o);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + 32 * c), _mm256_cvtepi8_epi16(c0));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + 32 * c + 16), _mm256_cvtepi8_epi16(c1));
  }
}

// eta = 3: 3 bytes -> 4 coefficients of 6 bits (three bits minus the next three).
// 24 input bytes -> 32 coefficients per step.
void cbd3(std::int16_t* a, const std::uint8_t* bytes) {
  alignas(32) std::uint8_t buf[192 + 8];
  memcpy(buf, bytes, 192);
  memset(buf + 192, 0, 8);
  const __m256i shuf = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,  //
                                        4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
  const __m256i m249 = _mm256_set1_epi32(0x00249249);
  const __m256i m3f_lo = _mm256_set1_epi32(0x3F), m3f_hi = _mm256_set1_epi32(0x3F0000), m07 = _mm256_set1_epi16(7);
  for (int c = 0; c < 8; ++c) {
    __m256i t = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(buf + 24 * c));
    t = _mm256_shuffle_epi8(_mm256_permute4x64_epi64(t, 0x94), shuf);
    const __m256i d =
        _mm256_add_epi32(_mm256_add_epi32(_mm256_and_si256(t, m249), _mm256_and_si256(_mm256_srli_epi32(t, 1), m249)),
                         _mm256_and_si256(_mm256_srli_epi32(t, 2), m249));
    // fields f0..f3 at bits 0, 6, 12, 18 -> A = [f0, f1], B = [f2, f3] as 16-bit pairs
    const __m256i fa = _mm256_or_si256(_mm256_and_si256(d, m3f_lo), _mm256_and_si256(_mm256_slli_epi32(d, 10), m3f_hi));
    const __m256i fb = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(d, 12), m3f_lo),
                                       _mm256_and_si256(_mm256_srli_epi32(d, 2), m3f_hi));
    const __m256i va = _mm256_sub_epi16(_mm256_and_si256(fa, m07), _mm256_and_si256(_mm256_srli_epi16(fa, 3), m07));
    const __m256i vb = _mm256_sub_epi16(_mm256_and_si256(fb, m07), _mm256_and_si256(_mm256_srli_epi16(fb, 3), m07));
    const __m256i lo = _mm256_unpacklo_epi32(va, vb), hi = _mm256_unpackhi_epi32(va, vb);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + 32 * c), _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + 32 * c + 16), _mm256_permute2x128_si256(lo, hi, 0x31));
  }
  secure_wipe(buf, sizeof buf);
}

}  // namespace

void sample_poly_cbd_avx2(std::int16_t a[256], const std::uint8_t* bytes, int eta) noexcept {
  if (eta == 2)
    cbd2(a, bytes);
  else
    cbd3(a, bytes);
}

void xof_batch_avx2(const mlkem::XofBatchData& b) noexcept {
  x86::run_mlkem_xof_batch<keccak_jobs_avx2, rej_uniform_avx2>(b);
}

}  // namespace pqkem::simd::avx2
