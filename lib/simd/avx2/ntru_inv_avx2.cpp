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
// over GF(3) a coefficient is two bits, "nonzero" and "negative" (canonical: negative = 0 when
// nonzero = 0). Every step is the same instruction sequence; data flows only through masks.
#include <immintrin.h>

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

template <int W>
inline void cswap(__m256i (&x)[W], __m256i (&y)[W], __m256i mask) noexcept {
  for (int w = 0; w < W; ++w) {
    const __m256i t = _mm256_and_si256(mask, _mm256_xor_si256(x[w], y[w]));
    x[w] = _mm256_xor_si256(x[w], t);
    y[w] = _mm256_xor_si256(y[w], t);
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

/// GF(2): r = a^-1 mod (2, Phi_n) or 0. Input and output as in ntru_poly_r2_inv.
template <int W>
void r2_inv(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  std::uint64_t bits[4 * W] = {};
  const std::uint64_t top = a[n - 1] & 1u;
  for (int i = 0; i + 1 < n; ++i) {  // g = reversal of a mod (2, Phi_n); positions are public
    const int pos = n - 2 - i;
    bits[pos >> 6] |= ((a[i] & 1u) ^ top) << (pos & 63);
  }
  __m256i f[W], g[W], v[W], w[W];
  load_bits(g, bits);
  std::memset(bits, 0, sizeof bits);
  for (int i = 0; i < n; ++i) bits[i >> 6] |= std::uint64_t{1} << (i & 63);  // Phi_n
  load_bits(f, bits);
  for (int k = 0; k < W; ++k) v[k] = w[k] = _mm256_setzero_si256();
  w[0] = _mm256_set_epi64x(0, 0, 0, 1);

  // g_0 of the next step is bit 1 of g before the shift: taking it there keeps the shift off
  // the step-to-step dependency chain.
  std::uint64_t g0 = bit0(g[0]);
  std::int64_t delta = 1;
  for (int step = 0; step < 2 * (n - 1) - 1; ++step) {
    shift_up(v);
    // f_0 = 1 always; after a swap g_0 = old f_0 = 1 = old g_0, so g0 is also the new g_0.
    const __m256i swap = _mm256_set1_epi64x(static_cast<long long>(divstep_swap(delta, g0)));
    cswap(f, g, swap);
    cswap(v, w, swap);
    const __m256i c = _mm256_set1_epi64x(static_cast<long long>(0 - g0));
    for (int k = 0; k < W; ++k) {
      g[k] = _mm256_xor_si256(g[k], _mm256_and_si256(c, f[k]));
      w[k] = _mm256_xor_si256(w[k], _mm256_and_si256(c, v[k]));
    }
    g0 = (low64(g[0]) >> 1) & 1u;
    shift_down(g);
  }
  store_bits(bits, v);
  for (int i = 0; i + 1 < n; ++i) {
    const int pos = n - 2 - i;
    r[i] = static_cast<std::uint16_t>((bits[pos >> 6] >> (pos & 63)) & 1u);
  }
  r[n - 1] = 0;
  wipe(bits, sizeof bits);
  wipe_regs(f), wipe_regs(g), wipe_regs(v), wipe_regs(w);
}

/// GF(3) addition on (nonzero, negative) bit planes, canonical in and out: for x, y both
/// nonzero the sum is -x when their signs agree (1 + 1 = -1, -1 - 1 = 1) and 0 otherwise.
inline void add3(__m256i& rm, __m256i& rs, __m256i xm, __m256i xs, __m256i ym, __m256i ys) noexcept {
  const __m256i d = _mm256_xor_si256(xs, ys);
  const __m256i both = _mm256_and_si256(xm, ym);
  rm = _mm256_andnot_si256(_mm256_and_si256(both, d), _mm256_or_si256(xm, ym));
  rs = _mm256_or_si256(_mm256_andnot_si256(both, d), _mm256_andnot_si256(xs, _mm256_andnot_si256(d, both)));
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
  __m256i fm[W], fs[W], gm[W], gs[W], vm[W], vs[W], wm[W], ws[W];
  load_bits(gm, bm);
  load_bits(gs, bs);
  std::memset(bm, 0, sizeof bm);
  for (int i = 0; i < n; ++i) bm[i >> 6] |= std::uint64_t{1} << (i & 63);  // Phi_n: all +1
  load_bits(fm, bm);
  for (int k = 0; k < W; ++k) fs[k] = vm[k] = vs[k] = wm[k] = ws[k] = _mm256_setzero_si256();
  wm[0] = _mm256_set_epi64x(0, 0, 0, 1);

  // g_0 (two bits) and the sign of f_0 are tracked in scalars: the next g_0 is bit 1 of g before
  // the shift, and f_0 changes only by the swap. This keeps the shifts off the dependency chain.
  std::uint64_t g0m = bit0(gm[0]), g0s = bit0(gs[0]), f0s = 0;  // f = Phi_n: f_0 = +1
  std::int64_t delta = 1;
  for (int step = 0; step < 2 * (n - 1) - 1; ++step) {
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
    cswap(fm, gm, swap);
    cswap(fs, gs, swap);
    cswap(vm, wm, swap);
    cswap(vs, ws, swap);
    for (int k = 0; k < W; ++k) {
      const __m256i tfm = _mm256_and_si256(cm, fm[k]);
      const __m256i tfs = _mm256_and_si256(tfm, _mm256_xor_si256(cs, fs[k]));
      add3(gm[k], gs[k], gm[k], gs[k], tfm, tfs);
      const __m256i tvm = _mm256_and_si256(cm, vm[k]);
      const __m256i tvs = _mm256_and_si256(tvm, _mm256_xor_si256(cs, vs[k]));
      add3(wm[k], ws[k], wm[k], ws[k], tvm, tvs);
    }
    g0m = (low64(gm[0]) >> 1) & 1u;
    g0s = (low64(gs[0]) >> 1) & 1u;
    shift_down(gm);
    shift_down(gs);
  }
  const std::uint64_t f0_negative = f0s;
  store_bits(bm, vm);
  store_bits(bs, vs);
  for (int i = 0; i + 1 < n; ++i) {  // r = f_0^-1 v reversed = f_0 v reversed
    const int pos = n - 2 - i;
    const std::uint64_t m = (bm[pos >> 6] >> (pos & 63)) & 1u;
    const std::uint64_t s = ((bs[pos >> 6] >> (pos & 63)) ^ f0_negative) & m;
    r[i] = static_cast<std::uint16_t>(m + s);
  }
  r[n - 1] = 0;
  wipe(bm, sizeof bm);
  wipe(bs, sizeof bs);
  wipe_regs(fm), wipe_regs(fs), wipe_regs(gm), wipe_regs(gs);
  wipe_regs(vm), wipe_regs(vs), wipe_regs(wm), wipe_regs(ws);
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
  // As the portable twin: if a r = 1 - u with u = 0 mod (2^j, Phi_n), a r (2 - a r) = 1 - u^2;
  // from j = 1, four steps reach 2^16 >= q. Arithmetic mod 2^16; one reduction mod (q, Phi_n).
  alignas(32) std::uint16_t ac[16 * kMaxBlocks] = {}, x[16 * kMaxBlocks] = {}, t[16 * kMaxBlocks] = {};
  std::memcpy(ac, a, 2 * static_cast<std::size_t>(n));  // r may alias a
  ntru_poly_r2_inv(x, ac, n);
  for (int precision = 1; precision < logq; precision *= 2) {
    ntru_poly_mul_cyclic(t, ac, x, n);
    for (int i = 0; i < n; i += 16) store16(t + i, _mm256_sub_epi16(_mm256_setzero_si256(), load16(t + i)));
    t[0] = static_cast<std::uint16_t>(t[0] + 2);
    ntru_poly_mul_cyclic(x, x, t, n);
  }
  const __m256i mask = _mm256_set1_epi16(static_cast<short>((1 << logq) - 1));
  const __m256i top = _mm256_set1_epi16(static_cast<short>(x[n - 1]));
  for (int i = 0; i < n; i += 16) store16(x + i, _mm256_and_si256(_mm256_sub_epi16(load16(x + i), top), mask));
  std::memcpy(r, x, 2 * static_cast<std::size_t>(n));
  wipe(ac, sizeof ac);
  wipe(x, sizeof x);
  wipe(t, sizeof t);
}

}  // namespace pqkem::simd::avx2
