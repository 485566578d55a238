// Constant-time divsteps in AVX2: the method and the public degree bounds behind the S2 inversion
// (ntru_r2_inv_avx2.cpp, jump divsteps) and the S3 inversion (ntru_s3_inv_avx2.cpp, bit-sliced
// single steps), and the helpers they share. Included only by files compiled with -mavx2,
// which reach it only through run-time dispatch.
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
#pragma once

#include "simd/ntru/ntru_isa.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace pqkem::simd::PQKEM_NTRU_NS::divsteps {

inline std::uint64_t low64(__m256i x) noexcept {
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm256_castsi256_si128(x)));
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
// Both bounds depend on n only, and so do the phases built on them.
inline int fg_regs(int n, int k, int W) noexcept { return std::min(W, (2 * n - 3 - k) / 256 + 1); }
inline int vw_regs(int k, int W) noexcept { return std::min(W, (k + 1) / 256 + 1); }

}  // namespace pqkem::simd::PQKEM_NTRU_NS::divsteps
