// pqkem: the 8 x 8 transposition by three rounds of unpacks, written once for the x86 kernels
// that need one: ML-KEM's NTT (16-bit elements inside each 128-bit lane, YMM and ZMM:
// mlkem_common_avx2.hpp, mlkem_poly_avx512.cpp), the NTRU Toom-4 leaf products (the same on
// LeafVec, ntru_toom4_avx2.hpp) and the NTRU sort's 8-lane network (32-bit elements across a
// YMM register, ntru_sort_x86.hpp). Included only by files compiled with an ISA's flags, with
// internal linkage, as vec_x86.hpp.
#pragma once

#include "simd/vec_x86.hpp"

namespace pqkem::simd::x86 {
namespace {  // internal linkage on purpose: see vec_x86.hpp

/// out[c] element r = in[r] element c, for the eight Bits-bit elements of each row: rows of
/// 8 x 16 bits are transposed inside every 128-bit lane of V (each lane a separate 8 x 8 block),
/// rows of 8 x 32 bits (a YMM register) as a whole. out may be in.
///
/// Round k (k = 0, 1, 2) unpacks registers 2^k apart in elements of 2^k Bits bits: after it,
/// every register holds 2^(k+1) rows of 8 / 2^(k+1) columns. With 16-bit rows the three
/// rounds halve the column range from the top (columns 0-3 | 4-7, then 0-1 | 2-3 ...), so the
/// last round's pairs (lo, hi) are columns (2i, 2i + 1). With 32-bit rows the first two rounds
/// work inside the two 128-bit lanes (columns 0-3 | 4-7) and the last one exchanges lanes, so its
/// pairs are columns (i, i + 4). (Measured in the Toom-4 products: replacing the 32-bit round
/// by shifts and dword blends, which avoid the shuffle port, is no faster.)
template <int Bits, class V>
[[gnu::always_inline]] inline void transpose8x8(V (&out)[8], const V (&in)[8]) noexcept {
  static_assert(Bits == 16 || (Bits == 32 && sizeof(V) == 32), "8 x 16 bits per 128-bit lane, or 8 x 32 in a YMM");
  constexpr bool kLastRoundExchangesLanes = Bits == 32;
  V b[8], c[8];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    b[2 * i] = unpack<Bits, false>(in[2 * i], in[2 * i + 1]);
    b[2 * i + 1] = unpack<Bits, true>(in[2 * i], in[2 * i + 1]);
  }
#pragma GCC unroll 2
  for (int i = 0; i < 2; ++i) {
    c[4 * i + 0] = unpack<2 * Bits, false>(b[4 * i + 0], b[4 * i + 2]);
    c[4 * i + 1] = unpack<2 * Bits, true>(b[4 * i + 0], b[4 * i + 2]);
    c[4 * i + 2] = unpack<2 * Bits, false>(b[4 * i + 1], b[4 * i + 3]);
    c[4 * i + 3] = unpack<2 * Bits, true>(b[4 * i + 1], b[4 * i + 3]);
  }
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    out[kLastRoundExchangesLanes ? i : 2 * i] = unpack<4 * Bits, false>(c[i], c[i + 4]);
    out[kLastRoundExchangesLanes ? i + 4 : 2 * i + 1] = unpack<4 * Bits, true>(c[i], c[i + 4]);
  }
}

}  // namespace
}  // namespace pqkem::simd::x86
