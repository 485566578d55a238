// Built once per x86 ISA: ntru_rq_inv_avx2.cpp and ntru_rq_inv_avx512.cpp include this file.
// The Rq inversion of the NTRU AVX2 kernels (ntru_kernels.inc has the
// contract): Newton (and cubic) steps from the S2 inverse of ntru_r2_inv_x86.hpp, each step a
// fixed sequence of Toom-4 products (ntru_toom4_avx2.hpp) for a public n and q (constant time).
#pragma once
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "simd/ntru/ntru_common_avx2.hpp"
#include "simd/ntru/ntru_isa.hpp"
#include "simd/ntru/ntru_toom4_avx2.hpp"

namespace pqkem::simd::PQKEM_NTRU_NS {
namespace {

/// poly_rq_inv for a public n.
template <int n>
void rq_inv(std::uint16_t* r, const std::uint16_t* a, int logq) noexcept {
  // As the portable twin, from the inverse mod 2: if a r = 1 - u with u = 0 mod (2^j, Phi_n),
  // a r (2 - a r) = 1 - u^2 (Newton, 2 products, precision 2j) and a r (1 + u + u^2) = 1 - u^3
  // (cubic, 3 products, precision 3j). The first step is a cubic one with 2 products: for j = 1,
  // u reduced mod Phi_n (u_i - u_{n-1}, the representative of degree < n - 1) has even
  // coefficients, u = 2 b, so u^2 = 4 b^2 = 4 (b^2 mod 2) mod 8, and squaring mod 2 is the
  // permutation i -> 2i mod n of the coefficients (in Z_2[x]/(x^n - 1), which maps onto
  // Z_2[x]/(Phi_n)): 1 + u + u^2 needs no product. Then Newton steps, or a cubic one where it
  // saves a product: 11 and 12 bits in 6 products (1, 3, 6, 12), 13 bits in 7 (1, 3, 6, 18).
  // The inverse mod (q, Phi_n) is unique, so the result is the twin's. The products (the Toom-4
  // product of poly_mul_cyclic_mod8192) are only correct mod 2^13, which is all the result
  // needs (q <= 2^13: reduction mod 2^13 is a ring map, so the iteration mod 2^13 is the same
  // iteration); one reduction mod (q, Phi_n) at the end. logq, hence the sequence of steps, is public.
  // All products share one workspace, wiped once at the end (with the other temporaries), and
  // each operand is evaluated and transposed once (T::prepare) for all the products it enters:
  // a for every a x, x for a x and then x t.
  using T = Toom4<n>;
  constexpr int kPad = 16 * ((n + 15) / 16);
  typename T::Workspace ws;
  alignas(32) std::uint16_t ac[kPad], x[kPad], t[kPad], e[kPad];
  LeafVec pa[T::kPreparedVectors], px[T::kPreparedVectors], pt[T::kPreparedVectors];  // prepared a, x, t
  // The vector loops below run over kPad words; the products read and write only the first n.
  // Zero padding in ac, x and t (e is written whole from t) keeps every word defined.
  const __m256i zero = _mm256_setzero_si256();
  store16(ac + kPad - 16, zero);
  store16(x + kPad - 16, zero);
  store16(t + kPad - 16, zero);
  std::memcpy(ac, a, 2 * static_cast<std::size_t>(n));  // r may alias a
  PQKEM_NTRU_KERNEL(poly_r2_inv)(x, ac, n);
  T::prepare(pa, ac, ws);
  // e = u = 1 - a x (from t = a x), x prepared for the products that follow.
  auto residual = [&]() {
    T::prepare(px, x, ws);
    T::template cyclic_prepared<Finish::kMod8192>(t, pa, px, 0xFFFF, ws);  // t = a x = 1 - u
    for (int i = 0; i < kPad; i += 16) store16(e + i, _mm256_sub_epi16(zero, load16(t + i)));
    e[0] = static_cast<std::uint16_t>(e[0] + 1);
  };
  auto finish_step = [&]() {  // x <- x t
    T::prepare(pt, t, ws);
    T::template cyclic_prepared<Finish::kMod8192>(x, px, pt, 0xFFFF, ws);
  };
  // Cheap cubic step, precision 1 -> 3.
  residual();
  {
    const __m256i top = _mm256_set1_epi16(static_cast<short>(e[n - 1]));
    for (int i = 0; i < kPad; i += 16) store16(e + i, _mm256_sub_epi16(load16(e + i), top));  // u mod Phi_n
    for (int i = n; i < kPad; ++i) e[i] = 0;
    // t = 4 (b^2 mod 2) with b = u / 2: coefficient i of b goes to 2i mod n (indices public).
    for (int i = 0; 2 * i < n; ++i) t[2 * i] = static_cast<std::uint16_t>((e[i] << 1) & 4u);
    for (int i = (n + 1) / 2; i < n; ++i) t[2 * i - n] = static_cast<std::uint16_t>((e[i] << 1) & 4u);
    for (int i = 0; i < kPad; i += 16) store16(t + i, _mm256_add_epi16(load16(t + i), load16(e + i)));
    t[0] = static_cast<std::uint16_t>(t[0] + 1);  // t = 1 + u + u^2 mod (8, Phi_n)
  }
  finish_step();
  for (int precision = 3; precision < logq;) {
    residual();
    if (2 * precision < logq && 3 * precision >= logq) {  // cubic: 3 products instead of 4
      T::prepare(pt, e, ws);
      T::template cyclic_prepared<Finish::kMod8192>(t, pt, pt, 0xFFFF, ws);  // t = u^2
      for (int i = 0; i < kPad; i += 16) store16(t + i, _mm256_add_epi16(load16(t + i), load16(e + i)));
      t[0] = static_cast<std::uint16_t>(t[0] + 1);  // t = 1 + u + u^2
      precision *= 3;
    } else {  // Newton: t = 2 - a x = 1 + u
      t[0] = static_cast<std::uint16_t>(e[0] + 1);
      for (int i = 1; i < kPad; ++i) t[i] = e[i];
      precision *= 2;
    }
    finish_step();
  }
  const __m256i mask = _mm256_set1_epi16(static_cast<short>((1 << logq) - 1));
  const __m256i top = _mm256_set1_epi16(static_cast<short>(x[n - 1]));
  for (int i = 0; i < kPad; i += 16) store16(x + i, _mm256_and_si256(_mm256_sub_epi16(load16(x + i), top), mask));
  std::memcpy(r, x, 2 * static_cast<std::size_t>(n));
  ws.wipe();
  wipe_vectors<kPad>(ac);
  wipe_vectors<kPad>(x);
  wipe_vectors<kPad>(t);
  wipe_vectors<kPad>(e);
  wipe_vectors<kLeafLanes * T::kPreparedVectors>(reinterpret_cast<std::uint16_t*>(pa));
  wipe_vectors<kLeafLanes * T::kPreparedVectors>(reinterpret_cast<std::uint16_t*>(px));
  wipe_vectors<kLeafLanes * T::kPreparedVectors>(reinterpret_cast<std::uint16_t*>(pt));
}

}  // namespace

void PQKEM_NTRU_KERNEL(poly_rq_inv)(std::uint16_t* r, const std::uint16_t* a, int n, int logq) noexcept {
  switch (n) {
    case 509: rq_inv<509>(r, a, logq); return;
    case 677: rq_inv<677>(r, a, logq); return;
    case 701: rq_inv<701>(r, a, logq); return;
    default: rq_inv<821>(r, a, logq); return;
  }
}

}  // namespace pqkem::simd::PQKEM_NTRU_NS
