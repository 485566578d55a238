// NTRU reductions mod Phi_n, representation changes between Z3 and Zq, and the message lift.
#include "ntru/poly.hpp"

namespace pqkem::ntru {

template <class P>
void poly_mod_3_phi_n(Poly<P>& r, const Poly<P>& a) noexcept {
  // x^(n-1) = -(1 + ... + x^(n-2)) mod Phi_n: subtract a_{n-1} (add 2 a_{n-1} mod 3) from every
  // coefficient; the last becomes 3 a_{n-1} = 0. a_i + 2 a_{n-1} < 3 * 2^15 < 2^17 (mod3's range).
  const std::uint32_t t = 2u * a.c[P::n - 1];
  for (std::size_t i = 0; i < P::n; ++i) r.c[i] = static_cast<std::uint16_t>(mod3(a.c[i] + t));
}

template <class P>
void poly_mod_q_phi_n(Poly<P>& r, const Poly<P>& a) noexcept {
  const std::uint16_t t = a.c[P::n - 1];
  for (std::size_t i = 0; i < P::n; ++i) r.c[i] = static_cast<std::uint16_t>((a.c[i] - t) & (P::q - 1));
}

template <class P>
void poly_rq_to_s3_ref(Poly<P>& r, const Poly<P>& a) noexcept {
  // A coefficient c >= q/2 stands for c - q: add (-q mod 3) = 1 (logq odd) or 2 (logq even).
  // Fused with the reduction mod (3, Phi_n) of poly_mod_3_phi_n: r_i = (c_i + 2 c_{n-1}) mod 3,
  // computed in 16-bit lanes so the loop vectorizes (x < 3 (q + 2) < 2^16 below; for x < 2^16,
  // floor(x / 3) = (x * 43691) >> 17 as in div3, a high-half 16 x 16 multiplication).
  constexpr std::uint32_t minus_q_mod_3 = (3 - P::q % 3) % 3;
  static_assert(3 * (P::q + 2) < 65536);
  const auto lift = [](std::uint32_t v) noexcept -> std::uint16_t {
    const std::uint32_t c = v & (P::q - 1);
    return static_cast<std::uint16_t>(c + (c >> (P::logq - 1)) * minus_q_mod_3);  // <= q + 1
  };
  const std::uint16_t t = static_cast<std::uint16_t>(2 * lift(a.c[P::n - 1]));  // read before r is written
  for (std::size_t i = 0; i < P::n; ++i) {
    const std::uint16_t x = static_cast<std::uint16_t>(lift(a.c[i]) + t);
    const std::uint16_t hi = static_cast<std::uint16_t>((std::uint32_t{x} * 43691u) >> 16);
    const std::uint16_t d = static_cast<std::uint16_t>(hi >> 1);
    r.c[i] = static_cast<std::uint16_t>(x - 3 * d);
  }
}

template <class P>
void poly_z3_to_zq_ref(Poly<P>& r, const Poly<P>& a) noexcept {
  // 2 -> q - 1: bit 1 set -> all ones below q.
  for (std::size_t i = 0; i < P::n; ++i) {
    const std::uint16_t c = a.c[i];
    r.c[i] = static_cast<std::uint16_t>(c | ((0u - (c >> 1)) & (P::q - 1)));
  }
}

template <class P>
void poly_trinary_zq_to_z3_ref(Poly<P>& r, const Poly<P>& a) noexcept {
  // q - 1 -> (q - 1) ^ 1 = q - 2 -> low bits 10 = 2; 0 -> 0; 1 -> 1.
  for (std::size_t i = 0; i < P::n; ++i) {
    const std::uint32_t c = a.c[i] & (P::q - 1);
    r.c[i] = static_cast<std::uint16_t>(3 & (c ^ (c >> (P::logq - 1))));
  }
}

template <class P>
void poly_lift_ref(Poly<P>& r, const Poly<P>& m) noexcept {
  if constexpr (P::hps) {
    poly_z3_to_zq_ref(r, m);
  } else {
    // b = m / (x - 1) mod (3, Phi_n). With m reduced mod Phi_n (deg <= n-2), look for b of
    // degree <= n-2 and a constant k with (x - 1) b = m + k Phi_n. At x = 1: 0 = m(1) + k n, so
    // k = -m(1) / n mod 3 (n is not a multiple of 3, and n^-1 = n mod 3). Then p = m + k Phi_n
    // has p_i = m_i + k, and dividing by (x - 1): b_i = -(p_0 + ... + p_i).
    Poly<P> mm;
    poly_mod_3_phi_n(mm, m);
    constexpr std::uint32_t n_inv_mod_3 = P::n % 3;
    static_assert(n_inv_mod_3 != 0);
    std::uint32_t m1 = 0;
    for (std::size_t i = 0; i < P::n; ++i) m1 += mm.c[i];           // <= 2 (n - 1)
    const std::uint32_t k = mod3(3 * 2 * P::n - m1 * n_inv_mod_3);  // -m(1)/n mod 3 (non-negative)
    // The prefix sums first, without reduction (at most 4 (n - 1) < 2^16: a one-add dependency
    // chain instead of a multiply-based mod 3 per step), then -prefix mod 3 in a loop that
    // vectorizes: C - prefix with C = 12 n (a multiple of 3 above every prefix, below 2^16), and
    // for x < 2^16, floor(x / 3) = (x * 43691) >> 17.
    static_assert(12 * P::n < 65536);
    Poly<P> b;
    std::uint16_t prefix = 0;  // p_0 + ... + p_i
    for (std::size_t i = 0; i + 1 < P::n; ++i) {
      prefix = static_cast<std::uint16_t>(prefix + mm.c[i] + k);
      b.c[i] = prefix;
    }
    for (std::size_t i = 0; i + 1 < P::n; ++i) {
      const std::uint16_t x = static_cast<std::uint16_t>(12 * P::n - b.c[i]);
      const std::uint16_t d = static_cast<std::uint16_t>((std::uint32_t{x} * 43691u) >> 17);
      b.c[i] = static_cast<std::uint16_t>(x - 3 * d);
    }
    b.c[P::n - 1] = 0;
    poly_z3_to_zq_ref(b, b);
    poly_mul_x_minus_1_ref<P>(r, b);
  }
}

#define PQKEM_NTRU_INSTANTIATE_POLY(P)                                           \
  template void poly_mod_3_phi_n<P>(Poly<P>&, const Poly<P>&) noexcept;          \
  template void poly_mod_q_phi_n<P>(Poly<P>&, const Poly<P>&) noexcept;          \
  template void poly_rq_to_s3_ref<P>(Poly<P>&, const Poly<P>&) noexcept;         \
  template void poly_z3_to_zq_ref<P>(Poly<P>&, const Poly<P>&) noexcept;         \
  template void poly_trinary_zq_to_z3_ref<P>(Poly<P>&, const Poly<P>&) noexcept; \
  template void poly_lift_ref<P>(Poly<P>&, const Poly<P>&) noexcept;
PQKEM_NTRU_FOR_EACH_PARAMS(PQKEM_NTRU_INSTANTIATE_POLY)

}  // namespace pqkem::ntru
