// Built once per x86 ISA: ntru_sort_avx2.cpp and ntru_sort_avx512.cpp include this file.
// Constant-time int32 sort in AVX2 for sample_fixed_type (ntru_kernels.inc has the contract).
//
// A bitonic sorting network (Batcher 1968) in its "flip" form on N = 2^t >= max(len, K^2) wires,
// the wires past len holding INT32_MAX: merging two sorted runs of h wires into one of 2h first
// compares wire i with its mirror 2h-1-i of the block, then half-cleans each half at distances
// h/2, ..., 1; every comparator puts the minimum on the lower wire.
//
// Transposed layout on vectors of K lanes (K = 8, YMM, in the AVX2 build; K = 16, ZMM, in the
// AVX-512 build, PQKEM_NTRU_EVEX): the N wires are V = N/K vectors and wire j = V l + v is lane
// l of vector v. The input order does not matter to a sorting network, so the keys are loaded as
// they come. Then every distance below V is between whole vectors (one min and one max for K
// comparators, no shuffle), and the mirror within runs of up to V wires is a renaming of vectors.
// Phase A sorts the V wires of each lane (8-wire columns by the 19-comparator network, then
// merges of runs of 16 .. V vectors). Phase B merges lanes 1+1, 2+2, ..., K/2+K/2: the flip
// meets vector v with the lane-permuted vector V-1-v, the half-cleaners at distances 2^i V pair
// lanes inside a vector (permutation, min, max, blend), those below V are whole vectors again.
// Only log K (log K + 1) / 2 of the log N (log N + 1) / 2 stages need lane work. Stages are fused
// two or three per pass over memory (8 vectors in registers). The keys fill vectors 0 ..
// ceil(len/K) - 1, so phase A can skip the groups of vectors that hold INT32_MAX only (see
// sort_transposed). Finally V/K transposes of K x K put wire j at x[j]; each does the network's
// last stages (vector distances below K) on its K vectors first, which saves a pass.
//
// Which wires are compared, every branch and every address depends on len only; data moves only
// through min/max/blend/shuffles.
#pragma once
#include <immintrin.h>

#include <climits>
#include <cstring>

#include "secret.hpp"  // secure_wipe: defined in portable code (secret.cpp)
#include "simd/ntru/ntru_isa.hpp"
#include "simd/transpose_x86.hpp"

namespace pqkem::simd::PQKEM_NTRU_NS {
namespace {

inline __m256i load8(const std::int32_t* p) noexcept { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
inline void store8(std::int32_t* p, __m256i v) noexcept { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }

#ifdef PQKEM_NTRU_EVEX
// ---- K = 16: ZMM registers ----
using SV = __m512i;
constexpr std::size_t K = 16;
inline SV loadv(const std::int32_t* p) noexcept { return _mm512_load_si512(p); }
inline void storev(std::int32_t* p, SV v) noexcept { _mm512_store_si512(p, v); }
inline void storeu_out(std::int32_t* p, SV v) noexcept { _mm512_storeu_si512(p, v); }

/// (lo, hi) <- (min, max), lane by lane.
inline void cx(SV& lo, SV& hi) noexcept {
  const SV mn = _mm512_min_epi32(lo, hi);
  hi = _mm512_max_epi32(lo, hi);
  lo = mn;
}

/// The lanes l with l & d != 0 (d a power of two below 16): the upper lane of each pair.
constexpr __mmask16 upper_lanes(int d) noexcept {
  unsigned m = 0;
  for (int l = 0; l < 16; ++l)
    if (l & d) m |= 1u << l;
  return static_cast<__mmask16>(m);
}
/// Lane l of the result is lane l ^ x of v.
inline SV permute_xor(SV v, int x) noexcept {
  const SV lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  return _mm512_permutexvar_epi32(_mm512_xor_si512(lane, _mm512_set1_epi32(x)), v);
}
/// Lane half-cleaner at lane distance d, min to the lower lane.
template <int d>
inline SV clean_lanes(SV v) noexcept {
  const SV p = permute_xor(v, d);
  return _mm512_mask_blend_epi32(upper_lanes(d), _mm512_min_epi32(v, p), _mm512_max_epi32(v, p));
}

/// Flip stage of the merge of lane groups of 2^(T-1) into 2^T (T = 1 .. 4), then the lane
/// half-cleaners of that merge. Wire (l, v) meets its mirror (l ^ (2^T - 1), V-1-v): vector v
/// against the lane-permuted vector V-1-v; the upper lanes of the group take the maximum.
template <int T>
inline void flip_lanes_pair(SV& a, SV& b) noexcept {
  constexpr int g = 1 << T;
  constexpr __mmask16 upper = upper_lanes(g / 2);
  const SV bm = permute_xor(b, g - 1);
  const SV mn = _mm512_min_epi32(a, bm), mx = _mm512_max_epi32(a, bm);
  a = _mm512_mask_blend_epi32(upper, mn, mx);
  b = permute_xor(_mm512_mask_blend_epi32(upper, mx, mn), g - 1);
  if constexpr (T >= 4) a = clean_lanes<4>(a), b = clean_lanes<4>(b);
  if constexpr (T >= 3) a = clean_lanes<2>(a), b = clean_lanes<2>(b);
  if constexpr (T >= 2) a = clean_lanes<1>(a), b = clean_lanes<1>(b);
}

/// 16 x 16 transpose of r (row i = r[i]): col[c] lane i = r[i] lane c. Unpacks of 32- and
/// 64-bit elements give, per 128-bit piece j, columns 4j .. 4j+3 of four rows; two rounds of
/// 128-bit shuffles gather the four pieces of each column.
inline void transpose_block(SV (&col)[16], const SV (&r)[16]) noexcept {
  SV t[16], u[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_epi32(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_epi32(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {  // u[4i + k], piece j: rows 4i .. 4i+3 of column 4j + k
    u[4 * i + 0] = _mm512_unpacklo_epi64(t[4 * i], t[4 * i + 2]);
    u[4 * i + 1] = _mm512_unpackhi_epi64(t[4 * i], t[4 * i + 2]);
    u[4 * i + 2] = _mm512_unpacklo_epi64(t[4 * i + 1], t[4 * i + 3]);
    u[4 * i + 3] = _mm512_unpackhi_epi64(t[4 * i + 1], t[4 * i + 3]);
  }
  for (int k = 0; k < 4; ++k) {
    const SV lo01 = _mm512_shuffle_i32x4(u[k], u[4 + k], _MM_SHUFFLE(1, 0, 1, 0));
    const SV hi01 = _mm512_shuffle_i32x4(u[k], u[4 + k], _MM_SHUFFLE(3, 2, 3, 2));
    const SV lo23 = _mm512_shuffle_i32x4(u[8 + k], u[12 + k], _MM_SHUFFLE(1, 0, 1, 0));
    const SV hi23 = _mm512_shuffle_i32x4(u[8 + k], u[12 + k], _MM_SHUFFLE(3, 2, 3, 2));
    col[k] = _mm512_shuffle_i32x4(lo01, lo23, _MM_SHUFFLE(2, 0, 2, 0));
    col[4 + k] = _mm512_shuffle_i32x4(lo01, lo23, _MM_SHUFFLE(3, 1, 3, 1));
    col[8 + k] = _mm512_shuffle_i32x4(hi01, hi23, _MM_SHUFFLE(2, 0, 2, 0));
    col[12 + k] = _mm512_shuffle_i32x4(hi01, hi23, _MM_SHUFFLE(3, 1, 3, 1));
  }
}
#else
// ---- K = 8: YMM registers ----
using SV = __m256i;
constexpr std::size_t K = 8;
inline SV loadv(const std::int32_t* p) noexcept { return load8(p); }
inline void storev(std::int32_t* p, SV v) noexcept { store8(p, v); }
inline void storeu_out(std::int32_t* p, SV v) noexcept { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }

/// (lo, hi) <- (min, max), lane by lane.
inline void cx(SV& lo, SV& hi) noexcept {
  const SV mn = _mm256_min_epi32(lo, hi);
  hi = _mm256_max_epi32(lo, hi);
  lo = mn;
}

/// Lane half-cleaner at lane distance 1 or 2 (wire distance V or 2V), min to the lower lane.
inline SV clean_lanes1(SV v) noexcept {
  const SV p = _mm256_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1));
  return _mm256_blend_epi32(_mm256_min_epi32(v, p), _mm256_max_epi32(v, p), 0xAA);
}
inline SV clean_lanes2(SV v) noexcept {
  const SV p = _mm256_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2));
  return _mm256_blend_epi32(_mm256_min_epi32(v, p), _mm256_max_epi32(v, p), 0xCC);
}

/// Flip stage of the merge of lane groups of 2^(T-1) into 2^T (T = 1, 2, 3), then the lane
/// half-cleaners of that merge. Wire (l, v) meets its mirror (l ^ (2^T - 1), V-1-v): vector v
/// against the lane-permuted vector V-1-v; the upper lanes of the group take the maximum.
template <int T>
inline void flip_lanes_pair(SV& a, SV& b) noexcept {
  constexpr int kUpper = T == 1 ? 0xAA : T == 2 ? 0xCC : 0xF0;
  auto mirror = [](SV y) {
    if constexpr (T == 1)
      return _mm256_shuffle_epi32(y, _MM_SHUFFLE(2, 3, 0, 1));
    else if constexpr (T == 2)
      return _mm256_shuffle_epi32(y, _MM_SHUFFLE(0, 1, 2, 3));
    else
      return _mm256_permutevar8x32_epi32(y, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
  };
  const SV bm = mirror(b);
  const SV mn = _mm256_min_epi32(a, bm), mx = _mm256_max_epi32(a, bm);
  a = _mm256_blend_epi32(mn, mx, kUpper), b = mirror(_mm256_blend_epi32(mx, mn, kUpper));
  if constexpr (T == 3) a = clean_lanes2(a), b = clean_lanes2(b);
  if constexpr (T >= 2) a = clean_lanes1(a), b = clean_lanes1(b);
}

/// 8 x 8 transpose of r (row i = r[i]): col[c] lane i = r[i] lane c.
inline void transpose_block(SV (&col)[8], const SV (&r)[8]) noexcept { x86::transpose8x8<32>(col, r); }
#endif
/// log2 K: the lane merges of phase B.
constexpr int kLaneMerges = K == 16 ? 4 : 3;

/// Half-cleaner stages dv, dv/2, dv/4 (dv >= 4; min to the lower vector) in one pass: vectors
/// j + t dv/4, t = 0 .. 7, in registers. Groups whose vectors are all >= live are skipped (see
/// sort_transposed).
void clean3(std::int32_t* buf, std::size_t live, std::size_t dv) noexcept {
  const std::size_t q = dv / 4;
  for (std::size_t s = 0; s < live; s += 2 * dv) {
    for (std::size_t j = s; j < s + q && j < live; ++j) {
      std::int32_t* p = buf + K * j;
      const std::size_t e = K * q;
      SV v0 = loadv(p), v1 = loadv(p + e), v2 = loadv(p + 2 * e), v3 = loadv(p + 3 * e);
      SV v4 = loadv(p + 4 * e), v5 = loadv(p + 5 * e), v6 = loadv(p + 6 * e), v7 = loadv(p + 7 * e);
      cx(v0, v4), cx(v1, v5), cx(v2, v6), cx(v3, v7);
      cx(v0, v2), cx(v1, v3), cx(v4, v6), cx(v5, v7);
      cx(v0, v1), cx(v2, v3), cx(v4, v5), cx(v6, v7);
      storev(p, v0), storev(p + e, v1), storev(p + 2 * e, v2), storev(p + 3 * e, v3);
      storev(p + 4 * e, v4), storev(p + 5 * e, v5), storev(p + 6 * e, v6), storev(p + 7 * e, v7);
    }
  }
}

/// Half-cleaners, min to the lower vector, at vector distances dv, dv/2, ..., lowest (powers of
/// two, dv >= lowest; the vector count a multiple of 8 and of 2dv): three per pass over memory,
/// then one pass of two (vectors j, j + d/2, j + d, j + 3d/2) or one (j, j + d), whose
/// distances are compile-time. Groups whose vectors are all >= live are skipped.
template <std::size_t lowest = 1>
void clean_vectors(std::int32_t* buf, std::size_t live, std::size_t dv) noexcept {
  for (; dv >= 4 * lowest; dv /= 8) clean3(buf, live, dv);
  if (dv == 2 * lowest) {
    constexpr std::size_t d = 2 * lowest, h = lowest, e = K * h;
    for (std::size_t s = 0; s < live; s += 2 * d) {
      for (std::size_t j = s; j < s + h && j < live; ++j) {
        std::int32_t* p = buf + K * j;
        SV a0 = loadv(p), a1 = loadv(p + e), a2 = loadv(p + 2 * e), a3 = loadv(p + 3 * e);
        cx(a0, a2), cx(a1, a3);
        cx(a0, a1), cx(a2, a3);
        storev(p, a0), storev(p + e, a1), storev(p + 2 * e, a2), storev(p + 3 * e, a3);
      }
    }
  } else if (dv == lowest) {
    constexpr std::size_t e = K * lowest;
    for (std::size_t s = 0; s < live; s += 2 * lowest) {
      for (std::size_t j = s; j < s + lowest && j < live; ++j) {
        SV a = loadv(buf + K * j), b = loadv(buf + K * j + e);
        cx(a, b);
        storev(buf + K * j, a), storev(buf + K * j + e, b);
      }
    }
  }
}

/// Merge of lane groups of 2^(T-1) into 2^T (runs of 2^(T-1) V wires into 2^T V; T = 1 ..
/// log K). The flip: wire (l, v) meets its mirror (l ^ (2^T - 1), V-1-v), so vector v meets the
/// lane-permuted vector V-1-v and the upper lanes of the group take the maximum; then the lane
/// half-cleaners in registers, then the vector half-cleaners V/2, V/4 in the same pass (the 8
/// vectors v, V/4-1-v, V/4+v, V/2-1-v, v < V/8, and their mirrors are closed under all of
/// these), then the rest; for the last merge the rest down to distance K only: untranspose does
/// the distances below K on its groups of K vectors before transposing them.
template <int T>
void merge_lanes(std::int32_t* buf, std::size_t nv) noexcept {
  const std::size_t q = nv / 4;
  for (std::size_t v = 0; v < nv / 8; ++v) {
    const std::size_t i0 = v, i1 = q - 1 - v, i2 = q + v, i3 = 2 * q - 1 - v;  // < V/2, ascending
    const std::size_t m0 = nv - 1 - i0, m1 = nv - 1 - i1, m2 = nv - 1 - i2, m3 = nv - 1 - i3;
    SV a0 = loadv(buf + K * i0), a1 = loadv(buf + K * i1), a2 = loadv(buf + K * i2), a3 = loadv(buf + K * i3);
    SV b0 = loadv(buf + K * m0), b1 = loadv(buf + K * m1), b2 = loadv(buf + K * m2), b3 = loadv(buf + K * m3);
    flip_lanes_pair<T>(a0, b0), flip_lanes_pair<T>(a1, b1), flip_lanes_pair<T>(a2, b2), flip_lanes_pair<T>(a3, b3);
    // Distance V/2: i0 + V/2 = m3, i1 + V/2 = m2, i2 + V/2 = m1, i3 + V/2 = m0.
    cx(a0, b3), cx(a1, b2), cx(a2, b1), cx(a3, b0);
    // Distance V/4: (i0, i2), (i1, i3), (m3, m1), (m2, m0).
    cx(a0, a2), cx(a1, a3), cx(b3, b1), cx(b2, b0);
    storev(buf + K * i0, a0), storev(buf + K * i1, a1), storev(buf + K * i2, a2), storev(buf + K * i3, a3);
    storev(buf + K * m0, b0), storev(buf + K * m1, b1), storev(buf + K * m2, b2), storev(buf + K * m3, b3);
  }
  if constexpr (T < kLaneMerges)
    clean_vectors(buf, nv, nv / 8);
  else if (nv >= 8 * K)
    clean_vectors<K>(buf, nv, nv / 8);
}

/// Sorts the K V wires of buf (V = nv >= K a power of two) in the transposed layout: first the
/// V wires of every lane at once (whole-vector min/max only), then the lane merges.
/// Vectors >= live must hold INT32_MAX only. In phase A every comparator puts the minimum on the
/// lower vector, so they keep holding INT32_MAX and any comparator with them changes nothing:
/// groups made of such vectors only are skipped (phase A costs ~live, not V, for len = 676, 700,
/// 820 on 1024 wires). Phase B moves data into them and skips nothing.
void sort_transposed(std::int32_t* buf, std::size_t nv, std::size_t live) noexcept {
  for (std::size_t g = 0; g < live; g += 8) {
    std::int32_t* p = buf + K * g;
    SV r0 = loadv(p), r1 = loadv(p + K), r2 = loadv(p + 2 * K), r3 = loadv(p + 3 * K);
    SV r4 = loadv(p + 4 * K), r5 = loadv(p + 5 * K), r6 = loadv(p + 6 * K), r7 = loadv(p + 7 * K);
    cx(r0, r2), cx(r1, r3), cx(r4, r6), cx(r5, r7);
    cx(r0, r4), cx(r1, r5), cx(r2, r6), cx(r3, r7);
    cx(r0, r1), cx(r2, r3), cx(r4, r5), cx(r6, r7);
    cx(r2, r4), cx(r3, r5);
    cx(r1, r4), cx(r3, r6);
    cx(r1, r2), cx(r3, r4), cx(r5, r6);
    storev(p, r0), storev(p + K, r1), storev(p + 2 * K, r2), storev(p + 3 * K, r3);
    storev(p + 4 * K, r4), storev(p + 5 * K, r5), storev(p + 6 * K, r6), storev(p + 7 * K, r7);
  }
  for (std::size_t kv = 16; kv <= nv; kv <<= 1) {
    // Flip (mirror within blocks of kv vectors) and distances kv/4, kv/8 in one pass: the lower
    // vectors o + t kv/8 (t = 0 .. 3, o < kv/8) and their mirrors.
    const std::size_t e = kv / 8;
    for (std::size_t s = 0; s < live; s += kv) {
      for (std::size_t o = 0; o < e && s + o < live; ++o) {  // s + o: the lowest of the group
        std::int32_t* lo = buf + K * (s + o);
        std::int32_t* hi = buf + K * (s + kv - 1 - o);  // mirror of lo; mirrors go down
        SV l0 = loadv(lo), l1 = loadv(lo + K * e), l2 = loadv(lo + 2 * K * e), l3 = loadv(lo + 3 * K * e);
        SV h0 = loadv(hi), h1 = loadv(hi - K * e), h2 = loadv(hi - 2 * K * e), h3 = loadv(hi - 3 * K * e);
        cx(l0, h0), cx(l1, h1), cx(l2, h2), cx(l3, h3);
        cx(l0, l2), cx(l1, l3), cx(h2, h0), cx(h3, h1);
        cx(l0, l1), cx(l2, l3), cx(h1, h0), cx(h3, h2);
        storev(lo, l0), storev(lo + K * e, l1), storev(lo + 2 * K * e, l2), storev(lo + 3 * K * e, l3);
        storev(hi, h0), storev(hi - K * e, h1), storev(hi - 2 * K * e, h2), storev(hi - 3 * K * e, h3);
      }
    }
    clean_vectors(buf, live, kv / 16);
  }
  merge_lanes<1>(buf, nv);
  merge_lanes<2>(buf, nv);
  merge_lanes<3>(buf, nv);
  if constexpr (kLaneMerges == 4) merge_lanes<4>(buf, nv);
}

/// x[0 .. len) <- wires 0 .. len of the transposed layout after the last half-cleaners, those
/// at vector distances min(K/2, V/8) .. 1 that the last merge_lanes left: on each group of K
/// vectors Kb .. Kb+K-1 (closed under these distances) in registers, then a K x K transpose,
/// whose column c is output vector c V/K + b.
void untranspose(std::int32_t* x, std::size_t len, const std::int32_t* buf, std::size_t nv) noexcept {
  const std::size_t rows = nv / K;
  const std::size_t dv = nv / 8 < K / 2 ? nv / 8 : K / 2;  // public: depends on len only
  alignas(64) std::int32_t last[K];
  for (std::size_t b = 0; b < rows; ++b) {
    const std::int32_t* p = buf + K * K * b;
    SV r[K];
    for (std::size_t i = 0; i < K; ++i) r[i] = loadv(p + K * i);
    auto stage = [&r](std::size_t d) {  // d compile-time after inlining: r stays in registers
#pragma GCC unroll 16
      for (std::size_t i = 0; i < K; ++i)
        if ((i & d) == 0 && i + d < K) cx(r[i], r[i + d]);
    };
    if (K >= 16 && dv >= 8) stage(8);  // public: dv depends on len only
    if (dv >= 4) stage(4);
    if (dv >= 2) stage(2);
    stage(1);
    SV col[K];
    transpose_block(col, r);
    for (std::size_t c = 0; c < K; ++c) {
      const std::size_t at = K * (c * rows + b);  // public
      if (at + K <= len) {
        storeu_out(x + at, col[c]);
      } else if (at < len) {
        storev(last, col[c]);
        std::memcpy(x + at, last, 4 * (len - at));
      }
    }
  }
  std::memset(last, 0, sizeof last);
  __asm__ volatile("" : : "r"(last) : "memory");
}

/// Wires of the network for len keys: a power of two >= max(len, K^2) (at least K vectors, one
/// group of untranspose).
std::size_t wires_for(std::size_t len) noexcept {
  std::size_t wires = K * K;
  while (wires < len) wires <<= 1;  // public: depends on len only
  return wires;
}

/// Sorts buf[0 .. len) (2 <= len <= kNtruSortMaxLen; buf 64-byte aligned, room for
/// kNtruSortMaxLen, used as scratch: words up to wires_for(len) hold data after) into
/// out[0 .. len) (out != buf, any alignment).
void sort_core(std::int32_t* buf, std::size_t len, std::int32_t* out) noexcept {
  const std::size_t wires = wires_for(len);
  for (std::size_t i = len; i < wires; ++i) buf[i] = INT32_MAX;
  sort_transposed(buf, wires / K, (len + K - 1) / K);
  untranspose(out, len, buf, wires / K);
}

}  // namespace

void PQKEM_NTRU_KERNEL(sort_int32)(std::int32_t* x, std::size_t len) noexcept {
  if (len < 2) return;
  alignas(64) std::int32_t buf[kNtruSortMaxLen];
  std::memcpy(buf, x, 4 * len);
  sort_core(buf, len, x);
  secure_wipe(buf, 4 * wires_for(len));  // the words that held data
}

void PQKEM_NTRU_KERNEL(sample_fixed_type)(std::uint16_t* r, const std::uint8_t* u, int n, int weight) noexcept {
  const std::size_t m = static_cast<std::size_t>(n) - 1, half = static_cast<std::size_t>(weight) / 2;
  alignas(64) std::int32_t keys[kNtruSortMaxLen];
  alignas(64) std::int32_t sorted[kNtruSortMaxLen];
  // Key i = (bits 30i .. 30i+29 of u) << 2 | label_i: 8 keys from 30 bytes per step. Key i
  // starts in byte o_i = 30i / 8 at bit s_i = 30i % 8 (0, 6, 4, 2 repeating); bytes o_i .. o_i+3
  // shifted right by s_i, plus byte o_i+4 shifted left by 32 - s_i (a shift by 32 gives 0).
  // Both 16-byte loads (bytes 0..15 and 14..29 of the step) stay inside the 30 bytes.
  const __m256i pick_lo = _mm256_setr_epi8(0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,  //
                                           1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m256i pick_hi = _mm256_setr_epi8(-1, -1, -1, -1, 7, -1, -1, -1, 11, -1, -1, -1, -1, -1, -1, -1,  //
                                           -1, -1, -1, -1, 8, -1, -1, -1, 12, -1, -1, -1, -1, -1, -1, -1);
  const __m256i shift_r = _mm256_setr_epi32(0, 6, 4, 2, 0, 6, 4, 2);
  const __m256i shift_l = _mm256_setr_epi32(32, 26, 28, 30, 32, 26, 28, 30);
  const __m256i low30 = _mm256_set1_epi32(0x3FFFFFFF);
  const __m256i ones = _mm256_set1_epi32(1), twos = _mm256_set1_epi32(2);
  const __m256i half1 = _mm256_set1_epi32(static_cast<int>(half)),
                half2 = _mm256_set1_epi32(static_cast<int>(2 * half));
  __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  std::size_t i = 0;
  for (; i + 8 <= m; i += 8) {
    const std::uint8_t* p = u + 30 * (i / 8);
    const __m256i bytes =
        _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
                                _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 14)), 1);
    const __m256i w = _mm256_or_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(bytes, pick_lo), shift_r),
                                      _mm256_sllv_epi32(_mm256_shuffle_epi8(bytes, pick_hi), shift_l));
    // label: 1 for i < half, 2 for half <= i < 2 half, 0 after (public: depends on i only).
    const __m256i in1 = _mm256_cmpgt_epi32(half1, idx), in2 = _mm256_cmpgt_epi32(half2, idx);
    const __m256i label =
        _mm256_or_si256(_mm256_and_si256(in1, ones), _mm256_andnot_si256(in1, _mm256_and_si256(in2, twos)));
    store8(keys + i, _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(w, low30), 2), label));
    idx = _mm256_add_epi32(idx, _mm256_set1_epi32(8));
  }
  for (; i < m; ++i) {  // the last m % 8 keys, byte by byte as the portable sampler reads them
    const std::size_t bit = 30 * i;
    std::uint64_t acc = 0;
    for (std::size_t b = 0; b < 5 && bit / 8 + b < (30 * m + 7) / 8; ++b)
      acc |= static_cast<std::uint64_t>(u[bit / 8 + b]) << (8 * b);
    const std::uint32_t w = static_cast<std::uint32_t>(acc >> (bit % 8)) & 0x3FFFFFFFu;
    const std::uint32_t label = i < half ? 1u : i < 2 * half ? 2u : 0u;
    keys[i] = static_cast<std::int32_t>((w << 2) | label);
  }
  sort_core(keys, m, sorted);
  // r_i = the label of the i-th smallest key: 16 coefficients per step.
  const __m256i three = _mm256_set1_epi32(3);
  for (i = 0; i + 16 <= m; i += 16) {
    const __m256i a = _mm256_and_si256(load8(sorted + i), three), b = _mm256_and_si256(load8(sorted + i + 8), three);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(r + i), _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8));
  }
  for (; i < m; ++i) r[i] = static_cast<std::uint16_t>(sorted[i] & 3);
  r[m] = 0;
  secure_wipe(keys, 4 * wires_for(m));  // the words that held data
  secure_wipe(sorted, 4 * m);
}

}  // namespace pqkem::simd::PQKEM_NTRU_NS
