// NTRU OW-CPA encryption: key generation, encryption, decryption with the message-space checks,
// for any backend: the template definitions of owcpa.hpp. Included only by
// lib/backends/ntru_owcpa.cpp, which instantiates them for every NTRU backend of the build.
#pragma once

#include "ntru/owcpa.hpp"

#include "ct.hpp"
#include "ntru/backend.hpp"
#include "ntru/pack.hpp"
#include "ntru/sample.hpp"

namespace pqkem::ntru {
namespace {

/// 1 if m is not of fixed type (exactly weight/2 coefficients 1 and weight/2 coefficients 2), else 0.
/// In: Z3. (16-bit counters, n < 2^16: the loop vectorizes in 16-bit lanes.)
template <class P>
std::uint32_t check_m_fails(const Poly<P>& m) noexcept {
  std::uint16_t ones = 0, twos = 0;
  for (std::size_t i = 0; i < P::n; ++i) {
    ones = static_cast<std::uint16_t>(ones + (m.c[i] & 1u));
    twos = static_cast<std::uint16_t>(twos + (m.c[i] >> 1));
  }
  constexpr std::uint32_t half = P::weight / 2;
  return 1u & ~ct::mask_is_zero((ones ^ half) | (twos ^ half));
}

/// 1 unless r_i is in {0, 1, q - 1} for i < n - 1 and r_{n-1} = 0, else 0. In: Rq. With t = r_i + 1
/// mod q, r_i is good exactly when t <= 2, and then 2 - t mod 2^16 is below 2^15; for t in
/// [3, q) it is at least 2^16 + 2 - q >= 2^15. So bit 15 of the OR of all 2 - t tells, in
/// 16-bit lanes.
template <class P>
std::uint32_t check_r_fails(const Poly<P>& r) noexcept {
  static_assert(P::q <= 32768);
  std::uint16_t bad = 0;
  for (std::size_t i = 0; i + 1 < P::n; ++i) {
    const std::uint16_t t = static_cast<std::uint16_t>((r.c[i] + 1u) & (P::q - 1));
    bad = static_cast<std::uint16_t>(bad | (2u - t));
  }
  return 1u & ~ct::mask_is_zero((bad >> 15) | r.c[P::n - 1]);
}

/// 1 if f = 0 or g = 0, else 0: exactly when an inverse key generation takes does not exist.
/// In: f and g as Sample_fg gives them (Z3, coefficient n - 1 zero). Phi_n is irreducible mod 2
/// and mod 3 (params.hpp), so S3 and S2 are fields, and a polynomial of degree below n - 1 is 0
/// in them only if it is 0. So f != 0 is invertible in S3. Lifted to Zq, f and g keep their
/// supports mod 2 (1 and q - 1 are odd), so f, g != 0 make g f invertible in S2, times the units 3
/// and (HRSS) x - 1 (Phi_n(1) = n is odd), and Newton lifts that inverse mod (q, Phi_n).
/// (HPS: g has fixed type, never 0; checked all the same, for one rule.)
template <class P>
std::uint32_t f_or_g_is_zero(const Poly<P>& f, const Poly<P>& g) noexcept {
  std::uint16_t f_bits = 0, g_bits = 0;
  for (std::size_t i = 0; i < P::n; ++i) {
    f_bits = static_cast<std::uint16_t>(f_bits | f.c[i]);
    g_bits = static_cast<std::uint16_t>(g_bits | g.c[i]);
  }
  return 1u & (ct::mask_is_zero(f_bits) | ct::mask_is_zero(g_bits));
}

/// Key generation's last four products, from (g f)^-1: h^-1 into sk and h into pk. A function of
/// its own, not inlined, so that their shared workspace (ProductScratch, up to 48 KB) takes stack
/// only while they run: as a local of owcpa_keypair it would be reserved in that frame during
/// poly_rq_inv too, which has a workspace of its own (measured: ntruhps4096821 key generation
/// under avx512 peaked at 143 KB of stack).
template <class P, class B>
[[gnu::noinline]] void keypair_products(std::span<std::uint8_t, P::owcpa_pk_bytes> pk,
                                        std::span<std::uint8_t, P::pack_q_bytes> sk_invh, const Poly<P>& f,
                                        const Poly<P>& g, const Poly<P>& invgf) noexcept {
  Poly<P> tmp, invh, h;
  ProductScratch<P, B> mul;  // the four products share one workspace
  mul.rq_mul(tmp, invgf, f);
  mul.sq_mul(invh, tmp, f);  // h^-1 = f^2 / (g f) = f / g mod (q, Phi_n)
  poly_sq_tobytes<P>(sk_invh, invh);

  // h = g^2 / (g f) = g / f mod (q, Phi_n); g(1) = 0 makes h(1) = 0, so h is determined in Rq.
  mul.rq_mul(tmp, invgf, g);
  mul.rq_mul(h, tmp, g);
  poly_rq_sum_zero_tobytes<P>(pk, h);
}

}  // namespace

template <class P, class B>
std::uint32_t owcpa_keypair(std::span<std::uint8_t, P::owcpa_pk_bytes> pk,
                            std::span<std::uint8_t, P::owcpa_sk_bytes> sk,
                            std::span<const std::uint8_t, P::sample_fg_bytes> seed) noexcept {
  constexpr std::size_t t = P::pack_trinary_bytes;
  Poly<P> f, g, finv3, gf, invgf;
  sample_fg<P, B>(f, g, seed);
  const std::uint32_t no_key = f_or_g_is_zero(f, g);

  B::poly_s3_inv(finv3, f);
  B::poly_s3_tobytes(sk.template subspan<0, t>(), f);
  B::poly_s3_tobytes(sk.template subspan<t, t>(), finv3);

  B::poly_z3_to_zq(f, f);
  B::poly_z3_to_zq(g, g);
  if constexpr (P::hrss) B::poly_mul_x_minus_1(g, g);                         // HRSS: g <- (x - 1) g
  for (auto& x : g.c) x = static_cast<std::uint16_t>((3u * x) & (P::q - 1));  // g <- 3 g

  B::poly_rq_mul(gf, g, f);
  B::poly_rq_inv(invgf, gf);  // (g f)^-1 mod (q, Phi_n)
  keypair_products<P, B>(pk, sk.template subspan<2 * t, P::pack_q_bytes>(), f, g, invgf);
  return no_key;
}

template <class P, class B>
void owcpa_enc(std::span<std::uint8_t, P::owcpa_ct_bytes> c, const Poly<P>& r, const Poly<P>& m,
               std::span<const std::uint8_t, P::owcpa_pk_bytes> pk) noexcept {
  Poly<P> h, ct;
  B::poly_rq_sum_zero_frombytes(h, pk);
  B::poly_rq_mul(ct, r, h);
  B::poly_lift(h, m);  // h is no longer needed: it holds Lift(m)
  for (std::size_t i = 0; i < P::n; ++i) ct.c[i] = static_cast<std::uint16_t>((ct.c[i] + h.c[i]) & (P::q - 1));
  poly_rq_sum_zero_tobytes<P>(c, ct);
}

template <class P, class B>
std::uint32_t owcpa_dec(std::span<std::uint8_t, P::owcpa_msg_bytes> rm,
                        std::span<const std::uint8_t, P::owcpa_ct_bytes> ciphertext,
                        std::span<const std::uint8_t, P::owcpa_sk_bytes> sk) noexcept {
  constexpr std::size_t t = P::pack_trinary_bytes;
  // Five polynomials, reused (each one is written in full before it is read again): f holds f,
  // then f^-1 mod 3, then h^-1; x holds c f, then m f mod 3, then Lift(m), then c - Lift(m).
  Poly<P> c, f, x, m, r;

  B::poly_rq_sum_zero_frombytes(c, ciphertext);
  B::poly_s3_frombytes(f, sk.template subspan<0, t>());
  B::poly_z3_to_zq(f, f);

  // c f = 3 r g' + Lift(m) f mod (q, Phi_n) with small coefficients (g' = g or (x - 1) g): when
  // decryption succeeds its centered form reduced mod 3 is m f, and m = (m f) f^-1 in S3.
  ProductScratch<P, B> mul;  // the three products share one workspace
  mul.rq_mul(x, c, f);
  B::poly_rq_to_s3(x, x);
  B::poly_s3_frombytes(f, sk.template subspan<t, t>());
  mul.s3_mul(m, x, f);
  B::poly_s3_tobytes(rm.template subspan<t, t>(), m);

  std::uint32_t fail = 1u & ~q_encoding_is_canonical<P>(ciphertext);
  if constexpr (P::hps) fail |= check_m_fails(m);

  // r = (c - Lift(m)) / h mod (q, Phi_n)
  B::poly_lift(x, m);
  for (std::size_t i = 0; i < P::n; ++i) x.c[i] = static_cast<std::uint16_t>((c.c[i] - x.c[i]) & (P::q - 1));
  B::poly_sq_frombytes(f, sk.template subspan<2 * t, P::pack_q_bytes>());
  mul.sq_mul(r, x, f);
  fail |= check_r_fails(r);

  B::poly_trinary_zq_to_z3(r, r);
  B::poly_s3_tobytes(rm.template subspan<0, t>(), r);
  return fail;
}

}  // namespace pqkem::ntru
