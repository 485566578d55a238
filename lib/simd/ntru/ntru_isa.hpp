// pqkem: which namespace and instruction set the NTRU SIMD sources compile for. The files
// ntru_*_avx2.cpp compile into simd::avx2 with the AVX2 flags; the AVX-512 backend compiles the
// same sources a second time, with the AVX-512 flags, into simd::avx512: each ntru_*_avx512.cpp
// defines PQKEM_NTRU_EVEX and includes its AVX2 twin. The compiler then uses EVEX encodings, 32
// vector registers and three-input logic (vpternlogq) for the same code, and every kernel and
// its contract (ntru_kernels.inc) exist once per namespace. Included first by those sources and
// their helper headers; portable code includes ntru_avx2.hpp / ntru_avx512.hpp instead.
#pragma once

#ifdef PQKEM_NTRU_EVEX
#define PQKEM_NTRU_NS avx512
#include "simd/ntru/ntru_avx512.hpp"
#else
#define PQKEM_NTRU_NS avx2
#include "simd/ntru/ntru_avx2.hpp"
#endif
