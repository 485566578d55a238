// pqkem: the Keccak-f[1600] round function (FIPS 202, section 3.3), written once for any lane
// type: the portable sponge (hash.cpp, 64-bit integers) and the AVX2 backend (keccak_avx2.cpp,
// one 64-bit integer with BMI2, or four states in a YMM register) instantiate it with their own
// lane operations.
//
// A lane type L provides: type V; bxor(a, b) = a ^ b; andn(a, b) = ~a & b; rol<N>(a), a rotation
// left by the constant N (0 <= N < 64); rc(i), round i's iota constant as a V. A lane type with a
// three-input instruction (AVX-512's vpternlogq) also provides xor3(a, b, c) = a ^ b ^ c and
// chi(a, b, c) = a ^ (~b & c), and the round then uses them: theta's five-way xor in two
// instructions, chi in one. Lane types are
// defined in an anonymous namespace of each user, so every instantiation has internal linkage
// and code compiled with -mavx2 can never be chosen by the linker for a portable caller.
// No branch or index depends on the data: the permutation is constant time.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace pqkem::keccak {

// FIPS 202, section 3.2.5: the round constants of iota.
alignas(32) inline constexpr std::uint64_t kRc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL, 0x000000000000808BULL,
    0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008AULL, 0x0000000000000088ULL,
    0x0000000080008009ULL, 0x000000008000000AULL, 0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};

namespace {  // a distinct type in every translation unit (see above)
/// 64-bit integer lanes: one state. With -mbmi (BMI1) the compiler emits andn, with -mbmi2 rorx.
struct U64Lane {
  using V = std::uint64_t;
  static V bxor(V a, V b) { return a ^ b; }
  static V andn(V a, V b) { return ~a & b; }
  template <int N>
  static V rol(V a) {
    if constexpr (N == 0)
      return a;
    else
      return (a << N) | (a >> (64 - N));
  }
  static V rc(int i) { return kRc[i]; }
};
}  // namespace

// FIPS 202, section 3.2.2 (rho): the rotation of lane (x, y) is (t + 1)(t + 2) / 2 mod 64 for the
// t at which the walk (x, y) <- (y, 2x + 3y), from (1, 0), reaches it; lane (0, 0) is not rotated.
struct RhoTable {
  int r[25] = {};
  constexpr RhoTable() {
    int x = 1, y = 0;
    for (int t = 0; t < 24; ++t) {
      r[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
      const int nx = y, ny = (2 * x + 3 * y) % 5;
      x = nx;
      y = ny;
    }
  }
};
inline constexpr RhoTable kRho;
static_assert(kRho.r[1] == 1 && kRho.r[2] == 62 && kRho.r[24] == 14, "FIPS 202, Table 2");

/// One round from `a` into `e`, lane (x, y) at index x + 5 y. pi moves lane (x, y) to
/// (y, 2x + 3y), so output row Y of B = pi(rho(theta(A))) gathers from column X the lane at
/// x = 3 (Y - 3X) mod 5, y = X; chi then combines that row. Working row by row keeps only five
/// B lanes alive at a time, and writing into a second array lets the compiler keep both states
/// in registers (with its own spills) rather than memory.
template <class L>
concept TernaryLane = requires(typename L::V v) {
  { L::xor3(v, v, v) } -> std::same_as<typename L::V>;
  { L::chi(v, v, v) } -> std::same_as<typename L::V>;
};

template <class L>
inline __attribute__((always_inline)) typename L::V chi(typename L::V a, typename L::V b, typename L::V c) {
  if constexpr (TernaryLane<L>)
    return L::chi(a, b, c);
  else
    return L::bxor(a, L::andn(b, c));
}

template <class L>
inline __attribute__((always_inline)) void round(const typename L::V* a, typename L::V* e, int i) {
  using V = typename L::V;
  V c[5], d[5];
  for (int x = 0; x < 5; ++x) {
    if constexpr (TernaryLane<L>)
      c[x] = L::xor3(L::xor3(a[x], a[x + 5], a[x + 10]), a[x + 15], a[x + 20]);
    else
      c[x] = L::bxor(L::bxor(L::bxor(a[x], a[x + 5]), L::bxor(a[x + 10], a[x + 15])), a[x + 20]);
  }
  for (int x = 0; x < 5; ++x) d[x] = L::bxor(c[(x + 4) % 5], L::template rol<1>(c[(x + 1) % 5]));
  [&]<int... Y>(std::integer_sequence<int, Y...>) __attribute__((always_inline)) {
    (
        [&]<int Row>(std::integral_constant<int, Row>) __attribute__((always_inline)) {
          V b[5];
          [&]<int... X>(std::integer_sequence<int, X...>) __attribute__((always_inline)) {
            ((b[X] = L::template rol<kRho.r[(3 * (Row + 15 - 3 * X)) % 5 + 5 * X]>(
                  L::bxor(a[(3 * (Row + 15 - 3 * X)) % 5 + 5 * X], d[(3 * (Row + 15 - 3 * X)) % 5]))),
             ...);
            ((e[X + 5 * Row] = chi<L>(b[X], b[(X + 1) % 5], b[(X + 2) % 5])), ...);
          }
          (std::make_integer_sequence<int, 5>{});
        }(std::integral_constant<int, Y>{}),
        ...);
  }
  (std::make_integer_sequence<int, 5>{});
  e[0] = L::bxor(e[0], L::rc(i));
}

/// Keccak-p[1600, Rounds] (FIPS 202, section 3.3): the last `Rounds` rounds of Keccak-f[1600],
/// rounds 24 - Rounds to 23, two per iteration (state -> e -> state), in place. Rounds = 24 is
/// Keccak-f[1600] itself, the same code as before the parameter existed (the loop starts at the
/// constant 0); Rounds = 12 is TurboSHAKE's permutation (RFC 9861, section 2.2). Working on
/// the caller's state rather than a local copy leaves the compiler fewer lanes to place in
/// registers: measured (gcc 12 -O3, AMD EPYC), the 4-way AVX2 permutation is 8% faster, the
/// 64-bit one the same or 3% faster. Unrolling the loop fully is 20% slower (code size).
template <class L, int Rounds = 24>
inline __attribute__((always_inline)) void permute(typename L::V* state) {
  static_assert(Rounds > 0 && Rounds <= 24 && Rounds % 2 == 0, "two rounds per iteration");
  typename L::V e[25];
#pragma GCC unroll 1
  for (int i = 24 - Rounds; i < 24; i += 2) {
    round<L>(state, e, i);
    round<L>(e, state, i + 1);
  }
}

/// Keccak-f[1600] on the states of two lane types at once, round by round: V's (vector lanes)
/// and S's (64-bit integers). The two streams of instructions are independent and use different
/// execution units (vector ALUs, integer ALUs), so an out-of-order core runs them side by side:
/// measured (gcc 12 -O3, AMD EPYC Zen 5), four AVX2 states and one integer state take 1.07 times
/// as long as the four alone, where the integer permutation after them adds 0.6. A second integer
/// state does not fit: the general registers spill and the pair costs 1.7 times the four.
template <class V, class S>
inline __attribute__((always_inline)) void permute_side_by_side(typename V::V* a, typename S::V* b) {
  typename V::V e[25];
  typename S::V f[25];
#pragma GCC unroll 1
  for (int i = 0; i < 24; i += 2) {
    round<V>(a, e, i);
    round<S>(b, f, i);
    round<V>(e, a, i + 1);
    round<S>(f, b, i + 1);
  }
}

}  // namespace pqkem::keccak
