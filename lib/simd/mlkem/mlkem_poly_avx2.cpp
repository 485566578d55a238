// ML-KEM AVX2 kernels on polynomials: NTT, NTT^-1, base multiplication, reductions,
// ByteEncode/ByteDecode and Compress/Decompress (contracts in mlkem_avx2.hpp).
// Compiled with -mavx2 -mbmi -mbmi2 -mpopcnt; internal helpers have internal linkage, no STL.
#include <string.h>

#include "secret.hpp"  // secure_wipe: defined in portable code (secret.cpp)
#include "simd/mlkem/mlkem_avx2.hpp"
#include "simd/mlkem/mlkem_common_avx2.hpp"
#include "simd/mlkem/ntt_layers_x86.hpp"

namespace pqkem::simd::avx2 {
namespace {

using namespace detail;

// ---- twiddle tables ---------------------------------------------------------------------------

/// The zetas of mlkem/constants.hpp (the table the portable NTT uses). Indexed with constants
/// only (after unrolling), so every scalar zeta becomes an immediate.
constexpr mlkem::ZetaTable kZ = mlkem::kZetaTable;
constexpr std::int16_t zeta(int i) { return kZ.z[i]; }
static_assert(zeta(1) == -758 && zeta(127) == 1628);

constexpr std::int16_t twist(std::int16_t z) { return static_cast<std::int16_t>(z * kQInv); }

/// A vector of 16 constants and their twisted forms.
struct ZVec {
  std::int16_t z[16];
  std::int16_t zt[16];
};

template <class F>
constexpr ZVec make_zvec(F f) {
  ZVec v{};
  for (int i = 0; i < 16; ++i) {
    v.z[i] = f(i);
    v.zt[i] = twist(v.z[i]);
  }
  return v;
}

// In the AVX2 order register l, lane i holds FIPS index n = 16 i + l.
struct Tables {
  ZVec fwd5;      // layer 5, pairs (l, l+8):  zeta index 16 + n/16 = 16 + i
  ZVec fwd6[2];   // layer 6, pairs (l, l+4):  32 + n/8 = 32 + 2i + (l >> 3)
  ZVec fwd7[4];   // layer 7, pairs (l, l+2):  64 + n/4 = 64 + 4i + (l >> 2)
  ZVec inv7[4];   // inverse layer 7: 127 - n/4
  ZVec inv6[2];   // inverse layer 6: 63 - n/8
  ZVec inv5;      // inverse layer 5: 31 - n/16
  ZVec gamma[8];  // base multiplication, registers (2m, 2m+1): pair p = 8i + m,
                  // gamma = (-1)^(p mod 2) zeta[64 + p/2]
};

constexpr Tables make_tables() {
  Tables t{};
  t.fwd5 = make_zvec([](int i) { return zeta(16 + i); });
  for (int c = 0; c < 2; ++c) {
    t.fwd6[c] = make_zvec([c](int i) { return zeta(32 + 2 * i + c); });
    t.inv6[c] = make_zvec([c](int i) { return zeta(63 - 2 * i - c); });
  }
  for (int c = 0; c < 4; ++c) {
    t.fwd7[c] = make_zvec([c](int i) { return zeta(64 + 4 * i + c); });
    t.inv7[c] = make_zvec([c](int i) { return zeta(127 - 4 * i - c); });
  }
  t.inv5 = make_zvec([](int i) { return zeta(31 - i); });
  for (int m = 0; m < 8; ++m)
    t.gamma[m] = make_zvec([m](int i) {
      const std::int16_t z = zeta(64 + 4 * i + (m >> 1));
      return static_cast<std::int16_t>((m & 1) ? -z : z);
    });
  return t;
}

alignas(32) constexpr Tables kT = make_tables();

inline __m256i vz(const ZVec& v) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v.z)); }
inline __m256i vzt(const ZVec& v) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v.zt)); }

/// 128^-1 R^2 mod q: the final scaling of NTT^-1 (as in ntt_code.hpp).
constexpr std::int16_t kInvScale = 1441;

// Cooley-Tukey butterfly (forward): t = zeta y; y = x - t; x = x + t.
inline void ct_bfly(__m256i& x, __m256i& y, __m256i z, __m256i zt) {
  const __m256i t = mul_zeta(y, z, zt);
  y = _mm256_sub_epi16(x, t);
  x = _mm256_add_epi16(x, t);
}

// Gentleman-Sande butterfly (inverse): x = x + y (Barrett-reduced if `reduce`); y = zeta (y - x).
template <bool Reduce>
inline void gs_bfly(__m256i& x, __m256i& y, __m256i z, __m256i zt) {
  const __m256i t = x;
  const __m256i s = _mm256_add_epi16(t, y);
  x = Reduce ? barrett(s) : s;
  y = mul_zeta(_mm256_sub_epi16(y, t), z, zt);
}

}  // namespace

void transpose_avx2(std::int16_t a[256]) noexcept { transpose16_mem(a, a); }

// Layers 1..4 pair registers i and i + 8, 4, 2, 1 with one zeta per block (broadcast);
// layers 5..7 run after the 16 x 16 transposition as vertical butterflies with per-lane zetas.
// The butterflies and reductions are those of ntt_code.hpp, so the result is bit-exact. Bounds:
// each layer adds less than q, so |a_i| < 8q < 2^15 before the final Barrett reduction (the
// portable code's proven bound, the same values, is 16180 < 5q).
//
// Half a polynomial at a time: the transposition splits into an 8 x 8 transposition inside the
// 128-bit lanes of each half (registers 0..7, 8..15) and an exchange of 128-bit lanes between
// registers k and k + 8, so the work runs in four passes over memory that each hold at most
// eight registers of data (no spills): layer 1; per half, layers 2..4 and its in-lane
// transposition; the exchange with layer 5; per group of eight, layers 6 and 7 and the
// reduction. Measured against the whole-polynomial version (which kept 16 registers live and
// spilled 141 times): 215-231 -> 136-141 ticks a call.
void ntt_avx2(std::int16_t a[256]) noexcept {
  auto* v = reinterpret_cast<__m256i*>(a);
  {  // layer 1: registers i and i + 8
    const __m256i z = _mm256_set1_epi16(kZ.z[1]), zt = _mm256_set1_epi16(twist(kZ.z[1]));
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
      __m256i x = _mm256_loadu_si256(v + i), y = _mm256_loadu_si256(v + i + 8);
      ct_bfly(x, y, z, zt);
      _mm256_storeu_si256(v + i, x);
      _mm256_storeu_si256(v + i + 8, y);
    }
  }
#pragma GCC unroll 2
  for (int h = 0; h < 16; h += 8) {  // layers 2..4 on each half, then its in-lane 8 x 8 transpose
    __m256i r[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) r[j] = _mm256_loadu_si256(v + h + j);
    x86::ntt_layers_2_to_4<false>(r, [h](__m256i& x, __m256i& y, int m, int j) {
      const std::int16_t z = zeta(x86::ntt_zeta_index(m, h + j));
      ct_bfly(x, y, _mm256_set1_epi16(z), _mm256_set1_epi16(twist(z)));
    });
    transpose8x8<16>(r, r);
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) _mm256_storeu_si256(v + h + j, r[j]);
  }
  {  // the transposition's 128-bit exchange, with layer 5 (registers l and l + 8)
    const __m256i z = vz(kT.fwd5), zt = vzt(kT.fwd5);
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
      const __m256i c = _mm256_loadu_si256(v + k), d = _mm256_loadu_si256(v + 8 + k);
      __m256i x = _mm256_permute2x128_si256(c, d, 0x20), y = _mm256_permute2x128_si256(c, d, 0x31);
      ct_bfly(x, y, z, zt);
      _mm256_storeu_si256(v + k, x);
      _mm256_storeu_si256(v + 8 + k, y);
    }
  }
#pragma GCC unroll 2
  for (int g = 0; g < 16; g += 8) {  // layers 6 and 7 on each group of eight, then Barrett
    __m256i r[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) r[j] = _mm256_loadu_si256(v + g + j);
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j)
      if (!(j & 4)) ct_bfly(r[j], r[j + 4], vz(kT.fwd6[g >> 3]), vzt(kT.fwd6[g >> 3]));
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j)
      if (!(j & 2)) ct_bfly(r[j], r[j + 2], vz(kT.fwd7[(g + j) >> 2]), vzt(kT.fwd7[(g + j) >> 2]));
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) _mm256_storeu_si256(v + g + j, barrett(r[j]));
  }
}

// Mirror image of ntt_avx2, with the reductions of ntt_code.hpp: sums Barrett-reduced at
// layers 5 and 2, then the scaling by 128^-1 R^2. Bounds as in NttPlanEntry::inverse. The same
// four passes in reverse (the in-lane transpositions and the lane exchange commute): 241-252 ->
// 118-123 ticks a call.
void inverse_ntt_avx2(std::int16_t a[256]) noexcept {
  auto* v = reinterpret_cast<__m256i*>(a);
#pragma GCC unroll 2
  for (int g = 0; g < 16; g += 8) {  // inverse layers 7 and 6 on each group of eight
    __m256i r[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) r[j] = _mm256_loadu_si256(v + g + j);
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j)
      if (!(j & 2)) gs_bfly<false>(r[j], r[j + 2], vz(kT.inv7[(g + j) >> 2]), vzt(kT.inv7[(g + j) >> 2]));
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j)
      if (!(j & 4)) gs_bfly<false>(r[j], r[j + 4], vz(kT.inv6[g >> 3]), vzt(kT.inv6[g >> 3]));
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) _mm256_storeu_si256(v + g + j, r[j]);
  }
  {  // inverse layer 5 (registers l and l + 8), then the transposition's 128-bit exchange
    const __m256i z = vz(kT.inv5), zt = vzt(kT.inv5);
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
      __m256i x = _mm256_loadu_si256(v + k), y = _mm256_loadu_si256(v + 8 + k);
      gs_bfly<true>(x, y, z, zt);
      _mm256_storeu_si256(v + k, _mm256_permute2x128_si256(x, y, 0x20));
      _mm256_storeu_si256(v + 8 + k, _mm256_permute2x128_si256(x, y, 0x31));
    }
  }
#pragma GCC unroll 2
  for (int h = 0; h < 16; h += 8) {  // each half's in-lane 8 x 8 transpose, then inverse layers 4..2
    __m256i r[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) r[j] = _mm256_loadu_si256(v + h + j);
    transpose8x8<16>(r, r);
    x86::ntt_layers_2_to_4<true>(r, [h](__m256i& x, __m256i& y, int m, int j) {
      const std::int16_t z = zeta(x86::inverse_ntt_zeta_index(m, h + j));
      if (m == 2)  // layer 2 reduces its sums (ntt_code.hpp)
        gs_bfly<true>(x, y, _mm256_set1_epi16(z), _mm256_set1_epi16(twist(z)));
      else
        gs_bfly<false>(x, y, _mm256_set1_epi16(z), _mm256_set1_epi16(twist(z)));
    });
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) _mm256_storeu_si256(v + h + j, r[j]);
  }
  {  // inverse layer 1 (registers i and i + 8) and the scaling by 128^-1 R^2
    const __m256i z = _mm256_set1_epi16(kZ.z[1]), zt = _mm256_set1_epi16(twist(kZ.z[1]));
    const __m256i sc = _mm256_set1_epi16(kInvScale), sct = _mm256_set1_epi16(twist(kInvScale));
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
      __m256i x = _mm256_loadu_si256(v + i), y = _mm256_loadu_si256(v + i + 8);
      gs_bfly<false>(x, y, z, zt);
      _mm256_storeu_si256(v + i, mul_zeta(x, sc, sct));
      _mm256_storeu_si256(v + i + 8, mul_zeta(y, sc, sct));
    }
  }
}

namespace {

// BaseCaseMultiply (Algorithm 12) on registers (2m, 2m+1) of a and b: 16 pairs at once,
// with the operations of ntt_code.hpp's multiply_ntts_acc, so c0, c1 are bit-exact.
inline void basemul_pair(__m256i& c0, __m256i& c1, const std::int16_t* a, const std::int16_t* b, int m) {
  const __m256i a0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 32 * m));
  const __m256i a1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 32 * m + 16));
  const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 32 * m));
  const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 32 * m + 16));
  c0 = _mm256_add_epi16(mul_zeta(fqmul(a1, b1), vz(kT.gamma[m]), vzt(kT.gamma[m])), fqmul(a0, b0));
  c1 = _mm256_add_epi16(fqmul(a0, b1), fqmul(a1, b0));
}

}  // namespace

void multiply_ntts_acc_avx2(std::int16_t r[256], const std::int16_t a[256], const std::int16_t b[256]) noexcept {
  for (int m = 0; m < 8; ++m) {
    __m256i c0, c1;
    basemul_pair(c0, c1, a, b, m);
    auto* p0 = reinterpret_cast<__m256i*>(r + 32 * m);
    auto* p1 = reinterpret_cast<__m256i*>(r + 32 * m + 16);
    _mm256_storeu_si256(p0, _mm256_add_epi16(_mm256_loadu_si256(p0), c0));
    _mm256_storeu_si256(p1, _mm256_add_epi16(_mm256_loadu_si256(p1), c1));
  }
}

void inner_product_avx2(std::int16_t r[256], const std::int16_t* a, const std::int16_t* b, int k) noexcept {
  for (int m = 0; m < 8; ++m) {
    __m256i s0 = _mm256_setzero_si256(), s1 = _mm256_setzero_si256();
    for (int j = 0; j < k; ++j) {  // k <= 4 terms, each < 2q: |s| < 8q < 2^15
      __m256i c0, c1;
      basemul_pair(c0, c1, a + 256 * j, b + 256 * j, m);
      s0 = _mm256_add_epi16(s0, c0);
      s1 = _mm256_add_epi16(s1, c1);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(r + 32 * m), barrett(s0));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(r + 32 * m + 16), barrett(s1));
  }
}

void reduce_avx2(std::int16_t a[256]) noexcept {
  for (int i = 0; i < 256; i += 16) {
    auto* p = reinterpret_cast<__m256i*>(a + i);
    _mm256_storeu_si256(p, barrett(_mm256_loadu_si256(p)));
  }
}

void tomont_add_reduce_avx2(std::int16_t t[256], const std::int16_t e[256]) noexcept {
  constexpr std::int16_t kR2 = 1353;  // R^2 mod q: fqmul(x, R^2) = x R mod q
  const __m256i r2 = _mm256_set1_epi16(kR2), r2t = _mm256_set1_epi16(twist(kR2));
  for (int i = 0; i < 256; i += 16) {
    auto* p = reinterpret_cast<__m256i*>(t + i);
    const __m256i x = mul_zeta(_mm256_loadu_si256(p), r2, r2t);  // |x| < q
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(e + i));
    _mm256_storeu_si256(p, barrett(_mm256_add_epi16(x, y)));
  }
}

void add_reduce_avx2(std::int16_t r[256], const std::int16_t a[256], const std::int16_t* b) noexcept {
  for (int i = 0; i < 256; i += 16) {
    auto* p = reinterpret_cast<__m256i*>(r + i);
    __m256i x = _mm256_add_epi16(_mm256_loadu_si256(p), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i)));
    if (b != nullptr) x = _mm256_add_epi16(x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i)));
    _mm256_storeu_si256(p, barrett(x));
  }
}

void sub_reduce_avx2(std::int16_t r[256], const std::int16_t a[256]) noexcept {
  for (int i = 0; i < 256; i += 16) {
    auto* p = reinterpret_cast<__m256i*>(r + i);
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
    _mm256_storeu_si256(p, barrett(_mm256_sub_epi16(x, _mm256_loadu_si256(p))));
  }
}

// ---- ByteEncode_d / ByteDecode_d ---------------------------------------------------------------
namespace {

/// pshufb controls for packing: within a 128-bit lane, qword 0 holds 4 d-bit values (4d bits)
/// and qword 1 the next 4, pre-shifted left by 4d mod 8 bits; output byte j (j < d) is byte j
/// of qword 0 OR byte j - floor(4d/8) of qword 1.
struct PackCtl {
  std::uint8_t a[16];
  std::uint8_t b[16];
};
constexpr PackCtl make_pack_ctl(int d) {
  PackCtl c{};
  const int full = (4 * d + 7) / 8, f = (4 * d) / 8;
  for (int j = 0; j < 16; ++j) {
    c.a[j] = (j < d && j < full) ? static_cast<std::uint8_t>(j) : 0x80;
    c.b[j] = (j < d && j >= f && j - f < 8) ? static_cast<std::uint8_t>(8 + j - f) : 0x80;
  }
  return c;
}

/// pshufb controls and shifts for unpacking 8 d-bit values from d bytes in a 128-bit lane:
/// value k starts at bit k d: 32-bit lane t of `even` gets bytes from (2t d)/8, of `odd` from
/// ((2t+1) d)/8, shifted right by the bit offset.
struct UnpackCtl {
  std::uint8_t even[16];
  std::uint8_t odd[16];
  std::int32_t se[4];
  std::int32_t so[4];
};
constexpr UnpackCtl make_unpack_ctl(int d) {
  UnpackCtl c{};
  for (int t = 0; t < 4; ++t) {
    const int be = (2 * t * d) / 8, bo = ((2 * t + 1) * d) / 8;
    for (int k = 0; k < 4; ++k) {
      c.even[4 * t + k] = static_cast<std::uint8_t>(be + k);
      c.odd[4 * t + k] = static_cast<std::uint8_t>(bo + k);
    }
    c.se[t] = (2 * t * d) % 8;
    c.so[t] = ((2 * t + 1) * d) % 8;
  }
  return c;
}

template <int D>
struct Ctl {
  static constexpr PackCtl pack = make_pack_ctl(D);
  static constexpr UnpackCtl unpack = make_unpack_ctl(D);
};

inline __m256i bcast128(const std::uint8_t* p) {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

/// Packs 16 values < 2^D (one register) into 2D bytes: bytes 0..D-1 in the low 128-bit lane,
/// bytes D..2D-1 in the high one.
template <int D>
inline __m256i pack16(__m256i x) {
  // pairs: lo + hi 2^D in 32-bit lanes (2D bits)
  __m256i w = _mm256_madd_epi16(x, _mm256_set1_epi32(1 | (1 << (16 + D))));
  // quads: lo + hi 2^(2D) in 64-bit lanes (4D bits)
  w = _mm256_sllv_epi32(w, _mm256_set_epi32(0, 32 - 2 * D, 0, 32 - 2 * D, 0, 32 - 2 * D, 0, 32 - 2 * D));
  w = _mm256_srli_epi64(w, 32 - 2 * D);
  constexpr int s = (4 * D) % 8;
  if constexpr (s != 0) w = _mm256_sllv_epi64(w, _mm256_set_epi64x(s, 0, s, 0));
  const __m256i a = _mm256_shuffle_epi8(w, bcast128(Ctl<D>::pack.a));
  const __m256i b = _mm256_shuffle_epi8(w, bcast128(Ctl<D>::pack.b));
  return _mm256_or_si256(a, b);
}

/// Inverse of pack16: x holds bytes 0..D-1 of 8 values in the low lane and of the next 8 in
/// the high lane (bytes beyond are ignored). Out: 16 values < 2^D.
template <int D>
inline __m256i unpack16(__m256i x) {
  const __m256i mask = _mm256_set1_epi32((1 << D) - 1);
  const __m256i se = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(Ctl<D>::unpack.se)));
  const __m256i so = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(Ctl<D>::unpack.so)));
  const __m256i e =
      _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(x, bcast128(Ctl<D>::unpack.even)), se), mask);
  const __m256i o = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(x, bcast128(Ctl<D>::unpack.odd)), so), mask);
  return _mm256_or_si256(e, _mm256_slli_epi32(o, 16));
}

/// Groups (16 values, 2D bytes) whose 16-byte accesses at 2Dg and 2Dg + D stay inside the 32D
/// bytes of a ByteEncode_D string; the rest go through a small buffer.
template <int D>
constexpr int kDirectGroups = (31 * D - 16) / (2 * D) + 1 < 16 ? (31 * D - 16) / (2 * D) + 1 : 16;
static_assert(kDirectGroups<4> == 14 && kDirectGroups<5> == 14 && kDirectGroups<10> == 15 && kDirectGroups<11> == 15);

/// ByteEncode_D of 256 values < 2^D given as 16 registers produced by `get(g)`, written in place:
/// each group's high 16-byte store also writes bytes that the next group's stores overwrite; the
/// last groups go through a 64-byte buffer, so nothing is written past 32 D bytes.
template <int D, class Get>
inline void encode_poly(std::uint8_t* out, Get get) {
  constexpr int kDirect = kDirectGroups<D>;
  for (int g = 0; g < kDirect; ++g) {
    const __m256i p = pack16<D>(get(g));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * D * g), _mm256_castsi256_si128(p));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * D * g + D), _mm256_extracti128_si256(p, 1));
  }
  alignas(16) std::uint8_t tail[64];
  for (int g = kDirect; g < 16; ++g) {
    const __m256i p = pack16<D>(get(g));
    std::uint8_t* o = tail + 2 * D * (g - kDirect);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), _mm256_castsi256_si128(p));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + D), _mm256_extracti128_si256(p, 1));
  }
  memcpy(out + 2 * D * kDirect, tail, 2 * D * (16 - kDirect));
  // Secret in decapsulation (the re-encryption c' reveals m' when the ciphertext was crafted).
  secure_wipe(tail, sizeof tail);
}

/// The two 128-bit halves of group g (2D bytes at p): bytes p[0 .. 16) low, p[D .. D + 16) high.
template <int D>
inline __m256i load_group(const std::uint8_t* p) {
  return _mm256_set_m128i(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + D)),
                          _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

/// ByteDecode_D read in place, groups handed to put(g, halves) as load_group gives them; the last
/// groups are read from a zero-padded copy, so nothing is read past 32 D bytes.
template <int D, class Put>
inline void decode_groups(const std::uint8_t* in, Put put) {
  constexpr int kDirect = kDirectGroups<D>;
  for (int g = 0; g < kDirect; ++g) put(g, load_group<D>(in + 2 * D * g));
  alignas(16) std::uint8_t tail[64] = {};
  memcpy(tail, in + 2 * D * kDirect, 2 * D * (16 - kDirect));
  for (int g = kDirect; g < 16; ++g) put(g, load_group<D>(tail + 2 * D * (g - kDirect)));
  // Ciphertext only (public): D = 1, the secret message, has its own decoder.
}

/// Decompress_D(ByteDecode_D) of one group for D <= 10, where each value's D bits lie within the
/// two bytes starting at byte floor(k D / 8) of its half: pshufb gathers those bytes into 16-bit
/// lane k, mullo by 2^(16 - D - off_k) lifts the field to the top, a shift and a mask leave
/// y 2^(15 - D), and mulhrs by q gives (q y + 2^(D-1)) >> D.
struct Gather16Ctl {
  std::uint8_t idx[16];
  std::int16_t mul[8];
};
constexpr Gather16Ctl make_gather16(int d) {
  Gather16Ctl c{};
  for (int k = 0; k < 8; ++k) {
    const int b = (k * d) / 8, off = (k * d) % 8;
    c.idx[2 * k] = static_cast<std::uint8_t>(b);
    c.idx[2 * k + 1] = static_cast<std::uint8_t>(b + 1);
    c.mul[k] = static_cast<std::int16_t>(1 << (16 - d - off));
  }
  return c;
}
template <int D>
inline constexpr Gather16Ctl kGather16 = make_gather16(D);

template <int D>
inline __m256i decompress_group16(__m256i halves) {
  static_assert(D <= 10, "the D bits of every value must fit two bytes");
  const __m256i x = _mm256_shuffle_epi8(halves, bcast128(kGather16<D>.idx));
  const __m256i mul = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kGather16<D>.mul)));
  const __m256i top = _mm256_mullo_epi16(x, mul);
  const __m256i y = _mm256_and_si256(_mm256_srli_epi16(top, 1),
                                     _mm256_set1_epi16(static_cast<std::int16_t>(((1 << D) - 1) << (15 - D))));
  return _mm256_mulhrs_epi16(y, _mm256_set1_epi16(kQ));
}

// Compress_d(x) = round(2^d x / q) mod 2^d for 0 <= x < q.
//
// d <= 5: u = hi(5040 x), with 5040 = round(2^24 / q), is an 8-bit fixed-point estimate of
// 2^8 x / q, and round(u / 2^(8-d)) (one mulhrs) is already exact for every x in [0, q) when
// d is 1, 4 or 5: two multiplications. (Found and checked by exhaustive search, and checked
// again for every value by the tests; no such pair of constants exists for d = 10 or 11.)
//
// d = 10, 11: estimate y' = round(hi(16 x B) / 16) with B = round(2^(16+d) / q): |y' - y| <= 1
// (error of hi() under 1.41 units of 1/16). The remainder r = 2^(d+1) x + q - 2q y', computed
// mod 2^16, is then exact (its true value lies in [-2q, 4q)), and y = y' + [r >= 2q] - [r < 0].
// Checked exhaustively in the tests.
template <int D>
inline __m256i compress16(__m256i a) {
  if constexpr (D <= 5) {
    const __m256i u = _mm256_mulhi_epu16(to_canonical(a), _mm256_set1_epi16(5040));
    const __m256i y = _mm256_mulhrs_epi16(u, _mm256_set1_epi16(static_cast<std::int16_t>(1 << (7 + D))));
    return _mm256_and_si256(y, _mm256_set1_epi16((1 << D) - 1));
  } else {
    constexpr std::uint16_t kB = static_cast<std::uint16_t>(((1u << (16 + D)) + kQ / 2) / kQ);
    const __m256i x = to_canonical(a);
    const __m256i v = _mm256_mulhi_epu16(_mm256_slli_epi16(x, 4), _mm256_set1_epi16(static_cast<std::int16_t>(kB)));
    __m256i y = _mm256_srli_epi16(_mm256_add_epi16(v, _mm256_set1_epi16(8)), 4);
    const __m256i n = _mm256_add_epi16(_mm256_slli_epi16(x, D + 1), _mm256_set1_epi16(kQ));
    const __m256i r = _mm256_sub_epi16(n, _mm256_mullo_epi16(y, _mm256_set1_epi16(2 * kQ)));
    const __m256i ge = _mm256_cmpgt_epi16(r, _mm256_set1_epi16(2 * kQ - 1));  // -1 where r >= 2q
    const __m256i lt = _mm256_srai_epi16(r, 15);                              // -1 where r < 0
    y = _mm256_add_epi16(_mm256_sub_epi16(y, ge), lt);
    return _mm256_and_si256(y, _mm256_set1_epi16((1 << D) - 1));
  }
}

/// Decompress_d(y) = (q y + 2^(d-1)) >> d = mulhrs(y 2^(15-d), q). In: 0 <= y < 2^d.
template <int D>
inline __m256i decompress16(__m256i y) {
  return _mm256_mulhrs_epi16(_mm256_slli_epi16(y, 15 - D), _mm256_set1_epi16(kQ));
}

inline __m256i load_reg(const std::int16_t* a, int g) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 16 * g));
}
inline void store_reg(std::int16_t* a, int g, __m256i v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + 16 * g), v);
}

// ByteEncode_12 / ByteDecode_12 (the keys' 12-bit encodings), specialized: 16 values are 24
// bytes, the low 128-bit lane's 8 values bytes 0..11 and the high lane's bytes 12..23, both
// written and read in place (no staging buffer). madd joins each pair into a 24-bit value in a
// 32-bit lane, one pshufb drops each lane's top byte; decoding reverses it with one pshufb.

/// 12 bytes per 128-bit lane (the upper 4 bytes of each lane zero) from 16 values < 2^12.
inline __m256i pack12(__m256i x) {
  const __m256i w = _mm256_madd_epi16(x, _mm256_set1_epi32(1 | (1 << 28)));                      // a_2i + 2^12 a_2i+1
  const __m256i drop = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,  //
                                        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
  return _mm256_shuffle_epi8(w, drop);
}

/// ByteEncode_12 of the 256 values < 2^12 given by get(g), g = 0..15, into out[0 .. 384). Each
/// group's two 16-byte stores also write 4 bytes past its 24, which the next group's first store
/// overwrites; the last group's upper 12 bytes go out as 8 + 4 so nothing is written past 384.
template <class Get>
inline void encode12_poly(std::uint8_t* out, Get get) {
  for (int g = 0; g < 16; ++g) {
    const __m256i p = pack12(get(g));
    std::uint8_t* o = out + 24 * g;
    const __m128i lo = _mm256_castsi256_si128(p), hi = _mm256_extracti128_si256(p, 1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o), lo);
    if (g < 15) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o + 12), hi);
    } else {
      _mm_storel_epi64(reinterpret_cast<__m128i*>(o + 12), hi);
      const int last = _mm_cvtsi128_si32(_mm_srli_si128(hi, 8));
      memcpy(o + 20, &last, 4);
    }
  }
}

/// ByteDecode_12 of in[0 .. 384) into 16 registers handed to put(g, values), values < 2^12.
/// Group g reads bytes 24g .. 24g+15 and 24g+12 .. 24g+27; the last reads its upper half from
/// 24g+8 and shifts it down, so nothing is read past 384. 16-bit lane 2i takes bytes (3i, 3i+1)
/// and keeps 12 bits, lane 2i+1 bytes (3i+1, 3i+2) shifted right by 4.
template <class Put>
inline void decode12_poly(const std::uint8_t* in, Put put) {
  const __m256i spread = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,  //
                                          0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11);
  const __m256i low12 = _mm256_set1_epi16(0x0FFF);
  for (int g = 0; g < 16; ++g) {
    const std::uint8_t* p = in + 24 * g;
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hi = g < 15 ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 12))
                              : _mm_srli_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 8)), 4);
    const __m256i y = _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), spread);
    put(g, _mm256_blend_epi16(_mm256_and_si256(y, low12), _mm256_srli_epi16(y, 4), 0xAA));
  }
}

template <int D>
void compress_encode(std::uint8_t* out, const std::int16_t* a) {
  encode_poly<D>(out, [a](int g) { return compress16<D>(load_reg(a, g)); });
}

template <int D>
void decode_decompress(std::int16_t* a, const std::uint8_t* in) {
  if constexpr (D <= 10) {
    decode_groups<D>(in, [a](int g, __m256i v) { store_reg(a, g, decompress_group16<D>(v)); });
  } else {
    decode_groups<D>(in, [a](int g, __m256i v) { store_reg(a, g, decompress16<D>(unpack16<D>(v))); });
  }
}

// D = 4 (v of ML-KEM-512 and -768): 64 values per 32 bytes. packus makes bytes of four
// registers, maddubs joins each pair of nibbles (lo + 16 hi), packus again, and one dword
// permutation restores the order across the 128-bit lanes. No staging buffer.
void compress_encode_4(std::uint8_t* out, const std::int16_t* a) {
  const __m256i nibbles = _mm256_set1_epi16(0x1001);  // byte multipliers 1 (even), 16 (odd)
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  for (int i = 0; i < 4; ++i) {
    const __m256i c0 = compress16<4>(load_reg(a, 4 * i)), c1 = compress16<4>(load_reg(a, 4 * i + 1));
    const __m256i c2 = compress16<4>(load_reg(a, 4 * i + 2)), c3 = compress16<4>(load_reg(a, 4 * i + 3));
    const __m256i y0 = _mm256_maddubs_epi16(_mm256_packus_epi16(c0, c1), nibbles);
    const __m256i y1 = _mm256_maddubs_epi16(_mm256_packus_epi16(c2, c3), nibbles);
    const __m256i z = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(y0, y1), order);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * i), z);
  }
}

// D = 1, the message m (secret): 32 values per 4 bytes. Encoding: packs to bytes, restores their
// order across the 128-bit lanes, moves each bit to the top of its byte, and movemask gathers
// them. Decoding: each 16-bit lane tests its own bit of a broadcast 16-bit word; a set bit
// becomes Decompress_1(1) = 1665. Neither leaves a copy of m behind.
void compress_encode_1(std::uint8_t* out, const std::int16_t* a) {
  for (int i = 0; i < 8; ++i) {
    const __m256i c0 = compress16<1>(load_reg(a, 2 * i)), c1 = compress16<1>(load_reg(a, 2 * i + 1));
    const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packs_epi16(c0, c1), 0xD8);
    const int bits = _mm256_movemask_epi8(_mm256_slli_epi16(bytes, 7));
    memcpy(out + 4 * i, &bits, 4);
  }
}

void decode_decompress_1(std::int16_t* a, const std::uint8_t* in) {
  const __m256i bit = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
                                        static_cast<std::int16_t>(0x8000));
  const __m256i half_q = _mm256_set1_epi16((kQ + 1) / 2);
  for (int g = 0; g < 16; ++g) {
    std::int16_t w;
    memcpy(&w, in + 2 * g, 2);
    const __m256i set = _mm256_cmpeq_epi16(_mm256_and_si256(_mm256_set1_epi16(w), bit), bit);
    store_reg(a, g, _mm256_and_si256(set, half_q));
  }
}

}  // namespace

void decode12_avx2(std::int16_t a[256], const std::uint8_t in[384]) noexcept {
  // Rows decoded straight into a (no stack copy of a secret key's values), then transposed there.
  // (Transposing eight decoded rows in registers before storing them measured slower: 47 -> 63.)
  decode12_poly(in, [a](int g, __m256i v) { store_reg(a, g, cond_sub_q(v)); });
  transpose16_mem(a, a);
}

void encode12_avx2(std::uint8_t out[384], const std::int16_t a[256]) noexcept {
  alignas(32) std::int16_t t[256];
  transpose16_mem(t, a);
  encode12_poly(out, [&t](int g) { return to_canonical(load_reg(t, g)); });
  secure_wipe(t, sizeof t);  // may be a secret key
}

bool is_canonical12_avx2(const std::uint8_t in[384]) noexcept {
  __m256i bad = _mm256_setzero_si256();
  decode12_poly(
      in, [&bad](int, __m256i v) { bad = _mm256_or_si256(bad, _mm256_cmpgt_epi16(v, _mm256_set1_epi16(kQ - 1))); });
  return _mm256_testz_si256(bad, bad) != 0;
}

void compress_encode_avx2(std::uint8_t* out, const std::int16_t a[256], int d) noexcept {
  switch (d) {
    case 1: compress_encode_1(out, a); break;
    case 4: compress_encode_4(out, a); break;
    case 5: compress_encode<5>(out, a); break;
    case 10: compress_encode<10>(out, a); break;
    case 11: compress_encode<11>(out, a); break;
    default: break;
  }
}

void decode_decompress_avx2(std::int16_t a[256], const std::uint8_t* in, int d) noexcept {
  switch (d) {
    case 1: decode_decompress_1(a, in); break;
    case 4: decode_decompress<4>(a, in); break;
    case 5: decode_decompress<5>(a, in); break;
    case 10: decode_decompress<10>(a, in); break;
    case 11: decode_decompress<11>(a, in); break;
    default: break;
  }
}

}  // namespace pqkem::simd::avx2
