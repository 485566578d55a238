// ML-KEM AVX-512 sampling kernels: SampleNTT's rejection step with vpcompressw, and the sponge
// batch scheduler with it (contracts in mlkem_avx512.hpp). Compiled with the AVX-512 flags; internal helpers have
// internal linkage.
#include "simd/mlkem/mlkem_avx512.hpp"

#include <immintrin.h>

#include "mlkem/constants.hpp"
#include "simd/keccak/keccak_avx512.hpp"
#include "simd/mlkem/mlkem_avx2.hpp"
#include "simd/mlkem/xof_batch_x86.hpp"

namespace pqkem::simd::avx512 {
namespace {

// Candidate k (a 16-bit lane) of a 48-byte chunk: the three bytes 3t, 3t+1, 3t+2 with t = k / 2
// hold two 12-bit candidates; k even takes bytes 3t, 3t+1 (low 12 bits), k odd bytes 3t+1, 3t+2
// (shifted right by 4). The first 32 entries serve a 24-byte chunk as well.
struct RejIndex {
  std::uint8_t b[64];
};
constexpr RejIndex make_rej_index() {
  RejIndex r{};
  for (int k = 0; k < 32; ++k) {
    const int first = 3 * (k / 2) + (k & 1);
    r.b[2 * k] = static_cast<std::uint8_t>(first);
    r.b[2 * k + 1] = static_cast<std::uint8_t>(first + 1);
  }
  return r;
}
alignas(64) constexpr RejIndex kRejIndex = make_rej_index();

/// How many of `count` accepted candidates still fit below 256 (public counts).
inline unsigned fitting(unsigned count, unsigned ctr) { return count < 256 - ctr ? count : 256 - ctr; }

}  // namespace

unsigned rej_uniform_avx512(std::int16_t a[256], unsigned ctr, const std::uint8_t* buf, std::size_t len) noexcept {
  constexpr std::int16_t q = mlkem::kQ;
  std::size_t pos = 0;
  // (The maskz forms with every lane selected, and 256-bit constants of their own: GCC 12's
  // unmasked vpermb and its 512-to-256-bit cast use an "undefined" vector that -Wuninitialized
  // reports.)
  const __m512i idx = _mm512_load_si512(kRejIndex.b);
  const __m512i shift = _mm512_set1_epi32(4 << 16);  // even lanes 0, odd lanes 4
  const __m512i mask12 = _mm512_set1_epi16(0x0FFF), bound = _mm512_set1_epi16(q);
  // The branches below depend on the counts of accepted candidates: public (the stream of rho).
  while (pos + 48 <= len && ctr < 256) {
    const __m512i x = _mm512_maskz_loadu_epi8(0x0000FFFFFFFFFFFFull, buf + pos);
    const __m512i spread = _mm512_maskz_permutexvar_epi8(~0ull, idx, x);
    const __m512i v = _mm512_and_si512(_mm512_srlv_epi16(spread, shift), mask12);
    const __mmask32 good = _mm512_cmplt_epu16_mask(v, bound);
    const unsigned take = fitting(static_cast<unsigned>(__builtin_popcount(good)), ctr);
    _mm512_mask_storeu_epi16(a + ctr, _bzhi_u32(0xFFFFFFFFu, take), _mm512_maskz_compress_epi16(good, v));
    ctr += take;
    pos += 48;
  }
  const __m256i idx16 = _mm256_load_si256(reinterpret_cast<const __m256i*>(kRejIndex.b));
  const __m256i shift16 = _mm256_set1_epi32(4 << 16);
  const __m256i mask12_16 = _mm256_set1_epi16(0x0FFF), bound16 = _mm256_set1_epi16(q);
  while (pos + 24 <= len && ctr < 256) {
    const __m256i x = _mm256_maskz_loadu_epi8(0x00FFFFFFu, buf + pos);
    const __m256i spread = _mm256_maskz_permutexvar_epi8(0xFFFFFFFFu, idx16, x);
    const __m256i v = _mm256_and_si256(_mm256_srlv_epi16(spread, shift16), mask12_16);
    const __mmask16 good = _mm256_cmplt_epu16_mask(v, bound16);
    const unsigned take = fitting(static_cast<unsigned>(__builtin_popcount(good)), ctr);
    _mm256_mask_storeu_epi16(a + ctr, static_cast<__mmask16>(_bzhi_u32(0xFFFFu, take)),
                             _mm256_maskz_compress_epi16(good, v));
    ctr += take;
    pos += 24;
  }
  // Fewer than 24 bytes left: the AVX2 sampler's loop of three bytes at a time (with so few it
  // makes no vector load, so nothing past buf[len] is read).
  if (pos < len && ctr < 256) ctr = avx2::rej_uniform_avx2(a, ctr, buf + pos, len - pos);
  return ctr;
}

void xof_batch_avx512(const mlkem::XofBatchData& b) noexcept {
  x86::run_mlkem_xof_batch<keccak_jobs_avx512, rej_uniform_avx512>(b);
}

void xof_batch_x4_avx512(const mlkem::XofBatchData& b) noexcept {
  x86::run_mlkem_xof_batch<keccak_jobs_x4_avx512, rej_uniform_avx512>(b);
}

}  // namespace pqkem::simd::avx512
