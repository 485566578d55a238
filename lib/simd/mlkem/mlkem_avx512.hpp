// pqkem: the ML-KEM kernels of the AVX-512 backend that differ from the AVX2 ones (FIPS 203).
// The backend (mlkem::Avx512Backend, backend_avx512.hpp) runs the AVX2 codecs of
// mlkem_avx2.hpp for everything else, on the same AVX2 order of T_q. Defined in
// mlkem_*_avx512.cpp, compiled with the AVX-512 flags; call them only when
// simd::impl_usable(simd::Impl::avx512). Included by portable translation units too: C-like
// declarations only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mlkem/xof_batch.hpp"  // plain data, no code

namespace pqkem::simd::avx512 {

/// Rejection sampling of SampleNTT (Algorithm 7, the loop body) on public bytes, as
/// rej_uniform_avx2 (same values, same order, same count; len a multiple of 3), 32
/// candidates per step: vpermb spreads 48 bytes into 16-bit lanes and vpcompressw packs the
/// accepted ones. Reads only buf[0 .. len) (masked loads). Returns the new count.
unsigned rej_uniform_avx512(std::int16_t a[256], unsigned ctr, const std::uint8_t* buf, std::size_t len) noexcept;

/// xof_batch_avx2 (same contract) on the 8- and 4-way AVX-512 Keccak, SampleNTT's
/// candidates through rej_uniform_avx512.
void xof_batch_avx512(const mlkem::XofBatchData& batch) noexcept;
/// The same on the 4-way AVX-512 permutation only: what `pqkem bench --kernels` measures the
/// 8-way lanes against. Not part of the backend.
void xof_batch_x4_avx512(const mlkem::XofBatchData& batch) noexcept;

/// The AVX2 kernels of the same names (mlkem_avx2.hpp: same contracts, same AVX2 order, same
/// results bit for bit) on 32 coefficients per ZMM register.
void ntt_avx512(std::int16_t a[256]) noexcept;
void inverse_ntt_avx512(std::int16_t a[256]) noexcept;
void inner_product_avx512(std::int16_t r[256], const std::int16_t* a, const std::int16_t* b, int k) noexcept;
void tomont_add_reduce_avx512(std::int16_t t[256], const std::int16_t e[256]) noexcept;
void add_reduce_avx512(std::int16_t r[256], const std::int16_t a[256], const std::int16_t* b) noexcept;
void sub_reduce_avx512(std::int16_t r[256], const std::int16_t a[256]) noexcept;

}  // namespace pqkem::simd::avx512
