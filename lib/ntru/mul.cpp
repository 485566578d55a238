// NTRU multiplication kernels: Rq, Sq, S3 products and multiplication by (x - 1).
//
// All products reduce to one kernel, the cyclic product in Z_{2^16}[x]/(x^n - 1). It multiplies
// the two length-n operands as plain polynomials with recursive Karatsuba (valid in any ring,
// so no division is needed, unlike Toom-Cook over Z_{2^16}), switching to schoolbook below
// kSchoolbookMax coefficients, and folds the 2n - 1 product coefficients once at the end.
#include <cstring>

#include "ntru/poly.hpp"
#include "secret.hpp"

namespace pqkem::ntru {
namespace {

// Measured (portable -O2, x86-64): 64 is about 1.3x faster than 32 and on par with 128; the
// schoolbook inner loop vectorizes well.
constexpr std::size_t kSchoolbookMax = 64;

/// Scratch (uint16_t words) karatsuba() needs for length n: each level holds a0 + a1, b0 + b1
/// (h words each) and their product (2h - 1 words), h = ceil(n/2), then recurses on h.
constexpr std::size_t karatsuba_scratch(std::size_t n) {
  return n <= kSchoolbookMax ? 0 : 4 * ((n + 1) / 2) + karatsuba_scratch((n + 1) / 2);
}

/// r[0 .. 2n-2] = a * b over Z_{2^16}, n <= kSchoolbookMax. Unsigned 32-bit accumulators wrap
/// mod 2^32, which preserves the residue mod 2^16.
void schoolbook(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, std::size_t n) noexcept {
  std::uint32_t acc[2 * kSchoolbookMax - 1] = {};
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t ai = a[i];
    for (std::size_t j = 0; j < n; ++j) acc[i + j] += ai * static_cast<std::uint32_t>(b[j]);
  }
  for (std::size_t k = 0; k + 1 < 2 * n; ++k) r[k] = static_cast<std::uint16_t>(acc[k]);
}

/// r[0 .. 2n-2] = a * b over Z_{2^16} (plain product, a and b of n coefficients).
/// r must not overlap a, b or scratch; scratch holds karatsuba_scratch(n) words.
/// Split a = a0 + x^h a1 (h = ceil(n/2), a1 has l = n - h <= h coefficients):
///   a*b = z0 + x^h ((a0 + a1)(b0 + b1) - z0 - z2) + x^(2h) z2,  z0 = a0 b0, z2 = a1 b1.
void karatsuba(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, std::size_t n,
               std::uint16_t* scratch) noexcept {
  if (n <= kSchoolbookMax) {
    schoolbook(r, a, b, n);
    return;
  }
  const std::size_t h = (n + 1) / 2, l = n - h;
  std::uint16_t* sa = scratch;
  std::uint16_t* sb = scratch + h;
  std::uint16_t* z1 = scratch + 2 * h;  // 2h - 1 words
  std::uint16_t* next = scratch + 4 * h;

  karatsuba(r, a, b, h, next);  // z0 -> r[0 .. 2h-2]
  r[2 * h - 1] = 0;
  karatsuba(r + 2 * h, a + h, b + h, l, next);  // z2 -> r[2h .. 2n-2]

  for (std::size_t i = 0; i < l; ++i) {
    sa[i] = static_cast<std::uint16_t>(a[i] + a[h + i]);
    sb[i] = static_cast<std::uint16_t>(b[i] + b[h + i]);
  }
  for (std::size_t i = l; i < h; ++i) {
    sa[i] = a[i];
    sb[i] = b[i];
  }
  karatsuba(z1, sa, sb, h, next);
  for (std::size_t i = 0; i + 1 < 2 * h; ++i) z1[i] = static_cast<std::uint16_t>(z1[i] - r[i]);
  for (std::size_t i = 0; i + 1 < 2 * l; ++i) z1[i] = static_cast<std::uint16_t>(z1[i] - r[2 * h + i]);
  // 3h - 2 <= 2n - 2 since l >= h - 1 and h >= 2: the middle term stays inside r.
  for (std::size_t i = 0; i + 1 < 2 * h; ++i) r[h + i] = static_cast<std::uint16_t>(r[h + i] + z1[i]);
}

}  // namespace

template <class P>
void poly_mul_cyclic_ref(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
  constexpr std::size_t n = P::n;
  std::uint16_t prod[2 * n - 1];
  std::uint16_t scratch[karatsuba_scratch(n) + 1];
  karatsuba(prod, a.c.data(), b.c.data(), n, scratch);
  // x^n = 1: fold the high half onto the low half (r may alias a or b: they are no longer read).
  for (std::size_t i = 0; i + 1 < n; ++i) r.c[i] = static_cast<std::uint16_t>(prod[i] + prod[n + i]);
  r.c[n - 1] = prod[n - 1];
  secure_wipe(prod, sizeof prod);
  secure_wipe(scratch, sizeof scratch);
}

template <class P>
void poly_rq_mul_ref(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
  poly_mul_cyclic_ref(r, a, b);
  for (auto& x : r.c) x = static_cast<std::uint16_t>(x & (P::q - 1));
}

template <class P>
void poly_sq_mul_ref(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
  poly_mul_cyclic_ref(r, a, b);
  poly_mod_q_phi_n(r, r);
}

template <class P>
void poly_s3_mul_ref(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
  // Coefficients in {0, 1, 2}: each cyclic-product coefficient is at most 4n < 2^15, so the
  // mod-2^16 product is the exact integer product and reduces correctly mod 3.
  static_assert(4 * P::n < (1 << 15));
  poly_mul_cyclic_ref(r, a, b);
  poly_mod_3_phi_n(r, r);
}

template <class P>
void poly_mul_x_minus_1_ref(Poly<P>& r, const Poly<P>& a) noexcept {
  // (x - 1) a = sum_i (a_{i-1} - a_i) x^i, indices mod n.
  const std::uint16_t last = a.c[P::n - 1];
  for (std::size_t i = P::n - 1; i > 0; --i) r.c[i] = static_cast<std::uint16_t>((a.c[i - 1] - a.c[i]) & (P::q - 1));
  r.c[0] = static_cast<std::uint16_t>((last - a.c[0]) & (P::q - 1));
}

#define PQKEM_NTRU_INSTANTIATE_MUL(P)                                                      \
  template void poly_mul_cyclic_ref<P>(Poly<P>&, const Poly<P>&, const Poly<P>&) noexcept; \
  template void poly_rq_mul_ref<P>(Poly<P>&, const Poly<P>&, const Poly<P>&) noexcept;     \
  template void poly_sq_mul_ref<P>(Poly<P>&, const Poly<P>&, const Poly<P>&) noexcept;     \
  template void poly_s3_mul_ref<P>(Poly<P>&, const Poly<P>&, const Poly<P>&) noexcept;     \
  template void poly_mul_x_minus_1_ref<P>(Poly<P>&, const Poly<P>&) noexcept;
PQKEM_NTRU_FOR_EACH_PARAMS(PQKEM_NTRU_INSTANTIATE_MUL)

}  // namespace pqkem::ntru
