// Built once per x86 ISA: ntru_s3_inv_avx2.cpp and ntru_s3_inv_avx512.cpp include this file.
// NTRU S3 inversion in AVX2 (ntru_kernels.inc has the contract): constant-time
// divsteps on bit-sliced trits (ntru_divsteps_avx2.hpp describes the method and the public
// degree bounds). Against the plain bit-sliced step with a contiguous layout:
//  - Register-interleaved layout of width N: coefficient i is bit i / 4N of 64-bit lane
//    (i / N) mod 4 of register i mod N (of each bit plane). Multiplying or dividing by x then
//    renames registers (r -> r +- 1) and rotates only the register that wraps around: one vpermq
//    and one variable shift per plane, instead of two shifts, a rotation, a blend and an or per
//    register plus carries.
//  - The width follows the degree bounds: f, g and v, w each use the smallest width that holds
//    them, a power of two for n = 509 and 821 (width 2 or 4 at most) and 1, 2 or 3 for n = 677
//    and 701; a change of width is a pdep/pext re-layout of a few words between phases. Phases
//    depend on n only.
//  - Signs up to a unit: the registers hold f, g, v, w only up to a sign each (f with v, g with w).
//    The step constant taken from the stored g_0, f_0 is the true one times that unit, and after a
//    swap the new g is kept as g + c f instead of c (g + c f): no sign flip. The result
//    f_0^-1 v reversed does not depend on the unit of (f, v).
//  - A 6-operation GF(3) addition that shares its first xor with the swap (step_reg).
//  - Input and output through bitmaps: 16 coefficients at a time to or from one bit each
//    (compare, movemask; broadcast, and, compare), reversed by a lane shuffle, and bitmap words
//    to or from the layout by pext/pdep with public masks (bitmap_to_layout).
#pragma once
#include <immintrin.h>

#include <cstring>
#include <initializer_list>

#include "secret.hpp"  // secure_wipe: defined in portable code (secret.cpp)
#include "simd/ntru/ntru_common_avx2.hpp"
#include "simd/ntru/ntru_divsteps_avx2.hpp"
#include "simd/ntru/ntru_isa.hpp"

namespace pqkem::simd::PQKEM_NTRU_NS {
namespace {

using divsteps::divstep_swap;
using divsteps::low64;
using divsteps::wipe_regs;
using ntru_detail::bits_to_lanes;
using ntru_detail::kPadMax;
using ntru_detail::mod3_16;
using ntru_detail::mod3_scalar;

/// x <- x * X: register r moves to r + 1; the top register moves to register 0 one lane up (lane
/// 3 to lane 0, one bit up). Coefficient 256 W - 1 falls off (it is 0 where this is used).
template <int W>
inline void mul_x(__m256i (&x)[W]) noexcept {
  const __m256i top =
      _mm256_sllv_epi64(_mm256_permute4x64_epi64(x[W - 1], _MM_SHUFFLE(2, 1, 0, 3)), _mm256_set_epi64x(0, 0, 0, 1));
  for (int r = W - 1; r > 0; --r) x[r] = x[r - 1];
  x[0] = top;
}

/// x <- x / X: register r moves to r - 1; register 0 moves to the top register one lane down
/// (lane 0 to lane 3, one bit down). Coefficient 0 falls off (it is 0 where this is used).
template <int W>
inline void div_x(__m256i (&x)[W]) noexcept {
  const __m256i bottom =
      _mm256_srlv_epi64(_mm256_permute4x64_epi64(x[0], _MM_SHUFFLE(0, 3, 2, 1)), _mm256_set_epi64x(1, 0, 0, 0));
  for (int r = 0; r + 1 < W; ++r) x[r] = x[r + 1];
  x[W - 1] = bottom;
}

/// One register of (f, g) <- (swap ? g : f, g + c f) over GF(3) on (nonzero, negative) bit planes
/// whose sign bit is meaningful only where the nonzero bit is set (anything elsewhere, in and out).
/// With y = c f (ym = cm & fm, sign fs ^ cs) and d = gs ^ ys, z = ym & (d ^ gm) is set where y != 0
/// and either g = 0 (then d ^ gm = d: z marks where the sign must become ys) or g, y are nonzero
/// with equal signs (the sum is -g: the sign flips). So the new sign is gs ^ z, and the new g is
/// nonzero where exactly one of g, y is (gm ^ ym) or both are with equal signs (z).
/// The swap is a masked exchange f ^= swap & (f ^ g); on the nonzero planes f ^ g = g ^ ym when
/// c != 0 (ym = fm), which the sum needs anyway, and there is no swap when c = 0.
inline void step_reg(__m256i& fm, __m256i& fs, __m256i& gm, __m256i& gs, __m256i swap, __m256i cm,
                     __m256i cs) noexcept {
  const __m256i qs = _mm256_xor_si256(fs, gs);
  const __m256i ym = _mm256_and_si256(cm, fm);
  const __m256i t = _mm256_xor_si256(gm, ym);
  const __m256i z = _mm256_and_si256(ym, _mm256_xor_si256(_mm256_xor_si256(qs, cs), gm));
  fs = _mm256_xor_si256(fs, _mm256_and_si256(swap, qs));
  fm = _mm256_xor_si256(fm, _mm256_and_si256(swap, t));
  gs = _mm256_xor_si256(gs, z);
  gm = _mm256_or_si256(t, z);
}

inline __m256i bcast(std::uint64_t x) noexcept { return _mm256_set1_epi64x(static_cast<long long>(x)); }

template <int W>
void load_planes(__m256i (&x)[W], const std::uint64_t* words) noexcept {
  for (int k = 0; k < W; ++k) x[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + 4 * k));
}
template <int W>
void store_planes(std::uint64_t* words, const __m256i (&x)[W]) noexcept {
  for (int k = 0; k < W; ++k) _mm256_storeu_si256(reinterpret_cast<__m256i*>(words + 4 * k), x[k]);
}

/// The polynomials between phases: per bit plane (0: nonzero, 1: negative) 16 words in the
/// interleaved layout of the phase's width (4 words per register, register-major).
struct S3Words {
  std::uint64_t f[2][16], g[2][16], v[2][16], w[2][16];
  std::uint64_t g0m, g0s, f0s;
  std::int64_t delta;
};

constexpr std::uint64_t kEven = 0x5555555555555555u, kOdd = 0xAAAAAAAAAAAAAAAAu;

/// Layout of width 2h -> width h (coefficients >= 256 h are dropped). Target register r', lane
/// l', bit b holds coefficient i = 4h b + h l' + r', which the width-2h layout keeps in register
/// h (l' mod 2) + r', lane 2 (b mod 2) + l' / 2, bit b / 2: even and odd target bits come from
/// two source words. Positions are public; the bits move through pdep only.
inline void halve_width(std::uint64_t* x, int h) noexcept {  // h = 1 or 2
  std::uint64_t t[16] = {};
  for (int r1 = 0; r1 < h; ++r1)
    for (int l1 = 0; l1 < 4; ++l1) {
      const int r = h * (l1 & 1) + r1;
      t[4 * r1 + l1] = _pdep_u64(x[4 * r + l1 / 2], kEven) | _pdep_u64(x[4 * r + l1 / 2 + 2], kOdd);
    }
  std::memcpy(x, t, sizeof t);
  secure_wipe(t, sizeof t);
}

/// Layout of width h -> width 2h (the inverse of halve_width): target register r, lane l, bit b
/// holds the source's register r mod h, lane 2 (l mod 2) + r / h, bit 2 b + l / 2.
inline void double_width(std::uint64_t* x, int h) noexcept {  // h = 1 or 2
  std::uint64_t t[16] = {};
  const int log_h = h >> 1;  // no division instruction, even by a public value
  for (int r = 0; r < 2 * h; ++r)
    for (int l = 0; l < 4; ++l)
      t[4 * r + l] = _pext_u64(x[4 * (r & (h - 1)) + 2 * (l & 1) + (r >> log_h)], l < 2 ? kEven : kOdd);
  std::memcpy(x, t, sizeof t);
  secure_wipe(t, sizeof t);
}

/// Every third bit, and every other bit, of a word.
constexpr std::uint64_t kThirds = 0x9249249249249249u, kHalves = kEven;

/// The word of the width-W layout (register r, lane l) that holds the residue class rho mod 4W:
/// coefficient i sits in register i mod W, lane (i / W) mod 4. W and rho are public.
constexpr int word_of_residue(int rho, int W) noexcept { return 4 * (rho % W) + rho / W; }

/// Layout of width 2 -> width 3 (coefficients below 512). Target word of residue rho mod 12,
/// bit b, holds coefficient rho + 12 b: for even b = 2t that is rho + 24t, which width 2 keeps
/// in the word of residue rho mod 8 at bit 3t + rho / 8; for odd b = 2t + 1, the word of
/// residue (rho + 4) mod 8 at bit 3t + (rho + 12) / 8. Every third source bit, spread to the
/// even or odd target bits. Positions are public; the bits move through pext/pdep only.
inline void widen_2_to_3(std::uint64_t* x) noexcept {
  std::uint64_t t[16] = {};
  for (int rho = 0; rho < 12; ++rho) {
    const std::uint64_t even = _pext_u64(x[word_of_residue(rho % 8, 2)], kThirds << (rho / 8));
    const std::uint64_t odd = _pext_u64(x[word_of_residue((rho + 4) % 8, 2)], kThirds << ((rho + 12) / 8));
    t[word_of_residue(rho, 3)] = _pdep_u64(even, kEven) | _pdep_u64(odd, kOdd);
  }
  std::memcpy(x, t, sizeof t);
  secure_wipe(t, sizeof t);
}

/// Layout of width 3 -> width 2 (coefficients from 512 on are dropped). Target word of residue
/// rho mod 8, bit b = 3t + u (u < 3), holds coefficient rho + 8u + 24t, which width 3 keeps in
/// the word of residue (rho + 8u) mod 12 at bit 2t + (rho + 8u) / 12: every other source bit,
/// spread to the target bits of index u mod 3.
inline void narrow_3_to_2(std::uint64_t* x) noexcept {
  std::uint64_t t[16] = {};
  for (int rho = 0; rho < 8; ++rho) {
    std::uint64_t word = 0;
    for (int u = 0; u < 3; ++u) {
      const int c = rho + 8 * u;
      word |= _pdep_u64(_pext_u64(x[word_of_residue(c % 12, 3)], kHalves << (c / 12)), kThirds << u);
    }
    t[word_of_residue(rho, 2)] = word;
  }
  std::memcpy(x, t, sizeof t);
  secure_wipe(t, sizeof t);
}

/// The planes of (f, g) from width `from` down to `to` (1 <= to <= from <= 4, both in the
/// widths of one n: 4 -> 2 -> 1, 3 -> 2 -> 1 or 2 -> 1).
inline void narrow_fg(S3Words& st, int from, int to) noexcept {
  for (; from > to; from = from == 3 ? 2 : from / 2) {
    for (std::uint64_t* x : {st.f[0], st.f[1], st.g[0], st.g[1]}) {
      if (from == 3)
        narrow_3_to_2(x);
      else
        halve_width(x, from / 2);
    }
  }
}

/// The planes `xs` from width `from` up to `to` (1 -> 2 -> 4, or 1 -> 2 -> 3).
inline void widen(std::initializer_list<std::uint64_t*> xs, int from, int to) noexcept {
  for (; from < to; from = to == 3 && from == 2 ? 3 : 2 * from) {
    for (std::uint64_t* x : xs) {
      if (to == 3 && from == 2)
        widen_2_to_3(x);
      else
        double_width(x, from);
    }
  }
}

template <int N>
void load_pair(__m256i (&m)[N], __m256i (&s)[N], const std::uint64_t (&x)[2][16]) noexcept {
  load_planes(m, x[0]);
  load_planes(s, x[1]);
}
template <int N>
void store_pair(std::uint64_t (&x)[2][16], const __m256i (&m)[N], const __m256i (&s)[N]) noexcept {
  store_planes(x[0], m);
  store_planes(x[1], s);
}

/// `count` divsteps with f, g in the layout of width A and v, w in the layout of width B.
template <int A, int B>
void s3_steps(S3Words& st, int count) noexcept {
  __m256i fm[A], fs[A], gm[A], gs[A], vm[B], vs[B], wm[B], ws[B];
  load_pair(fm, fs, st.f), load_pair(gm, gs, st.g), load_pair(vm, vs, st.v), load_pair(wm, ws, st.w);
  std::uint64_t g0m = st.g0m, g0s = st.g0s, f0s = st.f0s;
  std::int64_t delta = st.delta;
  for (int step = 0; step < count; ++step) {
    // c = -g_0 / f_0 = -g_0 f_0 (f_0 = +-1 is never 0): nonzero iff g_0 is, negative iff the
    // signs of g_0 and f_0 agree. Symmetric in f and g, so it may be taken before the swap; with
    // a swap the new g is f + c g = c (g + c f), stored as g + c f (see the file comment).
    const std::uint64_t sign_agree = 1u ^ g0s ^ f0s;
    const __m256i cm = bcast(0 - g0m);
    const __m256i cs = bcast(0 - (g0m & sign_agree));
    const std::uint64_t swap_mask = divstep_swap(delta, g0m);
    f0s ^= swap_mask & (f0s ^ g0s);
    const __m256i swap = bcast(swap_mask);
    mul_x(vm);
    mul_x(vs);
    for (int k = 0; k < A; ++k) step_reg(fm[k], fs[k], gm[k], gs[k], swap, cm, cs);
    for (int k = 0; k < B; ++k) step_reg(vm[k], vs[k], wm[k], ws[k], swap, cm, cs);
    if constexpr (A >= 2) {  // coefficient 1: register 1, lane 0, bit 0
      g0m = low64(gm[1]) & 1u;
      g0s = low64(gs[1]) & 1u;
    } else {  // register 0, lane 1, bit 0
      g0m = static_cast<std::uint64_t>(_mm256_extract_epi64(gm[0], 1)) & 1u;
      g0s = static_cast<std::uint64_t>(_mm256_extract_epi64(gs[0], 1)) & 1u;
    }
    div_x(gm);
    div_x(gs);
  }
  store_pair(st.f, fm, fs), store_pair(st.g, gm, gs), store_pair(st.v, vm, vs), store_pair(st.w, wm, ws);
  st.g0m = g0m, st.g0s = g0s, st.f0s = f0s;
  st.delta = delta;
  wipe_regs(fm), wipe_regs(fs), wipe_regs(gm), wipe_regs(gs);
  wipe_regs(vm), wipe_regs(vs), wipe_regs(wm), wipe_regs(ws);
}

/// Layout widths: the smallest width that holds the public degree bounds of
/// ntru_divsteps_avx2.hpp (fg_regs, vw_regs), so a phase processes fewer registers and a change
/// of width is a cheap pdep/pext re-layout: powers of two up to W = 2 or 4, and 1, 2, 3 for W = 3.
inline int layout_width(int regs, int W) noexcept {
  if (W == 3) return regs;  // regs <= W
  return regs <= 1 ? 1 : regs <= 2 ? 2 : 4;
}

/// `count` steps with f, g in width a and v, w in width b (1 <= a, b <= 4; public).
void run_phase(S3Words& st, int a, int b, int count) noexcept {
  using Steps = void (*)(S3Words&, int) noexcept;
  static constexpr Steps kSteps[4][4] = {
      {s3_steps<1, 1>, s3_steps<1, 2>, s3_steps<1, 3>, s3_steps<1, 4>},
      {s3_steps<2, 1>, s3_steps<2, 2>, s3_steps<2, 3>, s3_steps<2, 4>},
      {s3_steps<3, 1>, s3_steps<3, 2>, s3_steps<3, 3>, s3_steps<3, 4>},
      {s3_steps<4, 1>, s3_steps<4, 2>, s3_steps<4, 3>, s3_steps<4, 4>},
  };
  kSteps[a - 1][b - 1](st, count);
}

/// Positions up to kPadMax as a bitmap: bit j of word j / 64 is position j.
constexpr int kBitmapWords = kPadMax / 64 + 1;

/// Bitmap word k against word rho of the width-W layout (which holds positions rho + 4W b at bit
/// b): the bits of word k that are positions of residue rho mod 4W, and the b of the first one.
/// Everything here depends on W, rho and k only.
template <int W>
struct Stride {
  static constexpr int kStep = 4 * W;
  static constexpr std::uint64_t pattern() noexcept {  // bits 0, 4W, 8W, ...
    std::uint64_t x = 0;
    for (int j = 0; j < 64; j += kStep) x |= std::uint64_t{1} << j;
    return x;
  }
  std::uint64_t mask;
  int b0;
  Stride(int rho, int k) noexcept {
    const int first = rho + kStep * ((64 * k - rho + kStep - 1) / kStep);  // first position >= 64k
    mask = pattern() << (first - 64 * k);
    b0 = (first - rho) / kStep;
  }
};

/// Bitmap (positions 0 .. 64 kBitmapWords) -> the 4W words of the width-W layout.
template <int W>
void bitmap_to_layout(std::uint64_t* words, const std::uint64_t* bm) noexcept {
  for (int wd = 0; wd < 4 * W; ++wd) {
    const int rho = wd / 4 + W * (wd % 4);  // register wd / 4, lane wd % 4
    std::uint64_t x = 0;
    for (int k = 0; k < kBitmapWords; ++k) {
      const Stride<W> st(rho, k);
      if (st.b0 < 64) x |= _pext_u64(bm[k], st.mask) << st.b0;
    }
    words[wd] = x;
  }
}

/// The inverse: the 4W words of the width-W layout -> bitmap.
template <int W>
void layout_to_bitmap(std::uint64_t* bm, const std::uint64_t* words) noexcept {
  for (int k = 0; k < kBitmapWords; ++k) bm[k] = 0;
  for (int wd = 0; wd < 4 * W; ++wd) {
    const int rho = wd / 4 + W * (wd % 4);
    for (int k = 0; k < kBitmapWords; ++k) {
      const Stride<W> st(rho, k);
      if (st.b0 < 64) bm[k] |= _pdep_u64(words[wd] >> st.b0, st.mask);
    }
  }
}

/// The 16 lanes of x in reverse order.
inline __m256i reverse16(__m256i x) noexcept {
  const __m256i rev = _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,  //
                                       14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
  return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(x, rev), _MM_SHUFFLE(1, 0, 3, 2));
}

/// One bit per 16-bit lane mask (all ones or zero): 16 bits.
inline std::uint32_t lane_bits(__m256i mask) noexcept {
  return _pext_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(mask)), 0x55555555u);
}

/// GF(3): r = a^-1 mod (3, Phi_n) or 0. Input and output as in poly_s3_inv.
template <int W>
void s3_inv(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  S3Words st = {};
  const int steps = 2 * (n - 1) - 1;
  int a_width = layout_width(divsteps::fg_regs(n, 0, W), W), b_width = layout_width(divsteps::vw_regs(0, W), W);
  // g = the reversal of a mod (3, Phi_n): position pos (< n - 1) holds c_{n-2-pos}, c_i = (a_i +
  // 2 a_{n-1}) mod 3. 16 positions at a time: c of the 16 coefficients a_{n-17-p .. n-2-p} from
  // a copy with 16 words of zeros in front, reversed, as "nonzero" and "negative" bitmaps (the
  // front zeros, positions n - 1 .. n + 14, are masked off). Then f = Phi_n (all +1 up to
  // degree n - 1) and the bitmaps go to the width-W layout by pext. All positions are public.
  alignas(32) std::uint16_t cv[16 + kPadMax];
  std::memset(cv, 0, 32);
  std::memcpy(cv + 16, a, 2 * static_cast<std::size_t>(n));
  const __m256i top2 = _mm256_set1_epi16(static_cast<short>(2 * mod3_scalar(a[n - 1])));
  std::uint64_t bm[2][kBitmapWords] = {};  // bits 16 q .. 16 q + 15 of bm[.][q / 4]: step q
  for (int p = 0; p < n - 1; p += 16) {
    const int lo = n - 17 - p;  // >= -15
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(cv + 16 + lo));
    const __m256i c = reverse16(mod3_16(_mm256_add_epi16(mod3_16(x), top2)));
    const std::uint64_t live = n - 1 - p >= 16 ? 0xFFFFu : (1u << (n - 1 - p)) - 1;
    const int word = p / 64, shift = p % 64;
    bm[0][word] |= (~std::uint64_t{lane_bits(_mm256_cmpeq_epi16(c, _mm256_setzero_si256()))} & live) << shift;
    bm[1][word] |= (std::uint64_t{lane_bits(_mm256_cmpeq_epi16(c, _mm256_set1_epi16(2)))} & live) << shift;
  }
  bitmap_to_layout<W>(st.g[0], bm[0]);
  bitmap_to_layout<W>(st.g[1], bm[1]);
  for (int wd = 0; wd < 4 * W; ++wd) {  // f: positions rho + 4W b < n, rho = wd / 4 + W (wd % 4)
    const int count = (n - 1 - (wd / 4 + W * (wd % 4))) / (4 * W) + 1;
    st.f[0][wd] = count >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
  }
  secure_wipe(cv, sizeof cv);
  st.w[0][0] = 1;  // w = 1: coefficient 0 is word 0, bit 0 in every layout
  // g_0 (two bits) and the sign of f_0 are tracked in scalars: the next g_0 is coefficient 1 of g
  // before the division, and f_0 changes only by the swap.
  st.g0m = st.g[0][0] & 1u, st.g0s = st.g[1][0] & 1u, st.f0s = 0;  // f = Phi_n: f_0 = +1
  st.delta = 1;
  narrow_fg(st, W, a_width);  // f, g start in width W (A <= W), v, w in width 1
  int k = 0;
  while (k < steps) {
    const int wa = layout_width(divsteps::fg_regs(n, k, W), W), wb = layout_width(divsteps::vw_regs(k, W), W);
    narrow_fg(st, a_width, wa);
    widen({st.v[0], st.v[1], st.w[0], st.w[1]}, b_width, wb);
    a_width = wa, b_width = wb;
    // The widths change only at steps c where (2n - 3 - c) / 256 or (c + 1) / 256 changes:
    // c = 2n - 2 - 256 j or c = 256 j - 1. The phase ends at the first such c with other widths.
    int end = steps;
    for (int j = 0; j <= 2 * n / 256 + 1; ++j) {
      for (const int c : {2 * n - 2 - 256 * j, 256 * j - 1}) {
        if (c > k && c < end &&
            (layout_width(divsteps::fg_regs(n, c, W), W) != wa || layout_width(divsteps::vw_regs(c, W), W) != wb))
          end = c;
      }
    }
    run_phase(st, wa, wb, end - k);
    k = end;
  }
  widen({st.v[0], st.v[1]}, b_width, W);
  const std::uint64_t f0_negative = st.f0s;
  // r = f_0^-1 v reversed = f_0 v reversed: v to bitmaps, then 16 positions at a time, each bit
  // spread to its lane, reversed into a copy with 16 words in front (r_i at index 16 + i).
  for (std::uint64_t& w : st.v[1]) w ^= 0 - f0_negative;
  layout_to_bitmap<W>(bm[0], st.v[0]);
  layout_to_bitmap<W>(bm[1], st.v[1]);
  const __m256i one = _mm256_set1_epi16(1);
  for (int p = 0; p < n - 1; p += 16) {
    const int word = p / 64, shift = p % 64;
    const __m256i m = bits_to_lanes(static_cast<std::uint16_t>(bm[0][word] >> shift));
    const __m256i sg = bits_to_lanes(static_cast<std::uint16_t>(bm[1][word] >> shift));
    const __m256i val = _mm256_and_si256(m, _mm256_add_epi16(one, _mm256_and_si256(sg, one)));  // 0, 1 or 2
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(cv + 16 + (n - 17 - p)), reverse16(val));
  }
  std::memcpy(r, cv + 16, 2 * static_cast<std::size_t>(n - 1));
  r[n - 1] = 0;
  secure_wipe(cv, sizeof cv), secure_wipe(bm, sizeof bm);
  secure_wipe(&st, sizeof st);
}

}  // namespace

void PQKEM_NTRU_KERNEL(poly_s3_inv)(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  if (n <= 512)
    s3_inv<2>(r, a, n);  // n is public
  else if (n <= 768)
    s3_inv<3>(r, a, n);
  else
    s3_inv<4>(r, a, n);
}

}  // namespace pqkem::simd::PQKEM_NTRU_NS
