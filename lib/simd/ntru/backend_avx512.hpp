// The NTRU backend on AVX-512: X86Backend (backend_x86.hpp) over the AVX-512 kernels
// (simd/kernels_avx512.hpp), with the hash pair and the sponge batches on the AVX-512 Keccak.
#pragma once

#include "simd/kernels_avx512.hpp"
#include "simd/ntru/backend_x86.hpp"

namespace pqkem::ntru {

using Avx512Backend = X86Backend<simd::Avx512Kernels>;
static_assert(NtruBackend<Avx512Backend>);

}  // namespace pqkem::ntru
