// pqkem: the ML-KEM kernels of the AVX2 backend (FIPS 203), twins of the portable code in
// lib/mlkem. Defined in mlkem_*_avx2.cpp, compiled with -mavx2 -mbmi -mbmi2 -mpopcnt; call them only
// when simd::impl_usable(simd::Impl::avx2). Included by portable translation units too, so this
// header stays C-like: declarations only, plain integer arrays.
//
// Coefficient order. Polynomials in R_q (coefficient form) use the standard order. Elements of
// T_q (NTT form) use the AVX2 order: the 256 values, seen as a 16 x 16 matrix of int16 with
// row r = coefficients 16 r .. 16 r + 15 (one YMM register), are stored transposed:
//   avx2[16 l + i] = fips203[16 i + l]   (0 <= i, l < 16).
// The transposition is its own inverse. With it, NTT layers 5..7 and the base multiplication
// become vertical operations between registers. T_q values enter and leave only through these
// kernels (NTT, SampleNTT, ByteDecode_12/ByteEncode_12), which convert.
//
// Every input bound below is a precondition; every output bound is guaranteed. All kernels are
// constant time (no secret-dependent branches, indices or divisions) except the rejection
// sampler, which branches on public data only (the XOF stream of rho).
#pragma once

#include <cstddef>
#include <cstdint>

#include "mlkem/xof_batch.hpp"  // plain data, no code

namespace pqkem::simd::avx2 {

/// 16 x 16 transposition: converts between the FIPS 203 order and the AVX2 order of T_q.
void transpose_avx2(std::int16_t a[256]) noexcept;

/// NTT (FIPS 203, Algorithm 9) followed by Barrett reduction. In: standard order, |a_i| < q.
/// Out: AVX2 order, |a_i| <= (q-1)/2; equal, after transposition, to mlkem::ntt's output.
void ntt_avx2(std::int16_t a[256]) noexcept;

/// NTT^-1 (Algorithm 10) times R, as mlkem::inverse_ntt. In: AVX2 order, |a_i| < q.
/// Out: standard order, |a_i| < q; equal to mlkem::inverse_ntt of the transposed input.
void inverse_ntt_avx2(std::int16_t a[256]) noexcept;

/// MultiplyNTTs (Algorithm 11) accumulated, as mlkem::multiply_ntts_acc_ref: r += a * b * R^-1.
/// All in AVX2 order. In: |a_i|, |b_i| < q; each call adds less than 2q to |r_i|.
void multiply_ntts_acc_avx2(std::int16_t r[256], const std::int16_t a[256], const std::int16_t b[256]) noexcept;

/// r = Barrett(sum_{j<k} a_j * b_j * R^-1), k <= 4 polynomials 256 apart, AVX2 order.
/// In: |a_ji|, |b_ji| < q. Out: |r_i| <= (q-1)/2. Equal to k calls of basemul_acc on r = 0,
/// then reduce.
void inner_product_avx2(std::int16_t r[256], const std::int16_t* a, const std::int16_t* b, int k) noexcept;

/// Barrett reduction of every coefficient (mlkem::barrett_reduce). Out: |a_i| <= (q-1)/2.
void reduce_avx2(std::int16_t a[256]) noexcept;
/// t = Barrett(t * R^2 * R^-1 + e) (to_mont, add, reduce of K-PKE.KeyGen). In: |t_i| < 2^15,
/// |e_i| < q. Out: |t_i| <= (q-1)/2.
void tomont_add_reduce_avx2(std::int16_t t[256], const std::int16_t e[256]) noexcept;
/// r = Barrett(r + a + b) (b may be null). In: |r_i + a_i + b_i| < 2^15. Out: |r_i| <= (q-1)/2.
void add_reduce_avx2(std::int16_t r[256], const std::int16_t a[256], const std::int16_t* b) noexcept;
/// r = Barrett(a - r). In: |a_i - r_i| < 2^15. Out: |r_i| <= (q-1)/2.
void sub_reduce_avx2(std::int16_t r[256], const std::int16_t a[256]) noexcept;

/// ByteDecode_12 (Algorithm 6) into T_q, reduced mod q, converted to the AVX2 order.
/// Out: 0 <= a_i < q.
void decode12_avx2(std::int16_t a[256], const std::uint8_t in[384]) noexcept;
/// ByteEncode_12 of a T_q element in AVX2 order. In: |a_i| < q (mapped to [0, q) first).
void encode12_avx2(std::uint8_t out[384], const std::int16_t a[256]) noexcept;
/// The modulus check of FIPS 203 section 7.2 on one 384-byte block (public data).
bool is_canonical12_avx2(const std::uint8_t in[384]) noexcept;

/// ByteEncode_d(Compress_d(a)) for d in {1, 4, 5, 10, 11}, standard order. In: |a_i| < q.
/// Writes 32 d bytes.
void compress_encode_avx2(std::uint8_t* out, const std::int16_t a[256], int d) noexcept;
/// Decompress_d(ByteDecode_d(in)) for d in {1, 4, 5, 10, 11}. Reads 32 d bytes.
/// Out: standard order, 0 <= a_i < q.
void decode_decompress_avx2(std::int16_t a[256], const std::uint8_t* in, int d) noexcept;

/// Rejection sampling of SampleNTT (Algorithm 7, the loop body) on public bytes: appends to
/// a[ctr..] the 12-bit candidates of buf (len a multiple of 3) that are < q, stopping at 256.
/// buf must be readable up to buf[len + 7] (the vector loads overrun; those bytes are not used);
/// with len < 24 there is no vector load and only buf[0 .. len) is read.
/// Returns the new count. Same values, same order as the portable loop.
unsigned rej_uniform_avx2(std::int16_t a[256], unsigned ctr, const std::uint8_t* buf, std::size_t len) noexcept;

/// SamplePolyCBD_eta (Algorithm 8), eta in {2, 3}, on 64 eta bytes. Out: |a_i| <= eta,
/// standard order, equal to mlkem::sample_poly_cbd_ref.
void sample_poly_cbd_avx2(std::int16_t a[256], const std::uint8_t* bytes, int eta) noexcept;

/// The sponge work of one ML-KEM step whose parts do not depend on each other (contents in
/// mlkem/xof_batch.hpp; matrix entries come out in the AVX2 order), run as one batch on the
/// 4-way Keccak (xof_batch_x86.hpp). Equal to the portable functions one by one
/// (sample_ntt_ref, sample_noise_ref, hash.hpp).
void xof_batch_avx2(const mlkem::XofBatchData& batch) noexcept;

}  // namespace pqkem::simd::avx2
