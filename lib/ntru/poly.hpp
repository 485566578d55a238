// NTRU polynomial arithmetic (round-3 specification, section 1.4 and 1.8), generic over n.
//
// Rings (n prime, Phi_1 = x - 1, Phi_n = 1 + x + ... + x^(n-1), x^n - 1 = Phi_1 * Phi_n):
//   Rq = Z_q[x]/(x^n - 1)    Sq = Z_q[x]/(Phi_n)    S3 = Z_3[x]/(Phi_n)    S2 = Z_2[x]/(Phi_n)
// A Poly holds n coefficients as uint16_t. Representations, stated per function:
//   "mod 2^16": any uint16_t, meaning the residue mod 2^16 (and so mod q, as q | 2^16);
//   "Rq":  0 <= c_i < q;
//   "Sq":  Rq with c_{n-1} = 0 (the canonical representative mod Phi_n);
//   "S3":  c_i in {0, 1, 2} with c_{n-1} = 0 (canonical mod (3, Phi_n)); "Z3": c_i in {0, 1, 2}.
// Every kernel is noexcept, constant time (no secret-dependent branch, index, division or
// modulo) and allows its output to alias an input. Kernels ending in `_ref` are the portable
// twins of AVX2 kernels (lib/simd/ntru/ntru_avx2.hpp); operations reach either through a
// backend struct of backend.hpp, never by name.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "ntru/params.hpp"
#include "secret.hpp"

namespace pqkem::ntru {

/// A polynomial of the parameter set P; wiped on destruction (most hold secrets).
template <class P>
struct Poly {
  std::array<std::uint16_t, P::n> c{};

  Poly() = default;
  Poly(const Poly&) = default;
  Poly& operator=(const Poly&) = default;
  ~Poly() { secure_wipe(c.data(), sizeof c); }
};

/// floor(x / 3) and x mod 3 for 0 <= x < 2^17, without division: floor(x / 3) = (x * 43691) >> 17
/// on that range (43691 = ceil(2^17 / 3); the error x / (3 * 2^17) < 1/3 never crosses an
/// integer). The product needs 33 bits, hence the 64-bit multiply.
constexpr std::uint32_t div3(std::uint32_t x) noexcept {
  return static_cast<std::uint32_t>((std::uint64_t{x} * 43691u) >> 17);
}
constexpr std::uint32_t mod3(std::uint32_t x) noexcept { return x - 3 * div3(x); }

// ---- multiplication (mul.cpp) ----------------------------------------------------------

/// r = a * b in Z_{2^16}[x]/(x^n - 1). In: mod 2^16. Out: mod 2^16, exact when every
/// coefficient of the integer cyclic product is below 2^16 (e.g. a, b in Z3: at most 4n).
/// Recursive Karatsuba on the full length-n operands down to a schoolbook base case, then one
/// fold x^(n+i) -> x^i.
template <class P>
void poly_mul_cyclic_ref(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept;

/// Spec "Rq multiplication": r = a * b in Rq. In: mod 2^16. Out: Rq.
template <class P>
void poly_rq_mul_ref(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept;

/// Spec "Sq multiplication": r = a * b mod (q, Phi_n). In: mod 2^16. Out: Sq.
template <class P>
void poly_sq_mul_ref(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept;

/// Spec "S3 multiplication": r = a * b mod (3, Phi_n). In: Z3. Out: S3.
template <class P>
void poly_s3_mul_ref(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept;

/// r = (x - 1) * a in Rq. In: mod 2^16. Out: Rq.
template <class P>
void poly_mul_x_minus_1_ref(Poly<P>& r, const Poly<P>& a) noexcept;

// ---- reductions, representation changes, lift (poly.cpp) ----------------------------

/// Reduction mod (3, Phi_n): r_i = (a_i - a_{n-1}) mod 3. In: a_i < 2^15. Out: S3.
template <class P>
void poly_mod_3_phi_n(Poly<P>& r, const Poly<P>& a) noexcept;

/// Reduction mod (q, Phi_n): r_i = (a_i - a_{n-1}) mod q. In: mod 2^16. Out: Sq.
template <class P>
void poly_mod_q_phi_n(Poly<P>& r, const Poly<P>& a) noexcept;

/// Rq -> S3: each coefficient's representative in [-q/2, q/2) reduced mod 3, then mod Phi_n.
/// In: mod 2^16. Out: S3.
template <class P>
void poly_rq_to_s3_ref(Poly<P>& r, const Poly<P>& a) noexcept;

/// Z3 -> Zq coefficientwise, {0, 1, 2} -> {0, 1, q - 1}. In: Z3. Out: Rq.
template <class P>
void poly_z3_to_zq_ref(Poly<P>& r, const Poly<P>& a) noexcept;

/// Zq -> Z3 for trinary polynomials, {0, 1, q - 1} -> {0, 1, 2}. In: mod 2^16 (any input maps
/// to {0..3}; only trinary inputs are meaningful). Out: Z3 when the input is trinary.
template <class P>
void poly_trinary_zq_to_z3_ref(Poly<P>& r, const Poly<P>& a) noexcept;

/// Spec "Lift" (message lift into Rq). HPS: Lift(m) = m with coefficients {0, 1, -1}.
/// HRSS: Lift(m) = (x - 1) * b, where b = m / (x - 1) mod (3, Phi_n) in canonical S3 form with
/// coefficients {0, 1, -1}; so Lift(m) = m mod (3, Phi_n) and Lift(m)(1) = 0.
/// In: Z3. Out: Rq.
template <class P>
void poly_lift_ref(Poly<P>& r, const Poly<P>& m) noexcept;

// ---- inversion (inv.cpp) -----------------------------------------------------------------

/// Inverse in S2 = GF(2^(n-1)): r = a^(2^(n-1) - 2) by Itoh-Tsujii (Frobenius squarings are
/// coefficient permutations). In: a_i mod 2 is used. Out: S2 ({0, 1}, r_{n-1} = 0), the unique
/// inverse of a mod (2, Phi_n) when it exists (else 0). Fixed operation sequence: constant time.
template <class P>
void poly_r2_inv_ref(Poly<P>& r, const Poly<P>& a) noexcept;

/// Inverse mod (q, Phi_n): r = a^-1 mod 2 (poly_r2_inv_ref), then Newton iterations
/// r <- r * (2 - a * r), each doubling the 2-adic precision, until it reaches q.
/// In: mod 2^16. Out: Sq, the unique inverse when a is invertible mod (2, Phi_n).
template <class P>
void poly_rq_inv_ref(Poly<P>& r, const Poly<P>& a) noexcept;

/// Inverse in S3 = GF(3^(n-1)): r = a^(3^(n-1) - 2) by Itoh-Tsujii (cubing is a permutation).
/// In: Z3. Out: S3, the unique inverse mod (3, Phi_n) when it exists (else 0). Constant time.
template <class P>
void poly_s3_inv_ref(Poly<P>& r, const Poly<P>& a) noexcept;

}  // namespace pqkem::ntru
