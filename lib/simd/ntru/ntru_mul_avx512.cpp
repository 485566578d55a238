// The AVX-512 build of the NTRU kernels of ntru_mul_x86.hpp, into simd::avx512 with `_avx512`
// names (ntru_isa.hpp), compiled with the AVX-512 flags.
//
// GCC 12's AVX-512 intrinsics (unpack, insert, extract) pass an "undefined" source written as
// __m512i __Y = __Y, which -Wuninitialized reports wherever they are inlined (GCC bug 105593,
// fixed in GCC 13): the Toom-4 leaf products (ntru_toom4_avx2.hpp) use them. The warning is off
// for this file; the AVX2 build of the same code keeps it.
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)  // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define PQKEM_NTRU_EVEX 1
#include "simd/ntru/ntru_mul_x86.hpp"
