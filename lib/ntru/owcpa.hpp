// NTRU's deterministic public-key encryption, the OW-CPA layer beneath the KEM (round-3
// specification, section 1.11; reference owcpa.c), on the kernels of backend B (backend.hpp).
//
//   owcpa secret key = pack_S3(f) || pack_S3(f^-1 mod (3, Phi_n)) || pack_Sq(h^-1 mod (q, Phi_n))
//   public key       = pack_Rq0(h),  h = 3 g f^-1 (HPS) or 3 (x - 1) g f^-1 (HRSS), h(1) = 0
//   ciphertext       = pack_Rq0(r h + Lift(m))
#pragma once

#include <cstdint>
#include <span>

#include "ntru/poly.hpp"

namespace pqkem::ntru {

/// DPKE.KeyGen from the sampling bytes (Sample_fg). Writes the pk and the OW-CPA part of sk, and
/// returns 0 when they are a key pair, 1 when Sample_fg gave f = 0 or g = 0: then f has no
/// inverse mod (3, Phi_n) or g f none mod (q, Phi_n), and the bytes written fail the pairwise
/// consistency check (for every encapsulation whose r is nonzero). The reference code does not
/// check; random seeds give f = 0 or g = 0 with probability at most 2^-799. Constant time: the
/// result is a value, never a branch.
template <class P, class B>
[[nodiscard]] std::uint32_t owcpa_keypair(std::span<std::uint8_t, P::owcpa_pk_bytes> pk,
                                          std::span<std::uint8_t, P::owcpa_sk_bytes> sk,
                                          std::span<const std::uint8_t, P::sample_fg_bytes> seed) noexcept;

/// DPKE.Encrypt: c = r h + Lift(m). In: r with coefficients {0, 1, q - 1} (Rq), m in Z3.
template <class P, class B>
void owcpa_enc(std::span<std::uint8_t, P::owcpa_ct_bytes> c, const Poly<P>& r, const Poly<P>& m,
               std::span<const std::uint8_t, P::owcpa_pk_bytes> pk) noexcept;

/// DPKE.Decrypt: recovers rm = pack_S3(r) || pack_S3(m) and returns 0 when c = Enc(h, (r, m))
/// with (r, m) in the message space, 1 otherwise (the ciphertext's unused bits are nonzero, m is
/// not of fixed type (HPS), or r = (c - Lift(m)) / h mod (q, Phi_n) is not trinary with
/// r_{n-1} = 0). By Proposition 1 of [Schanck 2018, eprint 2018/1174] these checks replace
/// re-encryption. Constant time: the result is a value, never a branch.
template <class P, class B>
std::uint32_t owcpa_dec(std::span<std::uint8_t, P::owcpa_msg_bytes> rm,
                        std::span<const std::uint8_t, P::owcpa_ct_bytes> c,
                        std::span<const std::uint8_t, P::owcpa_sk_bytes> sk) noexcept;

}  // namespace pqkem::ntru
