// The AVX-512 build of the NTRU kernels of ntru_sort_x86.hpp, into simd::avx512 with `_avx512`
// names (ntru_isa.hpp), compiled with the AVX-512 flags, where the network runs on 16-lane ZMM
// vectors instead of 8-lane YMM ones.
//
// GCC 12's AVX-512 intrinsics (unpack, shuffle) pass an "undefined" source written as
// __m512i __Y = __Y, which -Wuninitialized reports wherever they are inlined (GCC bug 105593,
// fixed in GCC 13). The warning is off for this file; the AVX2 build of the same code keeps it.
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)  // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define PQKEM_NTRU_EVEX 1
#include "simd/ntru/ntru_sort_x86.hpp"
