// The shape every KEM instantiation presents to the public API (lib/scheme.cpp).
//
// Each family is a class template over (parameter set, backend): mlkem::Kem<P, B> and
// ntru::Kem<P, B>. Both offer the same six entry points on fixed-size byte spans, and
// lib/scheme.cpp maps a run-time (Scheme, Impl) to one instantiation, once per operation.
// The concept below is what that dispatch point relies on; a new family or backend that
// satisfies it plugs in there with one line.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>

namespace pqkem {

template <std::size_t N>
using In = std::span<const std::uint8_t, N>;
template <std::size_t N>
using Out = std::span<std::uint8_t, N>;

/// K::pk_bytes, sk_bytes, ct_bytes, ss_bytes: the encodings; keygen_coin_bytes and encaps_coin_bytes:
/// the random bytes each randomized operation draws; secret_prefix_bytes / secret_suffix_bytes:
/// where the secret parts of sk lie (for constant-time poisoning; the middle is public).
/// The entry points: keygen_derand (throws pqkem::Error, outputs wiped, for coins that give no
/// key pair: NTRU's f = 0 or g = 0), encaps_derand, decaps (returns false only when the secret
/// key fails the check that the family runs inside decapsulation: then ss is meaningless),
/// check_pk, check_sk, pk_from_sk.
template <class K>
concept KemInstance = requires(In<K::keygen_coin_bytes> kc, In<K::encaps_coin_bytes> ec, In<K::pk_bytes> pk,
                               Out<K::pk_bytes> pk_out, In<K::sk_bytes> sk, Out<K::sk_bytes> sk_out, In<K::ct_bytes> ct,
                               Out<K::ct_bytes> ct_out, Out<K::ss_bytes> ss) {
  { K::secret_prefix_bytes } -> std::convertible_to<std::size_t>;
  { K::secret_suffix_bytes } -> std::convertible_to<std::size_t>;
  { K::decaps_checks_sk } -> std::convertible_to<bool>;
  { K::keygen_derand(kc, pk_out, sk_out) } -> std::same_as<void>;
  { K::encaps_derand(pk, ec, ct_out, ss) } -> std::same_as<void>;
  { K::decaps(sk, ct, ss) } -> std::same_as<bool>;
  { K::check_pk(pk) } -> std::same_as<bool>;
  { K::check_sk(sk) } -> std::same_as<bool>;
  { K::pk_from_sk(sk, pk_out) } -> std::same_as<void>;
};

}  // namespace pqkem
