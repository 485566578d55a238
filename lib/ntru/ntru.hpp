// NTRU KEM (NIST PQC round 3; reference kem.c), per parameter set, with implicit rejection.
//
//   sk = owcpa sk || PRF key (32 bytes)
//   KeyGen: seed (Sample_fg bytes) -> owcpa_keypair; PRF key appended.
//   Encaps: coins (Sample_rm bytes) -> (r, m); k = SHA3-256(pack_S3(r) || pack_S3(m)); c = Enc(r, m).
//   Decaps: (rm, fail) = owcpa_dec(c); k = SHA3-256(rm), or SHA3-256(PRF key || c) if fail.
//
// The derandomized entry points take exactly the bytes the reference code's randombytes()
// supplies, in the same order: key generation draws the sampling seed then the PRF key (two
// calls), encapsulation draws the sampling bytes (one call).
#pragma once

#include <cstdint>
#include <span>

#include "ntru/params.hpp"

namespace pqkem::ntru {

/// crypto_kem_keypair with its two randombytes() outputs given.
template <class P>
void keypair_derand(std::span<const std::uint8_t, P::sample_fg_bytes> seed, std::span<const std::uint8_t, 32> prf_key,
                    std::span<std::uint8_t, P::pk_bytes> pk, std::span<std::uint8_t, P::sk_bytes> sk);

/// crypto_kem_enc with its randombytes() output given. The caller has checked pk (check_pk).
template <class P>
void encaps_derand(std::span<const std::uint8_t, P::pk_bytes> pk, std::span<const std::uint8_t, P::sample_rm_bytes> coins,
                   std::span<std::uint8_t, P::ct_bytes> c, std::span<std::uint8_t, 32> shared_key);

/// crypto_kem_dec: never fails; an invalid ciphertext yields SHA3-256(PRF key || c), chosen
/// with a mask, not a branch.
template <class P>
void decaps(std::span<const std::uint8_t, P::sk_bytes> sk, std::span<const std::uint8_t, P::ct_bytes> c,
            std::span<std::uint8_t, 32> shared_key);

/// Public-key check: the encoding is canonical (the unused high bits of its last byte are 0,
/// as pack_Rq0 writes them). Every other byte string of the right length decodes to some h.
template <class P>
bool check_pk(std::span<const std::uint8_t, P::pk_bytes> pk) noexcept;

/// Secret-key check: the three packed polynomials are canonical encodings (trinary bytes below
/// 3^5, no stray bits in the Sq encoding). Constant time; only the verdict is declassified.
template <class P>
bool check_sk(std::span<const std::uint8_t, P::sk_bytes> sk) noexcept;

/// The public key of a secret key. sk does not store h, but it stores h^-1 mod (q, Phi_n):
/// h mod (q, Phi_n) is its inverse (poly_rq_inv), and h(1) = 0 fixes h in Rq (Phi_n(1) = n is
/// odd, hence invertible mod q): h = hbar + k Phi_n with k = -hbar(1) / n mod q.
/// Reproduces keypair_derand's pk for every sk it outputs. Constant time in sk.
template <class P>
void pk_from_sk(std::span<const std::uint8_t, P::sk_bytes> sk, std::span<std::uint8_t, P::pk_bytes> pk) noexcept;

}  // namespace pqkem::ntru
