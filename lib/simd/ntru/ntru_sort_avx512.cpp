// The AVX-512 backend's NTRU kernels of ntru_sort_avx2.cpp: that source compiled again with the
// AVX-512 flags, into simd::avx512 (see ntru_isa.hpp), where the network runs on 16-lane ZMM
// vectors instead of 8-lane YMM ones.
//
// GCC 12's AVX-512 intrinsics (unpack, shuffle) pass an "undefined" source written as
// __m512i __Y = __Y, which -Wuninitialized reports wherever they are inlined (GCC bug 105593,
// fixed in GCC 13). The warning is off for this file; the AVX2 build of the same source keeps it.
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)  // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define PQKEM_NTRU_EVEX 1
#include "simd/ntru/ntru_sort_avx2.cpp"
