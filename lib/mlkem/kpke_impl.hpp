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
                 std::span<std::uint8_t, P::dk_pke_bytes> dk_pke, std::span<std::uint8_t, 32> h_ek) {
  constexpr int K = P::k;
  constexpr std::size_t kRateH = 136;  // SHA3-256
  // (rho, sigma) <- G(d || k)
  Secret<64> rho_sigma;
  const std::uint8_t k_byte[1] = {static_cast<std::uint8_t>(K)};
  B::sha3_512(rho_sigma.span(), d, k_byte);
  const auto rho = std::span<const std::uint8_t, 32>(rho_sigma.bytes, 32);
  const auto sigma = std::span<const std::uint8_t, 32>(rho_sigma.bytes + 32, 32);
  ct::declassify(rho.data(), rho.size());  // rho becomes part of the public key

  // A^ row by row, so that H(ek) need not wait for all of ek: ek = t_0 || ... || t_{K-1} || rho
  // is hashed as its rows are written, each batch after the first absorbing the whole blocks of
  // H that the rows before it completed, beside the next row's SampleNTT. Only ek's last 4
  // blocks remain after the last row, instead of all 6, 9 or 12 (ML-KEM-512, -768, -1024). The
  // first batch also takes s (nonces 0..K-1) and e (K..2K-1), both eta1. For K = 2 both rows go
  // in the first batch, which packs its sponges into as few steps as two batches would.
  constexpr int kFirstRows = K == 2 ? 2 : 1;
  std::array<Poly, 2 * K> noise;
  NttVec<B, K> s_hat, e_hat;
  WipeOnExit wipe(noise, s_hat, e_hat);
  NttMatrix<B, K> a;
  std::uint64_t h_state[25] = {};  // H's sponge over ek: public
  std::size_t absorbed = 0;        // bytes of ek in h_state
  const auto add_row = [&](XofBatch<typename B::NttPoly>& batch, int i) {
    for (int j = 0; j < K; ++j)  // a[i][j] = SampleNTT(rho || j || i)
      batch.add_matrix_entry(a[i][j], rho, static_cast<std::uint8_t>(j), static_cast<std::uint8_t>(i));
  };
  {
    XofBatch<typename B::NttPoly> batch;
    for (int i = 0; i < kFirstRows; ++i) add_row(batch, i);
    batch.add_noise(noise.data(), 2 * K, P::eta1, sigma, 0);
    B::run_xof_batch(batch);
  }
  for (int i = 0; i < K; ++i) {
    s_hat[i] = B::ntt(noise[i]);
    e_hat[i] = B::ntt(noise[K + i]);
  }

  // t^ = A^ o s^ + e^. The inner product leaves a factor R^-1, which the to_mont step cancels.
  for (int i = 0; i < K; ++i) {
    if (i >= kFirstRows) {
      XofBatch<typename B::NttPoly> batch;
      const std::size_t written = kPolyBytes * static_cast<std::size_t>(i);
      const std::size_t blocks = (written - absorbed) / kRateH * kRateH;  // public lengths
      if (blocks > 0) batch.add_hash_part(h_state, true, nullptr, ek.subspan(absorbed, blocks));
      absorbed += blocks;
      add_row(batch, i);
      B::run_xof_batch(batch);
    }
    typename B::NttPoly t;
    B::inner_product(t, a[i].data(), s_hat.data(), K);  // |t_i| <= (q-1)/2
    B::tomont_add_reduce(t, e_hat[i]);
    const auto row = ek.subspan(kPolyBytes * i).template first<kPolyBytes>();
    B::encode12(t, row);
    ct::declassify(row.data(), row.size());  // t is the public key
  }
  std::copy(rho.begin(), rho.end(), ek.begin() + kPolyBytes * K);
  {  // H(ek): the rest of ek, padded
    XofBatch<typename B::NttPoly> batch;
    batch.add_hash_part(h_state, false, h_ek.data(), ek.subspan(absorbed));
    B::run_xof_batch(batch);
  }
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
