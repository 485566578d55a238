// pqkem: the ML-KEM kernels of the AVX-512 backend that differ from the AVX2 ones (FIPS 203).
// The backend (mlkem::Avx512Backend, lib/mlkem/backend.hpp) runs the AVX2 kernels of
// mlkem_avx2.hpp for everything else, on the same AVX2 order of T_q. Defined in
// mlkem_*_avx512.cpp, compiled with the AVX-512 flags; call them only when
// simd::impl_usable(simd::Impl::avx512). Included by portable translation units too: C-like
// declarations only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pqkem::simd::avx512 {

/// Rejection sampling of SampleNTT (Algorithm 7, the loop body) on public bytes, as
/// mlkem_rej_uniform_avx2 (same values, same order, same count; len a multiple of 3), 32
/// candidates per step: vpermb spreads 48 bytes into 16-bit lanes and vpcompressw packs the
/// accepted ones. Reads only buf[0 .. len) (masked loads). Returns the new count.
unsigned mlkem_rej_uniform_avx512(std::int16_t a[256], unsigned ctr, const std::uint8_t* buf,
                                  std::size_t len) noexcept;

}  // namespace pqkem::simd::avx512
