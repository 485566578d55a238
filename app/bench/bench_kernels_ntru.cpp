// NTRU kernels for `pqkem bench --kernels` (see bench_kernels.hpp).
#include <algorithm>
#include <array>
#include <memory>
#include <random>

#include "backends/backends.hpp"
#include "bench_kernels.hpp"
#include "ntru/ntru.hpp"
#include "ntru/pack.hpp"
#include "ntru/poly.hpp"
#include "ntru/sample.hpp"
#include "ntru/sort.hpp"
#include "simd/dispatch.hpp"

namespace pqkem::bench {
namespace {

template <class P>
struct NtruState {
  ntru::Poly<P> a, b, r, t;
  std::vector<std::int32_t> keys, unsorted;  // the sort runs on a fresh copy of `unsorted`
  std::array<std::uint8_t, P::sample_ft_bytes> ft_bytes{};
  std::array<std::uint8_t, P::pack_trinary_bytes> s3_bytes{};
  std::array<std::uint8_t, P::pack_q_bytes> q_bytes{};
  // The whole operations on fixed coins (the derandomized entry points).
  using K = ntru::Kem<P, ntru::RefBackend>;
  std::array<std::uint8_t, K::keygen_coin_bytes> keygen_coins{};
  std::array<std::uint8_t, K::encaps_coin_bytes> encaps_coins{};
  std::array<std::uint8_t, 32> seed{};  // expand_coins' input, and its output:
  std::array<std::uint8_t, K::encaps_coin_bytes> expanded{};
  std::array<std::uint8_t, P::pk_bytes> pk{};
  std::array<std::uint8_t, P::sk_bytes> sk{};
  std::array<std::uint8_t, P::ct_bytes> ct{};
  std::array<std::uint8_t, 32> ss{};
};

/// The kernels of backend B, named alike for every backend (the speed-up column compares them).
template <class P, class B>
void add_ntru_kernels(std::vector<Kernel>& k, const std::shared_ptr<NtruState<P>>& st) {
  const std::string impl(simd::impl_name(B::kImpl));
  k.push_back({"poly_Rq_mul", impl, [st] {
                 B::poly_rq_mul(st->r, st->a, st->b);
                 keep(st->r);
               }});
  k.push_back({"poly_S3_mul", impl, [st] {
                 B::poly_s3_mul(st->r, st->a, st->a);
                 keep(st->r);
               }});
  // The same products as an operation runs them: their workspace shared, wiped once when the
  // entry is destroyed instead of after every product (the standalone ones above wipe 15-45 KB
  // per call).
  auto shared = std::make_shared<ntru::ProductScratch<P, B>>();
  k.push_back({"poly_Rq_mul (shared scratch)", impl, [st, shared] {
                 shared->rq_mul(st->r, st->a, st->b);
                 keep(st->r);
               }});
  k.push_back({"poly_S3_mul (shared scratch)", impl, [st, shared] {
                 shared->s3_mul(st->r, st->a, st->a);
                 keep(st->r);
               }});
  k.push_back({"poly_mul_x_minus_1", impl, [st] {
                 B::poly_mul_x_minus_1(st->r, st->b);
                 keep(st->r);
               }});
  k.push_back({"crypto_sort (int32)", impl, [st] {
                 std::copy(st->unsorted.begin(), st->unsorted.end(), st->keys.begin());  // ~2 KB
                 B::sort_int32(st->keys);
                 keep(st->keys);
               }});
  if constexpr (P::hps) {
    k.push_back({"sample_fixed_type", impl, [st] {
                   ntru::sample_fixed_type<P, B>(st->r, st->ft_bytes);
                   keep(st->r);
                 }});
  }
  if constexpr (!P::hps) {  // HPS: the lift is a change of representation
    k.push_back({"poly_lift", impl, [st] {
                   B::poly_lift(st->r, st->a);
                   keep(st->r);
                 }});
  }
  k.push_back({"unpack_S3", impl, [st] {
                 B::poly_s3_frombytes(st->r, st->s3_bytes);
                 keep(st->r);
               }});
  k.push_back({"pack_S3", impl, [st] {
                 B::poly_s3_tobytes(st->s3_bytes, st->a);
                 keep(st->s3_bytes);
               }});
  k.push_back({"unpack_Rq0", impl, [st] {
                 B::poly_rq_sum_zero_frombytes(st->r, st->q_bytes);
                 keep(st->r);
               }});
  k.push_back({"poly_S3_inv", impl, [st] {
                 B::poly_s3_inv(st->r, st->a);
                 keep(st->r);
               }});
  k.push_back({"poly_R2_inv", impl, [st] {
                 B::poly_r2_inv(st->r, st->a);
                 keep(st->r);
               }});
  k.push_back({"poly_Rq_inv", impl, [st] {
                 B::poly_rq_inv(st->r, st->a);
                 keep(st->r);
               }});
  // The operations without their random bytes: the keypair and encaps rows of the operation
  // table include a 32-byte draw from the random source (getrandom(2): some 2,200 ticks here,
  // the same for every implementation) and its expansion into the coins (the next row).
  using K = ntru::Kem<P, B>;
  k.push_back({"expand_coins (encaps, " + std::to_string(K::encaps_coin_bytes) + " B)", impl, [st] {
                 K::expand_coins(st->seed, st->expanded);
                 keep(st->expanded);
               }});
  k.push_back({"keypair (fixed coins)", impl, [st] {
                 K::keygen_derand(st->keygen_coins, st->pk, st->sk);
                 keep(st->pk);
               }});
  k.push_back({"encaps (fixed coins)", impl, [st] {
                 K::encaps_derand(st->pk, st->encaps_coins, st->ct, st->ss);
                 keep(st->ct);
               }});
}

template <class P>
std::vector<Kernel> ntru_kernels_for(const std::vector<simd::Impl>& impls) {
  auto st = std::make_shared<NtruState<P>>();
  std::mt19937 rng(2);
  for (int i = 0; i < P::n; ++i) {
    st->a.c[i] = static_cast<std::uint16_t>(rng() % 3);
    st->b.c[i] = static_cast<std::uint16_t>(rng() & (P::q - 1));
  }
  st->unsorted.resize(P::n - 1);
  for (auto& x : st->unsorted) x = static_cast<std::int32_t>(rng());
  st->keys = st->unsorted;
  for (auto& x : st->ft_bytes) x = static_cast<std::uint8_t>(rng());
  ntru::poly_s3_tobytes_ref<P>(st->s3_bytes, st->a);
  ntru::poly_sq_tobytes<P>(st->q_bytes, st->b);
  for (auto& x : st->keygen_coins) x = static_cast<std::uint8_t>(rng());
  for (auto& x : st->encaps_coins) x = static_cast<std::uint8_t>(rng());
  for (auto& x : st->seed) x = static_cast<std::uint8_t>(rng());
  ntru::Kem<P, ntru::RefBackend>::keygen_derand(st->keygen_coins, st->pk, st->sk);
  std::vector<Kernel> k;
  // One set of entries per asked-for usable implementation, each running that backend's kernels.
  auto add = [&]<class B>() {
    if (std::find(impls.begin(), impls.end(), B::kImpl) == impls.end() || !simd::impl_usable(B::kImpl)) return;
    add_ntru_kernels<P, B>(k, st);
  };
  add.template operator()<ntru::RefBackend>();
#if PQKEM_HAVE_AVX2
  add.template operator()<ntru::Avx2Backend>();
#endif
#if PQKEM_HAVE_AVX512
  add.template operator()<ntru::Avx512Backend>();
#endif
  return k;
}

}  // namespace

std::vector<Kernel> ntru_kernels(Scheme s, const std::vector<simd::Impl>& impls) {
  switch (s) {
    case Scheme::NtruHps2048509: return ntru_kernels_for<ntru::NtruHps2048509>(impls);
    case Scheme::NtruHps2048677: return ntru_kernels_for<ntru::NtruHps2048677>(impls);
    case Scheme::NtruHps4096821: return ntru_kernels_for<ntru::NtruHps4096821>(impls);
    case Scheme::NtruHrss701: return ntru_kernels_for<ntru::NtruHrss701>(impls);
    default: return {};
  }
}

}  // namespace pqkem::bench
