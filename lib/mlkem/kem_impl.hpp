// ML-KEM (FIPS 203 sections 6 and 7) for any backend: the definitions of Kem<P, B>'s members.
// Included only by lib/backends/mlkem_kem.cpp, which instantiates them for every backend.
#pragma once

#include "mlkem/mlkem.hpp"

#include <algorithm>

#include "ct.hpp"
#include "mlkem/backend.hpp"
#include "mlkem/kpke.hpp"
#include "secret.hpp"

namespace pqkem::mlkem {
namespace {

template <class P, class B>
void keygen_internal(std::span<const std::uint8_t, 32> d, std::span<const std::uint8_t, 32> z,
                     std::span<std::uint8_t, P::ek_bytes> ek, std::span<std::uint8_t, P::dk_bytes> dk) {
  auto dk_pke = dk.template first<P::dk_pke_bytes>();
  auto dk_ek = dk.template subspan<P::dk_pke_bytes, P::ek_bytes>();
  auto dk_h = dk.template subspan<P::dk_pke_bytes + P::ek_bytes, 32>();
  auto dk_z = dk.template subspan<P::dk_pke_bytes + P::ek_bytes + 32, 32>();

  kpke_keygen<P, B>(d, ek, dk_pke, dk_h);  // H(ek) too, hashed as ek is written
  ct::declassify(ek.data(), ek.size());
  ct::declassify(dk_h.data(), dk_h.size());
  std::copy(ek.begin(), ek.end(), dk_ek.begin());
  std::copy(z.begin(), z.end(), dk_z.begin());
}

template <class P, class B>
void encaps_internal(std::span<const std::uint8_t, P::ek_bytes> ek, std::span<const std::uint8_t, 32> m,
                     std::span<std::uint8_t, 32> shared_key, std::span<std::uint8_t, P::ct_bytes> c) {
  // H(ek) and A^T depend on ek alone: one batch.
  std::uint8_t h_ek[32];
  NttMatrix<B, P::k> at;
  XofBatch<typename B::NttPoly> batch;
  batch.add_hash(false, h_ek, ek, {});
  kpke_add_transposed_matrix<P, B>(batch, at, ek);
  B::run_xof_batch(batch);
  Secret<64> k_r;  // (K, r) <- G(m || H(ek))
  B::sha3_512(k_r.span(), m, h_ek);
  const auto r = std::span<const std::uint8_t, 32>(k_r.bytes + 32, 32);
  kpke_encrypt<P, B>(ek, at, m, r, c);
  std::copy_n(k_r.bytes, 32, shared_key.begin());
  ct::declassify(c.data(), c.size());
}

/// Decaps_internal and the hash check of section 7.3, whose verdict is returned. H(ek),
/// J(z || c) and the re-encryption's A^T depend on dk and c alone: one batch.
template <class P, class B>
bool decaps_internal(std::span<const std::uint8_t, P::dk_bytes> dk, std::span<const std::uint8_t, P::ct_bytes> c,
                     std::span<std::uint8_t, 32> shared_key) {
  const auto dk_pke = dk.template first<P::dk_pke_bytes>();
  const auto ek = dk.template subspan<P::dk_pke_bytes, P::ek_bytes>();
  const auto h = dk.template subspan<P::dk_pke_bytes + P::ek_bytes, 32>();
  const auto z = dk.template subspan<P::dk_pke_bytes + P::ek_bytes + 32, 32>();

  Secret<32> k_bar;  // K_bar <- J(z || c)
  std::uint8_t h_ek[32];
  NttMatrix<B, P::k> at;
  XofBatch<typename B::NttPoly> batch;
  batch.add_hash(false, h_ek, ek, {});
  batch.add_hash(true, k_bar.span(), z, c);
  kpke_add_transposed_matrix<P, B>(batch, at, ek);
  B::run_xof_batch(batch);
  const bool hash_ok = ct::equal_mask(h_ek, h.data(), 32) == 0xFF;  // ek and h are public

  Secret<32> m_prime;
  kpke_decrypt<P, B>(dk_pke, c, m_prime.span());
  Secret<64> k_r;  // (K', r') <- G(m' || h)
  B::sha3_512(k_r.span(), m_prime.view(), h);
  Secret<P::ct_bytes> c_prime;  // on the stack (no heap round trip), wiped on return
  kpke_encrypt<P, B>(ek, at, m_prime.view(), std::span<const std::uint8_t, 32>(k_r.bytes + 32, 32), c_prime.span());
  // Compare every byte (no early exit: a strcmp-like stop at a zero byte is a known bug).
  const std::uint8_t same = ct::equal_mask(c.data(), c_prime.bytes, P::ct_bytes);
  ct::select(shared_key.data(), same, k_r.bytes, k_bar.bytes, 32);
  return hash_ok;
}

}  // namespace

// Each entry point below is one operation on backend B, hashes included.
template <class P, class B>
void Kem<P, B>::keygen_derand(In<keygen_coin_bytes> coins, Out<pk_bytes> ek, Out<sk_bytes> dk) {
  keygen_internal<P, B>(coins.template first<32>(), coins.template last<32>(), ek, dk);
}

template <class P, class B>
void Kem<P, B>::encaps_derand(In<pk_bytes> ek, In<encaps_coin_bytes> m, Out<ct_bytes> c, Out<32> shared_key) {
  encaps_internal<P, B>(ek, m, shared_key, c);
}

template <class P, class B>
bool Kem<P, B>::decaps(In<sk_bytes> dk, In<ct_bytes> c, Out<32> shared_key) {
  return decaps_internal<P, B>(dk, c, shared_key);
}

template <class P, class B>
bool Kem<P, B>::check_pk(In<pk_bytes> ek) noexcept {
  bool ok = true;
  for (int i = 0; i < P::k; ++i) ok &= B::is_canonical12(ek.subspan(kPolyBytes * i).template first<kPolyBytes>());
  return ok;
}

template <class P, class B>
bool Kem<P, B>::check_sk(In<sk_bytes> dk) {
  const auto ek = dk.template subspan<P::dk_pke_bytes, P::ek_bytes>();
  const auto h = dk.template subspan<P::dk_pke_bytes + P::ek_bytes, 32>();
  std::uint8_t h_ek[32];
  B::sha3_256(h_ek, ek, {});
  return ct::equal_mask(h_ek, h.data(), 32) == 0xFF;
}

template <class P, class B>
void Kem<P, B>::pk_from_sk(In<sk_bytes> dk, Out<pk_bytes> ek) noexcept {
  const auto stored = dk.template subspan<P::dk_pke_bytes, P::ek_bytes>();
  std::copy(stored.begin(), stored.end(), ek.begin());
}

}  // namespace pqkem::mlkem
