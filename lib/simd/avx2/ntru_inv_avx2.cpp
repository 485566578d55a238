// NTRU S3 inversion in AVX2 (compiled with -mavx2; see ntru_avx2.h for the contract): constant-time
// divsteps on bit-sliced trits (ntru_divsteps_avx2.hpp describes the method and the public
// degree bounds). Against the plain bit-sliced step with a contiguous layout:
//  - Register-interleaved layout of width N: coefficient i is bit i / 4N of 64-bit lane
//    (i / N) mod 4 of register i mod N (of each bit plane). Multiplying or dividing by x then
//    renames registers (r -> r +- 1) and rotates only the register that wraps around: one vpermq
//    and one variable shift per plane, instead of two shifts, a rotation, a blend and an or per
//    register plus carries.
//  - The width follows the degree bounds: f, g and v, w each use the smallest power of two of
//    registers that holds them (n = 677, 701 keep width 3 throughout); a change of width is a
//    pdep/pext re-layout of a few words between phases. Phases depend on n only.
//  - Signs up to a unit: the registers hold f, g, v, w only up to a sign each (f with v, g with w).
//    The step constant taken from the stored g_0, f_0 is the true one times that unit, and after a
//    swap the new g is kept as g + c f instead of c (g + c f): no sign flip. The result
//    f_0^-1 v reversed does not depend on the unit of (f, v).
//  - A 6-operation GF(3) addition that shares its first xor with the swap (step_reg).
#include <immintrin.h>

#include <cstring>
#include <initializer_list>

#include "simd/avx2/ntru_avx2.h"
#include "simd/avx2/ntru_divsteps_avx2.hpp"

namespace pqkem::simd::avx2 {
namespace {

using divsteps::divstep_swap;
using divsteps::low64;
using divsteps::wipe;
using divsteps::wipe_regs;

inline std::uint32_t mod3_scalar(std::uint32_t x) noexcept {  // x < 2^17
  return x - 3 * static_cast<std::uint32_t>((std::uint64_t{x} * 43691u) >> 17);
}

/// Word (of the 4W 64-bit words of a plane, register-major) and bit of coefficient i in the
/// interleaved layout: register i mod W, lane (i / W) mod 4, bit i / 4W. i and W are public.
template <int W>
inline int word_of(int i) noexcept { return 4 * (i % W) + (i / W) % 4; }
template <int W>
inline int bit_of(int i) noexcept { return i / (4 * W); }

/// x <- x * X: register r moves to r + 1; the top register moves to register 0 one lane up (lane
/// 3 to lane 0, one bit up). Coefficient 256 W - 1 falls off (it is 0 where this is used).
template <int W>
inline void mul_x(__m256i (&x)[W]) noexcept {
  const __m256i top = _mm256_sllv_epi64(_mm256_permute4x64_epi64(x[W - 1], _MM_SHUFFLE(2, 1, 0, 3)),
                                        _mm256_set_epi64x(0, 0, 0, 1));
  for (int r = W - 1; r > 0; --r) x[r] = x[r - 1];
  x[0] = top;
}

/// x <- x / X: register r moves to r - 1; register 0 moves to the top register one lane down
/// (lane 0 to lane 3, one bit down). Coefficient 0 falls off (it is 0 where this is used).
template <int W>
inline void div_x(__m256i (&x)[W]) noexcept {
  const __m256i bottom = _mm256_srlv_epi64(_mm256_permute4x64_epi64(x[0], _MM_SHUFFLE(0, 3, 2, 1)),
                                           _mm256_set_epi64x(1, 0, 0, 0));
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
  wipe(t, sizeof t);
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
  wipe(t, sizeof t);
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

/// Layout widths: W = 3 keeps width 3 throughout; W = 2 and 4 use the smallest power of two
/// that holds the public degree bounds of ntru_divsteps_avx2.hpp (fg_regs, vw_regs), so a phase
/// processes fewer registers and a change of width is a cheap pdep/pext re-layout.
inline int pow2_width(int regs, int W) noexcept {
  if (W == 3) return 3;
  return regs <= 1 ? 1 : regs <= 2 ? 2 : 4;
}

template <int W>
void run_phase(S3Words& st, int a, int b, int count) noexcept {
  if constexpr (W == 3) {
    (void)a, (void)b;
    s3_steps<3, 3>(st, count);
  } else if constexpr (W == 2) {
    if (a == 2 && b == 1) s3_steps<2, 1>(st, count);
    else if (a == 2 && b == 2) s3_steps<2, 2>(st, count);
    else if (a == 1 && b == 2) s3_steps<1, 2>(st, count);
    else if (a == 1 && b == 1) s3_steps<1, 1>(st, count);
  } else {
    switch (a * 8 + b) {
      case 4 * 8 + 1: s3_steps<4, 1>(st, count); break;
      case 4 * 8 + 2: s3_steps<4, 2>(st, count); break;
      case 4 * 8 + 4: s3_steps<4, 4>(st, count); break;
      case 2 * 8 + 4: s3_steps<2, 4>(st, count); break;
      case 1 * 8 + 4: s3_steps<1, 4>(st, count); break;
      case 2 * 8 + 2: s3_steps<2, 2>(st, count); break;
      case 2 * 8 + 1: s3_steps<2, 1>(st, count); break;
      case 1 * 8 + 2: s3_steps<1, 2>(st, count); break;
      default: s3_steps<1, 1>(st, count); break;
    }
  }
}

/// GF(3): r = a^-1 mod (3, Phi_n) or 0. Input and output as in ntru_poly_s3_inv.
template <int W>
void s3_inv(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  S3Words st = {};
  const int steps = 2 * (n - 1) - 1;
  int a_width = pow2_width(divsteps::fg_regs(n, 0, W), W), b_width = pow2_width(divsteps::vw_regs(0, W), W);
  const std::uint32_t top2 = 2 * mod3_scalar(a[n - 1]);
  for (int i = 0; i + 1 < n; ++i) {  // g = reversal of a mod (3, Phi_n); positions are public
    const std::uint64_t c = mod3_scalar(mod3_scalar(a[i]) + top2);
    const int pos = n - 2 - i;
    st.g[0][word_of<W>(pos)] |= ((c | (c >> 1)) & 1u) << bit_of<W>(pos);
    st.g[1][word_of<W>(pos)] |= (c >> 1) << bit_of<W>(pos);
  }
  for (int i = 0; i < n; ++i) st.f[0][word_of<W>(i)] |= std::uint64_t{1} << bit_of<W>(i);  // Phi_n: all +1
  st.w[0][0] = 1;  // w = 1: coefficient 0 is word 0, bit 0 in every layout
  // g_0 (two bits) and the sign of f_0 are tracked in scalars: the next g_0 is coefficient 1 of g
  // before the division, and f_0 changes only by the swap.
  st.g0m = st.g[0][0] & 1u, st.g0s = st.g[1][0] & 1u, st.f0s = 0;  // f = Phi_n: f_0 = +1
  st.delta = 1;
  for (int h = W; h > a_width; h /= 2) {  // f, g start in width W (A <= W), v, w in width 1
    halve_width(st.f[0], h / 2), halve_width(st.f[1], h / 2);
    halve_width(st.g[0], h / 2), halve_width(st.g[1], h / 2);
  }
  int k = 0;
  while (k < steps) {
    const int wa = pow2_width(divsteps::fg_regs(n, k, W), W), wb = pow2_width(divsteps::vw_regs(k, W), W);
    for (; a_width > wa; a_width /= 2) {
      halve_width(st.f[0], a_width / 2), halve_width(st.f[1], a_width / 2);
      halve_width(st.g[0], a_width / 2), halve_width(st.g[1], a_width / 2);
    }
    for (; b_width < wb; b_width *= 2) {
      double_width(st.v[0], b_width), double_width(st.v[1], b_width);
      double_width(st.w[0], b_width), double_width(st.w[1], b_width);
    }
    // The widths change only at steps c where (2n - 3 - c) / 256 or (c + 1) / 256 changes:
    // c = 2n - 2 - 256 j or c = 256 j - 1. The phase ends at the first such c with other widths.
    int end = steps;
    for (int j = 0; j <= 2 * n / 256 + 1; ++j) {
      for (const int c : {2 * n - 2 - 256 * j, 256 * j - 1}) {
        if (c > k && c < end && (pow2_width(divsteps::fg_regs(n, c, W), W) != wa ||
                                 pow2_width(divsteps::vw_regs(c, W), W) != wb))
          end = c;
      }
    }
    run_phase<W>(st, wa, wb, end - k);
    k = end;
  }
  for (; b_width < W; b_width *= 2) {
    double_width(st.v[0], b_width), double_width(st.v[1], b_width);
  }
  const std::uint64_t f0_negative = st.f0s;
  for (int i = 0; i + 1 < n; ++i) {  // r = f_0^-1 v reversed = f_0 v reversed
    const int pos = n - 2 - i;
    const std::uint64_t m = (st.v[0][word_of<W>(pos)] >> bit_of<W>(pos)) & 1u;
    const std::uint64_t sg = ((st.v[1][word_of<W>(pos)] >> bit_of<W>(pos)) ^ f0_negative) & m;
    r[i] = static_cast<std::uint16_t>(m + sg);
  }
  r[n - 1] = 0;
  wipe(&st, sizeof st);
}

}  // namespace

void ntru_poly_s3_inv(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  if (n <= 512) s3_inv<2>(r, a, n);  // n is public
  else if (n <= 768) s3_inv<3>(r, a, n);
  else s3_inv<4>(r, a, n);
}

}  // namespace pqkem::simd::avx2
