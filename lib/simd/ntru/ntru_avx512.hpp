// NTRU kernels of the AVX-512 backend (simd::avx512, `<stem>_avx512`): the bodies of
// ntru_*_x86.hpp compiled with the AVX-512 flags (ntru_isa.hpp); declarations and contracts in
// ntru_kernels.inc. Call them only when simd::impl_usable(Impl::avx512).
#pragma once

#define PQKEM_NTRU_DECL_NS avx512
#define PQKEM_NTRU_DECL_NAME(stem) stem##_avx512
#define PQKEM_NTRU_DECL_SCRATCH 49152  // kNtruProductScratchBytes
#include "simd/ntru/ntru_kernels.inc"
#undef PQKEM_NTRU_DECL_SCRATCH
#undef PQKEM_NTRU_DECL_NAME
#undef PQKEM_NTRU_DECL_NS
