// pqkem: x86 integer vector operations under one name for both register widths, as overloads on
// __m256i (YMM) and __m512i (ZMM), so that code written over its vector type V compiles to YMM
// instructions in the AVX2 files and to ZMM ones in the AVX-512 files: the NTRU Toom-4 leaf
// products (LeafVec), the AVX-512 Keccak lanes and the 8 x 8 transpositions of transpose_x86.hpp.
//
// Included only by files compiled with an ISA's flags (lib/CMakeLists.txt). Everything here has
// internal linkage (an unnamed namespace), so no copy compiled with one ISA's flags can be picked
// by the linker for a caller on another. The overloads that need AVX-512 (every ZMM one, and the
// YMM ternary logic and rotations, AVX-512VL) exist only where the compiler has its flags: this
// header is the one place that asks, and says PQKEM_X86_AVX512.
#pragma once

#include <immintrin.h>

#include <cstdint>

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#define PQKEM_X86_AVX512 1
#else
#define PQKEM_X86_AVX512 0
#endif

namespace pqkem::simd::x86 {
namespace {  // internal linkage on purpose: see above

// ---- 16-bit lane arithmetic: a + b, a - b, the low half of a * b ----
[[gnu::always_inline]] inline __m256i add16(__m256i a, __m256i b) noexcept { return _mm256_add_epi16(a, b); }
[[gnu::always_inline]] inline __m256i sub16(__m256i a, __m256i b) noexcept { return _mm256_sub_epi16(a, b); }
[[gnu::always_inline]] inline __m256i mullo16(__m256i a, __m256i b) noexcept { return _mm256_mullo_epi16(a, b); }
#if PQKEM_X86_AVX512
[[gnu::always_inline]] inline __m512i add16(__m512i a, __m512i b) noexcept { return _mm512_add_epi16(a, b); }
[[gnu::always_inline]] inline __m512i sub16(__m512i a, __m512i b) noexcept { return _mm512_sub_epi16(a, b); }
[[gnu::always_inline]] inline __m512i mullo16(__m512i a, __m512i b) noexcept { return _mm512_mullo_epi16(a, b); }
#endif

// ---- bitwise: a ^ b, ~a & b ----
[[gnu::always_inline]] inline __m256i bxor(__m256i a, __m256i b) noexcept { return _mm256_xor_si256(a, b); }
[[gnu::always_inline]] inline __m256i andnot(__m256i a, __m256i b) noexcept { return _mm256_andnot_si256(a, b); }
#if PQKEM_X86_AVX512
[[gnu::always_inline]] inline __m512i bxor(__m512i a, __m512i b) noexcept { return _mm512_xor_si512(a, b); }
[[gnu::always_inline]] inline __m512i andnot(__m512i a, __m512i b) noexcept { return _mm512_andnot_si512(a, b); }

// ---- AVX-512 only: three-input logic and rotations ----
// The rotations use the maskz intrinsics with every lane selected, which compile to the plain
// vprolq: GCC 12's unmasked ones fill their unused source with an "undefined" vector that
// -Wuninitialized reports at every use.

/// The bitwise function of a, b, c whose truth table is Imm, bit 4a + 2b + c (vpternlogq).
template <int Imm>
[[gnu::always_inline]] inline __m256i ternlog(__m256i a, __m256i b, __m256i c) noexcept {
  return _mm256_ternarylogic_epi64(a, b, c, Imm);
}
template <int Imm>
[[gnu::always_inline]] inline __m512i ternlog(__m512i a, __m512i b, __m512i c) noexcept {
  return _mm512_ternarylogic_epi64(a, b, c, Imm);
}
/// Each 64-bit lane rotated left by N (vprolq; N = 0 is no instruction).
template <int N>
[[gnu::always_inline]] inline __m256i rol64(__m256i a) noexcept {
  return N == 0 ? a : _mm256_maskz_rol_epi64(0xF, a, N);
}
template <int N>
[[gnu::always_inline]] inline __m512i rol64(__m512i a) noexcept {
  return N == 0 ? a : _mm512_maskz_rol_epi64(0xFF, a, N);
}
#endif

// ---- unpacks: the 8 x 8 transpositions' rounds ----
/// The interleave of the low (Hi false) or high halves of a and b in Bits-bit elements, within
/// each 128-bit lane (vpunpckl*, vpunpckh*); Bits = 128, YMM only, interleaves the lanes
/// themselves (vperm2i128: a's and b's low lanes, or their high lanes).
template <int Bits, bool Hi>
[[gnu::always_inline]] inline __m256i unpack(__m256i a, __m256i b) noexcept {
  static_assert(Bits == 16 || Bits == 32 || Bits == 64 || Bits == 128);
  if constexpr (Bits == 16) return Hi ? _mm256_unpackhi_epi16(a, b) : _mm256_unpacklo_epi16(a, b);
  if constexpr (Bits == 32) return Hi ? _mm256_unpackhi_epi32(a, b) : _mm256_unpacklo_epi32(a, b);
  if constexpr (Bits == 64) return Hi ? _mm256_unpackhi_epi64(a, b) : _mm256_unpacklo_epi64(a, b);
  if constexpr (Bits == 128) return _mm256_permute2x128_si256(a, b, Hi ? 0x31 : 0x20);
}
#if PQKEM_X86_AVX512
template <int Bits, bool Hi>
[[gnu::always_inline]] inline __m512i unpack(__m512i a, __m512i b) noexcept {
  static_assert(Bits == 16 || Bits == 32 || Bits == 64);
  if constexpr (Bits == 16) return Hi ? _mm512_unpackhi_epi16(a, b) : _mm512_unpacklo_epi16(a, b);
  if constexpr (Bits == 32) return Hi ? _mm512_unpackhi_epi32(a, b) : _mm512_unpacklo_epi32(a, b);
  if constexpr (Bits == 64) return Hi ? _mm512_unpackhi_epi64(a, b) : _mm512_unpacklo_epi64(a, b);
}
#endif

}  // namespace
}  // namespace pqkem::simd::x86
