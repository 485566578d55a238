// NTRU S3 inversion in AVX2 (compiled with -mavx2; see ntru_avx2.h for the contract): constant-time
// divsteps on bit-sliced trits (ntru_divsteps_avx2.hpp describes the method and the helpers).
#include <immintrin.h>

#include <cstring>

#include "simd/avx2/ntru_avx2.h"
#include "simd/avx2/ntru_divsteps_avx2.hpp"

namespace pqkem::simd::avx2 {
namespace {

using namespace divsteps;

inline std::uint32_t mod3_scalar(std::uint32_t x) noexcept {  // x < 2^17
  return x - 3 * static_cast<std::uint32_t>((std::uint64_t{x} * 43691u) >> 17);
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

void ntru_poly_s3_inv(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  if (n <= 512) s3_inv<2>(r, a, n);
  else if (n <= 768) s3_inv<3>(r, a, n);
  else s3_inv<4>(r, a, n);
}

}  // namespace pqkem::simd::avx2
