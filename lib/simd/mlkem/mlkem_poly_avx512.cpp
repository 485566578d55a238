// ML-KEM AVX-512 kernels on polynomials (contracts in mlkem_avx512.hpp): the element-wise ones
// and the inner product on 32 coefficients per ZMM register, in the AVX2 order of T_q. Compiled
// with the AVX-512 flags; internal helpers have internal linkage, no STL.
//
// GCC 12's AVX-512 intrinsics (unpack, insert, extract, shuffle ...) pass an "undefined" source
// written as __m512i __Y = __Y, which -Wuninitialized reports wherever they are inlined (GCC bug
// 105593, fixed in GCC 13). The warning is off for this file; it has no other uninitialized read.
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)  // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include "mlkem/constants.hpp"
#include "simd/mlkem/mlkem_avx512.hpp"
#include "simd/mlkem/ntt_layers_x86.hpp"
#include "simd/transpose_x86.hpp"

namespace pqkem::simd::avx512 {
namespace {

using mlkem::kBarrettV;
using mlkem::kQ;
using mlkem::kQInv;
using x86::transpose8x8;

constexpr mlkem::ZetaTable kZ = mlkem::kZetaTable;
constexpr std::int16_t twist(std::int16_t z) { return static_cast<std::int16_t>(z * kQInv); }

inline __m512i set16(std::int16_t x) { return _mm512_set1_epi16(x); }

/// The AVX2 twins' arithmetic (mlkem_common_avx2.hpp) on 32 lanes, bit for bit.
inline __m512i mul_zeta(__m512i a, __m512i z, __m512i zt) {
  const __m512i t = _mm512_mullo_epi16(a, zt);
  return _mm512_sub_epi16(_mm512_mulhi_epi16(a, z), _mm512_mulhi_epi16(t, set16(kQ)));
}
inline __m512i fqmul(__m512i a, __m512i b) {
  const __m512i lo = _mm512_mullo_epi16(a, b);
  const __m512i hi = _mm512_mulhi_epi16(a, b);
  const __m512i t = _mm512_mullo_epi16(lo, set16(kQInv));
  return _mm512_sub_epi16(hi, _mm512_mulhi_epi16(t, set16(kQ)));
}
inline __m512i barrett(__m512i a) {
  __m512i t = _mm512_mulhi_epi16(a, set16(kBarrettV));
  t = _mm512_mulhrs_epi16(t, set16(32));
  return _mm512_sub_epi16(a, _mm512_mullo_epi16(t, set16(kQ)));
}

inline __m512i load(const std::int16_t* p) { return _mm512_loadu_si512(p); }
inline void store(std::int16_t* p, __m512i v) { _mm512_storeu_si512(p, v); }

/// BaseCaseMultiply's gammas for register pairs (2m, 2m+1) and (2m+2, 2m+3), m even: lane i of
/// the first half is pair p = 8i + m, of the second 8i + m + 1; gamma = (-1)^(p mod 2) zeta[64 +
/// p/2], as the AVX2 kernel's table.
struct GammaTable {
  std::int16_t z[4][32];
  std::int16_t zt[4][32];
};
constexpr GammaTable make_gammas() {
  GammaTable g{};
  for (int h = 0; h < 4; ++h)
    for (int half = 0; half < 2; ++half)
      for (int i = 0; i < 16; ++i) {
        const int m = 2 * h + half;
        const std::int16_t z = kZ.z[64 + 4 * i + (m >> 1)];
        g.z[h][16 * half + i] = static_cast<std::int16_t>((m & 1) ? -z : z);
        g.zt[h][16 * half + i] = twist(g.z[h][16 * half + i]);
      }
  return g;
}
alignas(64) constexpr GammaTable kGamma = make_gammas();

// ---- NTT and inverse NTT ---------------------------------------------------------------------

inline __m512i bcast2(std::int16_t lo, std::int16_t hi) {  // lanes 0..15 lo, 16..31 hi
  return _mm512_inserti64x4(_mm512_zextsi256_si512(_mm256_set1_epi16(lo)), _mm256_set1_epi16(hi), 1);
}
/// A 16-lane constant vector of the AVX2 kernel (mlkem_poly_avx2.cpp) in both halves, with its
/// twisted form.
struct ZPair {
  __m512i z, zt;
};

/// The per-lane zeta vectors of layers 5-7 (forward and inverse), in the AVX2 kernel's layout:
/// register l, lane i holds FIPS index 16 i + l. Each entry covers two registers of one ZMM.
struct Zmm16 {
  std::int16_t z[32], zt[32];
};
struct NttTables {
  Zmm16 fwd5, inv5;        // layer 5: zeta 16 + i (inverse 31 - i), the same in both halves
  Zmm16 fwd6[2], inv6[2];  // layer 6, group g: 32 + 2i + g (inverse 63 - 2i - g)
  Zmm16 fwd7[4], inv7[4];  // layer 7, rows 4c .. 4c + 3: 64 + 4i + c (inverse 127 - 4i - c)
};
template <class F>
constexpr Zmm16 both_halves(F f) {
  Zmm16 v{};
  for (int i = 0; i < 32; ++i) {
    v.z[i] = f(i % 16);
    v.zt[i] = twist(v.z[i]);
  }
  return v;
}
constexpr NttTables make_ntt_tables() {
  NttTables t{};
  t.fwd5 = both_halves([](int i) { return kZ.z[16 + i]; });
  t.inv5 = both_halves([](int i) { return kZ.z[31 - i]; });
  for (int g = 0; g < 2; ++g) {
    t.fwd6[g] = both_halves([g](int i) { return kZ.z[32 + 2 * i + g]; });
    t.inv6[g] = both_halves([g](int i) { return kZ.z[63 - 2 * i - g]; });
  }
  for (int c = 0; c < 4; ++c) {
    t.fwd7[c] = both_halves([c](int i) { return kZ.z[64 + 4 * i + c]; });
    t.inv7[c] = both_halves([c](int i) { return kZ.z[127 - 4 * i - c]; });
  }
  return t;
}
alignas(64) constexpr NttTables kNtt = make_ntt_tables();
inline ZPair zp(const Zmm16& v) { return {_mm512_load_si512(v.z), _mm512_load_si512(v.zt)}; }

// The butterflies of the AVX2 kernel (ntt_code.hpp's arithmetic), 32 lanes.
inline void ct_bfly(__m512i& x, __m512i& y, ZPair z) {
  const __m512i t = mul_zeta(y, z.z, z.zt);
  y = _mm512_sub_epi16(x, t);
  x = _mm512_add_epi16(x, t);
}
template <bool Reduce>
inline void gs_bfly(__m512i& x, __m512i& y, ZPair z) {
  const __m512i t = x;
  const __m512i s = _mm512_add_epi16(t, y);
  x = Reduce ? barrett(s) : s;
  y = mul_zeta(_mm512_sub_epi16(y, t), z.z, z.zt);
}

// Rows are the AVX2 kernel's 16 registers of 16 coefficients (row r at a + 16 r).
inline __m512i load_rows(const std::int16_t* a, int r) { return load(a + 16 * r); }  // rows r, r + 1
inline void store_rows(std::int16_t* a, int r, __m512i v) { store(a + 16 * r, v); }
/// Rows r and r + 8 in one register (halves).
inline __m512i load_halves(const std::int16_t* a, int r) {
  return _mm512_inserti64x4(_mm512_zextsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 16 * r))),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 16 * (r + 8))), 1);
}
inline void store_halves(std::int16_t* a, int r, __m512i v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + 16 * r), _mm512_castsi512_si256(v));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + 16 * (r + 8)), _mm512_extracti64x4_epi64(v, 1));
}
/// 128-bit blocks: [A0 B0 A2 B2] and [A1 B1 A3 B3] (the lane exchange of rows k, k + 8 and
/// k + 1, k + 9 when A holds rows k, k + 1 and B rows k + 8, k + 9).
inline __m512i blocks_even(__m512i a, __m512i b) {
  return _mm512_permutex2var_epi64(a, _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13), b);
}
inline __m512i blocks_odd(__m512i a, __m512i b) {
  return _mm512_permutex2var_epi64(a, _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15), b);
}

}  // namespace

// The AVX2 kernel's four passes (mlkem_poly_avx2.cpp), two of its registers per ZMM register,
// paired so that both get the same operation: rows i, i + 1 (adjacent in memory) where the
// twiddles of a pass are per lane, rows j, j + 8 (the two halves) in the pass of layers 2-4,
// whose broadcast twiddles differ by half and whose in-lane transposition works on each
// 128-bit lane alike. The butterflies and reductions are the same, so the results are bit-exact.
void ntt_avx512(std::int16_t a[256]) noexcept {
  {  // layer 1: rows i and i + 8
    const ZPair z{set16(kZ.z[1]), set16(twist(kZ.z[1]))};
#pragma GCC unroll 4
    for (int i = 0; i < 8; i += 2) {
      __m512i x = load_rows(a, i), y = load_rows(a, i + 8);
      ct_bfly(x, y, z);
      store_rows(a, i, x);
      store_rows(a, i + 8, y);
    }
  }
  {  // layers 2..4 on both halves at once, then the in-lane 8 x 8 transposition
    __m512i r[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) r[j] = load_halves(a, j);
    x86::ntt_layers_2_to_4<false>(r, [](__m512i& x, __m512i& y, int m, int j) {
      const std::int16_t z0 = kZ.z[x86::ntt_zeta_index(m, j)], z1 = kZ.z[x86::ntt_zeta_index(m, 8 + j)];
      ct_bfly(x, y, ZPair{bcast2(z0, z1), bcast2(twist(z0), twist(z1))});
    });
    transpose8x8<16>(r, r);
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) store_halves(a, j, r[j]);
  }
  {  // the 128-bit exchange between rows k and k + 8, with layer 5
    const ZPair z = zp(kNtt.fwd5);
#pragma GCC unroll 4
    for (int k = 0; k < 8; k += 2) {
      const __m512i c = load_rows(a, k), d = load_rows(a, k + 8);
      __m512i x = blocks_even(c, d), y = blocks_odd(c, d);
      ct_bfly(x, y, z);
      store_rows(a, k, x);
      store_rows(a, k + 8, y);
    }
  }
  {  // layers 6 and 7 on rows 0..7 and 8..15, then Barrett
    __m512i p[8];
#pragma GCC unroll 8
    for (int q = 0; q < 8; ++q) p[q] = load_rows(a, 2 * q);
#pragma GCC unroll 2
    for (int g = 0; g < 2; ++g) {
      ct_bfly(p[4 * g], p[4 * g + 2], zp(kNtt.fwd6[g]));
      ct_bfly(p[4 * g + 1], p[4 * g + 3], zp(kNtt.fwd6[g]));
      ct_bfly(p[4 * g], p[4 * g + 1], zp(kNtt.fwd7[2 * g]));
      ct_bfly(p[4 * g + 2], p[4 * g + 3], zp(kNtt.fwd7[2 * g + 1]));
    }
#pragma GCC unroll 8
    for (int q = 0; q < 8; ++q) store_rows(a, 2 * q, barrett(p[q]));
  }
}

void inverse_ntt_avx512(std::int16_t a[256]) noexcept {
  {  // inverse layers 7 and 6 on rows 0..7 and 8..15
    __m512i p[8];
#pragma GCC unroll 8
    for (int q = 0; q < 8; ++q) p[q] = load_rows(a, 2 * q);
#pragma GCC unroll 2
    for (int g = 0; g < 2; ++g) {
      gs_bfly<false>(p[4 * g], p[4 * g + 1], zp(kNtt.inv7[2 * g]));
      gs_bfly<false>(p[4 * g + 2], p[4 * g + 3], zp(kNtt.inv7[2 * g + 1]));
      gs_bfly<false>(p[4 * g], p[4 * g + 2], zp(kNtt.inv6[g]));
      gs_bfly<false>(p[4 * g + 1], p[4 * g + 3], zp(kNtt.inv6[g]));
    }
#pragma GCC unroll 8
    for (int q = 0; q < 8; ++q) store_rows(a, 2 * q, p[q]);
  }
  {  // inverse layer 5, then the 128-bit exchange between rows k and k + 8
    const ZPair z = zp(kNtt.inv5);
#pragma GCC unroll 4
    for (int k = 0; k < 8; k += 2) {
      __m512i x = load_rows(a, k), y = load_rows(a, k + 8);
      gs_bfly<true>(x, y, z);
      store_rows(a, k, blocks_even(x, y));
      store_rows(a, k + 8, blocks_odd(x, y));
    }
  }
  {  // both halves' in-lane 8 x 8 transposition, then inverse layers 4..2
    __m512i r[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) r[j] = load_halves(a, j);
    transpose8x8<16>(r, r);
    x86::ntt_layers_2_to_4<true>(r, [](__m512i& x, __m512i& y, int m, int j) {
      const std::int16_t z0 = kZ.z[x86::inverse_ntt_zeta_index(m, j)];
      const std::int16_t z1 = kZ.z[x86::inverse_ntt_zeta_index(m, 8 + j)];
      const ZPair z{bcast2(z0, z1), bcast2(twist(z0), twist(z1))};
      if (m == 2)  // layer 2 reduces its sums, as in the AVX2 kernel
        gs_bfly<true>(x, y, z);
      else
        gs_bfly<false>(x, y, z);
    });
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) store_halves(a, j, r[j]);
  }
  {                                           // inverse layer 1 (rows i and i + 8) and the scaling by 128^-1 R^2
    constexpr std::int16_t kInvScale = 1441;  // as in ntt_code.hpp and the AVX2 kernel
    const ZPair z{set16(kZ.z[1]), set16(twist(kZ.z[1]))};
    const __m512i sc = set16(kInvScale), sct = set16(twist(kInvScale));
#pragma GCC unroll 4
    for (int i = 0; i < 8; i += 2) {
      __m512i x = load_rows(a, i), y = load_rows(a, i + 8);
      gs_bfly<false>(x, y, z);
      store_rows(a, i, mul_zeta(x, sc, sct));
      store_rows(a, i + 8, mul_zeta(y, sc, sct));
    }
  }
}

// Registers (2m, 2m+1) hold the two coefficients of the 16 pairs 8i + m (AVX2 order). Two
// values of m at once: the 128-bit blocks of [a0 a1]_m and [a0 a1]_{m+1} are regrouped into
// [a0_m a0_{m+1}] and [a1_m a1_{m+1}], the arithmetic is the AVX2 kernel's, and the results
// are regrouped back.
void inner_product_avx512(std::int16_t r[256], const std::int16_t* a, const std::int16_t* b, int k) noexcept {
  for (int h = 0; h < 4; ++h) {
    const __m512i gz = _mm512_load_si512(kGamma.z[h]), gzt = _mm512_load_si512(kGamma.zt[h]);
    __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
    for (int j = 0; j < k; ++j) {  // k <= 4 terms, each < 2q: |s| < 8q < 2^15
      const std::int16_t* pa = a + 256 * j + 64 * h;
      const std::int16_t* pb = b + 256 * j + 64 * h;
      const __m512i la = load(pa), ha = load(pa + 32), lb = load(pb), hb = load(pb + 32);
      const __m512i a0 = _mm512_shuffle_i64x2(la, ha, 0x44), a1 = _mm512_shuffle_i64x2(la, ha, 0xEE);
      const __m512i b0 = _mm512_shuffle_i64x2(lb, hb, 0x44), b1 = _mm512_shuffle_i64x2(lb, hb, 0xEE);
      s0 = _mm512_add_epi16(s0, _mm512_add_epi16(mul_zeta(fqmul(a1, b1), gz, gzt), fqmul(a0, b0)));
      s1 = _mm512_add_epi16(s1, _mm512_add_epi16(fqmul(a0, b1), fqmul(a1, b0)));
    }
    s0 = barrett(s0);
    s1 = barrett(s1);
    store(r + 64 * h, _mm512_shuffle_i64x2(s0, s1, 0x44));
    store(r + 64 * h + 32, _mm512_shuffle_i64x2(s0, s1, 0xEE));
  }
}

void tomont_add_reduce_avx512(std::int16_t t[256], const std::int16_t e[256]) noexcept {
  constexpr std::int16_t kR2 = 1353;  // R^2 mod q: fqmul(x, R^2) = x R mod q
  const __m512i r2 = set16(kR2), r2t = set16(twist(kR2));
  for (int i = 0; i < 256; i += 32)
    store(t + i, barrett(_mm512_add_epi16(mul_zeta(load(t + i), r2, r2t), load(e + i))));
}

void add_reduce_avx512(std::int16_t r[256], const std::int16_t a[256], const std::int16_t* b) noexcept {
  for (int i = 0; i < 256; i += 32) {
    __m512i x = _mm512_add_epi16(load(r + i), load(a + i));
    if (b != nullptr) x = _mm512_add_epi16(x, load(b + i));
    store(r + i, barrett(x));
  }
}

void sub_reduce_avx512(std::int16_t r[256], const std::int16_t a[256]) noexcept {
  for (int i = 0; i < 256; i += 32) store(r + i, barrett(_mm512_sub_epi16(load(a + i), load(r + i))));
}

}  // namespace pqkem::simd::avx512
