// ML-KEM backends: the kernel set K-PKE and ML-KEM run on, chosen once per operation.
//
// K-PKE and ML-KEM (kpke_impl.hpp, kem_impl.hpp: Kem<P, B>) are templates over a backend B,
// instantiated once per backend of the build's list (lib/backends/backends.hpp); lib/scheme.cpp
// reads simd::active_impl() once at the start of each operation and runs that instantiation to
// the end, so every kernel of one operation comes from the same backend.
//
// A backend is a struct of static functions over Poly (R_q, standard order) and its own
// NTT-domain type B::NttPoly (T_q in the backend's order). MlKemBackend below states every
// kernel and, in its comment, its contract: input bounds are preconditions, output bounds are
// guaranteed, and every kernel but the rejection sampling of public data is constant time.
// mlkem/checked_backend.hpp checks the bounds at run time in the builds that enable PQKEM_CONTRACTS.
//
// RefBackend (here) is the portable code of lib/mlkem. The SIMD backends live in lib/simd/mlkem
// (backend_avx2.hpp, backend_avx512.hpp); this directory includes nothing from lib/simd.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <span>

#include "hash.hpp"
#include "impl.hpp"
#include "mlkem/encoding.hpp"
#include "mlkem/ntt.hpp"
#include "mlkem/poly.hpp"
#include "mlkem/sampling.hpp"
#include "mlkem/xof_batch.hpp"
#include "secret.hpp"

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
    hash_state[n_hash] = nullptr;
    hash_keep[n_hash] = false;
    ++n_hash;
  }
  /// SHA3-256 absorbed in parts: from `state` (25 words; zero for a new hash), absorb `a`. With
  /// keep, `a` is whole blocks of 136 bytes (at least one) and the state goes back to `state`;
  /// without, the hash is padded and written to out.
  void add_hash_part(std::uint64_t* state, bool keep, std::uint8_t* out, ByteView a) {
    hash_shake[n_hash] = false;
    hash_out[n_hash] = out;
    hash_in[n_hash][0] = a.data();
    hash_len[n_hash][0] = a.size();
    hash_in[n_hash][1] = nullptr;
    hash_len[n_hash][1] = 0;
    hash_state[n_hash] = state;
    hash_keep[n_hash] = keep;
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

/// What K-PKE and ML-KEM need of a backend B. Each line's comment is the kernel's contract;
/// "(q-1)/2" bounds are those of Barrett reduction. Polys (R_q) are in the standard order;
/// B::NttPoly values are in B's order, and only the two conversions cross to FIPS 203 order.
template <class B>
concept MlKemBackend = requires(const Poly& f, Poly& r, const typename B::NttPoly& fh, typename B::NttPoly& rh,
                                const typename B::NttPoly* vec, const mlkem::NttPoly& fips, int k,
                                std::span<const std::uint8_t, kPolyBytes> in12,
                                std::span<std::uint8_t, kPolyBytes> out12, std::span<const std::uint8_t, 320> in10,
                                std::span<std::uint8_t, 320> out10, typename B::NttPoly* const entries[4],
                                Poly* const polys[4], Bytes32 seed, const std::uint8_t xy[4][2],
                                const std::uint8_t nonce[4], const XofBatch<typename B::NttPoly>& batch,
                                std::span<std::uint8_t, 32> out32, std::span<std::uint8_t, 64> out64,
                                std::span<std::uint8_t> out, ByteView a) {
  // The implementation B is: scheme.cpp runs B when simd::active_impl() is B::kImpl.
  { B::kImpl } -> std::convertible_to<Impl>;
  // T_q in B's order: 256 int16 in c, a type of its own per order.
  requires sizeof(typename B::NttPoly) == 2 * kN;
  // FIPS 203 order to B's order and back; values unchanged.
  { B::from_fips203_order(fips) } -> std::same_as<typename B::NttPoly>;
  { B::to_fips203_order(fh) } -> std::same_as<mlkem::NttPoly>;
  // NTT (Algorithm 9) then Barrett. In: |f_i| < q. Out: |f^_i| <= (q-1)/2.
  { B::ntt(f) } -> std::same_as<typename B::NttPoly>;
  // NTT^-1 (Algorithm 10) times R. In: |f^_i| < q. Out: |f_i| < q.
  { B::inverse_ntt(fh) } -> std::same_as<Poly>;
  // rh = Barrett(sum_{j<k} vec_j o vec2_j R^-1), 1 <= k <= 4. In: |a|, |b| < q. Out: <= (q-1)/2.
  { B::inner_product(rh, vec, vec, k) } -> std::same_as<void>;
  // rh = Barrett(rh R + fh). In: |rh_i| <= (q-1)/2, |fh_i| < q. Out: |rh_i| <= (q-1)/2.
  { B::tomont_add_reduce(rh, fh) } -> std::same_as<void>;
  // r = Barrett(r + f (+ *b)). In: |r_i + f_i + b_i| < 2^15. Out: |r_i| <= (q-1)/2.
  { B::add_reduce(r, f, &f) } -> std::same_as<void>;
  // r = Barrett(f - r). In: |f_i - r_i| < 2^15. Out: |r_i| <= (q-1)/2.
  { B::sub_reduce(r, f) } -> std::same_as<void>;
  // ByteDecode_12 (Algorithm 6) into T_q, mod q. Out: 0 <= f^_i < q.
  { B::decode12(in12) } -> std::same_as<typename B::NttPoly>;
  // ByteEncode_12 (Algorithm 5) of f^ mod q. In: |f^_i| < q.
  { B::encode12(fh, out12) } -> std::same_as<void>;
  // The modulus check of FIPS 203 section 7.2 on one 384-byte block (public data).
  { B::is_canonical12(in12) } -> std::same_as<bool>;
  // ByteEncode_d(Compress_d(f)), d in {1, 4, 5, 10, 11}. In: |f_i| < q.
  { B::template compress_encode<10>(f, out10) } -> std::same_as<void>;
  // Decompress_d(ByteDecode_d(in)), d in {1, 4, 5, 10, 11}. Out: 0 <= f_i < q.
  { B::template decode_decompress<10>(in10) } -> std::same_as<Poly>;
  // *entries[j] = SampleNTT(seed || xy[j][0] || xy[j][1]) for j < n <= 4. Out: 0 <= a_i < q.
  // Branches on the public XOF stream only.
  { B::sample_ntt_x4(entries, seed, xy, k) } -> std::same_as<void>;
  // *polys[j] = SamplePolyCBD_eta(PRF_eta(seed, nonce[j])) for j < n <= 4. Out: |a_i| <= eta.
  { B::template sample_noise_x4<2>(polys, seed, nonce, k) } -> std::same_as<void>;
  // The batch's hashes, matrix entries and noise (XofBatch), as the three kernels above would
  // give them one by one.
  { B::run_xof_batch(batch) } -> std::same_as<void>;
  // H, G and J of FIPS 203 (section 4.1) on a || b: SHA3-256, SHA3-512, SHAKE256.
  { B::sha3_256(out32, a, a) } -> std::same_as<void>;
  { B::sha3_512(out64, a, a) } -> std::same_as<void>;
  { B::shake256(out, a, a) } -> std::same_as<void>;
};

/// The portable kernels: the `_ref` twins of lib/mlkem and SHA-3 of hash.cpp.
struct RefBackend {
  static constexpr Impl kImpl = Impl::portable;
  using NttPoly = mlkem::NttPoly;  ///< FIPS 203 order

  /// The backend's order from FIPS 203 order, and back: the identity here.
  static NttPoly from_fips203_order(const mlkem::NttPoly& f) noexcept { return f; }
  static mlkem::NttPoly to_fips203_order(const NttPoly& f) noexcept { return f; }

  /// The merge plans are this backend's alone: it reads the process's choice (set_ntt_plan) at
  /// each transform. Every plan gives the same result, so a change between two transforms of
  /// one operation changes no output.
  static NttPoly ntt(const Poly& f) noexcept { return mlkem::ntt_ref(f, current_ntt_plan()); }
  static Poly inverse_ntt(const NttPoly& f) noexcept { return mlkem::inverse_ntt_ref(f, current_ntt_plan()); }
  static void inner_product(NttPoly& r, const NttPoly* a, const NttPoly* b, int k) noexcept {
    r = NttPoly{};
    for (int j = 0; j < k; ++j) multiply_ntts_acc_ref(r, a[j], b[j]);
    reduce(r);
  }
  static void tomont_add_reduce(NttPoly& t, const NttPoly& e) noexcept {
    to_mont(t);
    add_to(t, e);
    reduce(t);
  }
  static void add_reduce(Poly& r, const Poly& a, const Poly* b) noexcept {
    add_to(r, a);
    if (b != nullptr) add_to(r, *b);
    reduce(r);
  }
  static void sub_reduce(Poly& r, const Poly& a) noexcept {
    Poly t = a;
    sub_from(t, r);
    reduce(t);
    r = t;
  }
  static NttPoly decode12(std::span<const std::uint8_t, kPolyBytes> in) noexcept { return decode12_ref(in); }
  static void encode12(const NttPoly& f, std::span<std::uint8_t, kPolyBytes> out) noexcept { encode12_ref(f, out); }
  static bool is_canonical12(std::span<const std::uint8_t, kPolyBytes> in) noexcept { return is_canonical12_ref(in); }
  template <int D>
  static void compress_encode(const Poly& f, std::span<std::uint8_t, 32 * D> out) noexcept {
    Coeffs c = compress_poly<D>(f);
    byte_encode<D>(c, out);
    secure_wipe(&c, sizeof c);
  }
  template <int D>
  static Poly decode_decompress(std::span<const std::uint8_t, 32 * D> in) noexcept {
    Coeffs bits = byte_decode<D>(in);
    Poly r = decompress_poly<D>(bits);
    // D = 1 decodes the message m: wipe its bits, not only the result. Every other width decodes
    // the public ciphertext (u, v), which needs no wipe.
    if constexpr (D == 1) secure_wipe(bits.data(), sizeof bits);
    return r;
  }
  static void sample_ntt_x4(NttPoly* const out[4], Bytes32 rho, const std::uint8_t xy[4][2], int n) {
    for (int j = 0; j < n; ++j) *out[j] = sample_ntt_ref(rho, xy[j][0], xy[j][1]);
  }
  template <int Eta>
  static void sample_noise_x4(Poly* const out[4], Bytes32 seed, const std::uint8_t nonce[4], int n) {
    for (int j = 0; j < n; ++j) *out[j] = sample_noise_ref<Eta>(seed, nonce[j]);
  }
  /// The batch, one sponge after another.
  static void run_xof_batch(const XofBatch<NttPoly>& b) {
    for (int i = 0; i < b.n_hash; ++i) {
      const auto out = std::span<std::uint8_t, 32>(b.hash_out[i], 32);
      const ByteView x(b.hash_in[i][0], b.hash_len[i][0]), y(b.hash_in[i][1], b.hash_len[i][1]);
      if (b.hash_state[i] != nullptr) {  // SHA3-256 absorbed in parts
        hash::Sponge sponge(136, 0x06);
        sponge.load_state(b.hash_state[i]);
        sponge.absorb(x);
        sponge.absorb(y);
        if (b.hash_keep[i])
          sponge.store_state(b.hash_state[i]);
        else
          sponge.squeeze(out);
      } else if (b.hash_shake[i])
        hash::shake256(out, {x, y});
      else
        hash::sha3_256(out, {x, y});
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
  static void sha3_256(std::span<std::uint8_t, 32> out, ByteView a, ByteView b) { hash::sha3_256(out, {a, b}); }
  static void sha3_512(std::span<std::uint8_t, 64> out, ByteView a, ByteView b) { hash::sha3_512(out, {a, b}); }
  static void shake256(std::span<std::uint8_t> out, ByteView a, ByteView b) { hash::shake256(out, {a, b}); }
};

static_assert(MlKemBackend<RefBackend>);

}  // namespace pqkem::mlkem
