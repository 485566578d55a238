// NTRU KEM: key generation, encapsulation, decapsulation with implicit rejection, key checks:
// the definitions of Kem<P, B>'s members. Included only by lib/backends/ntru_kem.cpp, which
// instantiates them for every NTRU backend of the build.
#pragma once

#include <algorithm>
#include <string>

#include "ct.hpp"
#include "error.hpp"
#include "hash.hpp"
#include "ntru/backend.hpp"
#include "ntru/ntru.hpp"
#include "ntru/owcpa.hpp"
#include "ntru/pack.hpp"
#include "ntru/sample.hpp"

namespace pqkem::ntru {
namespace {

/// n^-1 mod 2^16 for odd n (Newton: each step doubles the number of correct low bits).
constexpr std::uint16_t inverse_mod_2_16(std::uint32_t n) {
  std::uint32_t x = n;  // correct to 3 bits: n * n = 1 mod 8
  for (int i = 0; i < 4; ++i) x = (x * (2u - n * x)) & 0xFFFFu;
  return static_cast<std::uint16_t>(x);
}

}  // namespace

template <class P, class B>
void Kem<P, B>::expand_coins(In<32> seed, std::span<std::uint8_t> coins) noexcept {
  ntru::expand_coins(seed, coins, &B::keccak_jobs);
}

template <class P, class B>
void Kem<P, B>::keygen_derand(In<keygen_coin_bytes> coins, Out<pk_bytes> pk, Out<sk_bytes> sk) {
  const auto seed = coins.template first<P::sample_fg_bytes>();
  const auto prf_key = coins.template last<P::prf_key_bytes>();
  std::uint32_t no_key = owcpa_keypair<P, B>(pk, sk.template first<P::owcpa_sk_bytes>(), seed);
  std::copy(prf_key.begin(), prf_key.end(), sk.begin() + P::owcpa_sk_bytes);
  // Only the verdict becomes public, as check_sk's does: the caller learns that no key exists for
  // these coins, which it would learn anyway from the first pairwise check.
  ct::declassify(&no_key, sizeof no_key);
  if (no_key != 0) {
    secure_wipe(sk.data(), sk.size());
    secure_wipe(pk.data(), pk.size());
    throw Error(Errc::bad_argument, std::string(refused_coins_why));
  }
}

template <class P, class B>
void Kem<P, B>::encaps_derand(In<pk_bytes> pk, In<encaps_coin_bytes> coins, Out<ct_bytes> c, Out<32> shared_key) {
  constexpr std::size_t t = P::pack_trinary_bytes;
  Poly<P> r, m;
  Secret<P::owcpa_msg_bytes> rm;
  sample_rm<P, B>(r, m, coins);
  B::poly_s3_tobytes(rm.span().template subspan<0, t>(), r);
  B::poly_s3_tobytes(rm.span().template subspan<t, t>(), m);
  hash::sha3_256(shared_key, {rm.view()});
  B::poly_z3_to_zq(r, r);
  owcpa_enc<P, B>(c, r, m, pk);
}

template <class P, class B>
bool Kem<P, B>::decaps(In<sk_bytes> sk, In<ct_bytes> c, Out<32> shared_key) {
  Secret<P::owcpa_msg_bytes> rm;
  Secret<32> k, k_reject;
  const std::uint32_t fail = owcpa_dec<P, B>(rm.span(), c, sk.template first<P::owcpa_sk_bytes>());
  B::sha3_256_pair(k.span(), rm.view(), k_reject.span(), sk.template subspan<P::owcpa_sk_bytes, P::prf_key_bytes>(), c);
  const auto ok = static_cast<std::uint8_t>(ct::mask_is_zero(fail));
  ct::select(shared_key.data(), ok, k.bytes, k_reject.bytes, 32);
  return true;
}

template <class P, class B>
bool Kem<P, B>::check_pk(In<pk_bytes> pk) noexcept {
  return q_encoding_is_canonical<P>(pk) != 0;
}

template <class P, class B>
bool Kem<P, B>::check_sk(In<sk_bytes> sk) noexcept {
  constexpr std::size_t t = P::pack_trinary_bytes;
  const std::uint32_t ok = s3_encoding_is_canonical<P>(sk.template subspan<0, t>()) &
                           s3_encoding_is_canonical<P>(sk.template subspan<t, t>()) &
                           q_encoding_is_canonical<P>(sk.template subspan<2 * t, P::pack_q_bytes>());
  ct::declassify(&ok, sizeof ok);
  return ok != 0;
}

template <class P, class B>
void Kem<P, B>::pk_from_sk(In<sk_bytes> sk, Out<pk_bytes> pk) noexcept {
  constexpr std::size_t t = P::pack_trinary_bytes;
  Poly<P> invh, h;
  poly_sq_frombytes_ref<P>(invh, sk.template subspan<2 * t, P::pack_q_bytes>());
  B::poly_rq_inv(h, invh);  // hbar = h mod (q, Phi_n), h_{n-1} = 0
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < P::n; ++i) sum += h.c[i];
  constexpr std::uint32_t n_inv = inverse_mod_2_16(P::n);
  const std::uint32_t k = (0u - sum * n_inv) & (P::q - 1);
  for (std::size_t i = 0; i < P::n; ++i) h.c[i] = static_cast<std::uint16_t>((h.c[i] + k) & (P::q - 1));
  poly_rq_sum_zero_tobytes<P>(pk, h);
}

}  // namespace pqkem::ntru
