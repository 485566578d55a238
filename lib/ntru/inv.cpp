// NTRU inversions: in S2 and S3 (finite fields, by Itoh-Tsujii exponentiation) and in Sq
// (Newton-Hensel lifting of the S2 inverse).
//
// Since 2 and 3 generate (Z/n)^* (params.hpp), Phi_n is irreducible mod 2 and mod 3 and
// S_p = GF(p^(n-1)). Every nonzero a has a^(p^(n-1) - 1) = 1, so a^-1 = a^(p^(n-1) - 2). The
// p-th power map is additive in characteristic p and fixes Z_p, so a(x)^(p^k) = a(x^(p^k)):
// coefficient i moves to i * p^k mod n. We work in Z_p[x]/(x^n - 1), where this is a pure
// permutation, and reduce mod Phi_n at the end (x^n - 1 is a multiple of Phi_n, so the result
// is the same). Only multiplications remain: about 2 log2(n) of them, in an order fixed by n.
#include "ntru/poly.hpp"

namespace pqkem::ntru {
namespace {

/// r = a^(p^k) in Z_p[x]/(x^n - 1), given step = p^k mod n: r_{i * step mod n} = a_i.
/// Indices depend on n and k only (public). r must not alias a.
template <class P>
void frobenius(Poly<P>& r, const Poly<P>& a, std::size_t step) noexcept {
  std::size_t j = 0;
  for (std::size_t i = 0; i < P::n; ++i) {
    r.c[j] = a.c[i];
    j += step;
    if (j >= P::n) j -= P::n;  // public index arithmetic
  }
}

constexpr std::size_t pow_mod(std::size_t base, std::size_t e, std::size_t n) {
  std::size_t r = 1 % n;
  for (std::size_t i = 0; i < e; ++i) r = (r * base) % n;
  return r;
}

template <class P, std::uint32_t Prime>
void mul_mod_p(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
  // Inputs in {0, .., Prime-1}: the cyclic product is exact (<= 4n < 2^16).
  poly_mul_cyclic_ref(r, a, b);
  for (auto& x : r.c) x = static_cast<std::uint16_t>(Prime == 2 ? (x & 1) : mod3(x));
}

/// a^(e_k) in Z_p[x]/(x^n - 1) for k = n - 2, where e_k = 1 + p + ... + p^(k-1), by the
/// addition chain on k's binary digits: e_{2t} = p^t e_t + e_t, e_{t+1} = p e_t + 1.
template <class P, std::uint32_t Prime>
void pow_repunit(Poly<P>& cur, const Poly<P>& a) noexcept {
  constexpr std::size_t k = P::n - 2;
  int top = 0;
  while ((k >> (top + 1)) != 0) ++top;
  Poly<P> t;
  cur = a;  // e_1 = 1
  std::size_t have = 1;
  for (int bit = top - 1; bit >= 0; --bit) {
    frobenius(t, cur, pow_mod(Prime, have, P::n));
    mul_mod_p<P, Prime>(cur, t, cur);
    have *= 2;
    if ((k >> bit) & 1) {
      frobenius(t, cur, Prime % P::n);
      mul_mod_p<P, Prime>(cur, t, a);
      have += 1;
    }
  }
}

}  // namespace

template <class P>
void poly_r2_inv_ref(Poly<P>& r, const Poly<P>& a) noexcept {
  // 2^(n-1) - 2 = 2 (2^(n-2) - 1) = 2 e_{n-2}: a^-1 = (a^(e_{n-2}))^2, the last squaring a permutation.
  Poly<P> x, cur;
  for (std::size_t i = 0; i < P::n; ++i) x.c[i] = static_cast<std::uint16_t>(a.c[i] & 1);
  pow_repunit<P, 2>(cur, x);
  frobenius(x, cur, 2 % P::n);
  // mod (2, Phi_n): subtract (= add) x_{n-1} Phi_n.
  const std::uint16_t top = x.c[P::n - 1];
  for (std::size_t i = 0; i < P::n; ++i) r.c[i] = static_cast<std::uint16_t>((x.c[i] ^ top) & 1);
}

template <class P>
void poly_rq_inv_ref(Poly<P>& r, const Poly<P>& a) noexcept {
  // If a * r = 1 - u with u = 0 mod (2^j, Phi_n), then a * r (2 - a r) = 1 - u^2 and
  // u^2 = 0 mod (2^(2j), Phi_n). From j = 1, four steps reach 2^16 >= q. Arithmetic mod 2^16.
  // r may be a (the SIMD twins allow it): a is read after r is first written, so keep a copy.
  const Poly<P> a_in = a;
  Poly<P> t;
  poly_r2_inv_ref(r, a_in);
  for (int precision = 1; precision < P::logq; precision *= 2) {
    poly_mul_cyclic_ref(t, a_in, r);
    for (auto& x : t.c) x = static_cast<std::uint16_t>(0u - x);
    t.c[0] = static_cast<std::uint16_t>(t.c[0] + 2);
    poly_mul_cyclic_ref(r, r, t);
  }
  poly_mod_q_phi_n(r, r);
}

template <class P>
void poly_s3_inv_ref(Poly<P>& r, const Poly<P>& a) noexcept {
  // 3^(n-1) - 2 = 6 e_{n-2} + 1: a^-1 = ((a^(e_{n-2}))^2)^3 * a.
  Poly<P> x, cur, t;
  for (std::size_t i = 0; i < P::n; ++i) x.c[i] = static_cast<std::uint16_t>(mod3(a.c[i]));
  pow_repunit<P, 3>(cur, x);
  mul_mod_p<P, 3>(cur, cur, cur);
  frobenius(t, cur, 3 % P::n);
  mul_mod_p<P, 3>(t, t, x);
  poly_mod_3_phi_n(r, t);
}

#define PQKEM_NTRU_INSTANTIATE_INV(P)                                  \
  template void poly_r2_inv_ref<P>(Poly<P>&, const Poly<P>&) noexcept; \
  template void poly_rq_inv_ref<P>(Poly<P>&, const Poly<P>&) noexcept; \
  template void poly_s3_inv_ref<P>(Poly<P>&, const Poly<P>&) noexcept;
PQKEM_NTRU_FOR_EACH_PARAMS(PQKEM_NTRU_INSTANTIATE_INV)

}  // namespace pqkem::ntru
