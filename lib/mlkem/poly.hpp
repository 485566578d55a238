// ML-KEM polynomials. The NTT domain is part of the type: only the NTT and its inverse (a
// backend's B::ntt() and B::inverse_ntt()) convert between Poly (R_q, coefficient form) and
// NttPoly (T_q, NTT form), so call sites read like FIPS 203.
#pragma once

#include <array>
#include <cstdint>

#include "mlkem/params.hpp"
#include "mlkem/reduce.hpp"

namespace pqkem::mlkem {

/// An element of R_q = Z_q[X]/(X^256 + 1), coefficients as signed representatives. Aligned to
/// a cache line, as every polynomial type: the AVX-512 kernels' 64-byte loads and stores then
/// never straddle two lines (unaligned, they cost the AVX-512 decapsulation about 6%).
struct alignas(64) Poly {
  std::array<std::int16_t, kN> c{};
};

/// An element of T_q (the NTT domain), in FIPS 203 order: 128 pairs (c[2i], c[2i+1]).
struct alignas(64) NttPoly {
  std::array<std::int16_t, kN> c{};
};

template <int K>
using PolyVec = std::array<Poly, K>;
template <int K>
using NttPolyVec = std::array<NttPoly, K>;

/// Coefficient-wise Barrett reduction. Out: |c_i| <= (q-1)/2.
template <class P>
inline void reduce(P& p) noexcept {
  for (auto& x : p.c) x = barrett_reduce(x);
}

/// r += a, coefficient-wise, no reduction (the caller states the bound).
template <class P>
inline void add_to(P& r, const P& a) noexcept {
  for (int i = 0; i < kN; ++i) r.c[i] = static_cast<std::int16_t>(r.c[i] + a.c[i]);
}

/// r -= a, coefficient-wise, no reduction (the caller states the bound).
template <class P>
inline void sub_from(P& r, const P& a) noexcept {
  for (int i = 0; i < kN; ++i) r.c[i] = static_cast<std::int16_t>(r.c[i] - a.c[i]);
}

/// Multiply by R (Montgomery form): c_i <- c_i * R mod q. Out: |c_i| < q.
inline void to_mont(NttPoly& p) noexcept {
  for (auto& x : p.c) x = fqmul(x, kMontR2);
}

/// Maps every coefficient from (-q, q) to [0, q).
template <class P>
inline void make_canonical(P& p) noexcept {
  for (auto& x : p.c) x = to_canonical(x);
}

}  // namespace pqkem::mlkem
