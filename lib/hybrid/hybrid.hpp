// The hybrid KEMs: ML-KEM-768 (mlkem::Kem, on the operation's backend) with X25519
// (hybrid/x25519.hpp, libsodium).
//
//  X-Wing (draft-connolly-cfrg-xwing-kem, 2026-03-02 text; MLKEM768-X25519 in
//  draft-irtf-cfrg-concrete-hybrid-kems): the decapsulation key is a 32-byte seed sk,
//  SHAKE256(sk, 96 bytes) = d || z || sk_X; pk = pk_M || pk_X (1216 bytes); ct = ct_M || ct_X
//  (1120 bytes); ss = SHA3-256(ss_M || ss_X || ct_X || pk_X || XWingLabel), the 6-byte label
//  "\./" "/^\" LAST. Encapsulation coins (eseed) = m || ek_X. No all-zero check on ss_X: the
//  draft has none (ct_X and pk_X enter the hash).
//
//  X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem, the TLS 1.3 key share): pk = ek_M || pk_X
//  (1216), ct = ct_M || ct_X (1120), ss = ss_M || ss_X (64 bytes), ML-KEM first in all three.
//  No combiner: TLS feeds the 64 bytes to its key schedule. An all-zero X25519 shared secret is
//  an error (the draft defers to RFC 8446 section 7.4.2: abort): encapsulation throws
//  invalid_encaps_key, decapsulation invalid_ciphertext. pqkem's secret key (the draft defines
//  none) is the 96-byte seed d || z || sk_X: the ML-KEM seed (FIPS 203's recommended storage
//  form) and the X25519 private key, in the component order of pk, ct and ss.
//
// The library's `sk` (sk_bytes) is an expanded form that caches the work of expanding the
// seed, as the X-Wing draft allows (section "Keeping expanded decapsulation key around"):
//
//   X-Wing:          seed (32) || dk_M (2400) || sk_X (32) || pk_X (32)   = 2496 bytes
//   X25519MLKEM768:  seed (96: d || z || sk_X) || dk_M (2400) || pk_X (32) = 2528 bytes
//
// It starts with the seed, so the standard key can always be recovered from it. It is
// pqkem's own: the X-Wing draft forbids transmitting an expanded key between implementations,
// and the tool never writes it (key files hold the seed). Decapsulation on it costs one
// ML-KEM-768 decapsulation, one X25519 and (X-Wing) one SHA3-256 block: no key expansion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kem.hpp"
#include "mlkem/params.hpp"

namespace pqkem::hybrid {

/// The two constructions (the `P` of Kem<P, B>).
struct XWing {
  static constexpr bool kXWing = true;
  static constexpr std::size_t seed_bytes = 32;
  static constexpr std::size_t ss_bytes = 32;
};
struct X25519MlKem768 {
  static constexpr bool kXWing = false;
  static constexpr std::size_t seed_bytes = 96;
  static constexpr std::size_t ss_bytes = 64;
};

/// "\./" "/^\": X-Wing's domain separator, the last input of its combiner.
inline constexpr std::uint8_t kXWingLabel[6] = {0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c};

template <class P, class B>
struct Kem {
  using M = mlkem::MlKem768;
  static constexpr std::size_t x_bytes = 32;  ///< an X25519 key, share or secret
  static constexpr std::size_t pk_bytes = M::ek_bytes + x_bytes;
  static constexpr std::size_t ct_bytes = M::ct_bytes + x_bytes;
  static constexpr std::size_t ss_bytes = P::ss_bytes;
  static constexpr std::size_t seed_bytes = P::seed_bytes;
  /// Offsets in the expanded key.
  static constexpr std::size_t dk_offset = seed_bytes;
  static constexpr std::size_t sk_x_offset = P::kXWing ? seed_bytes + M::dk_bytes : 64;
  static constexpr std::size_t pk_x_offset = seed_bytes + M::dk_bytes + (P::kXWing ? x_bytes : 0);
  static constexpr std::size_t sk_bytes = pk_x_offset + x_bytes;
  static constexpr std::size_t keygen_coin_bytes = seed_bytes;    ///< the seed
  static constexpr std::size_t encaps_coin_bytes = 32 + x_bytes;  ///< m || ek_X
  /// Secret: the seed and dk_pke (one prefix); z, sk_X (X-Wing) and pk_X (public, but inside
  /// the suffix: it only enters a hash) at the end. ek and H(ek) between them stay public
  /// (SampleNTT branches on rho).
  static constexpr std::size_t secret_prefix_bytes = seed_bytes + M::dk_pke_bytes;
  static constexpr std::size_t secret_suffix_bytes = 32 + (P::kXWing ? x_bytes : 0) + x_bytes;
  /// decaps runs ML-KEM's hash check (FIPS 203 section 7.3) on dk_M.
  static constexpr bool decaps_checks_sk = true;
  static constexpr std::string_view keygen_coins_what = P::kXWing
                                                            ? "key generation seed (the X-Wing decapsulation key)"
                                                            : "key generation seed (d || z || X25519 private key)";
  static constexpr std::string_view encaps_coins_what =
      P::kXWing ? "encapsulation seed (eseed = m || ek_X)" : "encapsulation coins (m || X25519 ephemeral private key)";
  static constexpr std::string_view invalid_pk_why =
      " encapsulation key is invalid: a coefficient of its ML-KEM-768 part is not reduced modulo q (FIPS 203 "
      "section 7.2)";
  static constexpr std::string_view small_order_pk_why =
      " encapsulation key is invalid: its X25519 part is a point of small order, so the X25519 shared secret "
      "would be all zero (RFC 8446 section 7.4.2)";
  static constexpr std::string_view invalid_sk_why =
      " decapsulation key is invalid: the expanded key is not the expansion of its seed";

  /// Key generation from the seed: pk and the expanded key.
  static void keygen_derand(In<keygen_coin_bytes> seed, Out<pk_bytes> pk, Out<sk_bytes> sk);
  /// Encapsulation with coins m || ek_X. The caller has run check_pk. X25519MLKEM768 throws
  /// Error(invalid_encaps_key) when the X25519 shared secret is all zero.
  static void encaps_derand(In<pk_bytes> pk, In<encaps_coin_bytes> coins, Out<ct_bytes> ct, Out<ss_bytes> ss);
  /// Decapsulation on the expanded key; returns ML-KEM's hash check verdict (ss meaningful
  /// only when true). ML-KEM's implicit rejection applies to ct_M. X25519MLKEM768 throws
  /// Error(invalid_ciphertext) when the X25519 shared secret is all zero.
  static bool decaps(In<sk_bytes> sk, In<ct_bytes> ct, Out<ss_bytes> ss);
  /// ML-KEM's modulus check on pk_M; X25519MLKEM768 also rejects an X25519 part of small
  /// order (RFC 8446 section 7.4.2 via draft-ietf-tls-ecdhe-mlkem: the X25519 secret would be
  /// all zero). X-Wing takes any 32 bytes as pk_X, as its draft does.
  static bool check_pk(In<pk_bytes> pk) noexcept { return invalid_pk_reason(pk).empty(); }
  /// Why check_pk fails ("" when it does not), for the error message.
  static std::string_view invalid_pk_reason(In<pk_bytes> pk) noexcept;
  /// The expanded key is exactly what its seed expands to (recomputes it; compares in
  /// constant time).
  static bool check_sk(In<sk_bytes> sk);
  static void pk_from_sk(In<sk_bytes> sk, Out<pk_bytes> pk) noexcept;
};

}  // namespace pqkem::hybrid
