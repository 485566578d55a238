// The NTRU backend on AVX2: X86Backend (backend_x86.hpp) over the AVX2 kernels
// (simd/kernels_avx2.hpp), with the hash pair and the sponge batches on the AVX2 Keccak.
#pragma once

#include "simd/kernels_avx2.hpp"
#include "simd/ntru/backend_x86.hpp"

namespace pqkem::ntru {

using Avx2Backend = X86Backend<simd::Avx2Kernels>;
static_assert(NtruBackend<Avx2Backend>);

}  // namespace pqkem::ntru
