// The hybrids for any ML-KEM backend: the definitions of Kem<P, B>'s members. Included only by
// lib/backends/hybrid.cpp, which instantiates them for every ML-KEM backend of the build.
#pragma once

#include "hybrid/hybrid.hpp"

#include <algorithm>
#include <string>

#include "ct.hpp"
#include "error.hpp"
#include "hash.hpp"
#include "hybrid/x25519.hpp"
#include "mlkem/backend.hpp"
#include "mlkem/mlkem.hpp"
#include "secret.hpp"

namespace pqkem::hybrid {
namespace {

using X = std::span<const std::uint8_t, 32>;

template <class P, class B>
using MlKem = mlkem::Kem<mlkem::MlKem768, B>;

/// X-Wing's combiner: SHA3-256(ss_M || ss_X || ct_X || pk_X || XWingLabel), one 134-byte block.
void xwing_combiner(std::span<std::uint8_t, 32> ss, X ss_m, X ss_x, X ct_x, X pk_x) noexcept {
  hash::sha3_256(ss, {ss_m, ss_x, ct_x, pk_x, ByteView(kXWingLabel, sizeof kXWingLabel)});
}

}  // namespace

template <class P, class B>
void Kem<P, B>::keygen_derand(In<keygen_coin_bytes> seed, Out<pk_bytes> pk, Out<sk_bytes> sk) {
  // X-Wing: d || z || sk_X = SHAKE256(seed, 96); X25519MLKEM768: the seed is d || z || sk_X.
  Secret<96> expanded;
  if constexpr (P::kXWing)
    hash::shake256(expanded.span(), {seed});
  else
    std::copy(seed.begin(), seed.end(), expanded.bytes);
  const auto dz = expanded.view().template first<64>();
  const auto sk_x = expanded.view().template last<32>();

  std::copy(seed.begin(), seed.end(), sk.begin());
  MlKem<P, B>::keygen_derand(dz, pk.template first<M::ek_bytes>(), sk.template subspan<dk_offset, M::dk_bytes>());
  if constexpr (P::kXWing) std::copy(sk_x.begin(), sk_x.end(), sk.begin() + sk_x_offset);
  const auto pk_x = pk.template last<x_bytes>();
  x25519::base(pk_x, sk_x);
  ct::declassify(pk_x.data(), pk_x.size());
  std::copy(pk_x.begin(), pk_x.end(), sk.begin() + pk_x_offset);
}

template <class P, class B>
void Kem<P, B>::encaps_derand(In<pk_bytes> pk, In<encaps_coin_bytes> coins, Out<ct_bytes> ct, Out<ss_bytes> ss) {
  const auto m = coins.template first<32>();
  const auto ek_x = coins.template last<x_bytes>();
  const auto pk_x = pk.template last<x_bytes>();
  const auto ct_x = ct.template last<x_bytes>();

  x25519::base(ct_x, ek_x);
  ct::declassify(ct_x.data(), ct_x.size());
  Secret<32> ss_x;
  const bool nonzero = x25519::shared(ss_x.span(), ek_x, pk_x);
  if constexpr (P::kXWing) {
    Secret<32> ss_m;
    MlKem<P, B>::encaps_derand(pk.template first<M::ek_bytes>(), m, ct.template first<M::ct_bytes>(), ss_m.span());
    xwing_combiner(ss, ss_m.view(), ss_x.view(), ct_x, pk_x);
  } else {
    // check_pk has rejected such a key already; this guards direct calls.
    if (!nonzero) throw Error(Errc::invalid_encaps_key, "X25519MLKEM768" + std::string(small_order_pk_why));
    MlKem<P, B>::encaps_derand(pk.template first<M::ek_bytes>(), m, ct.template first<M::ct_bytes>(),
                               ss.template first<32>());
    std::copy(ss_x.bytes, ss_x.bytes + 32, ss.begin() + 32);
  }
}

template <class P, class B>
bool Kem<P, B>::decaps(In<sk_bytes> sk, In<ct_bytes> ct, Out<ss_bytes> ss) {
  const auto dk_m = sk.template subspan<dk_offset, M::dk_bytes>();
  const auto sk_x = sk.template subspan<sk_x_offset, x_bytes>();
  const auto ct_x = ct.template last<x_bytes>();
  Secret<32> ss_m;
  // The verdict of the hash check on public parts of dk_M: returning early leaks nothing.
  if (!MlKem<P, B>::decaps(dk_m, ct.template first<M::ct_bytes>(), ss_m.span())) return false;
  Secret<32> ss_x;
  const bool nonzero = x25519::shared(ss_x.span(), sk_x, ct_x);
  if constexpr (P::kXWing) {
    xwing_combiner(ss, ss_m.view(), ss_x.view(), ct_x, sk.template subspan<pk_x_offset, x_bytes>());
  } else {
    if (!nonzero)
      throw Error(Errc::invalid_ciphertext,
                  "X25519MLKEM768 ciphertext is invalid: its X25519 share is a point of small order, so the X25519 "
                  "shared secret is all zero (RFC 8446 section 7.4.2)");
    std::copy(ss_m.bytes, ss_m.bytes + 32, ss.begin());
    std::copy(ss_x.bytes, ss_x.bytes + 32, ss.begin() + 32);
  }
  return true;
}

template <class P, class B>
std::string_view Kem<P, B>::invalid_pk_reason(In<pk_bytes> pk) noexcept {
  if (!MlKem<P, B>::check_pk(pk.template first<M::ek_bytes>())) return invalid_pk_why;
  if (!P::kXWing && x25519::has_small_order(pk.template last<x_bytes>())) return small_order_pk_why;
  return {};
}

template <class P, class B>
bool Kem<P, B>::check_sk(In<sk_bytes> sk) {
  Secret<sk_bytes> again;
  std::uint8_t pk[pk_bytes];
  keygen_derand(sk.template first<seed_bytes>(), Out<pk_bytes>(pk, pk_bytes), again.span());
  std::uint8_t same = ct::equal_mask(again.bytes, sk.data(), sk_bytes);
  ct::declassify(&same, 1);  // whether the key is well formed: public (an error or not)
  return same == 0xFF;
}

template <class P, class B>
void Kem<P, B>::pk_from_sk(In<sk_bytes> sk, Out<pk_bytes> pk) noexcept {
  const auto ek = sk.template subspan<dk_offset + M::dk_pke_bytes, M::ek_bytes>();
  const auto pk_x = sk.template subspan<pk_x_offset, x_bytes>();
  std::copy(ek.begin(), ek.end(), pk.begin());
  std::copy(pk_x.begin(), pk_x.end(), pk.begin() + M::ek_bytes);
}

static_assert(Kem<XWing, mlkem::RefBackend>::sk_bytes == 2496);
static_assert(Kem<X25519MlKem768, mlkem::RefBackend>::sk_bytes == 2528);
static_assert(Kem<XWing, mlkem::RefBackend>::pk_bytes == 1216 && Kem<XWing, mlkem::RefBackend>::ct_bytes == 1120);
// The secret parts and the public middle (ek || H(ek)) tile the expanded key.
static_assert(Kem<XWing, mlkem::RefBackend>::secret_prefix_bytes + mlkem::MlKem768::ek_bytes + 32 +
                  Kem<XWing, mlkem::RefBackend>::secret_suffix_bytes ==
              Kem<XWing, mlkem::RefBackend>::sk_bytes);
static_assert(Kem<X25519MlKem768, mlkem::RefBackend>::secret_prefix_bytes + mlkem::MlKem768::ek_bytes + 32 +
                  Kem<X25519MlKem768, mlkem::RefBackend>::secret_suffix_bytes ==
              Kem<X25519MlKem768, mlkem::RefBackend>::sk_bytes);

}  // namespace pqkem::hybrid
