// K-PKE (FIPS 203 section 5) for any backend: the template definitions of kpke.hpp. Included
// only by lib/backends/mlkem_kpke.cpp, which instantiates them for every backend of the build.
#pragma once

#include <algorithm>
#include <tuple>

#include "ct.hpp"
#include "mlkem/backend.hpp"
#include "mlkem/kpke.hpp"
#include "secret.hpp"

namespace pqkem::mlkem {
namespace {

/// Wipes the referenced objects (plain aggregates of integers) when the scope ends.
template <class... T>
class WipeOnExit {
public:
  explicit WipeOnExit(T&... objects) : m_objects(objects...) {}
  WipeOnExit(const WipeOnExit&) = delete;
  WipeOnExit& operator=(const WipeOnExit&) = delete;
  ~WipeOnExit() {
    std::apply([](auto&... o) { (secure_wipe(&o, sizeof o), ...); }, m_objects);
  }

private:
  std::tuple<T&...> m_objects;
};

/// Vectors of the backend's NTT-domain type.
template <class B, int K>
using NttVec = std::array<typename B::NttPoly, K>;

}  // namespace

template <class P, class B>
void kpke_keygen(std::span<const std::uint8_t, 32> d, std::span<std::uint8_t, P::ek_bytes> ek,
                 std::span<std::uint8_t, P::dk_pke_bytes> dk_pke) {
  constexpr int K = P::k;
  // (rho, sigma) <- G(d || k)
  Secret<64> rho_sigma;
  const std::uint8_t k_byte[1] = {static_cast<std::uint8_t>(K)};
  B::sha3_512(rho_sigma.span(), d, k_byte);
  const auto rho = std::span<const std::uint8_t, 32>(rho_sigma.bytes, 32);
  const auto sigma = std::span<const std::uint8_t, 32>(rho_sigma.bytes + 32, 32);
  ct::declassify(rho.data(), rho.size());  // rho becomes part of the public key

  // s (nonces 0..K-1) and e (K..2K-1), both eta1, and A^ (rho is public), in one batch.
  std::array<Poly, 2 * K> noise;
  NttVec<B, K> s_hat, e_hat;
  WipeOnExit wipe(noise, s_hat, e_hat);
  NttMatrix<B, K> a;
  XofBatch<typename B::NttPoly> batch;
  batch.template add_matrix<K>(a, rho, false);
  batch.add_noise(noise.data(), 2 * K, P::eta1, sigma, 0);
  B::run_xof_batch(batch);
  for (int i = 0; i < K; ++i) {
    s_hat[i] = B::ntt(noise[i]);
    e_hat[i] = B::ntt(noise[K + i]);
  }

  // t^ = A^ o s^ + e^. The inner product leaves a factor R^-1, which the to_mont step cancels.
  for (int i = 0; i < K; ++i) {
    typename B::NttPoly t;
    B::inner_product(t, a[i].data(), s_hat.data(), K);  // |t_i| <= (q-1)/2
    B::tomont_add_reduce(t, e_hat[i]);
    B::encode12(t, ek.subspan(kPolyBytes * i).template first<kPolyBytes>());
  }
  std::copy(rho.begin(), rho.end(), ek.begin() + kPolyBytes * K);
  for (int i = 0; i < K; ++i) B::encode12(s_hat[i], dk_pke.subspan(kPolyBytes * i).template first<kPolyBytes>());
}

template <class P, class B>
void kpke_encrypt(std::span<const std::uint8_t, P::ek_bytes> ek, const NttMatrix<B, P::k>& at,
                  std::span<const std::uint8_t, 32> m, std::span<const std::uint8_t, 32> r,
                  std::span<std::uint8_t, P::ct_bytes> c) {
  constexpr int K = P::k;
  NttVec<B, K> t_hat;
  for (int i = 0; i < K; ++i) t_hat[i] = B::decode12(ek.subspan(kPolyBytes * i).template first<kPolyBytes>());

  // y (nonces 0..K-1, eta1), e1 (K..2K-1, eta2), e2 (2K, eta2), in one batch.
  std::array<Poly, 2 * K + 1> noise;
  NttVec<B, K> y_hat;
  Poly mu, v, u;
  typename B::NttPoly w;
  WipeOnExit wipe(noise, y_hat, mu, v, u, w);
  XofBatch<typename B::NttPoly> batch;
  batch.add_noise(noise.data(), K, P::eta1, r, 0);
  batch.add_noise(noise.data() + K, K + 1, P::eta2, r, K);
  B::run_xof_batch(batch);
  for (int i = 0; i < K; ++i) y_hat[i] = B::ntt(noise[i]);

  // u = NTT^-1(A^T o y^) + e1, then c1 = ByteEncode_du(Compress_du(u)).
  for (int i = 0; i < K; ++i) {
    B::inner_product(w, at[i].data(), y_hat.data(), K);
    u = B::inverse_ntt(w);                    // |u_i| < q
    B::add_reduce(u, noise[K + i], nullptr);  // q + eta2, reduced
    B::template compress_encode<P::du>(u, c.subspan(32 * P::du * i).template first<32 * P::du>());
  }

  // v = NTT^-1(t^T o y^) + e2 + Decompress_1(ByteDecode_1(m)).
  mu = B::template decode_decompress<1>(m);
  B::inner_product(w, t_hat.data(), y_hat.data(), K);
  v = B::inverse_ntt(w);                // |v_i| < q
  B::add_reduce(v, noise[2 * K], &mu);  // < 2q + eta2, reduced
  B::template compress_encode<P::dv>(v, c.subspan(P::c1_bytes).template first<P::c2_bytes>());
}

template <class P, class B>
void kpke_decrypt(std::span<const std::uint8_t, P::dk_pke_bytes> dk_pke, std::span<const std::uint8_t, P::ct_bytes> c,
                  std::span<std::uint8_t, 32> m) {
  constexpr int K = P::k;
  NttVec<B, K> s_hat, u_hat;
  typename B::NttPoly p;
  Poly w;
  WipeOnExit wipe(s_hat, p, w);
  for (int i = 0; i < K; ++i) {
    // u is public (from the ciphertext)
    const auto c1_i = c.subspan(32 * P::du * i).template first<32 * P::du>();
    u_hat[i] = B::ntt(B::template decode_decompress<P::du>(c1_i));
    s_hat[i] = B::decode12(dk_pke.subspan(kPolyBytes * i).template first<kPolyBytes>());
  }
  const Poly v = B::template decode_decompress<P::dv>(c.subspan(P::c1_bytes).template first<P::c2_bytes>());

  // w = v - NTT^-1(s^T o u^);  m = ByteEncode_1(Compress_1(w)).
  B::inner_product(p, s_hat.data(), u_hat.data(), K);
  w = B::inverse_ntt(p);  // |w_i| < q
  B::sub_reduce(w, v);    // v - w, |.| < 2q, reduced
  B::template compress_encode<1>(w, m);
}

}  // namespace pqkem::mlkem
