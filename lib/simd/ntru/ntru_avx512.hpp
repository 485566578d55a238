// NTRU kernels of the AVX-512 backend (simd::avx512): the AVX2 sources compiled again with the
// AVX-512 flags (ntru_isa.hpp); declarations and contracts in ntru_kernels.inc. Call them only
// when simd::impl_usable(simd::Impl::avx512).
#pragma once

#define PQKEM_NTRU_DECL_NS avx512
#define PQKEM_NTRU_DECL_SCRATCH 49152  // kNtruProductScratchBytes
#include "simd/ntru/ntru_kernels.inc"
#undef PQKEM_NTRU_DECL_SCRATCH
#undef PQKEM_NTRU_DECL_NS
