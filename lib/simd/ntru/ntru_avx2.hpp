// NTRU AVX2 kernels (simd::avx2, `<stem>_avx2`): declarations and contracts in ntru_kernels.inc.
#pragma once

#define PQKEM_NTRU_DECL_NS avx2
#define PQKEM_NTRU_DECL_NAME(stem) stem##_avx2
#define PQKEM_NTRU_DECL_SCRATCH 32768  // kNtruProductScratchBytes
#include "simd/ntru/ntru_kernels.inc"
#undef PQKEM_NTRU_DECL_SCRATCH
#undef PQKEM_NTRU_DECL_NAME
#undef PQKEM_NTRU_DECL_NS
