// The AVX-512 build of the NTRU kernels of ntru_s3_inv_x86.hpp, into simd::avx512 with `_avx512`
// names (ntru_isa.hpp), compiled with the AVX-512 flags.
#define PQKEM_NTRU_EVEX 1
#include "simd/ntru/ntru_s3_inv_x86.hpp"
