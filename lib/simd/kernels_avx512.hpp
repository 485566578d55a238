// pqkem: the kernels of the AVX-512 instruction set, by name: the one place the backends that run
// on it (mlkem::Avx512Backend, ntru::Avx512Backend: simd/mlkem/backend_avx512.hpp,
// simd/ntru/backend_avx512.hpp) learn them. Each entry (simd/kernel_table.hpp lists them, once for
// every ISA) is the address of a C-like kernel compiled with the AVX-512 flags (contracts at its
// declaration); the kernels exist only when PQKEM_HAVE_AVX512 is 1, and run only when
// simd::impl_usable(Impl::avx512).
#pragma once

#include <cstddef>

#include "impl.hpp"
#include "simd/keccak/keccak_avx512.hpp"
#include "simd/kernel_table.hpp"
#include "simd/mlkem/mlkem_avx512.hpp"
#include "simd/ntru/ntru_avx512.hpp"

namespace pqkem::simd {

struct Avx512Kernels {
  PQKEM_SIMD_KERNEL_TABLE(avx512)
};

}  // namespace pqkem::simd
