// The AVX-512 backend's NTRU kernels of ntru_r2_inv_avx2.cpp: that source compiled again with the
// AVX-512 flags, into simd::avx512 (see ntru_isa.hpp).
#define PQKEM_NTRU_EVEX 1
#include "simd/ntru/ntru_r2_inv_avx2.cpp"
