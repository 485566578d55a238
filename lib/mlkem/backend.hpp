// ML-KEM backends: the kernel set K-PKE and ML-KEM run on, chosen once per operation.
//
// libcrux-style: K-PKE and ML-KEM (kpke.cpp, mlkem.cpp: Kem<P, B>) are templates over a
// backend B, and are instantiated once per backend; lib/scheme.cpp reads simd::active_impl()
// once at the start of each operation and runs that instantiation to the end, so every kernel
// of one operation comes from the same backend.
//
// A backend is a struct of static functions over Poly (R_q, standard order) and its own
// NTT-domain type B::NttPoly (T_q in the backend's order: mlkem::NttPoly, FIPS 203 order, for
// RefBackend; Avx2NttPoly, the transposed AVX2 order of simd/mlkem/mlkem_avx2.hpp, for
// Avx2Backend). The two are distinct types, so a value in one order reaching a kernel of the
// other is a compile error; only the named conversions from_fips203_order / to_fips203_order
// cross. Bounds: as stated per function; each backend
// meets them (the AVX2 kernels' contracts are in mlkem_avx2.hpp).
//
// RefBackend is the portable code of lib/mlkem, the `_ref` twins (ntt_ref, inverse_ntt_ref,
// multiply_ntts_acc_ref, sample_ntt_ref, sample_noise_ref, encode_ntt_poly_ref ...) with the
// FIPS 203 building blocks they share (byte_encode/byte_decode, compress, the element-wise
// arithmetic of poly.hpp) and SHA-3 (hash.cpp). Avx2Backend calls the `_avx2` twins of
// lib/simd/keccak and lib/simd/mlkem, which are compiled with -mavx2 and exist only when
// PQKEM_HAVE_AVX2 is 1.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include "hash.hpp"
#include "mlkem/encoding.hpp"
#include "mlkem/ntt.hpp"
#include "mlkem/poly.hpp"
#include "mlkem/sampling.hpp"
#include "mlkem/xof_batch.hpp"
#include "secret.hpp"
#include "simd/dispatch.hpp"

#ifndef PQKEM_HAVE_AVX2
#define PQKEM_HAVE_AVX2 0
#endif
#ifndef PQKEM_HAVE_AVX512
#define PQKEM_HAVE_AVX512 0
#endif
#if PQKEM_HAVE_AVX2
#include "simd/keccak/keccak_avx2.hpp"
#include "simd/mlkem/mlkem_avx2.hpp"
#endif
#if PQKEM_HAVE_AVX512
#include "simd/keccak/keccak_avx512.hpp"
#include "simd/mlkem/mlkem_avx512.hpp"
#endif

namespace pqkem::mlkem {

using Bytes32 = std::span<const std::uint8_t, 32>;

/// The sponge work of one step of ML-KEM whose parts do not depend on each other: up to two
/// hashes (H(ek), J(z || c)), matrix entries (SampleNTT) and noise polynomials (PRF + CBD). A
/// backend runs it as it likes (Avx2Backend on the lanes of one 4-way Keccak); the results are
/// those of the portable functions one by one. The data is plain (mlkem/xof_batch.hpp); this
/// builder takes the backend's types, so a matrix entry is always a B::NttPoly of that backend.
template <class NttPoly>
struct XofBatch : XofBatchData {
  void add_hash(bool shake, std::span<std::uint8_t, 32> out, ByteView a, ByteView b) {
    hash_shake[n_hash] = shake;
    hash_out[n_hash] = out.data();
    hash_in[n_hash][0] = a.data();
    hash_len[n_hash][0] = a.size();
    hash_in[n_hash][1] = b.data();
    hash_len[n_hash][1] = b.size();
    ++n_hash;
  }
  /// entry = SampleNTT(r || x || y); every entry of a batch uses the same r.
  void add_matrix_entry(NttPoly& entry, std::span<const std::uint8_t, 32> r, std::uint8_t x, std::uint8_t y) {
    rho = r.data();
    matrix[n_matrix] = entry.c.data();
    xy[n_matrix][0] = x;
    xy[n_matrix][1] = y;
    ++n_matrix;
  }
  /// The K x K matrix A^ (a[i][j] = SampleNTT(rho || j || i)) or, transposed, A^T
  /// (a[i][j] = SampleNTT(rho || i || j)); `a` is K rows of K.
  template <int K>
  void add_matrix(std::array<std::array<NttPoly, K>, K>& a, std::span<const std::uint8_t, 32> r, bool transposed) {
    for (int i = 0; i < K; ++i)
      for (int j = 0; j < K; ++j)
        add_matrix_entry(a[i][j], r, static_cast<std::uint8_t>(transposed ? i : j),
                         static_cast<std::uint8_t>(transposed ? j : i));
  }
  /// p = SamplePolyCBD_e(PRF_e(seed, n)); every noise polynomial of a batch uses the same seed.
  void add_noise_poly(Poly& p, int e, std::span<const std::uint8_t, 32> seed, std::uint8_t n) {
    sigma = seed.data();
    noise[n_noise] = p.c.data();
    nonce[n_noise] = n;
    eta[n_noise] = static_cast<std::uint8_t>(e);
    ++n_noise;
  }
  /// polys[i] with eta e from nonce first_nonce + i, i < count.
  void add_noise(Poly* polys, int count, int e, std::span<const std::uint8_t, 32> seed, int first_nonce) {
    for (int i = 0; i < count; ++i) add_noise_poly(polys[i], e, seed, static_cast<std::uint8_t>(first_nonce + i));
  }
};

/// The portable kernels.
struct RefBackend {
  static constexpr simd::Impl kImpl = simd::Impl::portable;
  using NttPoly = mlkem::NttPoly;  ///< FIPS 203 order

  /// The backend's order from FIPS 203 order, and back: the identity here.
  static NttPoly from_fips203_order(const mlkem::NttPoly& f) noexcept { return f; }
  static mlkem::NttPoly to_fips203_order(const NttPoly& f) noexcept { return f; }

  /// NTT with the operation's merge plan. In: |f_i| < q. Out: |f^_i| <= (q-1)/2.
  static NttPoly ntt(const Poly& f, NttPlanChoice plan) noexcept { return mlkem::ntt_ref(f, plan); }
  /// NTT^-1 times R. In: |f^_i| < q. Out: |f_i| < q.
  static Poly inverse_ntt(const NttPoly& f, NttPlanChoice plan) noexcept { return mlkem::inverse_ntt_ref(f, plan); }
  /// r = Barrett(sum_{j<k} a_j o b_j R^-1), k <= 4. In: |a|, |b| < q. Out: |r_i| <= (q-1)/2.
  static void inner_product(NttPoly& r, const NttPoly* a, const NttPoly* b, int k) noexcept {
    r = NttPoly{};
    for (int j = 0; j < k; ++j) multiply_ntts_acc_ref(r, a[j], b[j]);
    reduce(r);
  }
  /// t = Barrett(t R + e). In: |t_i| <= (q-1)/2, |e_i| < q. Out: |t_i| <= (q-1)/2.
  static void tomont_add_reduce(NttPoly& t, const NttPoly& e) noexcept {
    to_mont(t);
    add_to(t, e);
    reduce(t);
  }
  /// r = Barrett(r + a (+ b)). In: |r_i + a_i + b_i| < 2^15.
  static void add_reduce(Poly& r, const Poly& a, const Poly* b) noexcept {
    add_to(r, a);
    if (b != nullptr) add_to(r, *b);
    reduce(r);
  }
  /// r = Barrett(a - r). In: |a_i - r_i| < 2^15.
  static void sub_reduce(Poly& r, const Poly& a) noexcept {
    Poly t = a;
    sub_from(t, r);
    reduce(t);
    r = t;
  }
  /// ByteDecode_12 into T_q. Out: 0 <= f_i < q.
  static NttPoly decode12(std::span<const std::uint8_t, kPolyBytes> in) noexcept { return decode_ntt_poly_ref(in); }
  /// ByteEncode_12. In: |f_i| < q.
  static void encode12(const NttPoly& f, std::span<std::uint8_t, kPolyBytes> out) noexcept { encode_ntt_poly_ref(f, out); }
  static bool is_canonical12(std::span<const std::uint8_t, kPolyBytes> in) noexcept { return is_canonical_encoding_ref(in); }
  /// ByteEncode_d(Compress_d(f)). In: |f_i| < q.
  template <int D>
  static void compress_encode(const Poly& f, std::span<std::uint8_t, 32 * D> out) noexcept {
    Coeffs c = compress_poly<D>(f);
    byte_encode<D>(c, out);
    secure_wipe(&c, sizeof c);
  }
  /// Decompress_d(ByteDecode_d(in)). Out: 0 <= f_i < q.
  template <int D>
  static Poly decode_decompress(std::span<const std::uint8_t, 32 * D> in) noexcept {
    Coeffs bits = byte_decode<D>(in);
    Poly r = decompress_poly<D>(bits);
    // D = 1 decodes the message m: wipe its bits, not only the result. Every other width decodes
    // the public ciphertext (u, v), which needs no wipe.
    if constexpr (D == 1) secure_wipe(bits.data(), sizeof bits);
    return r;
  }
  /// SampleNTT(rho || xy[j][0] || xy[j][1]) into *out[j] for j < n (n <= 4).
  static void sample_ntt_x4(NttPoly* const out[4], Bytes32 rho, const std::uint8_t xy[4][2], int n) {
    for (int j = 0; j < n; ++j) *out[j] = sample_ntt_ref(rho, xy[j][0], xy[j][1]);
  }
  /// SamplePolyCBD_eta(PRF_eta(seed, nonce[j])) into *out[j] for j < n (n <= 4).
  template <int Eta>
  static void sample_noise_x4(Poly* const out[4], Bytes32 seed, const std::uint8_t nonce[4], int n) {
    for (int j = 0; j < n; ++j) *out[j] = sample_noise_ref<Eta>(seed, nonce[j]);
  }
  /// The batch, one sponge after another.
  static void run_xof_batch(const XofBatch<NttPoly>& b) {
    for (int i = 0; i < b.n_hash; ++i) {
      const auto out = std::span<std::uint8_t, 32>(b.hash_out[i], 32);
      const ByteView x(b.hash_in[i][0], b.hash_len[i][0]), y(b.hash_in[i][1], b.hash_len[i][1]);
      if (b.hash_shake[i]) hash::shake256(out, {x, y});
      else hash::sha3_256(out, {x, y});
    }
    for (int i = 0; i < b.n_matrix; ++i) {
      const NttPoly a = sample_ntt_ref(Bytes32(b.rho, 32), b.xy[i][0], b.xy[i][1]);
      std::copy(a.c.begin(), a.c.end(), b.matrix[i]);
    }
    for (int i = 0; i < b.n_noise; ++i) {
      Poly e = b.eta[i] == 2 ? sample_noise_ref<2>(Bytes32(b.sigma, 32), b.nonce[i])
                             : sample_noise_ref<3>(Bytes32(b.sigma, 32), b.nonce[i]);
      std::copy(e.c.begin(), e.c.end(), b.noise[i]);
      secure_wipe(&e, sizeof e);
    }
  }
  /// H, G and J of FIPS 203 (section 4.1) on a || b.
  static void sha3_256(std::span<std::uint8_t, 32> out, ByteView a, ByteView b) { hash::sha3_256(out, {a, b}); }
  static void sha3_512(std::span<std::uint8_t, 64> out, ByteView a, ByteView b) { hash::sha3_512(out, {a, b}); }
  static void shake256(std::span<std::uint8_t> out, ByteView a, ByteView b) { hash::shake256(out, {a, b}); }
};

#if PQKEM_HAVE_AVX2
/// An element of T_q in the AVX2 order: FIPS 203 order with each 256-coefficient block read
/// as a 16x16 matrix and transposed (simd/mlkem/mlkem_avx2.hpp). Not an NttPoly: the AVX2
/// kernels take and return only this type.
struct alignas(64) Avx2NttPoly {  // a cache line, as Poly (mlkem/poly.hpp)
  std::array<std::int16_t, kN> c{};
};

/// sample_ntt_x4 / sample_noise_x4 (RefBackend's contracts) of a SIMD backend B as one batch of
/// B::run_xof_batch, which runs a lone sponge on the 1-way permutation.
template <class B, class NttPoly>
struct BatchSamplers {
  static void sample_ntt_x4(NttPoly* const out[4], Bytes32 rho, const std::uint8_t xy[4][2], int n) noexcept {
    XofBatch<NttPoly> b;
    for (int j = 0; j < n; ++j) b.add_matrix_entry(*out[j], rho, xy[j][0], xy[j][1]);
    B::run_xof_batch(b);
  }
  template <int Eta>
  static void sample_noise_x4(Poly* const out[4], Bytes32 seed, const std::uint8_t nonce[4], int n) noexcept {
    XofBatch<NttPoly> b;
    for (int j = 0; j < n; ++j) b.add_noise_poly(*out[j], Eta, seed, nonce[j]);
    B::run_xof_batch(b);
  }
};

/// The AVX2 kernels (same contracts; B::NttPoly is Avx2NttPoly). Call only when
/// simd::impl_usable(simd::Impl::avx2).
struct Avx2Backend : BatchSamplers<Avx2Backend, Avx2NttPoly> {
  static constexpr simd::Impl kImpl = simd::Impl::avx2;
  using NttPoly = Avx2NttPoly;

  /// FIPS 203 order -> AVX2 order, and back (the transposition is its own inverse).
  static NttPoly from_fips203_order(const mlkem::NttPoly& f) noexcept {
    NttPoly r{f.c};
    simd::avx2::mlkem_transpose_avx2(r.c.data());
    return r;
  }
  static mlkem::NttPoly to_fips203_order(const NttPoly& f) noexcept {
    mlkem::NttPoly r{f.c};
    simd::avx2::mlkem_transpose_avx2(r.c.data());
    return r;
  }

  // One fixed schedule: the merge plans are the portable NTT's.
  static NttPoly ntt(const Poly& f, NttPlanChoice /*plan*/) noexcept {
    NttPoly r{f.c};
    simd::avx2::mlkem_ntt_avx2(r.c.data());
    return r;
  }
  static Poly inverse_ntt(const NttPoly& f, NttPlanChoice /*plan*/) noexcept {
    Poly r{f.c};
    simd::avx2::mlkem_inverse_ntt_avx2(r.c.data());
    return r;
  }
  static void inner_product(NttPoly& r, const NttPoly* a, const NttPoly* b, int k) noexcept {
    static_assert(sizeof(NttPoly) == 512, "polynomials are 256 contiguous int16");
    simd::avx2::mlkem_inner_product_avx2(r.c.data(), a[0].c.data(), b[0].c.data(), k);
  }
  static void tomont_add_reduce(NttPoly& t, const NttPoly& e) noexcept {
    simd::avx2::mlkem_tomont_add_reduce_avx2(t.c.data(), e.c.data());
  }
  static void add_reduce(Poly& r, const Poly& a, const Poly* b) noexcept {
    simd::avx2::mlkem_add_reduce_avx2(r.c.data(), a.c.data(), b != nullptr ? b->c.data() : nullptr);
  }
  static void sub_reduce(Poly& r, const Poly& a) noexcept { simd::avx2::mlkem_sub_reduce_avx2(r.c.data(), a.c.data()); }
  static NttPoly decode12(std::span<const std::uint8_t, kPolyBytes> in) noexcept {
    NttPoly r;
    simd::avx2::mlkem_decode12_avx2(r.c.data(), in.data());
    return r;
  }
  static void encode12(const NttPoly& f, std::span<std::uint8_t, kPolyBytes> out) noexcept {
    simd::avx2::mlkem_encode12_avx2(out.data(), f.c.data());
  }
  static bool is_canonical12(std::span<const std::uint8_t, kPolyBytes> in) noexcept {
    return simd::avx2::mlkem_is_canonical12_avx2(in.data());
  }
  template <int D>
  static void compress_encode(const Poly& f, std::span<std::uint8_t, 32 * D> out) noexcept {
    simd::avx2::mlkem_compress_encode_avx2(out.data(), f.c.data(), D);
  }
  template <int D>
  static Poly decode_decompress(std::span<const std::uint8_t, 32 * D> in) noexcept {
    Poly r;
    simd::avx2::mlkem_decode_decompress_avx2(r.c.data(), in.data(), D);
    return r;
  }
  using BatchSamplers<Avx2Backend, Avx2NttPoly>::sample_ntt_x4;
  using BatchSamplers<Avx2Backend, Avx2NttPoly>::sample_noise_x4;
  /// The batch on the lanes of the 4-way Keccak (simd/mlkem/mlkem_avx2.hpp).
  static void run_xof_batch(const XofBatch<NttPoly>& b) noexcept { simd::avx2::mlkem_xof_batch_avx2(b); }
  // Single hashes (G; H in keygen) run on the 1-way permutation of keccak_avx2.cpp, compiled
  // with BMI1 and BMI2 (andn, rorx): G 693 -> 588 ticks (`pqkem bench --kernels`).
  static void sha3_256(std::span<std::uint8_t, 32> out, ByteView a, ByteView b) {
    simd::avx2::sha3_256_x1_avx2(out.data(), a.data(), a.size(), b.data(), b.size());
  }
  static void sha3_512(std::span<std::uint8_t, 64> out, ByteView a, ByteView b) {
    simd::avx2::sha3_512_x1_avx2(out.data(), a.data(), a.size(), b.data(), b.size());
  }
  static void shake256(std::span<std::uint8_t> out, ByteView a, ByteView b) {
    simd::avx2::shake256_x1_avx2(out.data(), out.size(), a.data(), a.size(), b.data(), b.size());
  }
};
#endif

#if PQKEM_HAVE_AVX512
/// The AVX-512 backend: Avx2Backend's kernels and order of T_q (the same NttPoly type), except
/// the sponge batches, which run on the 8- and 4-way AVX-512 Keccak, SampleNTT's rejection step
/// (vpcompressw), and the NTT, inverse NTT, inner product and element-wise kernels on ZMM
/// registers. Single hashes stay on the 1-way BMI permutation. Call only when
/// simd::impl_usable(simd::Impl::avx512).
struct Avx512Backend : Avx2Backend, BatchSamplers<Avx512Backend, Avx2NttPoly> {
  static constexpr simd::Impl kImpl = simd::Impl::avx512;

  static void run_xof_batch(const XofBatch<NttPoly>& b) noexcept {
    simd::avx2::mlkem_xof_batch_avx2(b, simd::avx512::keccak_jobs_avx512, simd::avx512::mlkem_rej_uniform_avx512);
  }
  static NttPoly ntt(const Poly& f, NttPlanChoice /*plan*/) noexcept {
    NttPoly r{f.c};
    simd::avx512::mlkem_ntt_avx512(r.c.data());
    return r;
  }
  static Poly inverse_ntt(const NttPoly& f, NttPlanChoice /*plan*/) noexcept {
    Poly r{f.c};
    simd::avx512::mlkem_inverse_ntt_avx512(r.c.data());
    return r;
  }
  static void inner_product(NttPoly& r, const NttPoly* a, const NttPoly* b, int k) noexcept {
    simd::avx512::mlkem_inner_product_avx512(r.c.data(), a[0].c.data(), b[0].c.data(), k);
  }
  static void tomont_add_reduce(NttPoly& t, const NttPoly& e) noexcept {
    simd::avx512::mlkem_tomont_add_reduce_avx512(t.c.data(), e.c.data());
  }
  static void add_reduce(Poly& r, const Poly& a, const Poly* b) noexcept {
    simd::avx512::mlkem_add_reduce_avx512(r.c.data(), a.c.data(), b != nullptr ? b->c.data() : nullptr);
  }
  static void sub_reduce(Poly& r, const Poly& a) noexcept { simd::avx512::mlkem_sub_reduce_avx512(r.c.data(), a.c.data()); }
  using BatchSamplers<Avx512Backend, Avx2NttPoly>::sample_ntt_x4;
  using BatchSamplers<Avx512Backend, Avx2NttPoly>::sample_noise_x4;
};
#endif

}  // namespace pqkem::mlkem
