// NTRU's Toom-4 product in AVX2, correct mod 2^13: the engine behind the Rq, Sq and S3 products
// (ntru_mul_x86.hpp) and the Newton steps of the Rq inversion (ntru_rq_inv_x86.hpp).
// Included only by files compiled with -mavx2. Everything here has internal linkage (an unnamed
// namespace, as ntru_common_avx2.hpp's helpers are static inline): each includer gets its own
// instantiations, and no copy can be picked by the linker for portable code.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "simd/ntru/ntru_common_avx2.hpp"
#include "simd/ntru/ntru_isa.hpp"
#include "simd/transpose_x86.hpp"
#include "simd/vec_x86.hpp"

namespace pqkem::simd::PQKEM_NTRU_NS {
namespace {  // internal linkage on purpose: see above

using ntru_detail::load16;
using ntru_detail::mod3_16;
using ntru_detail::store16;
using ntru_detail::wipe_vectors;

// Rq, Sq and S3 products (and the Newton steps of the Rq inversion) only need the cyclic product
// mod 2^13: q <= 2^13 for every parameter set, and the exact S3 product coefficients are below
// 4n < 2^13. That admits Toom-Cook 4-way over Z_{2^16}: its interpolation (interpolate_block)
// divides by powers of two with right shifts, each losing a top bit, at most three along the
// way to any coefficient, so every C_k is correct mod 2^13 (the other divisions are by odd
// numbers: multiplications by their inverses mod 2^16). poly_mul_cyclic, whose contract is
// the exact product mod 2^16, keeps a block Karatsuba (ntru_mul_x86.hpp).
//
// Layout for leaf length L (a multiple of 8): both operands are zero-padded to N = 16 L
// coefficients and split into 4 chunks of S = 4 L (Toom-4, points 0, 1, -1, 1/2, -1/2, 2, oo:
// 7 products of S coefficients); each product takes two Karatsuba levels (9 products of L), so
// there are 63 leaf products. They are done kLeafLanes at a time, one per 16-bit lane, in
// transposed layout (vector i holds coefficient i of kLeafLanes leaves), by Karatsuba down to a
// schoolbook of kTBase coefficients. Transposition is an 8x8 transpose inside each 128-bit
// piece of a vector, with the pieces loaded and stored as 128-bit rows. Sizes: n = 509 -> L =
// 32; 677, 701 -> 48; 821 -> 56.
//
// The AVX2 build multiplies the leaves in YMM registers, 16 per batch (4 batches). The AVX-512
// build (PQKEM_NTRU_EVEX) multiplies them in ZMM registers, 32 per batch (2 batches): the same
// code over LeafVec, where a 512-bit operation costs what a 256-bit one does on cores with
// full-width AVX-512 units. Everything outside the leaf products (evaluation, Karatsuba
// combination, interpolation) works on coefficient arrays in memory and keeps 256-bit code.

#ifndef PQKEM_NTRU_TBASE
#ifdef PQKEM_NTRU_EVEX
#define PQKEM_NTRU_TBASE 12
#else
#define PQKEM_NTRU_TBASE 8
#endif
#endif
/// Transposed Karatsuba stops at this many coefficients. AVX2 (measured, n = 509/701/821): 8 is
/// 7%/5%/8% faster than 16; 10 and 12 are close to 8. AVX-512: 12 stops L = 48 (n = 677, 701) at
/// a 12-coefficient schoolbook instead of one more level down to 6, which made their products
/// 2-6% and key generation 2-4% faster (bench --kernels, two copies of each build, interleaved);
/// for L = 32 and 56 (n = 509, 821) 8 and 12 give the same recursion.
constexpr int kTBase = PQKEM_NTRU_TBASE;

#ifdef PQKEM_NTRU_EVEX
using LeafVec = __m512i;
/// The 128-bit rows p, p + d, p + 2d, p + 3d (in words) as the four pieces of one vector.
[[gnu::always_inline]] inline LeafVec lv_load_rows(const std::uint16_t* p, int d) noexcept {
  const __m256i lo =
      _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                              _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + d)), 1);
  const __m256i hi =
      _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2 * d))),
                              _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 3 * d)), 1);
  return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}
/// The inverse of lv_load_rows.
[[gnu::always_inline]] inline void lv_store_rows(std::uint16_t* p, int d, LeafVec v) noexcept {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_castsi512_si128(v));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p + d), _mm512_extracti32x4_epi32(v, 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 2 * d), _mm512_extracti32x4_epi32(v, 2));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 3 * d), _mm512_extracti32x4_epi32(v, 3));
}
#else
using LeafVec = __m256i;
/// The 128-bit rows p and p + d (in words) as the two halves of one vector.
[[gnu::always_inline]] inline LeafVec lv_load_rows(const std::uint16_t* p, int d) noexcept {
  return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                 _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + d)), 1);
}
/// The inverse of lv_load_rows.
[[gnu::always_inline]] inline void lv_store_rows(std::uint16_t* p, int d, LeafVec v) noexcept {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(v));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p + d), _mm256_extracti128_si256(v, 1));
}
#endif
/// Leaves per batch: one per 16-bit lane. The arithmetic on LeafVec is vec_x86.hpp's (add16,
/// sub16, mullo16: YMM or ZMM instructions by the type; LeafVec{} is zero), the 8 x 8
/// transposition of each 128-bit piece transpose_x86.hpp's.
constexpr int kLeafLanes = static_cast<int>(sizeof(LeafVec) / 2);
static_assert(kLeafLanes % 8 == 0 && 64 % kLeafLanes == 0);
using x86::add16;
using x86::mullo16;
using x86::sub16;
using x86::transpose8x8;

/// dst[i] lane j = src[j * stride + i] for i < cols, j < kLeafLanes (cols = 8 or 16): piece r
/// of row vector j holds leaf 8r + j. (Always inlined: as a shared out-of-line function, with
/// the stride a run-time argument, the products are about 20% slower.)
template <int cols = 16>
[[gnu::always_inline]] inline void transpose_in(LeafVec* dst, const std::uint16_t* src, int stride) noexcept {
  static_assert(cols == 8 || cols == 16);
  LeafVec x[8], y[8];
  for (int j = 0; j < 8; ++j) {
    x[j] = lv_load_rows(src + j * stride, 8 * stride);
    if constexpr (cols == 16) y[j] = lv_load_rows(src + j * stride + 8, 8 * stride);
  }
  transpose8x8<16>(x, x);
  if constexpr (cols == 16) transpose8x8<16>(y, y);
  for (int i = 0; i < 8; ++i) {
    dst[i] = x[i];
    if constexpr (cols == 16) dst[8 + i] = y[i];
  }
}

/// dst[j * stride + i] = src[i] lane j for i < 16, j < kLeafLanes.
[[gnu::always_inline]] inline void transpose_out(std::uint16_t* dst, int stride, const LeafVec* src) noexcept {
  LeafVec x[8], y[8];
  for (int i = 0; i < 8; ++i) x[i] = src[i], y[i] = src[8 + i];
  transpose8x8<16>(x, x);
  transpose8x8<16>(y, y);
  for (int j = 0; j < 8; ++j) {
    lv_store_rows(dst + j * stride, 8 * stride, x[j]);
    lv_store_rows(dst + j * stride + 8, 8 * stride, y[j]);
  }
}

/// c[0 .. 2L-1) = a * b lane by lane (transposed operands of L coefficients), schoolbook by
/// windows of kWin outputs: the accumulators stay in registers and each b_j is loaded once per
/// window (the window of b values slides by one per a_i).
template <int L>
inline void schoolbook_t(LeafVec* c, const LeafVec* a, const LeafVec* b) noexcept {
  constexpr int kWin = 8;  // 8 accumulators + the b window: measured 4, 6, 8 alike
#pragma GCC unroll 64
  for (int k0 = 0; k0 < 2 * L - 1; k0 += kWin) {
    LeafVec acc[kWin];
#pragma GCC unroll 16
    for (int kk = 0; kk < kWin; ++kk) acc[kk] = LeafVec{};
#pragma GCC unroll 64
    for (int i = 0; i < L; ++i) {
      if (k0 + kWin - 1 < i || k0 - i >= L) continue;  // compile-time after unrolling
      const LeafVec ai = a[i];
#pragma GCC unroll 16
      for (int kk = 0; kk < kWin; ++kk) {
        const int j = k0 + kk - i;
        if (j >= 0 && j < L) acc[kk] = add16(acc[kk], mullo16(ai, b[j]));
      }
    }
#pragma GCC unroll 16
    for (int kk = 0; kk < kWin; ++kk)
      if (k0 + kk < 2 * L - 1) c[k0 + kk] = acc[kk];
  }
}

/// Vectors of scratch tmul<L> needs.
constexpr int tmul_scratch(int l) { return l <= kTBase ? 0 : 4 * (l / 2) + tmul_scratch(l / 2); }

/// c[0 .. 2L-1) = a * b lane by lane, Karatsuba on halves down to kTBase (L even above it).
template <int L>
inline void tmul(LeafVec* c, const LeafVec* a, const LeafVec* b, LeafVec* scratch) noexcept {
  if constexpr (L <= kTBase) {
    schoolbook_t<L>(c, a, b);
  } else {
    static_assert(L % 2 == 0);
    constexpr int h = L / 2;
    LeafVec* sa = scratch;
    LeafVec* sb = scratch + h;
    LeafVec* z1 = scratch + 2 * h;  // 2h - 1 vectors
    LeafVec* next = scratch + 4 * h;
    tmul<h>(c, a, b, next);
    c[2 * h - 1] = LeafVec{};
    tmul<h>(c + 2 * h, a + h, b + h, next);
    for (int i = 0; i < h; ++i) {
      sa[i] = add16(a[i], a[h + i]);
      sb[i] = add16(b[i], b[h + i]);
    }
    tmul<h>(z1, sa, sb, next);
    // c[h + i] += z1[i] - c[i] - c[2h + i] for i < 2h - 1, in one pass: step j updates c[h + j]
    // and c[2h + j] from the original c[j], c[h + j], c[2h + j], c[3h + j] (disjoint per j),
    // sharing d = c[h + j] - c[2h + j] between the two (5 operations instead of 6):
    //   c[h + j] <- (z1[j] - c[j]) + d,  c[2h + j] <- (z1[h + j] - c[3h + j]) - d.
    for (int j = 0; j < h; ++j) {
      const LeafVec d = sub16(c[h + j], c[2 * h + j]);
      c[h + j] = add16(sub16(z1[j], c[j]), d);
      if (j < h - 1) c[2 * h + j] = sub16(sub16(z1[h + j], c[3 * h + j]), d);
    }
  }
}

/// tmul<L> as a function of its own, called once per batch of leaf products. (Measured: inlined
/// into the batch loop, together with the transposes, the compiler spills much more; out of
/// line the products are 4-6% faster for every n. Making the lower levels out of line as well
/// gains nothing more.)
template <int L>
[[gnu::noinline]] void tmul_batch(LeafVec* c, const LeafVec* a, const LeafVec* b, LeafVec* scratch) noexcept {
  tmul<L>(c, a, b, scratch);
}

/// Toom-4 evaluation at 0, 1, -1, 1/2 (times 8), -1/2 (times 8), 2, oo.
inline void toom4_eval(__m256i (&w)[7], __m256i x0, __m256i x1, __m256i x2, __m256i x3) noexcept {
  const __m256i e = _mm256_add_epi16(x0, x2), o = _mm256_add_epi16(x1, x3);
  const __m256i e2 = _mm256_slli_epi16(_mm256_add_epi16(_mm256_slli_epi16(x0, 2), x2), 1);
  const __m256i o2 = _mm256_add_epi16(_mm256_slli_epi16(x1, 2), x3);
  w[0] = x0;
  w[1] = _mm256_add_epi16(e, o);
  w[2] = _mm256_sub_epi16(e, o);
  w[3] = _mm256_add_epi16(e2, o2);
  w[4] = _mm256_sub_epi16(e2, o2);
  __m256i t = _mm256_add_epi16(_mm256_slli_epi16(x3, 1), x2);
  t = _mm256_add_epi16(_mm256_slli_epi16(t, 1), x1);
  w[5] = _mm256_add_epi16(_mm256_slli_epi16(t, 1), x0);
  w[6] = x3;
}

/// How the cyclic product s (mod 2^13) becomes the output: kMod8192 stores s as it is (top 3
/// bits unspecified), kRq stores s mod q, kSq stores (s - s_{n-1}) mod q (the reduction mod
/// Phi_n), kS3 stores (s + 2 s_{n-1}) mod 3 with s the exact product (< 4n < 2^13).
enum class Finish { kMod8192, kRq, kSq, kS3 };

template <int n>
struct Toom4 {
  /// Leaf length L (a multiple of 8, so that 2L is a whole number of blocks), stored with a
  /// stride of Lp = L rounded up to 16 (words L .. Lp of a leaf operand are never read).
  static constexpr int L = n <= 512 ? 32 : n <= 768 ? 48 : 56;
  static constexpr int Lp = (L + 15) / 16 * 16;
  static constexpr int S = 4 * L, N = 16 * L, kBatches = 64 / kLeafLanes, kRegion = 2 * kLeafLanes * Lp;
  static_assert(L % 8 == 0 && n <= N && n >= 32);
  /// Leaf k's first operand, second operand and product (which overwrites both) in `leaves`:
  /// batch k / kLeafLanes owns kRegion words, [kLeafLanes first operands | kLeafLanes second
  /// operands] before the multiplication and kLeafLanes products of 2Lp words after it.
  static constexpr int leaf_a(int k) { return (k / kLeafLanes) * kRegion + (k % kLeafLanes) * Lp; }
  static constexpr int leaf_b(int k) { return leaf_a(k) + kLeafLanes * Lp; }
  static constexpr int leaf_c(int k) { return 2 * Lp * k; }
  /// Work area (uint16_t words): the transposed operands, products and tmul scratch during the
  /// leaf products; then the 7 Toom products (2S words each) and 4L words of scratch.
  static constexpr int kTVectors = 4 * Lp + tmul_scratch(L);
  static constexpr int kWorkWords = kLeafLanes * kTVectors;
  static_assert(7 * 2 * S + 4 * L <= kWorkWords && 2 * N <= kBatches * kRegion);

  /// Everything a product writes besides its output, in caller scratch: a standalone product
  /// wipes it before returning, an operation's ProductScratch and the Rq inversion once after
  /// their last product.
  struct Workspace {
    /// 16 words in front of the leaves: karatsuba_combine_fresh reads (and masks off) up to 8
    /// words before the first leaf product when L is not a multiple of 16.
    alignas(64) std::uint16_t leaves_buf[16 + kBatches * kRegion];
    alignas(64) std::uint16_t work[kWorkWords];  // LeafVec arrays during the leaf products
    alignas(64) std::uint16_t tail[2][48];       // evaluate's copies of the operands' last words
    void wipe() noexcept {
      wipe_vectors<16 + kBatches * kRegion>(leaves_buf);
      wipe_vectors<kWorkWords>(work);
      wipe_vectors<96>(&tail[0][0]);
    }
  };

  /// x[off .. off + 16) of the zero-padded x (off a multiple of 8); tail = x[n - 32 .. n), then 16 zeros.
  static inline __m256i block(const std::uint16_t* x, const std::uint16_t* tail, int off) noexcept {
    if (off + 16 <= n) return load16(x + off);  // compile-time after unrolling
    if (off >= n) return _mm256_setzero_si256();
    return load16(tail + (off - (n - 32)));
  }

  /// Evaluates x (n words) into the 63 leaf operands of `side` (0: first, 1: second). tail:
  /// 48 words of scratch.
  template <int side>
  static void evaluate(std::uint16_t* leaves, const std::uint16_t* x, std::uint16_t* tail) noexcept {
    store16(tail, load16(x + n - 32));
    store16(tail + 16, load16(x + n - 16));
    store16(tail + 32, _mm256_setzero_si256());
#pragma GCC unroll 4
    for (int blk = 0; blk < Lp; blk += 16) {  // from L on: words of the next piece, never read
      __m256i e[4][7];                        // e[2u + v][p]: quarter (u, v) of every chunk, evaluated at point p
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) {
        const int off = q * L + blk;
        toom4_eval(e[q], block(x, tail, off), block(x, tail, off + S), block(x, tail, off + 2 * S),
                   block(x, tail, off + 3 * S));
      }
#pragma GCC unroll 7
      for (int p = 0; p < 7; ++p) {
        __m256i leaf[9];  // (u2, v2): u2, v2 in {lo, hi, lo + hi}
#pragma GCC unroll 2
        for (int u = 0; u < 2; ++u) {
          leaf[3 * u + 0] = e[2 * u][p];
          leaf[3 * u + 1] = e[2 * u + 1][p];
          leaf[3 * u + 2] = _mm256_add_epi16(e[2 * u][p], e[2 * u + 1][p]);
        }
#pragma GCC unroll 3
        for (int v = 0; v < 3; ++v) leaf[6 + v] = _mm256_add_epi16(leaf[v], leaf[3 + v]);
#pragma GCC unroll 9
        for (int j = 0; j < 9; ++j) store16(leaves + (side ? leaf_b(9 * p + j) : leaf_a(9 * p + j)) + blk, leaf[j]);
      }
    }
  }

  /// dst[0 .. L) = the kLeafLanes operands at src (stride Lp words) transposed.
  [[gnu::always_inline]] static inline void transpose_operands(LeafVec* dst, const std::uint16_t* src) noexcept {
#pragma GCC unroll 4
    for (int c = 0; c + 16 <= L; c += 16) transpose_in(dst + c, src + c, Lp);
    if constexpr (L % 16 != 0) transpose_in<8>(dst + L - 8, src + L - 8, Lp);  // L = 56: words L .. Lp unread
  }

  /// The 63 leaf products, kLeafLanes at a time (leaf 63 is zero), into `leaves`. With `prepared`, the
  /// operands are Ta and Tb (batch k at Ta + k Lp, from prepare()); otherwise they are read from
  /// `leaves` and transposed batch by batch.
  template <bool prepared>
  static void multiply_leaves(std::uint16_t* leaves, LeafVec* t, const LeafVec* Ta, const LeafVec* Tb) noexcept {
    LeafVec* tc = t + 2 * Lp;
    LeafVec* scratch = t + 4 * Lp;
    for (int batch = 0; batch < kBatches; ++batch) {
      std::uint16_t* base = leaves + batch * kRegion;
      const LeafVec* ta = t;
      const LeafVec* tb = t + Lp;
      if constexpr (prepared) {
        ta = Ta + batch * Lp;
        tb = Tb + batch * Lp;
      } else {
        transpose_operands(t, base);
        transpose_operands(t + Lp, base + kLeafLanes * Lp);
      }
      tmul_batch<L>(tc, ta, tb, scratch);
      tc[2 * L - 1] = LeafVec{};
#pragma GCC unroll 8
      for (int c = 0; c < 2 * L; c += 16) transpose_out(base + c, 2 * Lp, tc + c);
    }
  }

  /// r[0 .. 4m) = z0 + y^m (z2 - z0 - z1) + y^(2m) z1 in place, for the products z0 (lo) in
  /// r[0 .. 2m), z1 (hi) in r[2m .. 4m) and z2 (sum) of 2m words each (the last words zero), m a
  /// multiple of 16. Step i (i < m, one block) updates r[m + i] and r[2m + i] from the original
  /// r[i], r[m + i], r[2m + i], r[3m + i] (disjoint per step), sharing d = r[m + i] - r[2m + i]:
  ///   r[m + i] <- (z2[i] - r[i]) + d,  r[2m + i] <- (z2[m + i] - r[3m + i]) - d.
  template <int m>
  static void karatsuba_combine_inplace(std::uint16_t* r, const std::uint16_t* z2) noexcept {
    static_assert(m % 16 == 0);
#pragma GCC unroll 8
    for (int i = 0; i < m; i += 16) {
      const __m256i d = _mm256_sub_epi16(load16(r + m + i), load16(r + 2 * m + i));
      const __m256i lo = _mm256_add_epi16(_mm256_sub_epi16(load16(z2 + i), load16(r + i)), d);
      const __m256i hi = _mm256_sub_epi16(_mm256_sub_epi16(load16(z2 + m + i), load16(r + 3 * m + i)), d);
      store16(r + m + i, lo);
      store16(r + 2 * m + i, hi);
    }
  }

  /// r[0 .. 4m) = z0 + y^m (z2 - z0 - z1) + y^(2m) z1 for the products z0 (lo), z1 (hi), z2 (sum)
  /// of 2m words each (the last word zero), in one pass over the output blocks, for r distinct
  /// from z0, z1, z2 and m a multiple of 8: the middle term z2 - z0 - z1 is read at offset -m
  /// from the leaf products themselves (written long before, so the unaligned loads do not wait on recent
  /// stores), masked to its range [m, 3m) in the blocks that straddle its ends.
  template <int m>
  static void karatsuba_combine_fresh(std::uint16_t* r, const std::uint16_t* z0, const std::uint16_t* z1,
                                      const std::uint16_t* z2) noexcept {
    static_assert(m % 8 == 0);
    const __m256i hi8 = _mm256_set_epi64x(-1, -1, 0, 0);  // lanes 8..15
#pragma GCC unroll 16
    for (int o = 0; o < 4 * m; o += 16) {
      __m256i x = o < 2 * m ? load16(z0 + o) : load16(z1 + o - 2 * m);
      const int lo = o - m;          // the middle term's index of lane 0
      if (lo > -16 && lo < 2 * m) {  // compile-time after unrolling
        __m256i mid = _mm256_sub_epi16(load16(z2 + lo), _mm256_add_epi16(load16(z0 + lo), load16(z1 + lo)));
        if (lo < 0) mid = _mm256_and_si256(mid, hi8);              // lo = -8: lanes 8..15 only
        if (lo + 16 > 2 * m) mid = _mm256_andnot_si256(hi8, mid);  // lanes 0..7 only
        x = _mm256_add_epi16(x, mid);
      }
      store16(r + o, x);
    }
  }

  /// w (2S words) = the product at Toom point p, from its 9 leaf products. tmp: 4L words.
  static void combine(std::uint16_t* w, const std::uint16_t* leaves, int p, std::uint16_t* tmp) noexcept {
    const std::uint16_t* z = leaves + leaf_c(9 * p);
    constexpr int st = 2 * Lp;  // leaf product stride
    karatsuba_combine_fresh<L>(w, z, z + st, z + 2 * st);
    karatsuba_combine_fresh<L>(w + 4 * L, z + 3 * st, z + 4 * st, z + 5 * st);
    karatsuba_combine_fresh<L>(tmp, z + 6 * st, z + 7 * st, z + 8 * st);
    karatsuba_combine_inplace<2 * L>(w, tmp);
  }

  /// Toom-4 interpolation of C_0 .. C_6 at one block from the 7 point values (p: 0, 1, -1,
  /// 64 C(1/2), 64 C(-1/2), C(2), C(oo)). Every C_k is correct mod 2^13: see the comments.
  static inline void interpolate_block(__m256i (&c)[7], const std::uint16_t* w) noexcept {
    const __m256i inv3 = _mm256_set1_epi16(static_cast<short>(43691));   // 3^-1 mod 2^16
    const __m256i inv9 = _mm256_set1_epi16(static_cast<short>(36409));   // 9^-1
    const __m256i inv15 = _mm256_set1_epi16(static_cast<short>(61167));  // 15^-1
    const __m256i p0 = load16(w), p1 = load16(w + 2 * S), p2 = load16(w + 4 * S);
    const __m256i p3 = load16(w + 6 * S), p4 = load16(w + 8 * S), p5 = load16(w + 10 * S);
    const __m256i p6 = load16(w + 12 * S);
    // Even part: x = C2 + C4 = (p1 + p2)/2 - C0 - C6 and y = 16 C2 + 4 C4 = (p3 + p4)/2 - 64 C0
    // - C6, both mod 2^15; C2 = ((y - 4x)/4)/3 mod 2^13, C4 = x - C2 mod 2^13.
    const __m256i x = _mm256_sub_epi16(_mm256_srli_epi16(_mm256_add_epi16(p1, p2), 1), _mm256_add_epi16(p0, p6));
    const __m256i y = _mm256_sub_epi16(_mm256_srli_epi16(_mm256_add_epi16(p3, p4), 1),
                                       _mm256_add_epi16(_mm256_slli_epi16(p0, 6), p6));
    const __m256i c2 = _mm256_mullo_epi16(_mm256_srli_epi16(_mm256_sub_epi16(y, _mm256_slli_epi16(x, 2)), 2), inv3);
    const __m256i c4 = _mm256_sub_epi16(x, c2);
    // Odd part: o1 = C1 + C3 + C5 = (p1 - p2)/2 mod 2^15, o2 = 16 C1 + 4 C3 + C5 = (p3 - p4)/4
    // mod 2^14, o3 = C1 + 4 C3 + 16 C5 = (p5 - C0 - 4 C2 - 16 C4 - 64 C6)/2 mod 2^14. Then
    // C3 = (17 o1 - o2 - o3)/9, C1 - C5 = (o2 - o3)/15, C1 + C5 = o1 - C3 (mod 2^14), and
    // C1 = ((C1 + C5) + (C1 - C5))/2 mod 2^13.
    const __m256i o1 = _mm256_srli_epi16(_mm256_sub_epi16(p1, p2), 1);
    const __m256i o2 = _mm256_srli_epi16(_mm256_sub_epi16(p3, p4), 2);
    __m256i t = _mm256_add_epi16(p0, _mm256_slli_epi16(c2, 2));
    t = _mm256_add_epi16(t, _mm256_slli_epi16(c4, 4));
    t = _mm256_add_epi16(t, _mm256_slli_epi16(p6, 6));
    const __m256i o3 = _mm256_srli_epi16(_mm256_sub_epi16(p5, t), 1);
    const __m256i c3 = _mm256_mullo_epi16(
        _mm256_sub_epi16(_mm256_add_epi16(_mm256_slli_epi16(o1, 4), o1), _mm256_add_epi16(o2, o3)), inv9);
    const __m256i d = _mm256_mullo_epi16(_mm256_sub_epi16(o2, o3), inv15);  // C1 - C5
    const __m256i s = _mm256_sub_epi16(o1, c3);                             // C1 + C5
    const __m256i c1 = _mm256_srli_epi16(_mm256_add_epi16(s, d), 1);
    c[0] = p0, c[1] = c1, c[2] = c2, c[3] = c3, c[4] = c4, c[5] = _mm256_sub_epi16(s, c1), c[6] = p6;
  }

  /// prod[0 .. 2N) = sum_k C_k y^k (each C_k of 2S words, y = x^S).
  static void interpolate(std::uint16_t* prod, const std::uint16_t* w) noexcept {
    for (int i = 0; i < S; i += 16) {
      __m256i lo[7], hi[7];
      interpolate_block(lo, w + i);
      interpolate_block(hi, w + S + i);
      store16(prod + i, lo[0]);
#pragma GCC unroll 6
      for (int k = 1; k < 7; ++k) store16(prod + k * S + i, _mm256_add_epi16(lo[k], hi[k - 1]));
      store16(prod + 7 * S + i, hi[6]);
    }
  }

  /// r = the cyclic product of a and b, finished as `fin` says (mask = q - 1). r may alias a, b.
  /// Leaves secret data in ws: the caller wipes it.
  template <Finish fin>
  static void cyclic(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, std::uint16_t mask16,
                     Workspace& ws) noexcept {
    std::uint16_t* const leaves = ws.leaves_buf + 16;
    std::uint16_t* const work = ws.work;
    store16(ws.leaves_buf, _mm256_setzero_si256());
    evaluate<0>(leaves, a, ws.tail[0]);
    evaluate<1>(leaves, b, ws.tail[1]);
    for (int i = 0; i < Lp; i += 16) {  // leaf 63 (the padding lane) is zero
      store16(leaves + leaf_a(63) + i, _mm256_setzero_si256());
      store16(leaves + leaf_b(63) + i, _mm256_setzero_si256());
    }
    multiply_leaves<false>(leaves, reinterpret_cast<LeafVec*>(work), nullptr, nullptr);
    finish_product<fin>(r, mask16, ws);
  }

  /// Vectors of a prepared operand: its 64 leaf operands, transposed, batch by batch.
  static constexpr int kPreparedVectors = kBatches * Lp;

  /// T = x evaluated and transposed for cyclic_prepared (kPreparedVectors). Uses (and leaves
  /// secret data in) ws.
  static void prepare(LeafVec* T, const std::uint16_t* x, Workspace& ws) noexcept {
    std::uint16_t* const leaves = ws.leaves_buf + 16;
    evaluate<0>(leaves, x, ws.tail[0]);
    for (int i = 0; i < Lp; i += 16) store16(leaves + leaf_a(63) + i, _mm256_setzero_si256());
    for (int batch = 0; batch < kBatches; ++batch) transpose_operands(T + batch * Lp, leaves + batch * kRegion);
  }

  /// As cyclic, from operands prepared by prepare(): in the Rq inversion an operand of several
  /// products is evaluated and transposed once.
  template <Finish fin>
  static void cyclic_prepared(std::uint16_t* r, const LeafVec* Ta, const LeafVec* Tb, std::uint16_t mask16,
                              Workspace& ws) noexcept {
    store16(ws.leaves_buf, _mm256_setzero_si256());
    multiply_leaves<true>(ws.leaves_buf + 16, reinterpret_cast<LeafVec*>(ws.work), Ta, Tb);
    finish_product<fin>(r, mask16, ws);
  }

  /// The product from the leaf products in ws: Karatsuba combination, Toom-4 interpolation, the
  /// fold mod x^n - 1 and `fin`.
  template <Finish fin>
  static void finish_product(std::uint16_t* r, std::uint16_t mask16, Workspace& ws) noexcept {
    std::uint16_t* const leaves = ws.leaves_buf + 16;
    std::uint16_t* const work = ws.work;
    std::uint16_t* w = work;  // the leaf products are in `leaves` now: work is free
    for (int p = 0; p < 7; ++p) combine(w + 2 * S * p, leaves, p, work + 14 * S);
    std::uint16_t* prod = leaves;  // the leaf products are consumed
    interpolate(prod, w);
    // prod_j = 0 mod 2^13 for j >= 2n - 1: s_i = prod_i + prod_{i+n} for every i < n. The last
    // block is the one ending at n (it overlaps the one before it with the same values).
    const __m256i mask = _mm256_set1_epi16(static_cast<short>(fin == Finish::kS3 ? 0x1FFF : mask16));
    const std::uint16_t top = static_cast<std::uint16_t>(prod[n - 1] + prod[2 * n - 1]);
    const __m256i topv = _mm256_set1_epi16(static_cast<short>(fin == Finish::kS3 ? 2 * (top & 0x1FFF) : top));
    auto finish = [&](int i) {
      __m256i s = _mm256_add_epi16(load16(prod + i), load16(prod + n + i));
      if constexpr (fin == Finish::kRq) s = _mm256_and_si256(s, mask);
      if constexpr (fin == Finish::kSq) s = _mm256_and_si256(_mm256_sub_epi16(s, topv), mask);
      if constexpr (fin == Finish::kS3) s = mod3_16(_mm256_add_epi16(_mm256_and_si256(s, mask), topv));
      store16(r + i, s);
    };
    for (int i = 0; i + 16 <= n; i += 16) finish(i);
    if (n % 16) finish(n - 16);
  }
};

static_assert(sizeof(Toom4<509>::Workspace) <= kNtruProductScratchBytes &&
              sizeof(Toom4<677>::Workspace) <= kNtruProductScratchBytes &&
              sizeof(Toom4<701>::Workspace) <= kNtruProductScratchBytes &&
              sizeof(Toom4<821>::Workspace) <= kNtruProductScratchBytes);

/// The workspace of Toom4<n> in caller scratch (an array of 16-bit words, implicitly created
/// in the caller's byte buffer).
template <int n>
typename Toom4<n>::Workspace& workspace_in(void* scratch) noexcept {
  return *static_cast<typename Toom4<n>::Workspace*>(scratch);
}

}  // namespace
}  // namespace pqkem::simd::PQKEM_NTRU_NS
