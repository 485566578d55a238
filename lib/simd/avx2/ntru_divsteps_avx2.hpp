// Bit-sliced constant-time divsteps in AVX2: the helpers shared by the S2 inversion
// (ntru_r2_inv_avx2.cpp) and the S3 inversion (ntru_inv_avx2.cpp). Included only by files
// compiled with -mavx2, which reach it only through run-time dispatch.
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

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace pqkem::simd::avx2::divsteps {

inline void wipe(void* p, std::size_t len) noexcept {
  std::memset(p, 0, len);
  __asm__ volatile("" : : "r"(p) : "memory");
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

}  // namespace pqkem::simd::avx2::divsteps
