// pqkem: which butterflies ML-KEM's NTT runs on eight registers at layers 2..4 (FIPS 203,
// Algorithm 9: len = 64, 32, 16), and the inverse at layers 4..2 (Algorithm 10), with their zeta
// indices: written once for the AVX2 and AVX-512 kernels (mlkem_poly_avx2.cpp,
// mlkem_poly_avx512.cpp), which give the butterflies and compile this with their own flags. No
// intrinsics; internal linkage, as the other headers of these files.
//
// In the AVX2 layout a polynomial is 16 rows of 16 coefficients (row i = coefficients 16 i ..
// 16 i + 15). Layers 2..4 pair rows 4, 2 and 1 apart inside each half (rows 0..7, 8..15), so a
// kernel runs them on eight registers: the AVX2 one on the eight rows of one half (register j =
// row h + j), the AVX-512 one on both halves at once (register j = rows j and j + 8).
#pragma once

namespace pqkem::simd::x86 {
namespace {  // internal linkage on purpose: see above

/// The zeta index (mlkem::kZetaTable) of the butterfly block of NTT layer m holding row `row`:
/// Algorithm 9's k, 2^(m-1) + the block number; a block of layer m spans 16 / 2^(m-1) rows.
constexpr int ntt_zeta_index(int m, int row) { return (1 << (m - 1)) + row / (16 >> (m - 1)); }
/// The same for the inverse NTT: Algorithm 10's k, which counts down from 127.
constexpr int inverse_ntt_zeta_index(int m, int row) { return (1 << m) - 1 - row / (16 >> (m - 1)); }

/// Runs layers 2, 3, 4 (Inverse: 4, 3, 2) on r[0..8): at layer m, bfly(r[j], r[j + d], m, j)
/// for d = 8 / 2^(m-1) and every j without the bit d. Fully unrolled: m and j are constants in
/// each call, so the butterfly's zetas are immediates and its choices are made at compile time.
template <bool Inverse, class V, class Bfly>
[[gnu::always_inline]] inline void ntt_layers_2_to_4(V (&r)[8], Bfly bfly) noexcept {
#pragma GCC unroll 3
  for (int step = 0; step < 3; ++step) {
    const int m = Inverse ? 4 - step : 2 + step;
    const int d = 8 >> (m - 1);
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j)
      if (!(j & d)) bfly(r[j], r[j + d], m, j);
  }
}

}  // namespace
}  // namespace pqkem::simd::x86
