// NTRU KEM (NIST PQC round 3; reference kem.c), per parameter set P and backend B
// (ntru/backend.hpp), with implicit rejection. lib/scheme.cpp picks the instantiation once per
// operation.
//
//   sk = owcpa sk || PRF key (32 bytes)
//   KeyGen: seed (Sample_fg bytes) -> owcpa_keypair; PRF key appended. Refused if f = 0 or g = 0.
//   Encaps: coins (Sample_rm bytes) -> (r, m); k = SHA3-256(pack_S3(r) || pack_S3(m)); c = Enc(r, m).
//   Decaps: (rm, fail) = owcpa_dec(c); k = SHA3-256(rm), or SHA3-256(PRF key || c) if fail.
//
// The derandomized entry points take exactly the bytes the reference code's randombytes()
// supplies, in the same order: key generation draws the sampling seed then the PRF key (two
// calls), encapsulation draws the sampling bytes (one call). The randomized operations of the
// API (pqkem::keygen, pqkem::encaps) make those bytes with expand_coins from a 32-byte draw.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "kem.hpp"
#include "ntru/params.hpp"

namespace pqkem::ntru {

template <class P, class B>
struct Kem {
  static constexpr std::size_t pk_bytes = P::pk_bytes;
  static constexpr std::size_t sk_bytes = P::sk_bytes;
  static constexpr std::size_t ct_bytes = P::ct_bytes;
  static constexpr std::size_t ss_bytes = 32;
  static constexpr std::size_t keygen_coin_bytes = P::sample_fg_bytes + P::prf_key_bytes;  ///< seed || PRF key
  static constexpr std::size_t encaps_coin_bytes = P::sample_rm_bytes;
  /// The whole sk is secret.
  static constexpr std::size_t secret_prefix_bytes = P::sk_bytes;
  static constexpr std::size_t secret_suffix_bytes = 0;
  /// decaps never fails: the caller checks sk first.
  static constexpr bool decaps_checks_sk = false;
  static constexpr std::string_view keygen_coins_what = "key generation coins (sampling seed || PRF key)";
  static constexpr std::string_view encaps_coins_what = "encapsulation coins (sampling bytes)";
  static constexpr std::string_view invalid_pk_why =
      " public key is invalid: the unused bits of its last byte are not zero";
  static constexpr std::string_view invalid_sk_why =
      " secret key is invalid: a packed polynomial is not a canonical encoding";
  /// Why keygen_derand refused its coins (lib/scheme.cpp puts the scheme's name first). The same
  /// for all such coins: nothing of them but the verdict.
  static constexpr std::string_view refused_coins_why =
      "key generation coins refused: they sample f = 0 or g = 0, which has no inverse, so no key "
      "pair exists for them (random coins do this with probability at most 2^-799)";

  /// The coins of a randomized operation (keygen_coin_bytes or encaps_coin_bytes of them) from
  /// the 32 bytes drawn for it: ntru::expand_coins (sample.hpp) on this backend's Keccak lanes.
  static void expand_coins(In<32> seed, std::span<std::uint8_t> coins) noexcept;
  /// crypto_kem_keypair with its two randombytes() outputs given: seed || PRF key. Throws
  /// Error(Errc::bad_argument, refused_coins_why), with pk and sk wiped, when the seed gives no
  /// key pair (owcpa_keypair: f = 0 or g = 0), where the reference code returns a key that fails
  /// the pairwise consistency check. Constant time up to that one declassified verdict.
  static void keygen_derand(In<keygen_coin_bytes> coins, Out<pk_bytes> pk, Out<sk_bytes> sk);
  /// crypto_kem_enc with its randombytes() output given. The caller has checked pk (check_pk).
  static void encaps_derand(In<pk_bytes> pk, In<encaps_coin_bytes> coins, Out<ct_bytes> c, Out<32> shared_key);
  /// crypto_kem_dec: never fails (returns true); an invalid ciphertext yields
  /// SHA3-256(PRF key || c), chosen with a mask, not a branch.
  static bool decaps(In<sk_bytes> sk, In<ct_bytes> c, Out<32> shared_key);
  /// Public-key check: the encoding is canonical (the unused high bits of its last byte are 0,
  /// as pack_Rq0 writes them). Every other byte string of the right length decodes to some h.
  static bool check_pk(In<pk_bytes> pk) noexcept;
  /// Secret-key check: the three packed polynomials are canonical encodings (trinary bytes below
  /// 3^5, no stray bits in the Sq encoding). Constant time; only the verdict is declassified.
  static bool check_sk(In<sk_bytes> sk) noexcept;
  /// The public key of a secret key. sk does not store h, but it stores h^-1 mod (q, Phi_n):
  /// h mod (q, Phi_n) is its inverse (poly_rq_inv), and h(1) = 0 fixes h in Rq (Phi_n(1) = n is
  /// odd, hence invertible mod q): h = hbar + k Phi_n with k = -hbar(1) / n mod q.
  /// Reproduces keygen_derand's pk for every sk it outputs. Constant time in sk.
  static void pk_from_sk(In<sk_bytes> sk, Out<pk_bytes> pk) noexcept;
};

}  // namespace pqkem::ntru
