// The code of the NTT, its inverse and MultiplyNTTs (FIPS 203, Algorithms 9 to 12), shared by
// ntt.cpp, which instantiates it on int16 coefficients for the library, and by the proof tests
// (tests/proof), which instantiate the same templates on an interval domain to check every
// bound below for all inputs. Internal: only ntt.cpp and the tests include it.
//
// The arithmetic is written with five operations on the coefficient type T: mul_zeta (a
// Montgomery product by a constant), fqmul16 (of two coefficients), barrett_reduce, add16 and
// sub16. For T = int16 they are the functions here and in reduce.hpp; for another T they are
// found by argument-dependent lookup.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "mlkem/constants.hpp"
#include "mlkem/reduce.hpp"

namespace pqkem::mlkem::ntt_code {
// Internal linkage, as when this code was ntt.cpp's own: with external linkage (COMDAT
// templates) GCC 12 inlines the passes differently, and ntt.cpp compiles to other code.
namespace {  // NOLINT(google-build-namespaces, cert-dcl59-cpp): included by ntt.cpp and tests only

constexpr std::array<std::int16_t, 128> kZ = std::to_array(kZetaTable.z);  // constants.hpp
static_assert(kZ[1] == -758 && kZ[127] == 1628, "FIPS 203 Appendix A, in Montgomery form");

/// "Twisted" zetas: zeta * q^-1 mod 2^16. With them a Montgomery product by a constant needs
/// one multiplication less (see mul_zeta).
constexpr std::array<std::int16_t, 128> make_twisted(const std::array<std::int16_t, 128>& z) noexcept {
  std::array<std::int16_t, 128> t{};
  for (int i = 0; i < 128; ++i) t[i] = static_cast<std::int16_t>(z[i] * kQInv);
  return t;
}
constexpr std::array<std::int16_t, 128> kZTwisted = make_twisted(kZ);

constexpr std::int16_t mulhi(std::int16_t a, std::int16_t b) noexcept {
  return static_cast<std::int16_t>((static_cast<std::int32_t>(a) * b) >> 16);
}
constexpr std::int16_t mullo(std::int16_t a, std::int16_t b) noexcept {
  return static_cast<std::int16_t>(static_cast<std::int32_t>(a) * b);
}
/// The butterflies' sum and difference, no reduction: exact while the result fits in int16,
/// which is what the bounds (and the proof tests) are about.
constexpr std::int16_t add16(std::int16_t a, std::int16_t b) noexcept { return static_cast<std::int16_t>(a + b); }
constexpr std::int16_t sub16(std::int16_t a, std::int16_t b) noexcept { return static_cast<std::int16_t>(a - b); }

/// fqmul(a, zeta) with the twisted constant zt = zeta q^-1 mod 2^16: the low halves of
/// a zeta and t q agree, so (a zeta - t q) >> 16 = hi(a zeta) - hi(t q) exactly. Same result
/// as montgomery_reduce(a * zeta), bit for bit. In: |a zeta| < q 2^15. Out: |r| <=
/// (|a zeta| + q 2^15) / 2^16 < q (the quotient exactly, as t = lo(a zt) has |t| <= 2^15).
constexpr std::int16_t mul_zeta(std::int16_t a, std::int16_t zeta, std::int16_t zt) noexcept {
  return static_cast<std::int16_t>(mulhi(a, zeta) - mulhi(mullo(a, zt), kQ));
}
static_assert(mul_zeta(3000, kZ[5], kZTwisted[5]) == fqmul(3000, kZ[5]));
static_assert(mul_zeta(-26000, kZ[127], kZTwisted[127]) == fqmul(-26000, kZ[127]));

/// 128^-1 * R^2 mod q: the final scaling of NTT^-1, which also multiplies by R.
constexpr std::int16_t kInvNttScale = 1441;
constexpr std::int16_t kInvNttScaleTwisted = static_cast<std::int16_t>(kInvNttScale * kQInv);
static_assert((static_cast<std::int64_t>(kInvNttScale) * 128) % kQ == (std::int64_t{kMontR} * kMontR) % kQ);

/// Fully unrolled group loops keep a group of coefficients in registers. The g++ sanitizer build
/// (PQKEM_SANITIZE) goes without the hint: UBSan's checks in the loop conditions hide the inner
/// loops from GCC's unroller, which then warns "ignoring loop annotation", a warning GCC 12 has
/// no option to silence. Writing the bounds outside the loop headers avoids it, but changes the
/// Release code GCC makes from these loops; the hint changes no result.
#ifdef PQKEM_NO_UNROLL_HINTS
#define PQKEM_UNROLL
#else
#define PQKEM_UNROLL _Pragma("GCC unroll 16")
#endif

/// Inverse layers whose sums are Barrett-reduced (see NttPlanEntry::inverse for the bounds).
constexpr bool reduces_sums(int layer) noexcept { return layer == 5 || layer == 2; }

/// The zetas of one pass, laid out by block: z[w][g][blk] (and its twisted zt) belongs to the
/// g-th butterfly group of the pass's w-th layer in block blk. Consecutive blocks read
/// consecutive entries, so a loop over blocks vectorizes with plain vector loads of zetas.
template <int W, int kBlocks>
struct PassZetas {
  std::int16_t z[W][4][kBlocks];
  std::int16_t zt[W][4][kBlocks];
};

/// zeta_index(w, g, blk) gives the index into kZ for layer w of the pass, group g, block blk.
template <int W, int kBlocks, class F>
constexpr PassZetas<W, kBlocks> make_pass_zetas(F zeta_index) noexcept {
  PassZetas<W, kBlocks> t{};
  for (int w = 0; w < W; ++w)
    for (int g = 0; g < 4; ++g)
      for (int blk = 0; blk < kBlocks; ++blk) {
        const int zi = zeta_index(w, g, blk);
        t.z[w][g][blk] = zi >= 1 && zi < 128 ? kZ[zi] : 0;
        t.zt[w][g][blk] = zi >= 1 && zi < 128 ? kZTwisted[zi] : 0;
      }
  return t;
}

/// FIPS 203 Algorithm 9, one butterfly (Cooley-Tukey): (x, y) <- (x + zeta y, x - zeta y).
/// The product is < q, so each layer grows the bound by less than q (by less than 0.61q, with
/// mul_zeta's bound in terms of |a zeta|).
template <class T>
inline void ct_butterfly(T& x, T& y, std::int16_t z, std::int16_t zt) noexcept {
  const T t = mul_zeta(y, z, zt);
  y = sub16(x, t);
  x = add16(x, t);
}

/// FIPS 203 Algorithm 10, one butterfly (Gentleman-Sande) of layer m: (x, y) <- (x + y,
/// zeta (y - x)), the sum Barrett-reduced where reduces_sums(m).
template <int m, class T>
inline void gs_butterfly(T& x, T& y, std::int16_t z, std::int16_t zt) noexcept {
  const T diff = sub16(y, x);
  const T sum = add16(x, y);
  y = mul_zeta(diff, z, zt);
  x = reduces_sums(m) ? barrett_reduce(sum) : sum;
}

// A pass does layers L .. L+W-1 of the forward NTT (layer m pairs a[j] with a[j + len_m],
// len_m = 128 >> (m-1), zeta index 2^(m-1) + j / (2 len_m)), or the same layers backwards
// for the inverse. It works on blocks of 2 len_top coefficients (len_top: the pass's largest
// len), which these W layers never mix. Two loop shapes, both keeping the data in registers
// between the W layers and both computing the same butterflies:
// - Wide passes (smallest len >= 8): for each block and each offset o < len_bottom, the 2^W
//   coefficients a[b + o + i len_bottom] are loaded once, transformed W times, stored once;
//   the loop over o vectorizes (8 offsets a vector) with one broadcast zeta per group. It is
//   kept rolled ("unroll 1"), or GCC unrolls it and vectorizes across blocks instead.
// - Deep passes (smallest len 4 or 2): the whole block (at most 32 coefficients) is loaded,
//   transformed and stored in order, and the loop over blocks vectorizes (8 blocks a vector,
//   transposed with SSE2 unpack instructions, zetas read from PassZetas). Merging pays off
//   most here: each deep pass pays for one transpose in and one out, whatever its W.
// The same per-layer butterflies and reductions run in every shape and every plan, so all
// plans give the layer-by-layer plan's output bit for bit.
/// The wide loop shape: calls transform(x, blk) on each group x of the 2^W coefficients
/// a[blk 2 len_top + o + i len_bottom], i < 2^W, loaded before and stored after.
template <int W, int kLenTop, class T, class F>
inline void for_each_wide_group(T* __restrict a, F transform) noexcept {
  constexpr int kG = 1 << W;
  constexpr int kLenBottom = kLenTop >> (W - 1);
  for (int blk = 0; blk < 128 / kLenTop; ++blk) {
    T* p = a + blk * 2 * kLenTop;
    _Pragma("GCC unroll 1") for (int o = 0; o < kLenBottom; ++o) {
      T x[kG];
      PQKEM_UNROLL for (int i = 0; i < kG; ++i) x[i] = p[o + i * kLenBottom];
      transform(x, blk);
      PQKEM_UNROLL for (int i = 0; i < kG; ++i) p[o + i * kLenBottom] = x[i];
    }
  }
}

template <int W, int L, class T>
void ntt_pass(T* __restrict a) noexcept {
  constexpr int kLenTop = 128 >> (L - 1);
  constexpr int kLenBottom = kLenTop >> (W - 1);
  constexpr int kBlocks = 128 / kLenTop;
  static constexpr PassZetas<W, kBlocks> kPz =
      make_pass_zetas<W, kBlocks>([](int w, int g, int blk) { return (1 << (L + w - 1)) + (blk << w) + g; });
  if constexpr (kLenBottom >= 8) {
    for_each_wide_group<W, kLenTop>(a, [](T* x, int blk) {
      constexpr int kG = 1 << W;
      PQKEM_UNROLL for (int w = 0; w < W; ++w) {
        const int h = kG >> (w + 1);
        PQKEM_UNROLL for (int g = 0; g < (1 << w); ++g) PQKEM_UNROLL for (int i = 2 * h * g; i < 2 * h * g + h; ++i)
            ct_butterfly(x[i], x[i + h], kPz.z[w][g][blk], kPz.zt[w][g][blk]);
      }
    });
  } else {
    constexpr int kB = 2 * kLenTop;
    for (int blk = 0; blk < kBlocks; ++blk) {
      T x[kB];
      PQKEM_UNROLL for (int j = 0; j < kB; ++j) x[j] = a[blk * kB + j];
      PQKEM_UNROLL for (int w = 0; w < W; ++w) {
        const int len = kLenTop >> w;
        PQKEM_UNROLL for (int g = 0; g < (1 << w); ++g)
            PQKEM_UNROLL for (int j = 2 * len * g; j < 2 * len * g + len; ++j)
                ct_butterfly(x[j], x[j + len], kPz.z[w][g][blk], kPz.zt[w][g][blk]);
      }
      PQKEM_UNROLL for (int j = 0; j < kB; ++j) a[blk * kB + j] = x[j];
    }
  }
}

// Inverse pass over layers L .. L-W+1 (Gentleman-Sande, zeta index 2^m - 1 - j / (2 len_m),
// walking FIPS 203's i from 127 downwards); the same two loop shapes as ntt_pass. Deep passes
// store through a block-transposed buffer: GCC cannot interleave the stores of sums and
// products (different operations) and would store them one lane at a time (pextrw).
template <int W, int L, class T>
void inverse_ntt_pass(T* __restrict a) noexcept {
  constexpr int kLenBottom = 128 >> (L - 1);
  constexpr int kLenTop = kLenBottom << (W - 1);
  constexpr int kBlocks = 128 / kLenTop;
  static constexpr PassZetas<W, kBlocks> kPz =
      make_pass_zetas<W, kBlocks>([](int w, int g, int blk) { return (1 << (L - w)) - 1 - (blk << (W - 1 - w)) - g; });
  if constexpr (kLenBottom >= 8) {
    for_each_wide_group<W, kLenTop>(a, [](T* x, int blk) {
      constexpr int kG = 1 << W;
      [&]<int... w>(std::integer_sequence<int, w...>) {
        (([&] {
           constexpr int h = 1 << w;
           PQKEM_UNROLL for (int g = 0; g < (kG >> (w + 1)); ++g)
               PQKEM_UNROLL for (int i = 2 * h * g; i < 2 * h * g + h; ++i)
                   gs_butterfly<L - w>(x[i], x[i + h], kPz.z[w][g][blk], kPz.zt[w][g][blk]);
         }()),
         ...);
      }
      (std::make_integer_sequence<int, W>{});
      if constexpr (L - W + 1 == 1)  // the last pass: scale by R^2/128 while in registers
        PQKEM_UNROLL for (int i = 0; i < kG; ++i) x[i] = mul_zeta(x[i], kInvNttScale, kInvNttScaleTwisted);
    });
  } else {
    constexpr int kB = 2 * kLenTop;
    T out[kB][kBlocks];
    for (int blk = 0; blk < kBlocks; ++blk) {
      T x[kB];
      PQKEM_UNROLL for (int j = 0; j < kB; ++j) x[j] = a[blk * kB + j];
      [&]<int... w>(std::integer_sequence<int, w...>) {
        (([&] {
           constexpr int len = kLenBottom << w;
           PQKEM_UNROLL for (int g = 0; g < kB / (2 * len); ++g)
               PQKEM_UNROLL for (int j = 2 * len * g; j < 2 * len * g + len; ++j)
                   gs_butterfly<L - w>(x[j], x[j + len], kPz.z[w][g][blk], kPz.zt[w][g][blk]);
         }()),
         ...);
      }
      (std::make_integer_sequence<int, W>{});
      PQKEM_UNROLL for (int j = 0; j < kB; ++j) out[j][blk] = x[j];
    }
    for (int blk = 0; blk < kBlocks; ++blk) PQKEM_UNROLL for (int j = 0; j < kB; ++j) a[blk * kB + j] = out[j][blk];
  }
}

/// A merge plan as a type: NttPlan<3, 2, 1, 1> is "3211".
template <int... W>
struct NttPlan {
  static_assert((W + ...) == 7, "a merge plan covers exactly the 7 NTT layers");
  static_assert(((W >= 1 && W <= 3) && ...), "a pass merges 1, 2 or 3 layers");
  static constexpr char kName[] = {static_cast<char>('0' + W)..., '\0'};

  /// The transforms on int16 coefficients (the plan table's entries) or on any T with the
  /// operations of the int16 ones (mul_zeta, barrett_reduce, add16, sub16): the proof tests run
  /// them over an interval domain (tests/proof).
  template <class T>
  static void forward_on(T* a) noexcept {
    run_forward<1, W...>(a);
  }
  template <class T>
  static void inverse_on(T* a) noexcept {
    run_inverse<1, W...>(a);  // its last pass (layer 1) also scales by R^2/128
  }
  static void forward(std::int16_t* a) noexcept { forward_on(a); }
  static void inverse(std::int16_t* a) noexcept { inverse_on(a); }

private:
  template <int L, int First, int... Rest, class T>
  static void run_forward(T* a) noexcept {
    ntt_pass<First, L>(a);
    if constexpr (sizeof...(Rest) > 0) run_forward<L + First, Rest...>(a);
  }
  // Mirrored: the last pass of the plan runs first, over the deepest layers. The pass that
  // covers forward layers L .. L+First-1 undoes them from L+First-1 down to L.
  template <int L, int First, int... Rest, class T>
  static void run_inverse(T* a) noexcept {
    if constexpr (sizeof...(Rest) > 0) run_inverse<L + First, Rest...>(a);
    inverse_ntt_pass<First, L + First - 1>(a);
  }
};

/// Calls f.template operator()<NttPlan<W...>>() for every merge plan: all compositions of 7 into
/// parts 1..3, depth first with parts in increasing order, which lists the names in
/// lexicographic order (44 plans).
template <int... W, class F>
constexpr void for_each_ntt_plan(F& f) noexcept {
  constexpr int kSum = (0 + ... + W);
  if constexpr (kSum == 7) {
    f.template operator()<NttPlan<W...>>();
  } else {
    if constexpr (kSum + 1 <= 7) for_each_ntt_plan<W..., 1>(f);
    if constexpr (kSum + 2 <= 7) for_each_ntt_plan<W..., 2>(f);
    if constexpr (kSum + 3 <= 7) for_each_ntt_plan<W..., 3>(f);
  }
}

/// gamma_i = zeta^(2 BitRev7(i) + 1) in Montgomery form, i = 0..127: +kZ[64 + i/2] for even i,
/// -kZ[64 + i/2] for odd i; and the twisted constants for mul_zeta.
constexpr std::array<std::int16_t, 128> make_gammas() noexcept {
  std::array<std::int16_t, 128> g{};
  for (int i = 0; i < 128; ++i) g[i] = static_cast<std::int16_t>(i % 2 == 0 ? kZ[64 + i / 2] : -kZ[64 + i / 2]);
  return g;
}
constexpr std::array<std::int16_t, 128> kGamma = make_gammas();
constexpr std::array<std::int16_t, 128> kGammaTwisted = make_twisted(kGamma);

/// montgomery_reduce(a * b) written with 16-bit multiplications only (low and high halves),
/// which vectorizes: the low halves of a b and t q agree, so (a b - t q) >> 16 =
/// hi(a b) - hi(t q) exactly, t = lo(a b) q^-1 mod 2^16. Same result as fqmul, bit for bit.
constexpr std::int16_t fqmul16(std::int16_t a, std::int16_t b) noexcept {
  return static_cast<std::int16_t>(mulhi(a, b) - mulhi(mullo(mullo(a, b), kQInv), kQ));
}
static_assert(fqmul16(1234, -2345) == fqmul(1234, -2345) && fqmul16(-3328, -3328) == fqmul(-3328, -3328));

// BaseCaseMultiply (Algorithm 12) on each of the 128 degree-1 pairs (c[2i], c[2i+1]), modulo
// X^2 - gamma_i: c0 = a0 b0 + a1 b1 gamma_i, c1 = a0 b1 + a1 b0 (times R^-1), added to r. P is
// NttPoly, or a type with coefficients c[256] of the proof domain. One
// loop over the pairs with a table of gammas, so the compiler vectorizes it.
template <class P>
inline void multiply_ntts_acc(P& r, const P& a, const P& b) noexcept {
  using T = std::remove_cvref_t<decltype(r.c[0])>;
  for (int i = 0; i < 128; ++i) {
    const T a0 = a.c[2 * i], a1 = a.c[2 * i + 1], b0 = b.c[2 * i], b1 = b.c[2 * i + 1];
    const T a1b1_gamma = mul_zeta(fqmul16(a1, b1), kGamma[i], kGammaTwisted[i]);
    const T c0 = add16(a1b1_gamma, fqmul16(a0, b0));
    const T a0b1 = fqmul16(a0, b1);
    const T c1 = add16(a0b1, fqmul16(a1, b0));
    r.c[2 * i] = add16(r.c[2 * i], c0);
    r.c[2 * i + 1] = add16(r.c[2 * i + 1], c1);
  }
}

}  // namespace
}  // namespace pqkem::mlkem::ntt_code
