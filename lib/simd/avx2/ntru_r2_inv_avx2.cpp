// NTRU S2 inversion in AVX2 (compiled with -mavx2; see ntru_avx2.h for the contract): constant-time
// divsteps on bit-sliced GF(2) polynomials (ntru_divsteps_avx2.hpp describes the method and the
// helpers). The Sq inversion (ntru_mul_avx2.cpp) lifts this inverse by Newton iteration.
#include <immintrin.h>

#include <cstring>

#include "simd/avx2/ntru_avx2.h"
#include "simd/avx2/ntru_divsteps_avx2.hpp"

namespace pqkem::simd::avx2 {
namespace {

using namespace divsteps;

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

}  // namespace

void ntru_poly_r2_inv(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  if (n <= 512) r2_inv<2>(r, a, n);  // n is public
  else if (n <= 768) r2_inv<3>(r, a, n);
  else r2_inv<4>(r, a, n);
}

}  // namespace pqkem::simd::avx2
