// Built once per x86 ISA: ntru_r2_inv_avx2.cpp and ntru_r2_inv_avx512.cpp include this file.
// NTRU S2 inversion in AVX2 (ntru_kernels.inc has the contract):
// constant-time Bernstein-Yang divsteps on reversed GF(2) polynomials (the method is described in
// ntru_divsteps_avx2.hpp: f = Phi_n, g = reversal of a mod Phi_n, delta = 1, v = 0, w = 1,
// 2(n - 1) - 1 steps, then v reversed is a^-1), run as "jump" divsteps: blocks of kJump steps.
// The Rq inversion (ntru_rq_inv_x86.hpp) lifts this inverse by Newton iteration.
//
// The decisions of s consecutive divsteps depend only on delta and the low s bits of f and g.
// So each block runs s scalar divsteps on the low 64-bit words of f and g and accumulates the
// transition matrix of GF(2)[x] polynomials (U, V; Q, R) of degree <= s:
//   x^s f' = U f + V g,   x^s g' = Q f + R g,
// then applies it to the full f, g (carry-less products, XOR-accumulated, shifted down by s bits)
// and to v, w. The scalar steps run in sub-blocks of kSub steps on one packed word per row
// (U, V and the low bits of F), about 14 instructions per step; each sub-block's matrix is
// multiplied into the block's, and moves the low words of f and g on, with PCLMUL. Over GF(2) one divstep (c = g_0,
// swap iff delta > 0 and c = 1, f_0 = 1) is
//   (f, g) <- (swap ? g : f,  (g + c f) / x),   (v, w) <- (swap ? w : x v,  w + c x v),
// so with the scaled rows F = x^j f_j, G = x^j g_j after j steps: F <- x (swap ? G : F),
// G <- G + c F, and the same update on the rows (U, V), (Q, R) of the matrix. The (v, w) step is
// the (f, g) step conjugated by diag(1, x), so over a block
//   v' = U v + (V / x) w,   w' = (x Q) v + R w   (V is divisible by x, deg x Q <= s).
// The instruction sequence depends on n only; the data only select register values (cmov) or
// masks. Packing a into bits and the output back to coefficients are vectorized (a plain bit loop
// over n coefficients cost as much as the divsteps).
#pragma once
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "secret.hpp"  // secure_wipe: defined in portable code (secret.cpp)
#include "simd/ntru/ntru_common_avx2.hpp"
#include "simd/ntru/ntru_divsteps_avx2.hpp"
#include "simd/ntru/ntru_isa.hpp"

namespace pqkem::simd::PQKEM_NTRU_NS {
namespace {

/// Steps per block: kSub scalar divsteps on packed words, kSubs of them per block of
/// kJump = kSub kSubs steps, whose matrix entries (degree <= kJump) must fit in a 64-bit word
/// (so kJump <= 63). kSub = 20 is the most the packed rows below hold.
constexpr int kSub = 20;
constexpr int kSubs = 3;
constexpr int kJump = kSub * kSubs;
// A packed row holds (U, V, F) at bits [0, 21), [21, 42), [42, 64): the coefficients of f and
// g (degree <= kSub) and the low 22 bits of the scaled F = U f + V g (step j reads bit j of the
// G row's field; the bits that overflow at the top are not needed).
constexpr int kVPos = 21, kFPos = 42;
constexpr std::uint64_t kFieldMask = (std::uint64_t{1} << 21) - 1;

/// Block transition: m1 = (U, Q), m2 = (V, R) (low, high qword) for (f, g), and
/// n1 = (U, x Q), n2 = (V / x, R) for (v, w).
struct Jump {
  __m128i m1, m2, n1, n2;
};

/// Divstep state: t = -delta, so delta > 0 iff t < 0. A swap sets delta to 1 - delta (t to ~t),
/// otherwise delta grows by one (t to t - 1).
struct Delta {
  std::int64_t t;
};

/// Divstep J of a sub-block on the packed rows, db = (delta > 0) << (kFPos + J). In assembly so
/// that the data only select between register values (cmov), never steer a branch:
///   c = bit kFPos + J of the G row (g_0), swap = c and delta > 0 (test rg, db);
///   F row <- 2 (swap ? G row : F row), t <- swap ? ~t : t - 1,
///   db <- swap ? 0 : (t - 1 < 0) << (kFPos + J + 1)  (after a swap delta <= 0);
///   G row <- c ? G row ^ F row : G row.
template <int J>
[[gnu::always_inline]] inline void divstep(std::uint64_t& rf, std::uint64_t& rg, std::int64_t& t,
                                           std::uint64_t& db) noexcept {
  std::uint64_t f2, g2, x, tm1, nt, b;
  const std::uint64_t zero = 0, c63 = 63;  // (BMI2 shrx; no BMI1 instruction: not in the CPU check)
  __asm__(
      "lea (%[rf],%[rf]), %[f2]\n\t"
      "lea (%[rg],%[rg]), %[g2]\n\t"
      "mov %[rg], %[x]\n\t"
      "xor %[rf], %[x]\n\t"
      "lea -1(%[t]), %[tm1]\n\t"
      "mov %[t], %[nt]\n\t"
      "not %[nt]\n\t"
      "shrx %[c63], %[tm1], %[b]\n\t"
      "shl %[next], %[b]\n\t"
      "test %[db], %[rg]\n\t"
      "cmovnz %[g2], %[f2]\n\t"
      "cmovnz %[nt], %[tm1]\n\t"
      "cmovnz %[zero], %[b]\n\t"
      "bt %[pos], %[rg]\n\t"
      "cmovc %[x], %[rg]\n\t"
      : [f2] "=&r"(f2), [g2] "=&r"(g2), [x] "=&r"(x), [tm1] "=&r"(tm1), [nt] "=&r"(nt), [b] "=&r"(b), [rg] "+r"(rg)
      : [rf] "r"(rf), [t] "r"(t), [db] "r"(db), [zero] "r"(zero), [c63] "r"(c63), [next] "i"(kFPos + J + 1),
        [pos] "i"(kFPos + J)
      : "cc");
  rf = f2, t = static_cast<std::int64_t>(tm1), db = b;
}

/// CNT <= kSub divsteps on the packed rows.
template <int CNT>
[[gnu::always_inline]] inline void sub_divsteps(std::uint64_t& row_f, std::uint64_t& row_g, Delta& d) noexcept {
  static_assert(CNT <= kSub && kFPos + kSub <= 63);
  std::uint64_t rf = row_f, rg = row_g, db = (static_cast<std::uint64_t>(d.t) >> 63) << kFPos;
  std::int64_t t = d.t;
  [&]<int... J>(std::integer_sequence<int, J...>) __attribute__((always_inline)) { (divstep<J>(rf, rg, t, db), ...); }
  (std::make_integer_sequence<int, CNT>{});
  row_f = rf, row_g = rg, d.t = t;
  rf = rg = db = 0;
  __asm__ volatile("" : : "r"(rf), "r"(rg), "r"(db));
}

/// Product of two 2x2 matrices given by their rows (low qword, high qword), a1 = (a11, a12),
/// a2 = (a21, a22), and b1, b2, whose entry products have degree < 64: the rows of a b.
inline void mat_mul(__m128i& r1, __m128i& r2, __m128i a1, __m128i a2, __m128i b1, __m128i b2) noexcept {
  // row i of a * b = a_i1 * b1 + a_i2 * b2 (componentwise over the two columns)
  const __m128i x0 = _mm_xor_si128(_mm_clmulepi64_si128(a1, b1, 0x00), _mm_clmulepi64_si128(a1, b2, 0x01));
  const __m128i x1 = _mm_xor_si128(_mm_clmulepi64_si128(a1, b1, 0x10), _mm_clmulepi64_si128(a1, b2, 0x11));
  const __m128i y0 = _mm_xor_si128(_mm_clmulepi64_si128(a2, b1, 0x00), _mm_clmulepi64_si128(a2, b2, 0x01));
  const __m128i y1 = _mm_xor_si128(_mm_clmulepi64_si128(a2, b1, 0x10), _mm_clmulepi64_si128(a2, b2, 0x11));
  r1 = _mm_unpacklo_epi64(x0, x1);
  r2 = _mm_unpacklo_epi64(y0, y1);
}

/// One block of SUBS kSub + LAST steps from delta and fg0 = (f_lo, g_lo), the low 64 bits of f
/// and g. Returns the scaled transition matrix; delta is updated.
template <int SUBS, int LAST>
inline Jump jump_divsteps(Delta& d, __m128i fg0) noexcept {
  static_assert(SUBS * kSub + LAST <= kJump && kJump <= 63);
  // Rows of the accumulated matrix: a1 = (U, V), a2 = (Q, R). fg = (f_lo, g_lo) is exact in its
  // low 64 - (steps done) bits, which is all the later sub-blocks of the block read.
  __m128i a1 = _mm_set_epi64x(0, 1), a2 = _mm_set_epi64x(1, 0), fg = fg0;
  std::uint64_t rf = 1 | (static_cast<std::uint64_t>(_mm_cvtsi128_si64(fg)) << kFPos);
  std::uint64_t rg = (std::uint64_t{1} << kVPos) | (static_cast<std::uint64_t>(_mm_extract_epi64(fg, 1)) << kFPos);
  auto sub = [&]<int CNT, bool MORE>() __attribute__((always_inline)) {
    sub_divsteps<CNT>(rf, rg, d);
    // s1 = (U, V), s2 = (Q, R) of this sub-block
    const __m128i s1 =
        _mm_set_epi64x(static_cast<long long>((rf >> kVPos) & kFieldMask), static_cast<long long>(rf & kFieldMask));
    const __m128i s2 =
        _mm_set_epi64x(static_cast<long long>((rg >> kVPos) & kFieldMask), static_cast<long long>(rg & kFieldMask));
    if constexpr (MORE) {
      // (x^CNT f', x^CNT g') = (U f_lo + V g_lo, Q f_lo + R g_lo), low 64 bits (their low CNT bits
      // are 0); the next rows take bits [CNT, CNT + 22) of them.
      const __m128i p0 = _mm_xor_si128(_mm_clmulepi64_si128(s1, fg, 0x00), _mm_clmulepi64_si128(s1, fg, 0x11));
      const __m128i p1 = _mm_xor_si128(_mm_clmulepi64_si128(s2, fg, 0x00), _mm_clmulepi64_si128(s2, fg, 0x11));
      rf = 1 | (static_cast<std::uint64_t>(_mm_cvtsi128_si64(p0)) << (kFPos - CNT));
      rg = (std::uint64_t{1} << kVPos) | (static_cast<std::uint64_t>(_mm_cvtsi128_si64(p1)) << (kFPos - CNT));
      fg = _mm_srli_epi64(_mm_unpacklo_epi64(p0, p1), CNT);
    }
    mat_mul(a1, a2, s1, s2, a1, a2);
  };
  [&]<int... I>(std::integer_sequence<int, I...>) __attribute__((always_inline)) {
    ((sub.template operator()<kSub, (I + 1 < SUBS || LAST > 0)>()), ...);
  }
  (std::make_integer_sequence<int, SUBS>{});
  if constexpr (LAST > 0) sub.template operator()<LAST, false>();
  Jump m;
  m.m1 = _mm_unpacklo_epi64(a1, a2);  // (U, Q)
  m.m2 = _mm_unpackhi_epi64(a1, a2);  // (V, R)
  m.n1 = _mm_sllv_epi64(m.m1, _mm_set_epi64x(1, 0));
  m.n2 = _mm_srlv_epi64(m.m2, _mm_set_epi64x(0, 1));
  a1 = a2 = fg = _mm_setzero_si128();
  rf = rg = 0;
  __asm__ volatile("" : : "x"(a1), "x"(a2), "x"(fg), "r"(rf), "r"(rg));
  return m;
}

/// Products of the block matrix with the words x[j] = (a_j, b_j) (low, high qword):
/// p[j] = (m1.lo a_j + m2.lo b_j, m1.hi a_j + m2.hi b_j) as 128-bit products, returned as
/// lo[j] = (low qwords), hi[j] = (high qwords), so that word k of the two results is lo[k] ^ hi[k-1].
inline void mat_words(__m128i& lo, __m128i& hi, __m128i m1, __m128i m2, __m128i x) noexcept {
  const __m128i a0 = _mm_clmulepi64_si128(m1, x, 0x00);  // m1.lo * a
  const __m128i b0 = _mm_clmulepi64_si128(m2, x, 0x10);  // m2.lo * b
  const __m128i a1 = _mm_clmulepi64_si128(m1, x, 0x01);  // m1.hi * a
  const __m128i b1 = _mm_clmulepi64_si128(m2, x, 0x11);  // m2.hi * b
  const __m128i p0 = _mm_xor_si128(a0, b0), p1 = _mm_xor_si128(a1, b1);
  lo = _mm_unpacklo_epi64(p0, p1);
  hi = _mm_unpackhi_epi64(p0, p1);
}

/// (f, g) <- (U f + V g, Q f + R g) / x^s on words [0, nw): word i of the result takes words
/// i and i + 1 of the products; fg[nw] is 0 (degree bound) or beyond the array (nw = L).
template <int L>
inline void apply_fg(__m128i (&fg)[L], const Jump& m, int nw, int s) noexcept {
  const __m128i sh_r = _mm_cvtsi32_si128(s), sh_l = _mm_cvtsi32_si128(64 - s);
  __m128i lo_prev, hi_prev;
  mat_words(lo_prev, hi_prev, m.m1, m.m2, fg[0]);
  __m128i t_prev = lo_prev;  // word 0 of the products
  for (int i = 0; i < nw; ++i) {
    __m128i lo = _mm_setzero_si128(), hi = _mm_setzero_si128();
    if (i + 1 < nw) mat_words(lo, hi, m.m1, m.m2, fg[i + 1]);  // public bound
    const __m128i t = _mm_xor_si128(lo, hi_prev);              // word i + 1 of the products
    fg[i] = _mm_or_si128(_mm_srl_epi64(t_prev, sh_r), _mm_sll_epi64(t, sh_l));
    t_prev = t, hi_prev = hi;
  }
}

/// (v, w) <- (U v + (V / x) w, x Q v + R w) mod x^(64 nout); words >= nin of v, w are 0.
template <int L>
inline void apply_vw(__m128i (&vw)[L], const Jump& m, int nin, int nout) noexcept {
  __m128i hi_prev = _mm_setzero_si128();
  for (int k = 0; k < nout; ++k) {
    __m128i lo = _mm_setzero_si128(), hi = _mm_setzero_si128();
    if (k < nin) mat_words(lo, hi, m.n1, m.n2, vw[k]);  // public bound
    vw[k] = _mm_xor_si128(lo, hi_prev);
    hi_prev = hi;
  }
}

/// One block of S steps from step k (all public) on the state.
template <int N, int L, int S>
inline void block(__m128i (&fg)[L], __m128i (&vw)[L], Delta& d, int k) noexcept {
  Jump m = jump_divsteps<S / kSub, S % kSub>(d, fg[0]);
  const int nfg = std::min(L, (2 * N - 3 - k) / 64 + 1);
  const int nvw_in = std::min(L, k / 64 + 1), nvw_out = std::min(L, (k + S) / 64 + 1);
  apply_fg<L>(fg, m, nfg, S);
  apply_vw<L>(vw, m, nvw_in, nvw_out);
  secure_wipe(&m, sizeof m);
}

/// Bit i of x moved to bit 63 - i.
inline std::uint64_t reverse64(std::uint64_t x) noexcept {
  x = __builtin_bswap64(x);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  return ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
}

/// out = the reversal of the 64 L-bit string in, shifted down by OFF: bit j of out is bit
/// 64 L - 1 - OFF - j of in (0 above).
template <int L, int OFF>
inline void reverse_bits(std::uint64_t (&out)[L], const std::uint64_t (&in)[L]) noexcept {
  static_assert(OFF > 0 && OFF < 64);
  for (int k = 0; k < L; ++k) {
    const std::uint64_t lo = reverse64(in[L - 1 - k]), hi = k + 1 < L ? reverse64(in[L - 2 - k]) : 0;
    out[k] = (lo >> OFF) | (hi << (64 - OFF));
  }
}

/// GF(2): r = a^-1 mod (2, Phi_n) or 0, L = ceil(n / 64) words per polynomial.
template <int N>
void r2_inv(std::uint16_t* r, const std::uint16_t* a) noexcept {
  constexpr int L = (N + 63) / 64;
  // With OFF = 64 L - N + 1, bit j of the reversed string shifted down by OFF is bit N - 2 - j.
  constexpr int kOff = 64 * L - N + 1;
  alignas(32) std::uint16_t buf[64 * L] = {};
  std::memcpy(buf, a, sizeof(std::uint16_t) * N);
  std::uint64_t bits[L], g[L];
  const __m256i one = _mm256_set1_epi16(1);
  for (int k = 0; k < 2 * L; ++k) {  // bit i of bits = a_i mod 2, 32 coefficients at a time
    const __m256i x0 = _mm256_and_si256(_mm256_load_si256(reinterpret_cast<const __m256i*>(buf + 32 * k)), one);
    const __m256i x1 = _mm256_and_si256(_mm256_load_si256(reinterpret_cast<const __m256i*>(buf + 32 * k + 16)), one);
    const __m256i b = _mm256_permute4x64_epi64(_mm256_packus_epi16(x0, x1), _MM_SHUFFLE(3, 1, 2, 0));
    const auto m = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_slli_epi16(b, 7)));
    if (k % 2 == 0)
      bits[k / 2] = m;
    else
      bits[k / 2] |= std::uint64_t{m} << 32;
  }
  // g = reversal of a mod (2, Phi_n): bit j = a_{N-2-j} - a_{N-1} for j < N - 1.
  const std::uint64_t top = 0 - ((bits[(N - 1) / 64] >> ((N - 1) % 64)) & 1u);
  reverse_bits<L, kOff>(g, bits);
  __m128i fg[L], vw[L];
  for (int k = 0; k < L; ++k) {
    const int lo = 64 * k;  // Phi_n = bits [0, N); the N - 1 bits of g
    const std::uint64_t f_mask = lo + 64 <= N ? ~std::uint64_t{0} : (lo < N ? (std::uint64_t{1} << (N - lo)) - 1 : 0);
    const std::uint64_t g_mask =
        lo + 64 <= N - 1 ? ~std::uint64_t{0} : (lo < N - 1 ? (std::uint64_t{1} << (N - 1 - lo)) - 1 : 0);
    fg[k] = _mm_set_epi64x(static_cast<long long>((g[k] ^ top) & g_mask), static_cast<long long>(f_mask));
    vw[k] = _mm_setzero_si128();
  }
  vw[0] = _mm_set_epi64x(1, 0);  // v = 0, w = 1
  Delta d{-1};                   // delta = 1
  // Degree bounds (ntru_divsteps_avx2.hpp): after k steps, while g != 0, deg f, deg g <= 2n - 3 - k
  // (once g = 0 only f_0 still matters, and words of f above the bound are not updated); and
  // deg v, deg w <= k. Only v mod x^(n - 1) is read, and the updates of v, w never divide,
  // so v, w are kept mod x^(64 L). The word counts depend on n and k only.
  constexpr int kSteps = 2 * (N - 1) - 1;
  int k = 0;
  for (; k + kJump <= kSteps; k += kJump) block<N, L, kJump>(fg, vw, d, k);
  if constexpr (kSteps % kJump != 0) block<N, L, kSteps % kJump>(fg, vw, d, k);
  // r_i = bit N - 2 - i of v for i < N - 1; r_{N-1} = 0 (bit 64 L of the reversal).
  for (int i = 0; i < L; ++i) bits[i] = static_cast<std::uint64_t>(_mm_cvtsi128_si64(vw[i]));
  reverse_bits<L, kOff>(g, bits);
  for (int q = 0; q < 4 * L; ++q) {  // 16 coefficients at a time
    const __m256i x = ntru_detail::bits_to_lanes(static_cast<std::uint16_t>(g[q / 4] >> (16 * (q % 4))));
    _mm256_store_si256(reinterpret_cast<__m256i*>(buf + 16 * q), _mm256_and_si256(x, one));
  }
  std::memcpy(r, buf, sizeof(std::uint16_t) * N);
  secure_wipe(buf, sizeof buf), secure_wipe(bits, sizeof bits), secure_wipe(g, sizeof g);
  secure_wipe(fg, sizeof fg), secure_wipe(vw, sizeof vw), secure_wipe(&d, sizeof d);
}

}  // namespace

void PQKEM_NTRU_KERNEL(poly_r2_inv)(std::uint16_t* r, const std::uint16_t* a, int n) noexcept {
  switch (n) {  // n is public, one of these (ntru_avx2.hpp)
    case 509: r2_inv<509>(r, a); break;
    case 677: r2_inv<677>(r, a); break;
    case 701: r2_inv<701>(r, a); break;
    default: r2_inv<821>(r, a); break;
  }
}

}  // namespace pqkem::simd::PQKEM_NTRU_NS
