// Built once per x86 ISA: ntru_mul_avx2.cpp and ntru_mul_avx512.cpp include this file.
// NTRU multiplication kernels in AVX2 (ntru_kernels.inc has the contract).
//
// Two products, each a fixed sequence of operations for a given n (constant time):
//  - poly_mul_cyclic, exact in Z_{2^16}[x]/(x^n - 1) like its portable twin: both operands
//    are zero-padded to m = ceil(n/16) blocks of 16 coefficients, multiplied as plain polynomials
//    by Karatsuba on whole blocks (every sum and difference is one 16-lane vector operation,
//    wrapping mod 2^16), down to products of at most kBaseBlocks blocks done by a 16-lane
//    schoolbook, then folded once (x^(n+i) = x^i). Only the kernel table's poly_mul_cyclic_ref
//    entry uses it.
//  - Toom4 (ntru_toom4_avx2.hpp), correct mod 2^13 only, about 2.5x faster: the Rq, Sq and S3
//    products here and the Newton steps of the Rq inversion (ntru_rq_inv_x86.hpp), none of
//    which needs more (q <= 2^13).
#pragma once
#include <immintrin.h>

#include <cstring>

#include "secret.hpp"  // secure_wipe: defined in portable code (secret.cpp)
#include "simd/ntru/ntru_common_avx2.hpp"
#include "simd/ntru/ntru_isa.hpp"
#include "simd/ntru/ntru_toom4_avx2.hpp"

namespace pqkem::simd::PQKEM_NTRU_NS {
namespace {

constexpr int kMaxN = 821;
constexpr int kMaxBlocks = (kMaxN + 15) / 16;  // 52
/// Karatsuba stops at products of at most this many blocks (measured on n = 509..821: 4 is
/// 5-10% faster than 3 and 2).
#ifndef PQKEM_NTRU_KBASE
#define PQKEM_NTRU_KBASE 4
#endif
constexpr int kBaseBlocks = PQKEM_NTRU_KBASE;

/// r[0 .. 32M) = a * b (a, b of 16M coefficients; r_{32M-1} = 0). Output block k (lanes l) is
/// sum_i a_i b_{16k+l-i}: a_i broadcast times 16 consecutive b's read at offset 16k - i from a
/// copy of b with 16 zeros on each side. Only the (i, k) pairs that reach b's support are
/// visited; all loops have compile-time bounds and unroll, so the 2M accumulators stay in
/// registers.
template <int M>
void schoolbook(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b) noexcept {
  alignas(32) std::uint16_t bp[16 * M + 32];
  store16(bp, _mm256_setzero_si256());
#pragma GCC unroll 8
  for (int k = 0; k < M; ++k) store16(bp + 16 + 16 * k, load16(b + 16 * k));
  store16(bp + 16 + 16 * M, _mm256_setzero_si256());
  __m256i acc[2 * M];
#pragma GCC unroll 8
  for (int k = 0; k < 2 * M; ++k) acc[k] = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (int ib = 0; ib < M; ++ib) {
#pragma GCC unroll 16
    for (int j = 0; j < 16; ++j) {
      const int i = 16 * ib + j;
      const __m256i ai = _mm256_set1_epi16(static_cast<short>(a[i]));
      // Block k is reached iff 16k + 15 >= i and 16k <= i + 16M - 1.
#pragma GCC unroll 8
      for (int k = ib; k <= ib + M; ++k) {
        if (k == ib + M && j == 0) continue;  // compile-time after unrolling
        acc[k] = _mm256_add_epi16(acc[k], _mm256_mullo_epi16(ai, load16(bp + 16 + 16 * k - i)));
      }
    }
  }
#pragma GCC unroll 8
  for (int k = 0; k < 2 * M; ++k) store16(r + 16 * k, acc[k]);
#pragma GCC unroll 8
  for (int k = 0; k < M + 2; ++k) store16(bp + 16 * k, _mm256_setzero_si256());  // held b
  __asm__ volatile("" : : "r"(bp) : "memory");
}

/// Scratch words karatsuba() needs for m blocks.
constexpr int karatsuba_scratch(int m) {
  return m <= kBaseBlocks ? 0 : 64 * ((m + 1) / 2) + karatsuba_scratch((m + 1) / 2);
}

/// r[0 .. 32m) = a * b over Z_{2^16} (a, b of 16m coefficients). m is public (depends on n).
/// a = a0 + x^(16h) a1 with h = ceil(m/2) blocks, a1 of l = m - h blocks:
///   a b = z0 + x^(16h) ((a0 + a1)(b0 + b1) - z0 - z2) + x^(32h) z2.
void karatsuba(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int m,
               std::uint16_t* scratch) noexcept {
  switch (m) {
    case 1: schoolbook<1>(r, a, b); return;
    case 2: schoolbook<2>(r, a, b); return;
    case 3:
      if (kBaseBlocks >= 3) {
        schoolbook<3>(r, a, b);
        return;
      }
      break;
    case 4:
      if (kBaseBlocks >= 4) {
        schoolbook<4>(r, a, b);
        return;
      }
      break;
    default: break;
  }
  static_assert(kBaseBlocks >= 2 && kBaseBlocks <= 4);
  const int h = (m + 1) / 2, l = m - h;
  std::uint16_t* sa = scratch;
  std::uint16_t* sb = scratch + 16 * h;
  std::uint16_t* z1 = scratch + 32 * h;
  std::uint16_t* next = scratch + 64 * h;
  karatsuba(r, a, b, h, next);                             // z0 -> blocks [0, 2h)
  karatsuba(r + 32 * h, a + 16 * h, b + 16 * h, l, next);  // z2 -> blocks [2h, 2m)
  for (int t = 0; t < l; ++t) {
    store16(sa + 16 * t, _mm256_add_epi16(load16(a + 16 * t), load16(a + 16 * (h + t))));
    store16(sb + 16 * t, _mm256_add_epi16(load16(b + 16 * t), load16(b + 16 * (h + t))));
  }
  for (int t = l; t < h; ++t) {
    store16(sa + 16 * t, load16(a + 16 * t));
    store16(sb + 16 * t, load16(b + 16 * t));
  }
  karatsuba(z1, sa, sb, h, next);
  for (int t = 0; t < 2 * l; ++t)
    store16(z1 + 16 * t,
            _mm256_sub_epi16(load16(z1 + 16 * t), _mm256_add_epi16(load16(r + 16 * t), load16(r + 16 * (2 * h + t)))));
  for (int t = 2 * l; t < 2 * h; ++t) store16(z1 + 16 * t, _mm256_sub_epi16(load16(z1 + 16 * t), load16(r + 16 * t)));
  // h + 2h <= 2m since l >= h - 1 and h >= 2: the middle term stays inside r.
  for (int t = 0; t < 2 * h; ++t)
    store16(r + 16 * (h + t), _mm256_add_epi16(load16(r + 16 * (h + t)), load16(z1 + 16 * t)));
}

/// The cyclic product of n-coefficient a and b into out[0 .. 16 ceil(n/16)) (entries from n on
/// are scratch values). out may not alias a or b.
void cyclic_padded(std::uint16_t* out, const std::uint16_t* a, const std::uint16_t* b, int n) noexcept {
  const int m = (n + 15) / 16;
  alignas(32) std::uint16_t ap[16 * kMaxBlocks], bp[16 * kMaxBlocks];
  alignas(32) std::uint16_t prod[32 * kMaxBlocks + 16];
  alignas(32) std::uint16_t scratch[karatsuba_scratch(kMaxBlocks) + 64];
  std::memcpy(ap, a, 2 * static_cast<std::size_t>(n));
  std::memcpy(bp, b, 2 * static_cast<std::size_t>(n));
  std::memset(ap + n, 0, 2 * static_cast<std::size_t>(16 * m - n));
  std::memset(bp + n, 0, 2 * static_cast<std::size_t>(16 * m - n));
  karatsuba(prod, ap, bp, m, scratch);
  // prod_j = 0 for j >= 2n - 1, so prod_{i+n} is the wrapped part for every i < n.
  for (int i = 0; i < 16 * m; i += 16) store16(out + i, _mm256_add_epi16(load16(prod + i), load16(prod + n + i)));
  secure_wipe(ap, 32 * static_cast<std::size_t>(m));  // the parts that held data
  secure_wipe(bp, 32 * static_cast<std::size_t>(m));
  secure_wipe(prod, 64 * static_cast<std::size_t>(m));
  secure_wipe(scratch, 2 * static_cast<std::size_t>(karatsuba_scratch(m)));
}

/// The Toom-4 product finished as `fin` says, for a public n, with the workspace in caller
/// scratch (left holding secret data).
template <Finish fin>
void toom4_cyclic_in(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n, std::uint16_t mask16,
                     void* scratch) noexcept {
  switch (n) {
    case 509: Toom4<509>::cyclic<fin>(r, a, b, mask16, workspace_in<509>(scratch)); return;
    case 677: Toom4<677>::cyclic<fin>(r, a, b, mask16, workspace_in<677>(scratch)); return;
    case 701: Toom4<701>::cyclic<fin>(r, a, b, mask16, workspace_in<701>(scratch)); return;
    default: Toom4<821>::cyclic<fin>(r, a, b, mask16, workspace_in<821>(scratch)); return;
  }
}

/// As toom4_cyclic_in, with scratch of its own, wiped before returning.
template <Finish fin>
void toom4_cyclic(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n,
                  std::uint16_t mask16) noexcept {
  alignas(64) unsigned char scratch[kNtruProductScratchBytes];
  toom4_cyclic_in<fin>(r, a, b, n, mask16, scratch);
  PQKEM_NTRU_KERNEL(wipe_product_scratch)(scratch, n);
}

}  // namespace

void PQKEM_NTRU_KERNEL(poly_mul_cyclic)(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b,
                                        int n) noexcept {
  alignas(32) std::uint16_t out[16 * kMaxBlocks];
  cyclic_padded(out, a, b, n);
  std::memcpy(r, out, 2 * static_cast<std::size_t>(n));
  secure_wipe(out, sizeof out);
}

void PQKEM_NTRU_KERNEL(poly_mul_cyclic_mod8192)(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b,
                                                int n) noexcept {
  toom4_cyclic<Finish::kMod8192>(r, a, b, n, 0xFFFF);
}

// q = 2^logq <= 2^13: the product mod 2^13 determines the Rq and Sq products.
void PQKEM_NTRU_KERNEL(poly_rq_mul)(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n,
                                    int logq) noexcept {
  toom4_cyclic<Finish::kRq>(r, a, b, n, static_cast<std::uint16_t>((1u << logq) - 1));
}

void PQKEM_NTRU_KERNEL(poly_sq_mul)(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n,
                                    int logq) noexcept {
  toom4_cyclic<Finish::kSq>(r, a, b, n, static_cast<std::uint16_t>((1u << logq) - 1));
}

void PQKEM_NTRU_KERNEL(poly_s3_mul)(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n) noexcept {
  // The exact product coefficients are <= 4n < 2^13, so the product mod 2^13 (masked to 13
  // bits) is exact; plus 2 s_{n-1} it stays below 2^16: mod3_16 applies.
  toom4_cyclic<Finish::kS3>(r, a, b, n, 0x1FFF);
}

void PQKEM_NTRU_KERNEL(poly_rq_mul_in)(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n,
                                       int logq, void* scratch) noexcept {
  toom4_cyclic_in<Finish::kRq>(r, a, b, n, static_cast<std::uint16_t>((1u << logq) - 1), scratch);
}

void PQKEM_NTRU_KERNEL(poly_sq_mul_in)(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n,
                                       int logq, void* scratch) noexcept {
  toom4_cyclic_in<Finish::kSq>(r, a, b, n, static_cast<std::uint16_t>((1u << logq) - 1), scratch);
}

void PQKEM_NTRU_KERNEL(poly_s3_mul_in)(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n,
                                       void* scratch) noexcept {
  toom4_cyclic_in<Finish::kS3>(r, a, b, n, 0x1FFF, scratch);  // as poly_s3_mul
}

void PQKEM_NTRU_KERNEL(wipe_product_scratch)(void* scratch, int n) noexcept {
  switch (n) {
    case 509: workspace_in<509>(scratch).wipe(); return;
    case 677: workspace_in<677>(scratch).wipe(); return;
    case 701: workspace_in<701>(scratch).wipe(); return;
    default: workspace_in<821>(scratch).wipe(); return;
  }
}

void PQKEM_NTRU_KERNEL(poly_mul_x_minus_1)(std::uint16_t* r, const std::uint16_t* a, int n, int logq) noexcept {
  // (x - 1) a = sum_i (a_{i-1} - a_i) x^i (indices mod n). Blocks of 16 from the top down: block
  // i reads a_{i-1} .. a_{i+15} and writes r_i .. r_{i+15}, so with r = a no block reads what a
  // higher one wrote. The block at 1 and r_0 are computed first (from the untouched a) and stored
  // last; the block at 1 may overlap the lowest loop block, with the same values.
  // Loads and stores stay inside the n coefficients (n >= 17).
  const std::uint16_t mask16 = static_cast<std::uint16_t>((1u << logq) - 1);
  const __m256i mask = _mm256_set1_epi16(static_cast<short>(mask16));
  const __m256i low = _mm256_and_si256(_mm256_sub_epi16(load16(a), load16(a + 1)), mask);
  const std::uint16_t r0 = static_cast<std::uint16_t>((a[n - 1] - a[0]) & mask16);
  for (int i = n - 16; i >= 1; i -= 16)
    store16(r + i, _mm256_and_si256(_mm256_sub_epi16(load16(a + i - 1), load16(a + i)), mask));
  store16(r + 1, low);
  r[0] = r0;
}

}  // namespace pqkem::simd::PQKEM_NTRU_NS
