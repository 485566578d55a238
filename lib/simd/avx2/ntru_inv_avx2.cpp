// NTRU inversions in AVX2 (compiled with -mavx2; see ntru_avx2.h for the contract): S2 and S3
// by constant-time divsteps, Sq by Newton iteration on top of the S2 inverse.
//
// Divsteps (Bernstein and Yang, "Fast constant-time gcd computation and modular inversion",
// 2019, section 3, on reversed polynomials): with f = Phi_n (palindromic, so its own reversal),
// g = the reversal of a mod Phi_n (degree <= n - 2), delta = 1, v = 0, w = 1, each step does
//   v <- x v;  if delta > 0 and g_0 != 0: (f, g, v, w) <- (g, f, w, v), delta <- -delta;
//   delta <- delta + 1;  g <- (g - (g_0 / f_0) f) / x;  w <- w - (g_0 / f_0) v.
// After 2(n - 1) - 1 steps f is the gcd (a constant f_0, since Phi_n is irreducible mod 2
// and mod 3) and f_0^-1 v reversed is a^-1 mod Phi_n; when a = 0 mod Phi_n, v stays 0.
// Polynomials are bit-sliced: coefficient i is bit i of W 256-bit registers (W = ceil(n / 256));
// over GF(3) a coefficient is two bits, "nonzero" and "negative" (the negative bit is meaningful
// only where the nonzero bit is set; the output masks it). Every step is the same instruction
// sequence; data flows only through masks (and blends on masks). Registers above the degree
// bounds below are not processed (the number of steps per phase depends on n only).
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "simd/avx2/ntru_avx2.h"

namespace pqkem::simd::avx2 {
namespace {

constexpr int kMaxN = 821;
constexpr int kMaxBlocks = (kMaxN + 15) / 16;

void wipe(void* p, std::size_t len) noexcept {
  std::memset(p, 0, len);
  __asm__ volatile("" : : "r"(p) : "memory");
}

inline __m256i load16(const std::uint16_t* p) noexcept { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
inline void store16(std::uint16_t* p, __m256i v) noexcept { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }

inline std::uint32_t mod3_scalar(std::uint32_t x) noexcept {  // x < 2^17
  return x - 3 * static_cast<std::uint32_t>((std::uint64_t{x} * 43691u) >> 17);
}

/// x <- x * X (bit i moves to bit i + 1) across the W registers; the top bit falls off.
template <int W>
inline void shift_up(__m256i (&x)[W]) noexcept {
  __m256i rot[W];
  for (int w = 0; w < W; ++w)  // lane j <- top bit of lane j - 1 (lane 0 <- lane 3, fixed below)
    rot[w] = _mm256_permute4x64_epi64(_mm256_srli_epi64(x[w], 63), _MM_SHUFFLE(2, 1, 0, 3));
  for (int w = W - 1; w >= 0; --w) {
    const __m256i prev = w > 0 ? rot[w - 1] : _mm256_setzero_si256();
    x[w] = _mm256_or_si256(_mm256_slli_epi64(x[w], 1), _mm256_blend_epi32(rot[w], prev, 0x03));
  }
}

/// x <- x / X (bit i moves to bit i - 1); bit 0 falls off (it is 0 where this is used).
template <int W>
inline void shift_down(__m256i (&x)[W]) noexcept {
  __m256i rot[W];
  for (int w = 0; w < W; ++w)  // lane j <- bit 0 of lane j + 1 (lane 3 <- lane 0, fixed below)
    rot[w] = _mm256_permute4x64_epi64(_mm256_slli_epi64(x[w], 63), _MM_SHUFFLE(0, 3, 2, 1));
  for (int w = 0; w < W; ++w) {
    const __m256i next = w + 1 < W ? rot[w + 1] : _mm256_setzero_si256();
    x[w] = _mm256_or_si256(_mm256_srli_epi64(x[w], 1), _mm256_blend_epi32(rot[w], next, 0xC0));
  }
}

inline std::uint64_t low64(__m256i x) noexcept {
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm256_castsi256_si128(x)));
}
inline std::uint64_t bit0(__m256i x) noexcept { return low64(x) & 1u; }

template <int W>
void load_bits(__m256i (&x)[W], const std::uint64_t* words) noexcept {
  for (int w = 0; w < W; ++w) x[w] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + 4 * w));
}
template <int W>
void store_bits(std::uint64_t* words, const __m256i (&x)[W]) noexcept {
  for (int w = 0; w < W; ++w) _mm256_storeu_si256(reinterpret_cast<__m256i*>(words + 4 * w), x[w]);
}
template <int W>
void wipe_regs(__m256i (&x)[W]) noexcept {
  for (int w = 0; w < W; ++w) x[w] = _mm256_setzero_si256();
  __asm__ volatile("" : : "r"(&x) : "memory");
}

/// (delta, swap mask) update shared by both fields: swap iff delta > 0 and g0 = 1. Branch-free.
inline std::uint64_t divstep_swap(std::int64_t& delta, std::uint64_t g0) noexcept {
  const std::uint64_t swap = static_cast<std::uint64_t>((-delta) >> 63) & (0 - g0);
  delta = (delta ^ (static_cast<std::int64_t>(swap) & (delta ^ -delta))) + 1;
  return swap;
}

// Active registers. With d = n - 1 (f = Phi_n of degree d, g of degree <= d - 1, delta = 1)
// every divstep keeps deg f <= A_k and deg g <= B_k with A_k + B_k = 2d - 1 - k and
// A_k - B_k = delta_k after k steps (without a swap g loses a degree: if g_0 = 0 it is divided
// by x, else delta <= 0 means A_k <= B_k; with a swap the new g has degree <= A_k - 1).
// So while g != 0 (B_k >= 0, and A_k >= 0 as f_0 != 0), f and g have degree <= 2n - 3 - k, and
// once g = 0 it stays 0, no swap happens again and f is read only through f_0. The registers of
// f and g above bit 2n - 3 - k are therefore left alone from step k on (they hold zeros, or
// parts of an f that no longer matters). v and w have degree <= k after k steps (each step
// raises it by at most one), so their registers above bit k + 1 still hold their initial zeros.
// Both bounds depend on n only: the phases below are public.
inline int fg_regs(int n, int k, int W) noexcept { return std::min(W, (2 * n - 3 - k) / 256 + 1); }
inline int vw_regs(int k, int W) noexcept { return std::min(W, (k + 1) / 256 + 1); }

/// Runs `run(A, B, count)` over the phases of 2(n - 1) - 1 steps with constant register counts.
template <int W, class Run>
void for_each_phase(int n, Run&& run) noexcept {
  const int steps = 2 * (n - 1) - 1;
  int k = 0;
  while (k < steps) {
    const int a = fg_regs(n, k, W), b = vw_regs(k, W);
    int end = k + 1;
    while (end < steps && fg_regs(n, end, W) == a && vw_regs(end, W) == b) ++end;
    run(a, b, end - k);
    k = end;
  }
}

/// Calls fn.template operator()<A, B>() for the runtime (a, b), A, B <= W.
template <int W, class Fn>
void with_regs(int a, int b, Fn&& fn) noexcept {
  auto pick_b = [&]<int A>() {
    switch (b) {
      case 1: fn.template operator()<A, 1>(); break;
      case 2: if constexpr (W >= 2) fn.template operator()<A, 2>(); break;
      case 3: if constexpr (W >= 3) fn.template operator()<A, 3>(); break;
      default: if constexpr (W >= 4) fn.template operator()<A, 4>(); break;
    }
  };
  switch (a) {
    case 1: pick_b.template operator()<1>(); break;
    case 2: if constexpr (W >= 2) pick_b.template operator()<2>(); break;
    case 3: if constexpr (W >= 3) pick_b.template operator()<3>(); break;
    default: if constexpr (W >= 4) pick_b.template operator()<4>(); break;
  }
}

template <int W>
struct R2State {
  __m256i f[W], g[W], v[W], w[W];
  std::uint64_t g0;
  std::int64_t delta;
};

/// `count` GF(2) divsteps on the low A registers of f, g and the low B registers of v, w.
/// Over GF(2) a swap happens only with g_0 = 1 (c = 1), so the swap-then-eliminate step is
///   f' = swap ? g : f,  g' = g ^ (c & f)   (with a swap: g' = f ^ g either way),
/// and the same for (v, w) after v <- x v.
template <int W, int A, int B>
void r2_steps(R2State<W>& s, int count) noexcept {
  __m256i f[A], g[A], v[B], w[B];
  for (int k = 0; k < A; ++k) f[k] = s.f[k], g[k] = s.g[k];
  for (int k = 0; k < B; ++k) v[k] = s.v[k], w[k] = s.w[k];
  std::uint64_t g0 = s.g0;
  std::int64_t delta = s.delta;
  // The decisions (swap, c) need only g_0 each step. They are taken on scalar copies of the low
  // 64 bits of f and g, updated the same way: after j steps bits [0, 64 - j) of the copies are
  // still exact (each shift brings in one unknown top bit), so they are reloaded from the
  // registers every kBlock <= 63 steps. This keeps the vector work off the step-to-step
  // dependency chain, which is then a few scalar instructions long.
  constexpr int kBlock = 32;
  for (int done = 0; done < count; done += kBlock) {
    std::uint64_t f_lo = low64(f[0]), g_lo = low64(g[0]);
    const int steps = std::min(kBlock, count - done);  // public
    for (int step = 0; step < steps; ++step) {
      // f_0 = 1 always; after a swap g_0 = old f_0 = 1 = old g_0, so g0 is also the new g_0.
      const std::uint64_t swap_mask = divstep_swap(delta, g0);
      const std::uint64_t c_mask = 0 - g0;
      const std::uint64_t t_lo = swap_mask & (f_lo ^ g_lo);
      g_lo = (g_lo ^ (c_mask & f_lo)) >> 1;
      f_lo ^= t_lo;
      shift_up(v);
      const __m256i swap = _mm256_set1_epi64x(static_cast<long long>(swap_mask));
      const __m256i c = _mm256_set1_epi64x(static_cast<long long>(c_mask));
      for (int k = 0; k < A; ++k) {
        const __m256i fk = f[k];
        f[k] = _mm256_blendv_epi8(fk, g[k], swap);
        g[k] = _mm256_xor_si256(g[k], _mm256_and_si256(c, fk));
      }
      for (int k = 0; k < B; ++k) {
        const __m256i vk = v[k];
        v[k] = _mm256_blendv_epi8(vk, w[k], swap);
        w[k] = _mm256_xor_si256(w[k], _mm256_and_si256(c, vk));
      }
      shift_down(g);
      g0 = g_lo & 1u;
    }
    f_lo = g_lo = 0;
  }
  for (int k = 0; k < A; ++k) s.f[k] = f[k], s.g[k] = g[k];
  for (int k = 0; k < B; ++k) s.v[k] = v[k], s.w[k] = w[k];
  s.g0 = g0;
  s.delta = delta;
  wipe_regs(f), wipe_regs(g), wipe_regs(v), wipe_regs(w);
}

/// GF(2): r = a^-1 mod (2, Phi_n) or 0. Input and output as in ntru_poly_r2_inv.
template <int W>
void r2_inv(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  std::uint64_t bits[4 * W] = {};
  const std::uint64_t top = a[n - 1] & 1u;
  for (int i = 0; i + 1 < n; ++i) {  // g = reversal of a mod (2, Phi_n); positions are public
    const int pos = n - 2 - i;
    bits[pos >> 6] |= ((a[i] & 1u) ^ top) << (pos & 63);
  }
  R2State<W> s;
  load_bits(s.g, bits);
  std::memset(bits, 0, sizeof bits);
  for (int i = 0; i < n; ++i) bits[i >> 6] |= std::uint64_t{1} << (i & 63);  // Phi_n
  load_bits(s.f, bits);
  for (int k = 0; k < W; ++k) s.v[k] = s.w[k] = _mm256_setzero_si256();
  s.w[0] = _mm256_set_epi64x(0, 0, 0, 1);
  s.g0 = bit0(s.g[0]);
  s.delta = 1;
  for_each_phase<W>(n, [&](int na, int nb, int count) {
    with_regs<W>(na, nb, [&]<int A, int B>() { r2_steps<W, A, B>(s, count); });
  });
  store_bits(bits, s.v);
  for (int i = 0; i + 1 < n; ++i) {
    const int pos = n - 2 - i;
    r[i] = static_cast<std::uint16_t>((bits[pos >> 6] >> (pos & 63)) & 1u);
  }
  r[n - 1] = 0;
  wipe(bits, sizeof bits);
  wipe(&s, sizeof s);
}

/// x <- x + y over GF(3) on (nonzero, negative) bit planes where the sign bit is meaningful
/// only where the nonzero bit is set (it may be anything elsewhere, in and out); ym, ys: y.
///   nonzero: exactly one of x, y, or both with equal signs;
///   sign: x's if y = 0, y's if x = 0, and -x's (= -y's) when both have the same sign.
inline void add3(__m256i& xm, __m256i& xs, __m256i ym, __m256i ys) noexcept {
  const __m256i d = _mm256_xor_si256(xs, ys);
  const __m256i both_differ = _mm256_and_si256(_mm256_and_si256(xm, ym), d);
  xs = _mm256_xor_si256(xs, _mm256_and_si256(ym, _mm256_xor_si256(d, xm)));
  xm = _mm256_andnot_si256(both_differ, _mm256_or_si256(xm, ym));
}

template <int W>
struct S3State {
  __m256i fm[W], fs[W], gm[W], gs[W], vm[W], vs[W], wm[W], ws[W];
  std::uint64_t g0m, g0s, f0s;
  std::int64_t delta;
};

/// `count` GF(3) divsteps on the low A registers of f, g and the low B registers of v, w.
template <int W, int A, int B>
void s3_steps(S3State<W>& s, int count) noexcept {
  __m256i fm[A], fs[A], gm[A], gs[A], vm[B], vs[B], wm[B], ws[B];
  for (int k = 0; k < A; ++k) fm[k] = s.fm[k], fs[k] = s.fs[k], gm[k] = s.gm[k], gs[k] = s.gs[k];
  for (int k = 0; k < B; ++k) vm[k] = s.vm[k], vs[k] = s.vs[k], wm[k] = s.wm[k], ws[k] = s.ws[k];
  std::uint64_t g0m = s.g0m, g0s = s.g0s, f0s = s.f0s;
  std::int64_t delta = s.delta;
  for (int step = 0; step < count; ++step) {
    shift_up(vm);
    shift_up(vs);
    // c = -g_0 / f_0 = -g_0 f_0 (f_0 = +-1 is never 0): nonzero iff g_0 is, negative iff the
    // signs of g_0 and f_0 agree. Symmetric in f and g, so it may be taken before the swap.
    const std::uint64_t sign_agree = 1u ^ g0s ^ f0s;
    const __m256i cm = _mm256_set1_epi64x(static_cast<long long>(0 - g0m));
    const __m256i cs = _mm256_set1_epi64x(static_cast<long long>(0 - (g0m & sign_agree)));
    const std::uint64_t swap_mask = divstep_swap(delta, g0m);
    f0s ^= swap_mask & (f0s ^ g0s);
    const __m256i swap = _mm256_set1_epi64x(static_cast<long long>(swap_mask));
    // With a swap (then c != 0, so c^2 = 1) the new g is f + c g = c (g + c f), and the new w is
    // v + c w = c (w + c v): compute g + c f and w + c v unswapped, negate them if swap and
    // c = -1, and select the new f and v. The signs c f_i = cs ^ fs_i need no mask (see add3).
    const __m256i flip = _mm256_and_si256(swap, cs);
    for (int k = 0; k < A; ++k) {
      const __m256i m = fm[k], sg = fs[k];
      fm[k] = _mm256_blendv_epi8(m, gm[k], swap);
      fs[k] = _mm256_blendv_epi8(sg, gs[k], swap);
      add3(gm[k], gs[k], _mm256_and_si256(cm, m), _mm256_xor_si256(cs, sg));
      gs[k] = _mm256_xor_si256(gs[k], flip);
    }
    for (int k = 0; k < B; ++k) {
      const __m256i m = vm[k], sg = vs[k];
      vm[k] = _mm256_blendv_epi8(m, wm[k], swap);
      vs[k] = _mm256_blendv_epi8(sg, ws[k], swap);
      add3(wm[k], ws[k], _mm256_and_si256(cm, m), _mm256_xor_si256(cs, sg));
      ws[k] = _mm256_xor_si256(ws[k], flip);
    }
    g0m = (low64(gm[0]) >> 1) & 1u;
    g0s = (low64(gs[0]) >> 1) & 1u;
    shift_down(gm);
    shift_down(gs);
  }
  for (int k = 0; k < A; ++k) s.fm[k] = fm[k], s.fs[k] = fs[k], s.gm[k] = gm[k], s.gs[k] = gs[k];
  for (int k = 0; k < B; ++k) s.vm[k] = vm[k], s.vs[k] = vs[k], s.wm[k] = wm[k], s.ws[k] = ws[k];
  s.g0m = g0m, s.g0s = g0s, s.f0s = f0s;
  s.delta = delta;
  wipe_regs(fm), wipe_regs(fs), wipe_regs(gm), wipe_regs(gs);
  wipe_regs(vm), wipe_regs(vs), wipe_regs(wm), wipe_regs(ws);
}

/// GF(3): r = a^-1 mod (3, Phi_n) or 0. Input and output as in ntru_poly_s3_inv.
template <int W>
void s3_inv(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  std::uint64_t bm[4 * W] = {}, bs[4 * W] = {};
  const std::uint32_t top2 = 2 * mod3_scalar(a[n - 1]);
  for (int i = 0; i + 1 < n; ++i) {  // g = reversal of a mod (3, Phi_n)
    const std::uint64_t c = mod3_scalar(mod3_scalar(a[i]) + top2);
    const int pos = n - 2 - i;
    bm[pos >> 6] |= ((c | (c >> 1)) & 1u) << (pos & 63);
    bs[pos >> 6] |= (c >> 1) << (pos & 63);
  }
  S3State<W> s;
  load_bits(s.gm, bm);
  load_bits(s.gs, bs);
  std::memset(bm, 0, sizeof bm);
  for (int i = 0; i < n; ++i) bm[i >> 6] |= std::uint64_t{1} << (i & 63);  // Phi_n: all +1
  load_bits(s.fm, bm);
  for (int k = 0; k < W; ++k) s.fs[k] = s.vm[k] = s.vs[k] = s.wm[k] = s.ws[k] = _mm256_setzero_si256();
  s.wm[0] = _mm256_set_epi64x(0, 0, 0, 1);
  // g_0 (two bits) and the sign of f_0 are tracked in scalars: the next g_0 is bit 1 of g before
  // the shift, and f_0 changes only by the swap. This keeps the shifts off the dependency chain.
  s.g0m = bit0(s.gm[0]), s.g0s = bit0(s.gs[0]), s.f0s = 0;  // f = Phi_n: f_0 = +1
  s.delta = 1;
  for_each_phase<W>(n, [&](int na, int nb, int count) {
    with_regs<W>(na, nb, [&]<int A, int B>() { s3_steps<W, A, B>(s, count); });
  });
  const std::uint64_t f0_negative = s.f0s;
  store_bits(bm, s.vm);
  store_bits(bs, s.vs);
  for (int i = 0; i + 1 < n; ++i) {  // r = f_0^-1 v reversed = f_0 v reversed
    const int pos = n - 2 - i;
    const std::uint64_t m = (bm[pos >> 6] >> (pos & 63)) & 1u;
    const std::uint64_t sg = ((bs[pos >> 6] >> (pos & 63)) ^ f0_negative) & m;
    r[i] = static_cast<std::uint16_t>(m + sg);
  }
  r[n - 1] = 0;
  wipe(bm, sizeof bm);
  wipe(bs, sizeof bs);
  wipe(&s, sizeof s);
}

}  // namespace

void ntru_poly_r2_inv(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  if (n <= 512) r2_inv<2>(r, a, n);  // n is public
  else if (n <= 768) r2_inv<3>(r, a, n);
  else r2_inv<4>(r, a, n);
}

void ntru_poly_s3_inv(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  if (n <= 512) s3_inv<2>(r, a, n);
  else if (n <= 768) s3_inv<3>(r, a, n);
  else s3_inv<4>(r, a, n);
}

void ntru_poly_rq_inv(std::uint16_t* r, const std::uint16_t* a, int n, int logq) noexcept {
  // As the portable twin, from the inverse mod 2: if a r = 1 - u with u = 0 mod (2^j, Phi_n),
  // a r (2 - a r) = 1 - u^2 (Newton, 2 products, precision 2j) and a r (1 + u + u^2) = 1 - u^3
  // (3 products, precision 3j). One cubic step first reaches 11 and 12 bits in 7 products
  // (1, 3, 6, 12) instead of 8 (1, 2, 4, 8, 16); for 13 bits Newton alone is shorter. The
  // inverse mod (q, Phi_n) is unique, so the result is the twin's. The products are only
  // correct mod 2^13 (ntru_poly_mul_cyclic_mod8192), which is all the result needs (q <= 2^13:
  // reduction mod 2^13 is a ring map, so the iteration mod 2^13 is the same iteration); one
  // reduction mod (q, Phi_n) at the end. logq, hence the sequence of steps, is public.
  auto newton_products = [logq](int precision) {
    int count = 0;
    for (; precision < logq; precision *= 2) count += 2;
    return count;
  };
  const bool cubic_first = 3 + newton_products(3) < newton_products(1);
  alignas(32) std::uint16_t ac[16 * kMaxBlocks] = {}, x[16 * kMaxBlocks] = {}, t[16 * kMaxBlocks] = {};
  alignas(32) std::uint16_t e[16 * kMaxBlocks] = {};
  std::memcpy(ac, a, 2 * static_cast<std::size_t>(n));  // r may alias a
  ntru_poly_r2_inv(x, ac, n);
  int precision = 1;
  if (cubic_first) {
    ntru_poly_mul_cyclic_mod8192(t, ac, x, n);  // t = a x = 1 - u
    for (int i = 0; i < n; i += 16) store16(e + i, _mm256_sub_epi16(_mm256_setzero_si256(), load16(t + i)));
    e[0] = static_cast<std::uint16_t>(e[0] + 1);  // e = u
    ntru_poly_mul_cyclic_mod8192(t, e, e, n);     // t = u^2
    for (int i = 0; i < n; i += 16) store16(t + i, _mm256_add_epi16(load16(t + i), load16(e + i)));
    t[0] = static_cast<std::uint16_t>(t[0] + 1);  // t = 1 + u + u^2
    ntru_poly_mul_cyclic_mod8192(x, x, t, n);
    precision = 3;
  }
  for (; precision < logq; precision *= 2) {
    ntru_poly_mul_cyclic_mod8192(t, ac, x, n);
    for (int i = 0; i < n; i += 16) store16(t + i, _mm256_sub_epi16(_mm256_setzero_si256(), load16(t + i)));
    t[0] = static_cast<std::uint16_t>(t[0] + 2);
    ntru_poly_mul_cyclic_mod8192(x, x, t, n);
  }
  const __m256i mask = _mm256_set1_epi16(static_cast<short>((1 << logq) - 1));
  const __m256i top = _mm256_set1_epi16(static_cast<short>(x[n - 1]));
  for (int i = 0; i < n; i += 16) store16(x + i, _mm256_and_si256(_mm256_sub_epi16(load16(x + i), top), mask));
  std::memcpy(r, x, 2 * static_cast<std::size_t>(n));
  wipe(ac, sizeof ac);
  wipe(x, sizeof x);
  wipe(t, sizeof t);
  wipe(e, sizeof e);
}

}  // namespace pqkem::simd::avx2
