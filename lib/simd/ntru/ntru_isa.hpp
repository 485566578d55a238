// pqkem: which namespace, names and instruction set the NTRU SIMD code compiles for. The kernel
// bodies are written once, in the named common headers ntru_*_x86.hpp; ntru_*_avx2.cpp compile
// them with the AVX2 flags into simd::avx2 as `<stem>_avx2`, and ntru_*_avx512.cpp define
// PQKEM_NTRU_EVEX and compile them again with the AVX-512 flags into simd::avx512 as
// `<stem>_avx512`. The compiler then uses EVEX encodings, 32 vector registers and three-input
// logic (vpternlogq) for the same code, and every kernel and its contract (ntru_kernels.inc)
// exists once per namespace under its own name. Included first by those sources and their helper
// headers; portable code includes ntru_avx2.hpp / ntru_avx512.hpp instead.
#pragma once

#ifdef PQKEM_NTRU_EVEX
#define PQKEM_NTRU_NS avx512
#define PQKEM_NTRU_KERNEL(stem) stem##_avx512
#include "simd/ntru/ntru_avx512.hpp"
#else
#define PQKEM_NTRU_NS avx2
#define PQKEM_NTRU_KERNEL(stem) stem##_avx2
#include "simd/ntru/ntru_avx2.hpp"
#endif
