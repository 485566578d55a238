#include "mlkem/kpke.hpp"

#include <tuple>

#include "ct.hpp"
#include "hash.hpp"
#include "mlkem/encoding.hpp"
#include "mlkem/ntt.hpp"
#include "mlkem/sampling.hpp"
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

/// Row `row` of A^ (transposed = false: A^[row][j] = SampleNTT(rho || j || row)) or of
/// A^T (transposed = true: A^T[row][j] = A^[j][row] = SampleNTT(rho || row || j)).
template <int K>
NttPolyVec<K> matrix_row(std::span<const std::uint8_t, 32> rho, int row, bool transposed) {
  NttPolyVec<K> a;
  for (int j = 0; j < K; ++j) {
    const auto r = static_cast<std::uint8_t>(row), c = static_cast<std::uint8_t>(j);
    a[j] = transposed ? sample_ntt(rho, r, c) : sample_ntt(rho, c, r);
  }
  return a;
}

/// sum_j a_j * b_j in T_q (times R^-1), Barrett-reduced. |a_j|, |b_j| < q; K <= 4 keeps
/// the running sum below 8q before the reduction. Out: |r_i| <= (q-1)/2.
template <int K>
NttPoly inner_product(const NttPolyVec<K>& a, const NttPolyVec<K>& b) noexcept {
  static_assert(K <= 4);
  NttPoly r;
  for (int j = 0; j < K; ++j) multiply_ntts_acc(r, a[j], b[j]);
  reduce(r);
  return r;
}

}  // namespace

template <class P>
void kpke_keygen(std::span<const std::uint8_t, 32> d, std::span<std::uint8_t, P::ek_bytes> ek,
                 std::span<std::uint8_t, P::dk_pke_bytes> dk_pke) {
  constexpr int K = P::k;
  // (rho, sigma) <- G(d || k)
  Secret<64> rho_sigma;
  const std::uint8_t k_byte[1] = {static_cast<std::uint8_t>(K)};
  hash::sha3_512(rho_sigma.span(), {d, k_byte});
  const auto rho = std::span<const std::uint8_t, 32>(rho_sigma.bytes, 32);
  const auto sigma = std::span<const std::uint8_t, 32>(rho_sigma.bytes + 32, 32);
  ct::declassify(rho.data(), rho.size());  // rho becomes part of the public key

  NttPolyVec<K> s_hat, e_hat;
  WipeOnExit wipe(s_hat, e_hat);
  for (int i = 0; i < K; ++i) {
    Poly s = sample_noise<P::eta1>(sigma, static_cast<std::uint8_t>(i));
    s_hat[i] = ntt(s);
    secure_wipe(&s, sizeof s);
  }
  for (int i = 0; i < K; ++i) {
    Poly e = sample_noise<P::eta1>(sigma, static_cast<std::uint8_t>(K + i));
    e_hat[i] = ntt(e);
    secure_wipe(&e, sizeof e);
  }

  // t^ = A^ o s^ + e^. multiply_ntts leaves a factor R^-1, which to_mont cancels.
  for (int i = 0; i < K; ++i) {
    const NttPolyVec<K> a_row = matrix_row<K>(rho, i, false);
    NttPoly t = inner_product<K>(a_row, s_hat);
    to_mont(t);          // |t_i| < q
    add_to(t, e_hat[i]); // < q + (q-1)/2
    reduce(t);
    encode_ntt_poly(t, ek.subspan(kPolyBytes * i).template first<kPolyBytes>());
  }
  std::copy(rho.begin(), rho.end(), ek.begin() + kPolyBytes * K);
  for (int i = 0; i < K; ++i)
    encode_ntt_poly(s_hat[i], dk_pke.subspan(kPolyBytes * i).template first<kPolyBytes>());
}

template <class P>
void kpke_encrypt(std::span<const std::uint8_t, P::ek_bytes> ek, std::span<const std::uint8_t, 32> m,
                  std::span<const std::uint8_t, 32> r, std::span<std::uint8_t, P::ct_bytes> c) {
  constexpr int K = P::k;
  NttPolyVec<K> t_hat;
  for (int i = 0; i < K; ++i)
    t_hat[i] = decode_ntt_poly(ek.subspan(kPolyBytes * i).template first<kPolyBytes>());
  const auto rho = ek.subspan(kPolyBytes * K).template first<32>();

  NttPolyVec<K> y_hat;
  PolyVec<K> e1;
  Poly e2, mu, v;
  WipeOnExit wipe(y_hat, e1, e2, mu, v);
  for (int i = 0; i < K; ++i) {
    Poly y = sample_noise<P::eta1>(r, static_cast<std::uint8_t>(i));
    y_hat[i] = ntt(y);
    secure_wipe(&y, sizeof y);
  }
  for (int i = 0; i < K; ++i) e1[i] = sample_noise<P::eta2>(r, static_cast<std::uint8_t>(K + i));
  e2 = sample_noise<P::eta2>(r, static_cast<std::uint8_t>(2 * K));

  // u = NTT^-1(A^T o y^) + e1, then c1 = ByteEncode_du(Compress_du(u)).
  for (int i = 0; i < K; ++i) {
    const NttPolyVec<K> a_row = matrix_row<K>(rho, i, true);
    Poly u = inverse_ntt(inner_product<K>(a_row, y_hat));  // |u_i| < q
    add_to(u, e1[i]);                                        // < q + eta2
    reduce(u);
    Coeffs cu = compress_poly<P::du>(u);
    byte_encode<P::du>(cu, c.subspan(32 * P::du * i).template first<32 * P::du>());
    secure_wipe(&u, sizeof u);
    secure_wipe(&cu, sizeof cu);
  }

  // v = NTT^-1(t^T o y^) + e2 + Decompress_1(ByteDecode_1(m)).
  mu = decompress_poly<1>(byte_decode<1>(m));
  v = inverse_ntt(inner_product<K>(t_hat, y_hat));  // |v_i| < q
  add_to(v, e2);                                     // < q + eta2
  add_to(v, mu);                                     // < 2q + eta2
  reduce(v);
  Coeffs cv = compress_poly<P::dv>(v);
  byte_encode<P::dv>(cv, c.subspan(P::c1_bytes).template first<P::c2_bytes>());
  secure_wipe(&cv, sizeof cv);
}

template <class P>
void kpke_decrypt(std::span<const std::uint8_t, P::dk_pke_bytes> dk_pke,
                  std::span<const std::uint8_t, P::ct_bytes> c, std::span<std::uint8_t, 32> m) {
  constexpr int K = P::k;
  NttPolyVec<K> s_hat, u_hat;
  Poly w;
  WipeOnExit wipe(s_hat, u_hat, w);
  for (int i = 0; i < K; ++i) {
    const Poly u = decompress_poly<P::du>(byte_decode<P::du>(c.subspan(32 * P::du * i).template first<32 * P::du>()));
    u_hat[i] = ntt(u);  // u is public (from the ciphertext)
    s_hat[i] = decode_ntt_poly(dk_pke.subspan(kPolyBytes * i).template first<kPolyBytes>());
  }
  const Poly v = decompress_poly<P::dv>(byte_decode<P::dv>(c.subspan(P::c1_bytes).template first<P::c2_bytes>()));

  // w = v - NTT^-1(s^T o u^);  m = ByteEncode_1(Compress_1(w)).
  w = v;                                                   // 0 <= v_i < q
  sub_from(w, inverse_ntt(inner_product<K>(s_hat, u_hat)));  // |w_i| < 2q
  reduce(w);
  Coeffs mc = compress_poly<1>(w);
  byte_encode<1>(mc, m);
  secure_wipe(&mc, sizeof mc);
}

#define PQKEM_INSTANTIATE_KPKE(P)                                                                        \
  template void kpke_keygen<P>(std::span<const std::uint8_t, 32>, std::span<std::uint8_t, P::ek_bytes>, \
                               std::span<std::uint8_t, P::dk_pke_bytes>);                                \
  template void kpke_encrypt<P>(std::span<const std::uint8_t, P::ek_bytes>,                              \
                                std::span<const std::uint8_t, 32>, std::span<const std::uint8_t, 32>,    \
                                std::span<std::uint8_t, P::ct_bytes>);                                   \
  template void kpke_decrypt<P>(std::span<const std::uint8_t, P::dk_pke_bytes>,                          \
                                std::span<const std::uint8_t, P::ct_bytes>, std::span<std::uint8_t, 32>);
PQKEM_INSTANTIATE_KPKE(MlKem512)
PQKEM_INSTANTIATE_KPKE(MlKem768)
PQKEM_INSTANTIATE_KPKE(MlKem1024)
#undef PQKEM_INSTANTIATE_KPKE

}  // namespace pqkem::mlkem
