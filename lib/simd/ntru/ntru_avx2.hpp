// NTRU AVX2 kernels (simd::avx2): declarations and contracts in ntru_kernels.inc.
#pragma once

#define PQKEM_NTRU_DECL_NS avx2
#include "simd/ntru/ntru_kernels.inc"
#undef PQKEM_NTRU_DECL_NS
