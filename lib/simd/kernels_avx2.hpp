// pqkem: the kernels of the AVX2 instruction set, by name: the one place the backends that run on
// it (mlkem::Avx2Backend, ntru::Avx2Backend: simd/mlkem/backend_avx2.hpp,
// simd/ntru/backend_avx2.hpp) learn them. Each entry (simd/kernel_table.hpp lists them, once for
// every ISA) is the address of a C-like kernel compiled with the AVX2 flags (contracts at its
// declaration); the kernels exist only when PQKEM_HAVE_AVX2 is 1, and run only when
// simd::impl_usable(Impl::avx2).
#pragma once

#include <cstddef>

#include "impl.hpp"
#include "simd/keccak/keccak_avx2.hpp"
#include "simd/kernel_table.hpp"
#include "simd/mlkem/mlkem_avx2.hpp"
#include "simd/ntru/ntru_avx2.hpp"

namespace pqkem::simd {

struct Avx2Kernels {
  PQKEM_SIMD_KERNEL_TABLE(avx2)
};

}  // namespace pqkem::simd
