// The ML-KEM backends on x86 (mlkem::MlKemBackend, lib/mlkem/backend.hpp): X86Backend adapts
// one ISA's C-like kernels (simd/kernels_avx2.hpp, simd/kernels_avx512.hpp) to the backend's
// typed kernels, and Avx2OrderCodecs holds what both x86 backends share by name. The AVX2 one
// is here; backend_avx512.hpp has the other. Contracts: the concept's.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "mlkem/backend.hpp"
#include "simd/kernels_avx2.hpp"

namespace pqkem::mlkem {

/// An element of T_q in the AVX2 order: FIPS 203 order with each 256-coefficient block read
/// as a 16x16 matrix and transposed (simd/mlkem/mlkem_avx2.hpp). Not an NttPoly: the x86
/// kernels take and return only this type.
struct alignas(64) Avx2NttPoly {  // a cache line, as Poly (mlkem/poly.hpp)
  std::array<std::int16_t, kN> c{};
};

/// The kernels both x86 backends run on the AVX2 order as they are: the order conversions,
/// the 12-bit and compressed encodings, and the single hashes on the 1-way BMI permutation.
/// Avx2Backend and Avx512Backend each take them by name (no AVX-512 twin measured faster).
struct Avx2OrderCodecs {
  using NttPoly = Avx2NttPoly;

  /// FIPS 203 order -> AVX2 order, and back (the transposition is its own inverse).
  static NttPoly from_fips203_order(const mlkem::NttPoly& f) noexcept {
    NttPoly r{f.c};
    simd::avx2::transpose_avx2(r.c.data());
    return r;
  }
  static mlkem::NttPoly to_fips203_order(const NttPoly& f) noexcept {
    mlkem::NttPoly r{f.c};
    simd::avx2::transpose_avx2(r.c.data());
    return r;
  }
  static NttPoly decode12(std::span<const std::uint8_t, kPolyBytes> in) noexcept {
    NttPoly r;
    simd::avx2::decode12_avx2(r.c.data(), in.data());
    return r;
  }
  static void encode12(const NttPoly& f, std::span<std::uint8_t, kPolyBytes> out) noexcept {
    simd::avx2::encode12_avx2(out.data(), f.c.data());
  }
  static bool is_canonical12(std::span<const std::uint8_t, kPolyBytes> in) noexcept {
    return simd::avx2::is_canonical12_avx2(in.data());
  }
  template <int D>
  static void compress_encode(const Poly& f, std::span<std::uint8_t, 32 * D> out) noexcept {
    simd::avx2::compress_encode_avx2(out.data(), f.c.data(), D);
  }
  template <int D>
  static Poly decode_decompress(std::span<const std::uint8_t, 32 * D> in) noexcept {
    Poly r;
    simd::avx2::decode_decompress_avx2(r.c.data(), in.data(), D);
    return r;
  }
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

/// An x86 backend over the kernels K of one ISA (simd/kernels_*.hpp: K::ntt, K::inverse_ntt,
/// ..., the C-like kernels on raw arrays, by address) and its sponge batch: the AVX2 order of T_q with
/// Avx2OrderCodecs' codecs and hashes.
template <class K>
struct X86Backend : Avx2OrderCodecs {
  static constexpr Impl kImpl = K::kImpl;
  using NttPoly = Avx2NttPoly;

  // One fixed schedule: the merge plans are the portable NTT's.
  static NttPoly ntt(const Poly& f) noexcept {
    NttPoly r{f.c};
    K::ntt(r.c.data());
    return r;
  }
  static Poly inverse_ntt(const NttPoly& f) noexcept {
    Poly r{f.c};
    K::inverse_ntt(r.c.data());
    return r;
  }
  static void inner_product(NttPoly& r, const NttPoly* a, const NttPoly* b, int k) noexcept {
    static_assert(sizeof(NttPoly) == 512, "polynomials are 256 contiguous int16");
    K::inner_product(r.c.data(), a[0].c.data(), b[0].c.data(), k);
  }
  static void tomont_add_reduce(NttPoly& t, const NttPoly& e) noexcept { K::tomont_add_reduce(t.c.data(), e.c.data()); }
  static void add_reduce(Poly& r, const Poly& a, const Poly* b) noexcept {
    K::add_reduce(r.c.data(), a.c.data(), b != nullptr ? b->c.data() : nullptr);
  }
  static void sub_reduce(Poly& r, const Poly& a) noexcept { K::sub_reduce(r.c.data(), a.c.data()); }
  static void run_xof_batch(const XofBatch<NttPoly>& b) noexcept { K::xof_batch(b); }
  /// A few matrix entries or noise polynomials as one batch (a lone sponge runs on the 1-way
  /// permutation).
  static void sample_ntt_x4(NttPoly* const out[4], Bytes32 rho, const std::uint8_t xy[4][2], int n) noexcept {
    XofBatch<NttPoly> b;
    for (int j = 0; j < n; ++j) b.add_matrix_entry(*out[j], rho, xy[j][0], xy[j][1]);
    K::xof_batch(b);
  }
  template <int Eta>
  static void sample_noise_x4(Poly* const out[4], Bytes32 seed, const std::uint8_t nonce[4], int n) noexcept {
    XofBatch<NttPoly> b;
    for (int j = 0; j < n; ++j) b.add_noise_poly(*out[j], Eta, seed, nonce[j]);
    K::xof_batch(b);
  }
};

/// The AVX2 backend: the arithmetic on YMM registers, the sponge batches on the 4-way Keccak.
using Avx2Backend = X86Backend<simd::Avx2Kernels>;
static_assert(MlKemBackend<Avx2Backend>);

}  // namespace pqkem::mlkem
