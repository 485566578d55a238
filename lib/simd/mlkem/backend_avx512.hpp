// The ML-KEM backend on AVX-512 (mlkem::MlKemBackend, lib/mlkem/backend.hpp): X86Backend
// (backend_avx2.hpp) over the AVX-512 kernels (simd/kernels_avx512.hpp): the arithmetic on ZMM
// registers and the sponge batches on the 8- and 4-way AVX-512 Keccak with SampleNTT's rejection
// step on vpcompressw; the AVX2 order of T_q, its codecs and the single hashes are
// Avx2OrderCodecs'.
#pragma once

#include "mlkem/backend.hpp"
#include "simd/kernels_avx512.hpp"
#include "simd/mlkem/backend_avx2.hpp"

namespace pqkem::mlkem {

using Avx512Backend = X86Backend<simd::Avx512Kernels>;
static_assert(MlKemBackend<Avx512Backend>);

}  // namespace pqkem::mlkem
