// NTRU KEM: key generation, encapsulation, decapsulation with implicit rejection, key checks.
#include <algorithm>

#include "ct.hpp"
#include "hash.hpp"
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

template <class P>
void keypair_derand(std::span<const std::uint8_t, P::sample_fg_bytes> seed, std::span<const std::uint8_t, 32> prf_key,
                    std::span<std::uint8_t, P::pk_bytes> pk, std::span<std::uint8_t, P::sk_bytes> sk) {
  const Kernels<P>& k = active_kernels<P>();  // one backend for the whole operation
  owcpa_keypair<P>(k, pk, sk.template first<P::owcpa_sk_bytes>(), seed);
  std::copy(prf_key.begin(), prf_key.end(), sk.begin() + P::owcpa_sk_bytes);
}

template <class P>
void encaps_derand(std::span<const std::uint8_t, P::pk_bytes> pk, std::span<const std::uint8_t, P::sample_rm_bytes> coins,
                   std::span<std::uint8_t, P::ct_bytes> c, std::span<std::uint8_t, 32> shared_key) {
  constexpr std::size_t t = P::pack_trinary_bytes;
  const Kernels<P>& k = active_kernels<P>();  // one backend for the whole operation
  Poly<P> r, m;
  Secret<P::owcpa_msg_bytes> rm;
  sample_rm<P>(k, r, m, coins);
  k.poly_s3_tobytes(rm.span().template subspan<0, t>(), r);
  k.poly_s3_tobytes(rm.span().template subspan<t, t>(), m);
  hash::sha3_256(shared_key, {rm.view()});
  k.poly_z3_to_zq(r, r);
  owcpa_enc<P>(k, c, r, m, pk);
}

template <class P>
void decaps(std::span<const std::uint8_t, P::sk_bytes> sk, std::span<const std::uint8_t, P::ct_bytes> c,
            std::span<std::uint8_t, 32> shared_key) {
  Secret<P::owcpa_msg_bytes> rm;
  Secret<32> k, k_reject;
  const Kernels<P>& kern = active_kernels<P>();  // one backend for the whole operation
  const std::uint32_t fail = owcpa_dec<P>(kern, rm.span(), c, sk.template first<P::owcpa_sk_bytes>());
  kern.sha3_256_pair(k.span(), rm.view(), k_reject.span(), sk.template subspan<P::owcpa_sk_bytes, P::prf_key_bytes>(), c);
  const auto ok = static_cast<std::uint8_t>(ct::mask_is_zero(fail));
  ct::select(shared_key.data(), ok, k.bytes, k_reject.bytes, 32);
}

template <class P>
bool check_pk(std::span<const std::uint8_t, P::pk_bytes> pk) noexcept {
  return q_encoding_is_canonical<P>(pk) != 0;
}

template <class P>
bool check_sk(std::span<const std::uint8_t, P::sk_bytes> sk) noexcept {
  constexpr std::size_t t = P::pack_trinary_bytes;
  const std::uint32_t ok = s3_encoding_is_canonical<P>(sk.template subspan<0, t>()) &
                           s3_encoding_is_canonical<P>(sk.template subspan<t, t>()) &
                           q_encoding_is_canonical<P>(sk.template subspan<2 * t, P::pack_q_bytes>());
  ct::declassify(&ok, sizeof ok);
  return ok != 0;
}

template <class P>
void pk_from_sk(std::span<const std::uint8_t, P::sk_bytes> sk, std::span<std::uint8_t, P::pk_bytes> pk) noexcept {
  constexpr std::size_t t = P::pack_trinary_bytes;
  Poly<P> invh, h;
  poly_sq_frombytes<P>(invh, sk.template subspan<2 * t, P::pack_q_bytes>());
  active_kernels<P>().poly_rq_inv(h, invh);  // hbar = h mod (q, Phi_n), h_{n-1} = 0
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < P::n; ++i) sum += h.c[i];
  constexpr std::uint32_t n_inv = inverse_mod_2_16(P::n);
  const std::uint32_t k = (0u - sum * n_inv) & (P::q - 1);
  for (std::size_t i = 0; i < P::n; ++i) h.c[i] = static_cast<std::uint16_t>((h.c[i] + k) & (P::q - 1));
  poly_rq_sum_zero_tobytes<P>(pk, h);
}

#define PQKEM_NTRU_INSTANTIATE_KEM(P)                                                                            \
  template void keypair_derand<P>(std::span<const std::uint8_t, P::sample_fg_bytes>,                             \
                                  std::span<const std::uint8_t, 32>, std::span<std::uint8_t, P::pk_bytes>,       \
                                  std::span<std::uint8_t, P::sk_bytes>);                                         \
  template void encaps_derand<P>(std::span<const std::uint8_t, P::pk_bytes>,                                     \
                                 std::span<const std::uint8_t, P::sample_rm_bytes>,                              \
                                 std::span<std::uint8_t, P::ct_bytes>, std::span<std::uint8_t, 32>);             \
  template void decaps<P>(std::span<const std::uint8_t, P::sk_bytes>, std::span<const std::uint8_t, P::ct_bytes>, \
                          std::span<std::uint8_t, 32>);                                                          \
  template bool check_pk<P>(std::span<const std::uint8_t, P::pk_bytes>) noexcept;                               \
  template bool check_sk<P>(std::span<const std::uint8_t, P::sk_bytes>) noexcept;                               \
  template void pk_from_sk<P>(std::span<const std::uint8_t, P::sk_bytes>, std::span<std::uint8_t, P::pk_bytes>) noexcept;
PQKEM_NTRU_FOR_EACH_PARAMS(PQKEM_NTRU_INSTANTIATE_KEM)

}  // namespace pqkem::ntru
