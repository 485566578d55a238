// Built once per x86 ISA: ntru_lift_avx2.cpp and ntru_lift_avx512.cpp include this file.
// NTRU-HRSS message lift and the coefficient conversions Rq -> S3, Z3 -> Zq (HPS's lift) and
// trinary Zq -> Z3 in AVX2 (ntru_kernels.inc has the contracts).
//
// The portable lift (lib/ntru/poly.cpp) divides m by (x - 1) mod (3, Phi_n) with a running
// prefix sum, one coefficient at a time, and its 16-bit stores then meet the wide loads of the
// next loops (store-forwarding stalls): about 3k ticks at n = 701, a tenth of a decapsulation.
// Here every pass is 16 lanes wide, the prefix sum included (a scan inside each 16-lane vector
// plus a carried total), and the product by (x - 1) is poly_mul_x_minus_1.
#pragma once
#include <immintrin.h>

#include <cstring>

#include "secret.hpp"  // secure_wipe: defined in portable code (secret.cpp)
#include "simd/ntru/ntru_common_avx2.hpp"
#include "simd/ntru/ntru_isa.hpp"

namespace pqkem::simd::PQKEM_NTRU_NS {
namespace {

using ntru_detail::kPadMax;
using ntru_detail::lanes_below;
using ntru_detail::mod3_16;
using ntru_detail::mod3_scalar;
using ntru_detail::sum_lanes16;

/// Inclusive prefix sums of the 16 lanes of v (mod 2^16).
inline __m256i prefix16(__m256i v) noexcept {
  v = _mm256_add_epi16(v, _mm256_slli_si256(v, 2));
  v = _mm256_add_epi16(v, _mm256_slli_si256(v, 4));
  v = _mm256_add_epi16(v, _mm256_slli_si256(v, 8));  // each 128-bit half scanned
  const __m256i lane7 = _mm256_set1_epi16(0x0F0E);   // bytes 14, 15: the half's last lane
  const __m256i low_total = _mm256_shuffle_epi8(_mm256_permute2x128_si256(v, v, 0x08), lane7);  // [0 | lo_7]
  return _mm256_add_epi16(v, low_total);
}

/// Lane 15 of v in every lane.
inline __m256i last_lane(__m256i v) noexcept {
  return _mm256_shuffle_epi8(_mm256_permute4x64_epi64(v, 0xFF), _mm256_set1_epi16(0x0706));
}

/// {0, 1, 2} -> {0, 1, q - 1} in each lane (qmask = q - 1): bit 1 set -> all ones below q.
inline __m256i z3_to_zq16(__m256i c, __m256i qmask) noexcept {
  return _mm256_or_si256(c, _mm256_and_si256(_mm256_sub_epi16(_mm256_setzero_si256(), _mm256_srli_epi16(c, 1)), qmask));
}

/// r_i = f(a_i) for i < n, 16 lanes at a time; r may alias a. The last block (ending at n,
/// overlapping the one before it when 16 does not divide n) is read before anything is written,
/// so in place it still sees the input.
template <class F>
inline void map16(std::uint16_t* r, const std::uint16_t* a, int n, F f) noexcept {
  const __m256i last = f(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + n - 16)));
  for (int i = 0; i + 16 <= n; i += 16)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(r + i),
                        f(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i))));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(r + n - 16), last);
}

}  // namespace

void PQKEM_NTRU_KERNEL(poly_rq_to_s3)(std::uint16_t* r, const std::uint16_t* a, int n, int logq) noexcept {
  // As poly_rq_to_s3_ref: lift(v) = c + (c >> (logq - 1)) (-q mod 3) with c = v mod q (a
  // representative of the centered value mod 3, below q + 2), then (lift(a_i) + 2 lift(a_{n-1}))
  // mod 3, below 3 (q + 2) < 2^16.
  const __m256i mask = _mm256_set1_epi16(static_cast<short>((1 << logq) - 1));
  const __m256i minus_q_mod_3 = _mm256_set1_epi16(static_cast<short>(logq % 2 ? 1 : 2));  // 2^odd = 2, 2^even = 1 mod 3
  const __m128i top_shift = _mm_cvtsi32_si128(logq - 1);
  const auto lift = [&](__m256i v) noexcept {
    const __m256i c = _mm256_and_si256(v, mask);
    return _mm256_add_epi16(c, _mm256_mullo_epi16(_mm256_srl_epi16(c, top_shift), minus_q_mod_3));
  };
  const __m256i t = _mm256_slli_epi16(lift(_mm256_set1_epi16(static_cast<short>(a[n - 1]))), 1);
  map16(r, a, n, [&](__m256i v) noexcept { return mod3_16(_mm256_add_epi16(lift(v), t)); });
}

void PQKEM_NTRU_KERNEL(poly_z3_to_zq)(std::uint16_t* r, const std::uint16_t* a, int n, int logq) noexcept {
  const __m256i mask = _mm256_set1_epi16(static_cast<short>((1 << logq) - 1));
  map16(r, a, n, [&](__m256i c) noexcept { return z3_to_zq16(c, mask); });
}

void PQKEM_NTRU_KERNEL(poly_trinary_zq_to_z3)(std::uint16_t* r, const std::uint16_t* a, int n, int logq) noexcept {
  // q - 1 -> (q - 1) ^ 1 = q - 2 -> low bits 10 = 2; 0 -> 0; 1 -> 1.
  const __m256i mask = _mm256_set1_epi16(static_cast<short>((1 << logq) - 1)), three = _mm256_set1_epi16(3);
  const __m128i top_shift = _mm_cvtsi32_si128(logq - 1);
  map16(r, a, n, [&](__m256i v) noexcept {
    const __m256i c = _mm256_and_si256(v, mask);
    return _mm256_and_si256(three, _mm256_xor_si256(c, _mm256_srl_epi16(c, top_shift)));
  });
}

void PQKEM_NTRU_KERNEL(poly_lift_hrss)(std::uint16_t* r, const std::uint16_t* m, int n, int logq) noexcept {
  const int pad = 16 * ((n + 15) / 16);
  alignas(32) std::uint16_t b[kPadMax];
  std::memcpy(b, m, 2 * static_cast<std::size_t>(n));
  std::memset(b + n, 0, 2 * static_cast<std::size_t>(pad - n));
  // mm = m mod (3, Phi_n): (m_i + 2 m_{n-1}) mod 3 (<= 6 before the reduction); lanes from n
  // on are zeroed. m1 = mm(1) (<= 2 (n - 1)).
  const __m256i t = _mm256_set1_epi16(static_cast<short>(2 * m[n - 1]));
  __m256i sum = _mm256_setzero_si256();
  for (int i = 0; i < pad; i += 16) {  // public bounds
    const __m256i x = _mm256_load_si256(reinterpret_cast<const __m256i*>(b + i));
    const __m256i mm = _mm256_and_si256(mod3_16(_mm256_add_epi16(x, t)), lanes_below(n - i));
    _mm256_store_si256(reinterpret_cast<__m256i*>(b + i), mm);
    sum = _mm256_add_epi16(sum, mm);
  }
  // k = -m(1) / n mod 3 (n^-1 = n mod 3), from a non-negative value below 2^17.
  const std::uint32_t m1 = sum_lanes16(sum);
  const std::uint32_t k = mod3_scalar(3u * 2u * static_cast<std::uint32_t>(n) - m1 * static_cast<std::uint32_t>(n % 3));
  // b_i = -(p_0 + ... + p_i) mod 3 with p_j = mm_j + k, for i < n - 1 (prefix sums <= 4 (n - 1)
  // < 2^16; 12 n is a multiple of 3 above them), then b_{n-1} = 0 and {0, 1, 2} -> {0, 1, q - 1}.
  const __m256i kv = _mm256_set1_epi16(static_cast<short>(k));
  const __m256i c12n = _mm256_set1_epi16(static_cast<short>(12 * n));
  const __m256i qm = _mm256_set1_epi16(static_cast<short>((1 << logq) - 1));
  __m256i carry = _mm256_setzero_si256();
  for (int i = 0; i < pad; i += 16) {
    const __m256i local = prefix16(_mm256_add_epi16(_mm256_load_si256(reinterpret_cast<const __m256i*>(b + i)), kv));
    const __m256i p = _mm256_add_epi16(local, carry);
    carry = _mm256_add_epi16(carry, last_lane(local));  // one add on the carried chain
    const __m256i d = _mm256_and_si256(mod3_16(_mm256_sub_epi16(c12n, p)), lanes_below(n - 1 - i));
    _mm256_store_si256(reinterpret_cast<__m256i*>(b + i), z3_to_zq16(d, qm));
  }
  PQKEM_NTRU_KERNEL(poly_mul_x_minus_1)(r, b, n, logq);  // r may alias m: m is not read any more
  secure_wipe(b, sizeof b);
  sum = carry = _mm256_setzero_si256();
  __asm__ volatile("" : : "x"(sum), "x"(carry));
}

}  // namespace pqkem::simd::PQKEM_NTRU_NS
