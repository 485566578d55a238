#include "bench_kernels.hpp"

#include <algorithm>
#include <memory>
#include <random>

#include "backends/backends.hpp"
#include "hash.hpp"
#include "mlkem/encoding.hpp"
#include "mlkem/ntt.hpp"
#include "mlkem/params.hpp"
#include "mlkem/sampling.hpp"
#include "simd/dispatch.hpp"

namespace pqkem::bench {
namespace {

struct MlKemState {
  mlkem::Poly poly;
  mlkem::NttPoly a, b, acc;
  std::vector<mlkem::NttPoly> va, vb;  // k polynomials each, for the inner product
  std::array<std::uint8_t, 32> rho{};
  std::array<std::uint8_t, 192> cbd_bytes{};
  std::array<std::uint8_t, 384> packed{};
  std::vector<std::uint8_t> ek;  // ek_bytes of the parameter set, hashed by H
};

/// What the kernel list of one ML-KEM parameter set depends on.
struct MlKemShape {
  int k, eta1, du;
  std::size_t ek_bytes;
};
template <class P>
constexpr MlKemShape shape_of() {
  return {P::k, P::eta1, P::du, P::ek_bytes};
}

/// Key generation's sponge batch (the k x k matrix A^ and the 2k noise polynomials of eta1) on
/// `run`, a backend's batch runner.
template <class NttPoly, class Run>
std::function<void()> keygen_batch(const std::shared_ptr<MlKemState>& st, const MlKemShape& p, Run run) {
  return [st, p, run] {
    mlkem::XofBatch<NttPoly> b;
    NttPoly a[16];
    mlkem::Poly e[8];
    for (int i = 0; i < p.k * p.k; ++i)
      b.add_matrix_entry(a[i], st->rho, static_cast<std::uint8_t>(i % p.k), static_cast<std::uint8_t>(i / p.k));
    b.add_noise(e, 2 * p.k, p.eta1, st->rho, 0);
    run(b);
    keep(a);
    keep(e);
  };
}

/// The NTT-domain inputs in backend B's own order, converted once, outside the timed code.
template <class B>
struct NttInputs {
  typename B::NttPoly a;
  std::vector<typename B::NttPoly> va, vb;
};
template <class B>
std::shared_ptr<NttInputs<B>> ntt_inputs(const MlKemState& st) {
  auto nt = std::make_shared<NttInputs<B>>();
  nt->a = B::from_fips203_order(st.a);
  for (const auto& f : st.va) nt->va.push_back(B::from_fips203_order(f));
  for (const auto& f : st.vb) nt->vb.push_back(B::from_fips203_order(f));
  return nt;
}

/// B's NTT arithmetic: NTT, inverse, base multiplication, inner product.
template <class B>
void add_mlkem_arith_kernels(std::vector<Kernel>& k, const std::shared_ptr<MlKemState>& st,
                             const std::shared_ptr<NttInputs<B>>& nt, int rank) {
  const std::string impl(simd::impl_name(B::kImpl));
  k.push_back({"NTT", impl, [st] {
                 typename B::NttPoly r = B::ntt(st->poly);
                 keep(r);
               }});
  k.push_back({"inverse NTT", impl, [nt] {
                 mlkem::Poly r = B::inverse_ntt(nt->a);
                 keep(r);
               }});
  if constexpr (B::kImpl == simd::Impl::portable) {
    k.push_back({"basemul (MultiplyNTTs)", impl, [st] {
                   mlkem::multiply_ntts_acc_ref(st->acc, st->a, st->b);
                   keep(st->acc);
                   st->acc = {};
                 }});
  }
#if PQKEM_HAVE_AVX2
  if constexpr (B::kImpl != simd::Impl::portable) {  // the AVX-512 backend runs the AVX2 one
    k.push_back({"basemul (MultiplyNTTs)", impl, [st] {
                   simd::avx2::multiply_ntts_acc_avx2(st->acc.c.data(), st->a.c.data(), st->b.c.data());
                   keep(st->acc);
                   st->acc = {};
                 }});
  }
#endif
  k.push_back({"inner product k=" + std::to_string(rank) + " (+reduce)", impl, [nt, rank] {
                 typename B::NttPoly r;
                 B::inner_product(r, nt->va.data(), nt->vb.data(), rank);
                 keep(r);
               }});
}

/// B's sampling: SampleNTT, the noise, and key generation's whole sponge batch.
template <class B>
void add_mlkem_sampling_kernels(std::vector<Kernel>& k, const std::shared_ptr<MlKemState>& st, const MlKemShape& p) {
  const std::string impl(simd::impl_name(B::kImpl));
  const int eta1 = p.eta1;
  k.push_back({"SampleNTT", impl, [st] {
                 typename B::NttPoly r;
                 typename B::NttPoly* out[4] = {&r, nullptr, nullptr, nullptr};
                 const std::uint8_t xy[4][2] = {{0, 1}, {0, 0}, {0, 0}, {0, 0}};
                 B::sample_ntt_x4(out, st->rho, xy, 1);
                 keep(r);
               }});
  k.push_back({"SampleNTT x4 (four polys)", impl, [st] {
                 typename B::NttPoly r[4];
                 typename B::NttPoly* out[4] = {&r[0], &r[1], &r[2], &r[3]};
                 const std::uint8_t xy[4][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
                 B::sample_ntt_x4(out, st->rho, xy, 4);
                 keep(r);
               }});
  if (eta1 == 3) {
    k.push_back({"PRF+CBD eta=3 x4 (four polys)", impl, [st] {
                   mlkem::Poly r[4];
                   mlkem::Poly* out[4] = {&r[0], &r[1], &r[2], &r[3]};
                   const std::uint8_t nonce[4] = {0, 1, 2, 3};
                   B::template sample_noise_x4<3>(out, st->rho, nonce, 4);
                   keep(r);
                 }});
  }
  k.push_back({"PRF+CBD eta=2 x4 (four polys)", impl, [st] {
                 mlkem::Poly r[4];
                 mlkem::Poly* out[4] = {&r[0], &r[1], &r[2], &r[3]};
                 const std::uint8_t nonce[4] = {0, 1, 2, 3};
                 B::template sample_noise_x4<2>(out, st->rho, nonce, 4);
                 keep(r);
               }});
  // Key generation's batch: the k x k matrix and the 2k noise polynomials of eta1.
  k.push_back({"XOF batch of keygen (A^ + 2k noise)", impl,
               keygen_batch<typename B::NttPoly>(st, p, [](const auto& b) { B::run_xof_batch(b); })});
}

/// B's hashes and encodings.
template <class B>
void add_mlkem_encoding_kernels(std::vector<Kernel>& k, const std::shared_ptr<MlKemState>& st,
                                const std::shared_ptr<NttInputs<B>>& nt, int du) {
  const std::string impl(simd::impl_name(B::kImpl));
  k.push_back({"H (SHA3-256 of a " + std::to_string(st->ek.size()) + " B ek)", impl, [st] {
                 std::array<std::uint8_t, 32> out;
                 B::sha3_256(out, st->ek, {});
                 keep(out);
               }});
  k.push_back({"G (SHA3-512 of 64 B)", impl, [st] {
                 std::array<std::uint8_t, 64> out;
                 B::sha3_512(out, st->rho, st->rho);
                 keep(out);
               }});
  k.push_back({"ByteDecode_12 (T_q)", impl, [st] {
                 typename B::NttPoly r = B::decode12(std::span<const std::uint8_t, 384>(st->packed.data(), 384));
                 keep(r);
               }});
  k.push_back({"ByteEncode_12 (T_q)", impl, [st, nt] {
                 B::encode12(nt->a, std::span<std::uint8_t, 384>(st->packed.data(), 384));
                 keep(st->packed);
               }});
  if (du == 10) {
    k.push_back({"Compress+ByteEncode d=10", impl, [st] {
                   B::template compress_encode<10>(st->poly, std::span<std::uint8_t, 320>(st->packed.data(), 320));
                   keep(st->packed);
                 }});
    k.push_back({"ByteDecode+Decompress d=10", impl, [st] {
                   mlkem::Poly r =
                       B::template decode_decompress<10>(std::span<const std::uint8_t, 320>(st->packed.data(), 320));
                   keep(r);
                 }});
  } else {
    k.push_back({"Compress+ByteEncode d=11", impl, [st] {
                   B::template compress_encode<11>(st->poly, std::span<std::uint8_t, 352>(st->packed.data(), 352));
                   keep(st->packed);
                 }});
    k.push_back({"ByteDecode+Decompress d=11", impl, [st] {
                   mlkem::Poly r =
                       B::template decode_decompress<11>(std::span<const std::uint8_t, 352>(st->packed.data(), 352));
                   keep(r);
                 }});
  }
}

/// The kernels of backend B (mlkem/backend.hpp), named alike for every backend so that
/// `bench --kernels` prints the speed-up of each AVX2 kernel over its portable twin.
template <class B>
void add_mlkem_kernels(std::vector<Kernel>& k, const std::shared_ptr<MlKemState>& st, const MlKemShape& p) {
  const auto nt = ntt_inputs<B>(*st);
  add_mlkem_arith_kernels<B>(k, st, nt, p.k);
  add_mlkem_sampling_kernels<B>(k, st, p);
  add_mlkem_encoding_kernels<B>(k, st, nt, p.du);
}

bool wanted(const std::vector<simd::Impl>& impls, simd::Impl which) {
  return std::find(impls.begin(), impls.end(), which) != impls.end() && simd::impl_usable(which);
}

/// Random inputs for every kernel (fixed seed).
std::shared_ptr<MlKemState> make_state(const MlKemShape& shape) {
  auto st = std::make_shared<MlKemState>();
  st->va.resize(static_cast<std::size_t>(shape.k));
  st->vb.resize(static_cast<std::size_t>(shape.k));
  st->ek.resize(shape.ek_bytes);
  std::mt19937 rng(1);
  for (auto& x : st->poly.c) x = static_cast<std::int16_t>(rng() % mlkem::kQ);
  for (auto& x : st->a.c) x = static_cast<std::int16_t>(rng() % mlkem::kQ);
  for (auto& x : st->b.c) x = static_cast<std::int16_t>(rng() % mlkem::kQ);
  for (auto* v : {&st->va, &st->vb})
    for (auto& p : *v)
      for (auto& x : p.c) x = static_cast<std::int16_t>(rng() % mlkem::kQ);
  for (auto& x : st->rho) x = static_cast<std::uint8_t>(rng());
  for (auto& x : st->cbd_bytes) x = static_cast<std::uint8_t>(rng());
  for (auto& x : st->packed) x = static_cast<std::uint8_t>(rng());
  for (auto& x : st->ek) x = static_cast<std::uint8_t>(rng());
  return st;
}

/// Portable-only kernels without an AVX2 twin of the same shape (kept for comparison with
/// earlier runs; the AVX2 backend replaces them by the x4 entries).
void add_portable_extras(std::vector<Kernel>& k, const std::shared_ptr<MlKemState>& st) {
  const std::string impl = "portable";
  k.push_back({"CBD eta=2", impl, [st] {
                 mlkem::Poly r =
                     mlkem::sample_poly_cbd_ref<2>(std::span<const std::uint8_t, 128>(st->cbd_bytes.data(), 128));
                 keep(r);
               }});
  k.push_back({"PRF (SHAKE256, 128 B)", impl, [st] {
                 std::array<std::uint8_t, 128> out;
                 const std::uint8_t nonce[1] = {0};
                 hash::shake256(out, {st->rho, nonce});
                 keep(out);
               }});
  k.push_back({"Keccak (SHAKE128, 3 blocks)", impl, [st] {
                 std::array<std::uint8_t, 504> out;
                 hash::shake128(out, {st->rho});
                 keep(out);
               }});
}

#if PQKEM_HAVE_AVX2
/// The AVX2 kernels that are not one of the backend's.
void add_avx2_extras(std::vector<Kernel>& k, const std::shared_ptr<MlKemState>& st) {
  k.push_back({"CBD eta=2", "avx2", [st] {
                 mlkem::Poly r;
                 simd::avx2::sample_poly_cbd_avx2(r.c.data(), st->cbd_bytes.data(), 2);
                 keep(r);
               }});
  k.push_back({"Keccak-f[1600] x4 (one call)", "avx2", [] {
                 alignas(32) static std::uint64_t s[100];
                 simd::avx2::keccak_f1600_x4_avx2(s);
                 keep(s);
               }});
  k.push_back({"Keccak-f[1600] x1 (one call)", "avx2", [] {
                 static std::uint64_t s[25];
                 simd::avx2::keccak_f1600_x1_avx2(s);
                 keep(s);
               }});
}
#endif

#if PQKEM_HAVE_AVX512
/// The AVX-512 kernels that are not one of the backend's.
void add_avx512_extras(std::vector<Kernel>& k, const std::shared_ptr<MlKemState>& st, const MlKemShape& shape) {
  // The same batch on the 4-way permutation only: what the 8-way lanes are measured against.
  k.push_back({"XOF batch of keygen, x4 lanes only", "avx512",
               keygen_batch<mlkem::Avx512Backend::NttPoly>(
                   st, shape, [](const auto& b) { simd::avx512::xof_batch_x4_avx512(b); })});
  k.push_back({"Keccak-f[1600] x4 (one call)", "avx512", [] {
                 alignas(32) static std::uint64_t s[100];
                 simd::avx512::keccak_f1600_x4_avx512(s);
                 keep(s);
               }});
  k.push_back({"Keccak-f[1600] x8 (one call)", "avx512", [] {
                 alignas(64) static std::uint64_t s[200];
                 simd::avx512::keccak_f1600_x8_avx512(s);
                 keep(s);
               }});
}
#endif

std::vector<Kernel> mlkem_kernels(const MlKemShape& shape, const std::vector<simd::Impl>& impls) {
  const auto st = make_state(shape);
  std::vector<Kernel> k;
  if (wanted(impls, simd::Impl::portable)) {
    add_portable_extras(k, st);
    add_mlkem_kernels<mlkem::RefBackend>(k, st, shape);
  }
#if PQKEM_HAVE_AVX2
  if (wanted(impls, simd::Impl::avx2)) {
    add_mlkem_kernels<mlkem::Avx2Backend>(k, st, shape);
    add_avx2_extras(k, st);
  }
#endif
#if PQKEM_HAVE_AVX512
  if (wanted(impls, simd::Impl::avx512)) {
    add_mlkem_kernels<mlkem::Avx512Backend>(k, st, shape);
    add_avx512_extras(k, st, shape);
  }
#endif
  return k;
}

}  // namespace

// NTRU kernels live beside the NTRU code's bench entry (bench_kernels_ntru.cpp), the hybrids'
// in bench_kernels_hybrid.cpp.
std::vector<Kernel> ntru_kernels(Scheme s, const std::vector<simd::Impl>& impls);
std::vector<Kernel> hybrid_kernels(Scheme s, const std::vector<simd::Impl>& impls);

std::vector<Kernel> kernels(Scheme s, const std::vector<simd::Impl>& impls) {
  switch (s) {
    case Scheme::MlKem512: return mlkem_kernels(shape_of<mlkem::MlKem512>(), impls);
    case Scheme::MlKem768: return mlkem_kernels(shape_of<mlkem::MlKem768>(), impls);
    case Scheme::MlKem1024: return mlkem_kernels(shape_of<mlkem::MlKem1024>(), impls);
    case Scheme::XWing:
    case Scheme::X25519MlKem768: return hybrid_kernels(s, impls);
    default: return ntru_kernels(s, impls);
  }
}

}  // namespace pqkem::bench
