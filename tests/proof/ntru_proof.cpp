// Machine-checked bounds of NTRU's mod-3 and mod-q helpers (ctest label `proof`): the bounds that
// lib/ntru's comments state for them, and the contracts of the kernels built on them, checked on
// the compiled portable kernels (each parameter set's instantiation) for every input of the
// contract where that is feasible (the list below), against a definition written here with plain
// `%` and `/` (the spec's meaning). Each checker returns the first counterexample it meets (the
// function, the input values, what came out, what the definition wants, the bound or contract
// that broke), or nothing; the negative controls run the same checkers on a claim just past the
// truth, or on a deliberately broken kernel, and require a counterexample.
//
// PROVEN EXHAUSTIVELY (all inputs of the stated domain):
//   div3, mod3 (poly.hpp)        every x < 2^17; 2^17 itself fails (the bound is tight), and so
//                                does a 32-bit product from x = 98304 on (the 33-bit claim).
//   the mod-3 expressions the kernels inline: (x * 43691) >> 17 in 32 bits and as a 16-bit
//                                high half shifted by one, every x < 2^16; (x * 171) >> 9 for
//                                every byte.
//   poly_mod_3_phi_n             every pair (a_i, a_{n-1}) with both < 2^15 (In: a_i < 2^15),
//                                a_i at its position in a run of consecutive values.
//   poly_rq_to_s3_ref            every pair (a_i, a_{n-1}) with a_i any uint16 and a_{n-1} < q,
//                                i.e. every value the fused sum lift(a_i) + 2 lift(a_{n-1}) can
//                                take; plus every uint16 a_{n-1}, each with n - 1 values of a_i.
//   poly_z3_to_zq_ref            every Z3 value at every position; Out: Rq for every input < q.
//   poly_trinary_zq_to_z3_ref    every uint16 input: Out <= 3, and {0, 1, q - 1} mod q -> {0, 1, 2}.
//   sample_iid, sample_iid_plus  every byte value at every position (byte -> mod 3).
//   sample_fixed_type_ref        every byte value at every byte position (keys, labels mod 4).
//   poly_s3_frombytes_ref        every byte value at every position (5 base-3 digits).
//   poly_s3_tobytes_ref          every 5-trit group (3^5) at every group position.
//   s3_encoding_is_canonical     every byte value at every position; q_encoding_is_canonical:
//                                every value of the last byte.
//   poly_sq_frombytes_ref, poly_rq_sum_zero_frombytes_ref   every logq-bit field value at every
//                                field position, pad bits set and clear.
//   check_r_fails (owcpa)        every Rq value at n - 1 and at two positions below it (spread
//                                over all of them), amid the good values 0, 1, q - 1.
//   check_m_fails (owcpa, HPS)   every count of ones and of twos (with the other at, and next to,
//                                weight / 2).
// CHECKED, NOT EXHAUSTIVELY (the domain is too large; what is covered is stated at each test):
//   poly_mod_q_phi_n and poly_mul_x_minus_1 (every coefficient value against a set of partners),
//   the HRSS lift (every (m_i, m_{n-1}) pair, every weight of m mod (3, Phi_n) in two layouts, up
//   to the largest prefix sum 4 (n - 1)), the S3 product (the exact cyclic product reaches its
//   bound 4n; corner and seeded operands against a schoolbook product), the S3, S2 and Sq
//   inversions (corner and seeded inputs, a * a^-1 = 1 checked by schoolbook).
// NOT HERE: the AVX2 / AVX-512 twins. This executable is built without the library's
//   PQKEM_HAVE_AVX2 (tests/proof/CMakeLists.txt gives it no pqkem_simd_definitions), so it cannot
//   name them; tests/ntru/ntru_simd_corner_test.cpp compares them bit for bit with the kernels
//   proven here, on every coefficient value of the per-coefficient maps and on corner inputs.
//   The kernels run out of place (r != a) here; aliasing is tested in tests/ntru.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "ntru/owcpa_impl.hpp"  // check_r_fails, check_m_fails: internal, reached through their header
#include "ntru/pack.hpp"
#include "ntru/params.hpp"
#include "ntru/poly.hpp"
#include "ntru/sample.hpp"

namespace pqkem::ntru {
namespace {

// ---- verdicts ------------------------------------------------------------------------------

/// A checker's verdict: the first counterexample, described, or nothing when every input of the
/// domain passed.
using Finding = std::optional<std::string>;

template <class... T>
std::string cat(const T&... parts) {
  std::ostringstream s;
  (s << ... << parts);
  return s.str();
}

#define EXPECT_PROVEN(finding)                                  \
  do {                                                          \
    const Finding f_ = (finding);                               \
    EXPECT_FALSE(f_.has_value()) << f_.value_or(std::string()); \
  } while (0)

/// The negative controls: the checker must report a counterexample, and it must be the expected
/// one (`needle` occurs in its description).
#define EXPECT_REFUTED(finding, needle)                                                                    \
  do {                                                                                                     \
    const Finding f_ = (finding);                                                                          \
    ASSERT_TRUE(f_.has_value()) << "the checker found no counterexample to a false claim: it cannot fail"; \
    EXPECT_NE(f_->find(needle), std::string::npos) << "expected \"" << (needle) << "\" in: " << *f_;       \
  } while (0)

template <class P>
std::string pname() {
  return P::hps ? cat("ntruhps", P::q, P::n) : cat("ntruhrss", P::n);
}

// ---- the definitions (plain arithmetic) -------------------------------------------------------

/// v mod 3 in {0, 1, 2} for any integer v.
constexpr std::uint32_t mod3_of(std::int64_t v) { return static_cast<std::uint32_t>(((v % 3) + 3) % 3); }

/// The representative of v mod q in [lo, lo + q); the spec centers on [-q/2, q/2).
template <class P>
constexpr std::int64_t centered(std::int64_t v, std::int64_t lo = -static_cast<std::int64_t>(P::q / 2)) {
  const std::int64_t q = P::q;
  std::int64_t c = ((v % q) + q) % q;
  if (c >= lo + q) c -= q;
  return c;
}

/// The integer cyclic product a * b mod (x^n - 1), coefficients as integers.
template <class P>
std::vector<std::int64_t> cyclic_product(const Poly<P>& a, const Poly<P>& b) {
  std::vector<std::int64_t> c(P::n, 0);
  for (std::size_t i = 0; i < P::n; ++i) {
    const std::int64_t ai = a.c[i];
    for (std::size_t j = 0; j < P::n - i; ++j) c[i + j] += ai * b.c[j];
    for (std::size_t j = P::n - i; j < P::n; ++j) c[i + j - P::n] += ai * b.c[j];
  }
  return c;
}

/// Whether c mod (m, Phi_n) is the constant `one` (Phi_n: x^(n-1) = -(1 + ... + x^(n-2))).
template <class P>
bool is_constant_mod_phi(const std::vector<std::int64_t>& c, std::int64_t m, std::int64_t one) {
  for (std::size_t i = 0; i + 1 < P::n; ++i) {
    const std::int64_t want = i == 0 ? one : 0;
    if ((((c[i] - c[P::n - 1] - want) % m) + m) % m != 0) return false;
  }
  return true;
}

template <class P>
bool is_zero_mod_3_phi(const Poly<P>& a) {
  for (std::size_t i = 0; i < P::n; ++i)
    if (mod3_of(std::int64_t{a.c[i]} - a.c[P::n - 1]) != 0) return false;
  return true;
}

template <class P>
using Unary = void (*)(Poly<P>&, const Poly<P>&) noexcept;
template <class P>
using Binary = void (*)(Poly<P>&, const Poly<P>&, const Poly<P>&) noexcept;

/// A deliberately broken kernel for the negative controls: Kernel, then coefficient i of the
/// result changed (bit 0 flipped) wherever coefficient i of the input equals Trigger.
template <class P, Unary<P> Kernel, std::uint16_t Trigger>
void mutant(Poly<P>& r, const Poly<P>& a) noexcept {
  const Poly<P> in = a;
  Kernel(r, in);
  for (std::size_t i = 0; i < P::n; ++i)
    if (in.c[i] == Trigger) r.c[i] = static_cast<std::uint16_t>(r.c[i] ^ 1u);
}

/// The first i < count where got and want differ (count if none).
inline std::size_t first_difference(const std::uint16_t* got, const std::uint16_t* want, std::size_t count) {
  std::size_t i = 0;
  while (i < count && got[i] == want[i]) ++i;
  return i;
}

// ---- scalar helpers ----------------------------------------------------------------------------

using ScalarFn = std::uint32_t (*)(std::uint32_t) noexcept;

/// fn(x) == spec(x) for every x < bound.
Finding check_scalar(const char* name, ScalarFn fn, ScalarFn spec, const char* spec_text, std::uint64_t bound) {
  for (std::uint64_t x = 0; x < bound; ++x) {
    const auto v = static_cast<std::uint32_t>(x);
    const std::uint32_t got = fn(v), want = spec(v);
    if (got != want)
      return cat(name, "(", v, ") = ", got, ", want ", spec_text, " = ", want, " (claimed exact for every x < ", bound,
                 ")");
  }
  return std::nullopt;
}

constexpr std::uint32_t spec_div3(std::uint32_t x) noexcept { return x / 3; }
constexpr std::uint32_t spec_mod3(std::uint32_t x) noexcept { return x % 3; }
/// div3 with the product in 32 bits, as if the 64-bit multiply were dropped.
constexpr std::uint32_t div3_32bit_product(std::uint32_t x) noexcept { return (x * 43691u) >> 17; }
/// The 16-bit lane form of poly_rq_to_s3_ref (and mod3_16 of the AVX2 kernels): the high half of
/// the 16 x 16 product, shifted by one, then x - 3 d in 16 bits.
constexpr std::uint32_t mod3_16bit_lanes(std::uint32_t x) noexcept {
  const auto x16 = static_cast<std::uint16_t>(x);
  const auto hi = static_cast<std::uint16_t>((std::uint32_t{x16} * 43691u) >> 16);
  const auto d = static_cast<std::uint16_t>(hi >> 1);
  return static_cast<std::uint16_t>(x16 - 3 * d);
}
/// poly_lift_ref's reduction of 12 n - prefix: floor(x / 3) = (x * 43691) >> 17 in 32 bits, in 16-bit values.
constexpr std::uint32_t mod3_lift_form(std::uint32_t x) noexcept {
  const auto x16 = static_cast<std::uint16_t>(x);
  const auto d = static_cast<std::uint16_t>((std::uint32_t{x16} * 43691u) >> 17);
  return static_cast<std::uint16_t>(x16 - 3 * d);
}
/// sample_iid's byte reduction, as its loop computes it in 16 bits.
constexpr std::uint32_t mod3_byte_form(std::uint32_t x) noexcept {
  const auto x16 = static_cast<std::uint16_t>(x);
  return static_cast<std::uint16_t>(x16 - 3 * static_cast<std::uint16_t>(static_cast<std::uint16_t>(x16 * 171) >> 9));
}

// ---- per-coefficient kernels -----------------------------------------------------------------

/// poly_mod_3_phi_n: r_i = (a_i - a_{n-1}) mod 3, r_{n-1} = 0, for every pair (a_i, a_{n-1}) with
/// both below `bound` (the contract: 2^15). a_{n-1} runs from the top down (where a bound bites
/// first); for each, the other n - 1 coefficients run through every value below `bound`.
template <class P>
Finding check_mod_3_phi_n(Unary<P> kernel, std::uint32_t bound) {
  constexpr std::size_t m = P::n - 1;
  std::vector<Poly<P>> in;
  for (std::uint32_t base = 0; base < bound; base += m) {
    Poly<P> a;
    for (std::size_t i = 0; i < m; ++i) a.c[i] = static_cast<std::uint16_t>((base + i) % bound);
    in.push_back(a);
  }
  // want[k][j]: the definition for the j-th free coefficient of the run and a_{n-1} = k mod 3.
  std::array<std::vector<std::uint16_t>, 3> want;
  for (std::uint32_t k = 0; k < 3; ++k) {
    want[k].resize(in.size() * m);
    for (std::size_t j = 0; j < want[k].size(); ++j)
      want[k][j] = static_cast<std::uint16_t>(mod3_of(static_cast<std::int64_t>(j % bound) - k));
  }
  Poly<P> r;
  for (std::uint32_t t = bound; t-- > 0;) {
    const std::vector<std::uint16_t>& w = want[t % 3];
    for (std::size_t p = 0; p < in.size(); ++p) {
      Poly<P>& a = in[p];
      a.c[m] = static_cast<std::uint16_t>(t);
      kernel(r, a);
      const std::size_t i = first_difference(r.c.data(), w.data() + p * m, m);
      if (i < m || r.c[m] != 0) {
        const bool last = i == m;
        return cat("poly_mod_3_phi_n [", pname<P>(), "]: a_i = ", last ? t : a.c[i], " (i = ", last ? m : i,
                   "), a_{n-1} = ", t, ": r_i = ", r.c[last ? m : i],
                   ", want (a_i - a_{n-1}) mod 3 = ", last ? 0u : w[p * m + i], " (claimed: In every a_i < ", bound,
                   ", Out: S3)");
      }
    }
  }
  return std::nullopt;
}

/// poly_rq_to_s3: r_i = (C(a_i) - C(a_{n-1})) mod 3 with C(v) the representative of v mod q in
/// [lo, lo + q) (the spec: lo = -q/2), r_{n-1} = 0. Part A: every a_i (any uint16) against every
/// a_{n-1} < q; part B: every a_{n-1} (any uint16), each against n - 1 consecutive values a_i.
template <class P>
Finding check_rq_to_s3(Unary<P> kernel, std::int64_t lo) {
  constexpr std::size_t m = P::n - 1;
  std::vector<std::uint16_t> c3(65536);  // C(v) mod 3 for every uint16 v
  for (std::uint32_t v = 0; v < 65536; ++v) c3[v] = static_cast<std::uint16_t>(mod3_of(centered<P>(v, lo)));
  const auto fail = [&](std::uint32_t ai, std::size_t i, std::uint32_t t, std::uint32_t got, std::uint32_t want,
                        const char* part) {
    return cat("poly_rq_to_s3_ref [", pname<P>(), "] (", part, "): a_i = ", ai, " (i = ", i, "), a_{n-1} = ", t,
               ": r_i = ", got, ", want (C(a_i) - C(a_{n-1})) mod 3 = ", want,
               " with C(v) the representative of v mod ", P::q, " in [", lo, ", ", lo + static_cast<std::int64_t>(P::q),
               ") (In: mod 2^16)");
  };
  // Part A.
  std::vector<Poly<P>> in;
  for (std::uint32_t base = 0; base < 65536; base += m) {
    Poly<P> a;
    for (std::size_t i = 0; i < m; ++i) a.c[i] = static_cast<std::uint16_t>(base + i);
    in.push_back(a);
  }
  std::array<std::vector<std::uint16_t>, 3> want;
  for (std::uint32_t k = 0; k < 3; ++k) {
    want[k].resize(in.size() * m);
    for (std::size_t j = 0; j < want[k].size(); ++j)
      want[k][j] = static_cast<std::uint16_t>(mod3_of(std::int64_t{c3[j & 0xFFFF]} - k));
  }
  Poly<P> r;
  for (std::uint32_t t = 0; t < P::q; ++t) {
    const std::vector<std::uint16_t>& w = want[c3[t]];
    for (std::size_t p = 0; p < in.size(); ++p) {
      Poly<P>& a = in[p];
      a.c[m] = static_cast<std::uint16_t>(t);
      kernel(r, a);
      const std::size_t i = first_difference(r.c.data(), w.data() + p * m, m);
      if (i < m) return fail(a.c[i], i, t, r.c[i], w[p * m + i], "part A");
      if (r.c[m] != 0) return fail(t, m, t, r.c[m], 0, "part A");
    }
  }
  // Part B.
  Poly<P> a;
  for (std::uint32_t t = 0; t < 65536; ++t) {
    for (std::size_t i = 0; i < m; ++i) a.c[i] = static_cast<std::uint16_t>(t * m + i);
    a.c[m] = static_cast<std::uint16_t>(t);
    kernel(r, a);
    for (std::size_t i = 0; i <= m; ++i) {
      const std::uint32_t w = i == m ? 0 : mod3_of(std::int64_t{c3[a.c[i]]} - c3[t]);
      if (r.c[i] != w) return fail(a.c[i], i, t, r.c[i], w, "part B");
    }
  }
  return std::nullopt;
}

/// poly_mod_q_phi_n: r_i = (a_i - a_{n-1}) mod q, r_{n-1} = 0. Every a_i (any uint16) against
/// each a_{n-1} of a corner set, and every a_{n-1} against n - 1 consecutive values a_i.
template <class P>
Finding check_mod_q_phi_n(Unary<P> kernel) {
  constexpr std::size_t m = P::n - 1;
  constexpr std::int64_t q = P::q;
  const auto check = [&](const Poly<P>& a, const Poly<P>& r) -> Finding {
    for (std::size_t i = 0; i < P::n; ++i) {
      const std::int64_t want = ((std::int64_t{a.c[i]} - a.c[m]) % q + q) % q;
      if (r.c[i] != want)
        return cat("poly_mod_q_phi_n [", pname<P>(), "]: a_i = ", a.c[i], " (i = ", i, "), a_{n-1} = ", a.c[m],
                   ": r_i = ", r.c[i], ", want (a_i - a_{n-1}) mod q = ", want, " (In: mod 2^16, Out: Sq)");
    }
    return std::nullopt;
  };
  Poly<P> a, r;
  for (const std::uint32_t t :
       {0u, 1u, 2u, P::q / 2 - 1, P::q / 2, P::q - 1, P::q, P::q + 1, 0x7FFFu, 0x8000u, 0xFFFEu, 0xFFFFu}) {
    for (std::uint32_t base = 0; base < 65536; base += m) {
      for (std::size_t i = 0; i < m; ++i) a.c[i] = static_cast<std::uint16_t>(base + i);
      a.c[m] = static_cast<std::uint16_t>(t);
      kernel(r, a);
      if (Finding f = check(a, r)) return f;
    }
  }
  for (std::uint32_t t = 0; t < 65536; ++t) {
    for (std::size_t i = 0; i < m; ++i) a.c[i] = static_cast<std::uint16_t>(t * 7 + i);
    a.c[m] = static_cast<std::uint16_t>(t);
    kernel(r, a);
    if (Finding f = check(a, r)) return f;
  }
  return std::nullopt;
}

/// poly_mul_x_minus_1: r_i = (a_{i-1} - a_i) mod q (indices mod n). Runs a_i = base + s i for
/// strides s of a corner set: every a_i value against the neighbours a_i - s.
template <class P>
Finding check_mul_x_minus_1(Unary<P> kernel) {
  constexpr std::int64_t q = P::q;
  Poly<P> a, r;
  for (const std::uint32_t s : {0u, 1u, 2u, P::q - 1, P::q, P::q + 1, P::q / 2, 0x7FFFu, 0x8000u, 0xFFFFu, 12345u}) {
    for (std::uint32_t base = 0; base < 65536; base += P::n) {
      for (std::size_t i = 0; i < P::n; ++i) a.c[i] = static_cast<std::uint16_t>(base + s * i);
      kernel(r, a);
      for (std::size_t i = 0; i < P::n; ++i) {
        const std::uint16_t prev = a.c[(i + P::n - 1) % P::n];
        const std::int64_t want = ((std::int64_t{prev} - a.c[i]) % q + q) % q;
        if (r.c[i] != want)
          return cat("poly_mul_x_minus_1_ref [", pname<P>(), "]: a_{i-1} = ", prev, ", a_i = ", a.c[i], " (i = ", i,
                     "): r_i = ", r.c[i], ", want (a_{i-1} - a_i) mod q = ", want, " (In: mod 2^16, Out: Rq)");
      }
    }
  }
  return std::nullopt;
}

/// poly_z3_to_zq: Out: Rq for every input coefficient below in_bound, and {0, 1, 2} -> {0, 1, q - 1}.
/// Every value below in_bound at every position when in_bound <= n, else every value once.
template <class P>
Finding check_z3_to_zq(Unary<P> kernel, std::uint32_t in_bound) {
  Poly<P> a, r;
  const std::uint32_t step = in_bound <= P::n ? 1 : static_cast<std::uint32_t>(P::n);
  for (std::uint32_t base = 0; base < in_bound; base += step) {
    for (std::size_t i = 0; i < P::n; ++i) a.c[i] = static_cast<std::uint16_t>((base + i) % in_bound);
    kernel(r, a);
    for (std::size_t i = 0; i < P::n; ++i) {
      const std::uint32_t c = a.c[i];
      if (r.c[i] >= P::q)
        return cat("poly_z3_to_zq_ref [", pname<P>(), "]: a_i = ", c, " (i = ", i, "): r_i = ", r.c[i],
                   " is not in Rq (claimed: Out: Rq for every a_i < ", in_bound, ")");
      if (c <= 2 && r.c[i] != (c == 2 ? P::q - 1 : c))
        return cat("poly_z3_to_zq_ref [", pname<P>(), "]: a_i = ", c, " (i = ", i, "): r_i = ", r.c[i], ", want ",
                   c == 2 ? P::q - 1 : c, " ({0, 1, 2} -> {0, 1, q - 1})");
    }
  }
  return std::nullopt;
}

/// poly_trinary_zq_to_z3: every output below out_bound (stated: {0..3}, so 4), and c = 0, 1, q - 1
/// mod q -> 0, 1, 2 ("In: mod 2^16"). Every uint16 once, and the trinary residues at every position.
template <class P>
Finding check_trinary_zq_to_z3(Unary<P> kernel, std::uint32_t out_bound) {
  Poly<P> a, r;
  const auto check = [&]() -> Finding {
    kernel(r, a);
    for (std::size_t i = 0; i < P::n; ++i) {
      const std::uint32_t c = a.c[i], res = c % P::q;
      if (r.c[i] >= out_bound)
        return cat("poly_trinary_zq_to_z3_ref [", pname<P>(), "]: a_i = ", c, " (i = ", i, "): r_i = ", r.c[i],
                   " (claimed: every output < ", out_bound, ")");
      const std::uint32_t want = res == 0 ? 0u : res == 1 ? 1u : res == P::q - 1 ? 2u : 99u;
      if (want != 99u && r.c[i] != want)
        return cat("poly_trinary_zq_to_z3_ref [", pname<P>(), "]: a_i = ", c, " (i = ", i,
                   ", trinary mod q): r_i = ", r.c[i], ", want ", want, " ({0, 1, q - 1} -> {0, 1, 2})");
    }
    return std::nullopt;
  };
  for (std::uint32_t base = 0; base < 65536; base += P::n) {
    for (std::size_t i = 0; i < P::n; ++i) a.c[i] = static_cast<std::uint16_t>(base + i);
    if (Finding f = check()) return f;
  }
  for (std::uint32_t k = 0; k < 3 * (65536 / P::q); ++k) {  // c = {0, 1, q - 1}[.] + j q at every position
    for (std::size_t i = 0; i < P::n; ++i) {
      const auto v = static_cast<std::uint32_t>((i + k) % 3);
      const auto lift = static_cast<std::uint32_t>((i + k / 3) % (65536 / P::q));
      a.c[i] = static_cast<std::uint16_t>((v == 2 ? P::q - 1 : v) + lift * P::q);
    }
    if (Finding f = check()) return f;
  }
  return std::nullopt;
}

// ---- lift -----------------------------------------------------------------------------------------

/// Whether r is Lift(m) (r, m of P; m in Z3): HPS coefficientwise {0, 1, 2} -> {0, 1, q - 1};
/// HRSS r = (x - 1) b in Rq with b = m / (x - 1) mod (3, Phi_n) in {-1, 0, 1}, b_{n-1} = 0: b is
/// recovered from r (b_i = b_{i-1} - r_i, b_{-1} = b_{n-1} = 0) and checked.
template <class P>
Finding lift_violation(const Poly<P>& m, const Poly<P>& r) {
  const auto where = [&](std::size_t i) {
    std::string s = cat("poly_lift_ref [", pname<P>(), "]: m_i = ", m.c[i], " (i = ", i, "), m_{n-1} = ", m.c[P::n - 1],
                        ", m(1) = ");
    std::uint32_t sum = 0;
    for (auto c : m.c) sum += c;
    return cat(s, sum, ": ");
  };
  for (std::size_t i = 0; i < P::n; ++i)
    if (r.c[i] >= P::q) return cat(where(i), "r_i = ", r.c[i], " not in Rq");
  if constexpr (P::hps) {
    for (std::size_t i = 0; i < P::n; ++i)
      if (r.c[i] != (m.c[i] == 2 ? P::q - 1 : m.c[i]))
        return cat(where(i), "r_i = ", r.c[i], ", want m_i in {0, 1, q - 1}");
  } else {
    std::vector<std::int64_t> c(P::n);
    for (std::size_t i = 0; i < P::n; ++i) c[i] = centered<P>(r.c[i]);
    std::int64_t b = 0;  // b_{-1} = b_{n-1} = 0
    for (std::size_t i = 0; i < P::n; ++i) {
      b -= c[i];
      if (b < -1 || b > 1) return cat(where(i), "b_i = ", b, " from r = (x - 1) b is not in {-1, 0, 1}");
    }
    if (b != 0) return cat(where(P::n - 1), "b_{n-1} = ", b, ", want 0 (canonical S3)");
    for (std::size_t i = 0; i < P::n; ++i)
      if (mod3_of(c[i] - c[P::n - 1]) != mod3_of(std::int64_t{m.c[i]} - m.c[P::n - 1]))
        return cat(where(i), "(x - 1) b mod (3, Phi_n) has coefficient ", mod3_of(c[i] - c[P::n - 1]), ", want m's ",
                   mod3_of(std::int64_t{m.c[i]} - m.c[P::n - 1]));
  }
  return std::nullopt;
}

/// Lift on a family that sweeps poly_lift_ref's intermediate values: for each m_{n-1} in {0, 1, 2}
/// and each weight s = mm(1) in [0, 2 (n - 1)] of mm = m mod (3, Phi_n), mm_i in {2, 1, 0} packed
/// to the front and to the back. *max_prefix gets the largest prefix sum sum_{j <= i} (mm_j + k)
/// (k = -mm(1) / n mod 3) the family makes the HRSS lift form (its stated bound: 4 (n - 1)).
template <class P>
Finding check_lift(Unary<P> kernel, std::uint32_t* max_prefix) {
  constexpr std::size_t m = P::n - 1;
  *max_prefix = 0;
  Poly<P> in, r;
  std::vector<std::uint32_t> mm(m);
  for (std::uint32_t top = 0; top < 3; ++top) {
    for (std::uint32_t s = 0; s <= 2 * m; ++s) {
      for (int layout = 0; layout < 2; ++layout) {
        for (std::size_t j = 0; j < m; ++j) mm[j] = j < s / 2 ? 2 : (j == s / 2 && s % 2) ? 1 : 0;
        if (layout == 1) std::reverse(mm.begin(), mm.end());
        for (std::size_t j = 0; j < m; ++j) in.c[j] = static_cast<std::uint16_t>((mm[j] + top) % 3);
        in.c[m] = static_cast<std::uint16_t>(top);
        kernel(r, in);
        if (Finding f = lift_violation(in, r)) return f;
        const std::uint32_t k = mod3_of(-static_cast<std::int64_t>(s) * P::n);
        std::uint32_t prefix = 0;
        for (std::size_t j = 0; j < m; ++j) prefix += mm[j] + k;
        *max_prefix = std::max(*max_prefix, prefix);
      }
    }
  }
  return std::nullopt;
}

// ---- products and inversions ----------------------------------------------------------------------

template <class P>
Poly<P> constant(std::uint16_t v) {
  Poly<P> a;
  a.c.fill(v);
  return a;
}

/// Z3 operands: the corners of the contract (all 0, all 1, all 2, alternating, one 2 at either
/// end, Phi_n + 1, x^(n-1) with coefficient 2) and seeded random ones.
template <class P>
std::vector<Poly<P>> z3_operands() {
  std::vector<Poly<P>> v;
  for (std::uint16_t c = 0; c < 3; ++c) v.push_back(constant<P>(c));
  Poly<P> alt12, alt02, first2, last2, phi1;
  for (std::size_t i = 0; i < P::n; ++i) {
    alt12.c[i] = static_cast<std::uint16_t>(1 + i % 2);
    alt02.c[i] = static_cast<std::uint16_t>(2 * (i % 2));
  }
  first2.c[0] = 2;
  last2.c[P::n - 1] = 2;
  phi1 = constant<P>(1);
  phi1.c[0] = 2;
  for (const Poly<P>* p : {&alt12, &alt02, &first2, &last2, &phi1}) v.push_back(*p);
  std::mt19937_64 rng(3 * P::n);
  for (int k = 0; k < 4; ++k) {
    Poly<P> a;
    for (auto& c : a.c) c = static_cast<std::uint16_t>(rng() % 3);
    v.push_back(a);
  }
  return v;
}

/// poly_s3_mul: r = a * b mod (3, Phi_n) in S3 form, against a schoolbook product.
template <class P>
Finding check_s3_mul(Binary<P> kernel) {
  const std::vector<Poly<P>> ops = z3_operands<P>();
  Poly<P> r;
  for (std::size_t x = 0; x < ops.size(); ++x) {
    for (std::size_t y = x; y < ops.size(); y += 3) {
      kernel(r, ops[x], ops[y]);
      const std::vector<std::int64_t> c = cyclic_product(ops[x], ops[y]);
      for (std::size_t i = 0; i < P::n; ++i) {
        const std::uint32_t want = mod3_of(c[i] - c[P::n - 1]);
        if (r.c[i] != want)
          return cat("poly_s3_mul_ref [", pname<P>(), "]: operands ", x, " x ", y, ": r_", i, " = ", r.c[i], ", want ",
                     want, " (In: Z3, Out: S3)");
      }
    }
  }
  return std::nullopt;
}

/// poly_s3_inv: r in S3 with a r = 1 mod (3, Phi_n), or r = 0 when a = 0 mod (3, Phi_n).
template <class P>
Finding check_s3_inv(Unary<P> kernel) {
  std::vector<Poly<P>> ops = z3_operands<P>();
  for (const std::size_t i : {std::size_t{1}, std::size_t{2}, std::size_t{P::n / 2}, std::size_t{P::n - 2}}) {
    Poly<P> x;  // monomials x^i
    x.c[i] = 1;
    ops.push_back(x);
  }
  Poly<P> r;
  for (std::size_t idx = 0; idx < ops.size(); ++idx) {
    const Poly<P>& a = ops[idx];
    kernel(r, a);
    for (std::size_t i = 0; i < P::n; ++i)
      if (r.c[i] > 2 || (i == P::n - 1 && r.c[i] != 0))
        return cat("poly_s3_inv_ref [", pname<P>(), "]: operand ", idx, ": r_", i, " = ", r.c[i], " (Out: S3)");
    const bool zero = is_zero_mod_3_phi(a);
    const bool ok = zero ? std::all_of(r.c.begin(), r.c.end(), [](std::uint16_t c) { return c == 0; })
                         : is_constant_mod_phi<P>(cyclic_product(a, r), 3, 1);
    if (!ok)
      return cat("poly_s3_inv_ref [", pname<P>(), "]: operand ", idx, ": ",
                 zero ? "a = 0 mod (3, Phi_n) but r != 0" : "a * r != 1 mod (3, Phi_n)");
  }
  return std::nullopt;
}

/// Operands mod 2^16 for the inversions mod 2 and mod q: corners and seeded random.
template <class P>
std::vector<Poly<P>> wide_operands() {
  std::vector<Poly<P>> v = z3_operands<P>();
  for (const std::uint32_t c : {P::q - 1, P::q, 0x7FFFu, 0x8000u, 0xFFFFu})
    v.push_back(constant<P>(static_cast<std::uint16_t>(c)));
  Poly<P> one_plus, top;
  one_plus.c[0] = 1;
  for (std::size_t i = 1; i < P::n; ++i) one_plus.c[i] = 0xFFFE;  // 1 - 2 (x + ... ): odd at 0 only
  top = constant<P>(0xFFFF);
  top.c[P::n - 1] = 0x8000;
  v.push_back(one_plus);
  v.push_back(top);
  std::mt19937_64 rng(5 * P::n);
  for (int k = 0; k < 3; ++k) {
    Poly<P> a;
    for (auto& c : a.c) c = static_cast<std::uint16_t>(rng());
    v.push_back(a);
  }
  return v;
}

template <class P>
bool invertible_mod_2(const Poly<P>& a) {
  for (std::size_t i = 0; i + 1 < P::n; ++i)
    if (((a.c[i] ^ a.c[P::n - 1]) & 1) != 0) return true;
  return false;
}

/// poly_r2_inv: r in S2, a r = 1 mod (2, Phi_n), or r = 0 when a is 0 mod (2, Phi_n).
/// poly_rq_inv: r in Sq, a r = 1 mod (q, Phi_n) whenever a is invertible mod (2, Phi_n).
template <class P>
Finding check_r2_rq_inv(Unary<P> r2_inv, Unary<P> rq_inv) {
  const std::vector<Poly<P>> ops = wide_operands<P>();
  Poly<P> r;
  for (std::size_t idx = 0; idx < ops.size(); ++idx) {
    const Poly<P>& a = ops[idx];
    const bool inv = invertible_mod_2(a);
    r2_inv(r, a);
    if (r.c[P::n - 1] != 0 || !std::all_of(r.c.begin(), r.c.end(), [](std::uint16_t c) { return c <= 1; }))
      return cat("poly_r2_inv_ref [", pname<P>(), "]: operand ", idx, ": r not in S2");
    if (inv ? !is_constant_mod_phi<P>(cyclic_product(a, r), 2, 1)
            : !std::all_of(r.c.begin(), r.c.end(), [](std::uint16_t c) { return c == 0; }))
      return cat("poly_r2_inv_ref [", pname<P>(), "]: operand ", idx, ": ",
                 inv ? "a * r != 1 mod (2, Phi_n)" : "r != 0");
    rq_inv(r, a);
    if (r.c[P::n - 1] != 0 || !std::all_of(r.c.begin(), r.c.end(), [](std::uint16_t c) { return c < P::q; }))
      return cat("poly_rq_inv_ref [", pname<P>(), "]: operand ", idx, ": r not in Sq");
    if (inv && !is_constant_mod_phi<P>(cyclic_product(a, r), P::q, 1))
      return cat("poly_rq_inv_ref [", pname<P>(), "]: operand ", idx, ": a * r != 1 mod (q, Phi_n)");
  }
  return std::nullopt;
}

// ---- sampling -----------------------------------------------------------------------------------

/// Sample_iid: r_i = u_i mod 3 (i < n - 1), r_{n-1} = 0: every byte value at every position.
template <class P>
Finding check_sample_iid() {
  std::array<std::uint8_t, P::sample_iid_bytes> u{};
  Poly<P> r;
  for (std::uint32_t k = 0; k < 256; ++k) {
    for (std::size_t j = 0; j < u.size(); ++j) u[j] = static_cast<std::uint8_t>((j + k) % 256);
    r.c.fill(0xBEEF);
    sample_iid<P>(r, u);
    for (std::size_t i = 0; i < P::n; ++i) {
      const std::uint32_t want = i + 1 < P::n ? u[i] % 3u : 0u;
      if (r.c[i] != want)
        return cat("sample_iid [", pname<P>(), "]: u_i = ", i + 1 < P::n ? unsigned{u[i]} : 0u, " (i = ", i,
                   "): r_i = ", r.c[i], ", want u_i mod 3 = ", want);
    }
  }
  return std::nullopt;
}

/// Sample_iid_plus: r = Sample_iid(u), with the even-index coefficients negated when
/// sum_i v_i v_{i+1} < 0 (v: r centered in {-1, 0, 1}). Every byte value at every position, and the
/// extremes of the 16-bit correlation sum: all +1 (sum n - 2), alternating +1 -1 (-(n - 2)).
template <class P>
Finding check_sample_iid_plus() {
  std::array<std::uint8_t, P::sample_iid_bytes> u{};
  Poly<P> r;
  const auto check = [&](const char* what) -> Finding {
    sample_iid_plus<P>(r, u);
    std::vector<std::int64_t> v(P::n, 0);
    for (std::size_t i = 0; i + 1 < P::n; ++i) v[i] = u[i] % 3 == 2 ? -1 : u[i] % 3;
    std::int64_t s = 0;
    for (std::size_t i = 0; i + 1 < P::n; ++i) s += v[i] * v[i + 1];
    for (std::size_t i = 0; i < P::n; ++i) {
      const std::int64_t vi = (s < 0 && i % 2 == 0) ? -v[i] : v[i];
      const std::uint32_t want = mod3_of(vi);
      if (r.c[i] != want)
        return cat("sample_iid_plus [", pname<P>(), "] (", what, "): i = ", i, ", correlation ", s, ": r_i = ", r.c[i],
                   ", want ", want);
    }
    return std::nullopt;
  };
  for (std::uint32_t k = 0; k < 256; ++k) {
    for (std::size_t j = 0; j < u.size(); ++j) u[j] = static_cast<std::uint8_t>((j + k) % 256);
    if (Finding f = check("every byte at every position")) return f;
  }
  u.fill(1);
  if (Finding f = check("all +1")) return f;
  for (std::size_t j = 0; j < u.size(); ++j) u[j] = static_cast<std::uint8_t>(j % 2 ? 2 : 1);
  if (Finding f = check("alternating +1, -1")) return f;
  for (std::size_t j = 0; j < u.size(); ++j)
    u[j] = static_cast<std::uint8_t>(j % 2 ? 254 : 253);  // 254 = 2, 253 = 1 mod 3
  return check("alternating, high bytes");
}

/// Sample_fixed_type: the keys w_i << 2 | label_i (w_i = bits 30 i .. 30 i + 29 of the bytes, LSB
/// first), sorted as int32, labels mod 4. Every byte value at every byte position, all 0, all 0xFF.
template <class P>
Finding check_sample_fixed_type() {
  constexpr std::size_t m = P::n - 1;
  std::vector<std::uint8_t> u(P::sample_ft_bytes);
  Poly<P> r;
  const auto check = [&](const char* what, std::uint32_t k) -> Finding {
    sample_fixed_type_ref<P>(r, u.data());
    std::vector<std::int32_t> key(m);
    for (std::size_t i = 0; i < m; ++i) {
      std::uint64_t w = 0;
      for (std::size_t b = 0; b < 30; ++b) {
        const std::size_t bit = 30 * i + b;
        w += static_cast<std::uint64_t>((u[bit / 8] >> (bit % 8)) % 2) << b;
      }
      const std::uint64_t label = i < static_cast<std::size_t>(P::weight / 2) ? 1
                                  : i < static_cast<std::size_t>(P::weight)   ? 2
                                                                              : 0;
      key[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(4 * w + label));  // as the spec's int32
    }
    std::sort(key.begin(), key.end());
    for (std::size_t i = 0; i < P::n; ++i) {
      const std::uint32_t want = i < m ? static_cast<std::uint32_t>(key[i]) % 4 : 0;
      if (r.c[i] != want)
        return cat("sample_fixed_type_ref [", pname<P>(), "] (", what, ", k = ", k, "): r_", i, " = ", r.c[i],
                   ", want ", want);
    }
    return std::nullopt;
  };
  for (std::uint32_t k = 0; k < 256; ++k) {
    for (std::size_t j = 0; j < u.size(); ++j) u[j] = static_cast<std::uint8_t>((j + k) % 256);
    if (Finding f = check("every byte at every position", k)) return f;
  }
  for (const std::uint8_t b : {std::uint8_t{0}, std::uint8_t{0xFF}}) {
    std::fill(u.begin(), u.end(), b);
    if (Finding f = check("constant bytes", b)) return f;
  }
  return std::nullopt;
}

// ---- encodings ------------------------------------------------------------------------------------

/// unpack_S3: r_{5j+k} = floor(in_j / 3^k) mod 3 for 5j + k < n - 1, r_{n-1} = 0.
template <class P>
Finding check_s3_frombytes() {
  std::array<std::uint8_t, P::pack_trinary_bytes> in{};
  Poly<P> r;
  for (std::uint32_t k = 0; k < 256; ++k) {
    for (std::size_t j = 0; j < in.size(); ++j) in[j] = static_cast<std::uint8_t>((j * 7 + k) % 256);
    r.c.fill(0xBEEF);
    poly_s3_frombytes_ref<P>(r, in);
    for (std::size_t i = 0; i < P::n; ++i) {
      std::uint32_t want = 0, p3 = 1;
      if (i + 1 < P::n) {
        for (std::size_t e = 0; e < i % 5; ++e) p3 *= 3;
        want = in[i / 5] / p3 % 3;
      }
      if (r.c[i] != want)
        return cat("poly_s3_frombytes_ref [", pname<P>(), "]: byte ", i + 1 < P::n ? unsigned{in[i / 5]} : 0u,
                   ", digit ", i % 5, " (i = ", i, "): r_i = ", r.c[i], ", want floor(byte / 3^digit) mod 3 = ", want);
    }
  }
  return std::nullopt;
}

/// pack_S3: out_j = sum_k 3^k c_{5j+k} over 5j + k < n - 1 (c in Z3): every 5-trit group at every
/// group position (the last, partial group: every group of its length).
template <class P>
Finding check_s3_tobytes() {
  std::array<std::uint8_t, P::pack_trinary_bytes> out{};
  Poly<P> a;
  for (std::uint32_t k = 0; k < 243; ++k) {
    for (std::size_t i = 0; i < P::n; ++i) {
      auto g = static_cast<std::uint32_t>((i / 5 + k) % 243);
      for (std::size_t e = 0; e < i % 5; ++e) g /= 3;
      a.c[i] = static_cast<std::uint16_t>(g % 3);
    }
    poly_s3_tobytes_ref<P>(out, a);
    for (std::size_t j = 0; j < out.size(); ++j) {
      std::uint32_t want = 0, p3 = 1;
      for (std::size_t e = 0; e < 5 && 5 * j + e + 1 < P::n; ++e, p3 *= 3) want += p3 * a.c[5 * j + e];
      if (out[j] != want)
        return cat("poly_s3_tobytes_ref [", pname<P>(), "]: group ", j, " (k = ", k, "): byte ", unsigned{out[j]},
                   ", want sum 3^e c_{5j+e} = ", want);
    }
  }
  return std::nullopt;
}

/// s3_encoding_is_canonical: all ones exactly when every full byte is < 243 and the last, partial
/// one below 3^rest; every byte value at every position (the others 0). q_encoding_is_canonical:
/// all ones exactly when the unused bits of the last byte are 0, for every last byte.
template <class P>
Finding check_encoding_canonical() {
  constexpr std::size_t t = P::pack_trinary_bytes, rest = P::pack_deg % 5;
  std::array<std::uint8_t, t> s3{};
  for (std::size_t j = 0; j < t; ++j) {
    std::uint32_t limit = 243;
    if (rest != 0 && j + 1 == t) {
      limit = 1;
      for (std::size_t e = 0; e < rest; ++e) limit *= 3;
    }
    for (std::uint32_t v = 0; v < 256; ++v) {
      s3.fill(0);
      s3[j] = static_cast<std::uint8_t>(v);
      const std::uint32_t got = s3_encoding_is_canonical<P>(s3), want = v < limit ? 0xFFFFFFFFu : 0u;
      if (got != want)
        return cat("s3_encoding_is_canonical [", pname<P>(), "]: byte ", j, " = ", v, ": ", got, ", want ", want,
                   " (canonical below ", limit, ")");
    }
  }
  std::array<std::uint8_t, P::pack_q_bytes> qb{};
  for (std::uint32_t v = 0; v < 256; ++v) {
    qb.back() = static_cast<std::uint8_t>(v);
    const std::uint32_t used = 8 - P::pack_q_pad_bits;  // bits of the last byte that hold fields
    const std::uint32_t got = q_encoding_is_canonical<P>(qb), want = (v >> used) == 0 ? 0xFFFFFFFFu : 0u;
    if (got != want)
      return cat("q_encoding_is_canonical [", pname<P>(), "]: last byte ", v, ": ", got, ", want ", want, " (",
                 P::pack_q_pad_bits, " pad bits)");
  }
  return std::nullopt;
}

/// unpack_Sq and unpack_Rq0: r_i = field i (logq bits, LSB first) for i < n - 1; r_{n-1} = 0,
/// resp. -(r_0 + ... + r_{n-2}) mod q. Every field value at every field position; pad bits set in
/// every other round.
template <class P>
Finding check_q_frombytes() {
  constexpr std::size_t m = P::n - 1;
  std::vector<std::uint8_t> in(P::pack_q_bytes);
  std::vector<std::uint32_t> field(m);
  Poly<P> r0, r1;
  for (std::uint32_t k = 0; k < P::q; ++k) {
    std::fill(in.begin(), in.end(), 0);
    for (std::size_t i = 0; i < m; ++i) {
      field[i] = static_cast<std::uint32_t>((k + 3 * i) % P::q);
      for (std::size_t b = 0; b < static_cast<std::size_t>(P::logq); ++b) {
        const std::size_t bit = P::logq * i + b;
        in[bit / 8] = static_cast<std::uint8_t>(in[bit / 8] | (((field[i] >> b) & 1u) << (bit % 8)));
      }
    }
    if (k % 2) in.back() = static_cast<std::uint8_t>(in.back() | (0xFFu << (8 - P::pack_q_pad_bits)));
    const std::span<const std::uint8_t, P::pack_q_bytes> bytes(in.data(), in.size());
    poly_sq_frombytes_ref<P>(r0, bytes);
    poly_rq_sum_zero_frombytes_ref<P>(r1, bytes);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < m; ++i) {
      sum += field[i];
      if (r0.c[i] != field[i] || r1.c[i] != field[i])
        return cat("poly_sq/rq_sum_zero_frombytes_ref [", pname<P>(), "]: field ", i, " = ", field[i], " (k = ", k,
                   "): ", r0.c[i], ", ", r1.c[i]);
    }
    const std::uint64_t want_last = (P::q - sum % P::q) % P::q;
    if (r0.c[m] != 0 || r1.c[m] != want_last)
      return cat("poly_sq/rq_sum_zero_frombytes_ref [", pname<P>(), "] (k = ", k, "): r_{n-1} = ", r0.c[m], ", ",
                 r1.c[m], ", want 0, ", want_last, " (-(sum) mod q)");
  }
  return std::nullopt;
}

// ---- decryption's checks (owcpa_impl.hpp) ------------------------------------------------------

/// check_r_fails: 1 unless r_i mod q is in `good` for every i < n - 1 and r_{n-1} = 0. Every Rq value
/// v at positions v mod (n - 1) and (7 v + 3) mod (n - 1), the others cycling through the good
/// values, and at n - 1.
template <class P>
Finding check_r_fails_bounds(std::array<std::uint32_t, 3> good) {
  constexpr std::size_t m = P::n - 1;
  const std::array<std::uint16_t, 3> fill = {0, 1, static_cast<std::uint16_t>(P::q - 1)};
  Poly<P> r;
  for (std::uint32_t v = 0; v < P::q; ++v) {
    for (const std::size_t pos : {static_cast<std::size_t>(v % m), (v * 7 + 3) % m, m}) {
      for (std::size_t i = 0; i < m; ++i) r.c[i] = fill[(i + v) % 3];
      r.c[m] = 0;
      r.c[pos] = static_cast<std::uint16_t>(v);
      const bool is_good = pos == m ? v == 0 : std::find(good.begin(), good.end(), v) != good.end();
      const std::uint32_t got = check_r_fails<P>(r), want = is_good ? 0 : 1;
      if (got != want)
        return cat("check_r_fails [", pname<P>(), "]: r_", pos, " = ", v, ": ", got, ", want ", want,
                   " (good: r_i in {", good[0], ", ", good[1], ", ", good[2], "}, r_{n-1} = 0; In: Rq)");
    }
  }
  return std::nullopt;
}

/// check_m_fails (HPS): 1 unless m has exactly weight/2 ones and weight/2 twos. Every count of ones
/// (0 .. n) with weight/2 - 1, weight/2, weight/2 + 1 twos, and every count of twos likewise.
template <class P>
Finding check_m_fails_counts() {
  constexpr std::uint32_t half = P::weight / 2;
  Poly<P> m;
  const auto run = [&](std::uint32_t ones, std::uint32_t twos) -> Finding {
    if (ones + twos > P::n) return std::nullopt;
    m.c.fill(0);
    for (std::uint32_t i = 0; i < ones; ++i) m.c[(3 * i) % P::n] = 1;  // 3 generates Z/n: distinct positions
    std::uint32_t placed = 0;
    for (std::size_t i = 0; placed < twos; ++i)
      if (m.c[i] == 0) m.c[i] = 2, ++placed;
    const std::uint32_t got = check_m_fails<P>(m), want = (ones == half && twos == half) ? 0 : 1;
    if (got != want)
      return cat("check_m_fails [", pname<P>(), "]: ", ones, " ones, ", twos, " twos: ", got, ", want ", want,
                 " (weight/2 = ", half, ")");
    return std::nullopt;
  };
  for (std::uint32_t c = 0; c <= P::n; ++c) {
    for (const std::uint32_t other : {half - 1, half, half + 1}) {
      if (Finding f = run(c, other)) return f;
      if (Finding f = run(other, c)) return f;
    }
  }
  return std::nullopt;
}

// ---- the tests ------------------------------------------------------------------------------------

TEST(NtruScalarProof, Div3AndMod3ExactBelow2To17) {
  EXPECT_PROVEN(check_scalar("div3", &div3, &spec_div3, "x / 3", 1u << 17));
  EXPECT_PROVEN(check_scalar("mod3", &mod3, &spec_mod3, "x % 3", 1u << 17));
}

TEST(NtruScalarProof, InlineMod3FormsExactOnTheirRanges) {
  // poly_rq_to_s3_ref and the AVX2 mod3_16: x < 2^16 (any uint16); poly_lift_ref: x < 2^16;
  // sample_iid: every byte. The 32-bit product is exact below 2^16 as well.
  EXPECT_PROVEN(check_scalar("mod3 (16-bit high half >> 1)", &mod3_16bit_lanes, &spec_mod3, "x % 3", 1u << 16));
  EXPECT_PROVEN(check_scalar("mod3 (lift form)", &mod3_lift_form, &spec_mod3, "x % 3", 1u << 16));
  EXPECT_PROVEN(check_scalar("div3 (32-bit product)", &div3_32bit_product, &spec_div3, "x / 3", 1u << 16));
  EXPECT_PROVEN(check_scalar("mod3 (byte form, * 171 >> 9)", &mod3_byte_form, &spec_mod3, "x % 3", 256));
}

/// Negative controls: the bounds are tight. div3 and mod3 break at x = 2^17; a 32-bit product
/// breaks at 98304 (x * 43691 >= 2^32), which is why div3 multiplies in 64 bits.
TEST(NtruScalarProof, NegativeControlBoundsOneBeyondTheTruthFail) {
  EXPECT_REFUTED(check_scalar("div3", &div3, &spec_div3, "x / 3", (1u << 17) + 1), "div3(131072)");
  EXPECT_REFUTED(check_scalar("mod3", &mod3, &spec_mod3, "x % 3", (1u << 17) + 1), "mod3(131072)");
  EXPECT_REFUTED(check_scalar("div3 (32-bit product)", &div3_32bit_product, &spec_div3, "x / 3", 1u << 17), "(98304)");
  EXPECT_REFUTED(check_scalar("mod3 (16-bit high half >> 1)", &mod3_16bit_lanes, &spec_mod3, "x % 3", (1u << 16) + 1),
                 "(65536)");  // the lane form reads 16 bits: it cannot see 2^16
}

template <class P>
class NtruProof : public ::testing::Test {};
using Params = ::testing::Types<NtruHps2048509, NtruHps2048677, NtruHps4096821, NtruHrss701>;
class ParamNames {
public:
  template <class P>
  static std::string GetName(int) {
    return pname<P>();
  }
};
TYPED_TEST_SUITE(NtruProof, Params, ParamNames);

TYPED_TEST(NtruProof, Mod3PhiNOnEveryPairBelow2To15) {
  using P = TypeParam;
  EXPECT_PROVEN(check_mod_3_phi_n<P>(&poly_mod_3_phi_n<P>, 1u << 15));
}

/// The stated In (a_i < 2^15) is sufficient, not tight: the reduction needs a_i + 2 a_{n-1} < 2^17,
/// so a uniform bound holds up to 43691 and fails at 43692 (a_i = 43690, a_{n-1} = 43691 make
/// 2^17). The checker is run on the claim "every a_i < 43692" (and < 2^16): it must refute both.
TYPED_TEST(NtruProof, NegativeControlMod3PhiNBeyondItsDomainFails) {
  using P = TypeParam;
  EXPECT_REFUTED(check_mod_3_phi_n<P>(&poly_mod_3_phi_n<P>, 43692), "a_i = 43690");
  EXPECT_REFUTED(check_mod_3_phi_n<P>(&poly_mod_3_phi_n<P>, 1u << 16), "a_{n-1} = 65535");
  EXPECT_REFUTED(check_mod_3_phi_n<P>(&mutant<P, &poly_mod_3_phi_n<P>, 12345>, 1u << 15), "a_i = 12345");
}

TYPED_TEST(NtruProof, RqToS3OnEveryCoefficientValue) {
  using P = TypeParam;
  EXPECT_PROVEN(check_rq_to_s3<P>(&poly_rq_to_s3_ref<P>, -static_cast<std::int64_t>(P::q / 2)));
}

/// Centering on (-q/2, q/2] instead of [-q/2, q/2) changes C(q/2) by q, not a multiple of 3: the
/// checker must find it; and a kernel wrong on one value (0xFFFF) only.
TYPED_TEST(NtruProof, NegativeControlRqToS3WrongCenteringOrKernelFails) {
  using P = TypeParam;
  EXPECT_REFUTED(check_rq_to_s3<P>(&poly_rq_to_s3_ref<P>, -static_cast<std::int64_t>(P::q / 2) + 1),
                 cat("a_i = ", P::q / 2, " "));
  EXPECT_REFUTED(check_rq_to_s3<P>(&mutant<P, &poly_rq_to_s3_ref<P>, 0xFFFF>, -static_cast<std::int64_t>(P::q / 2)),
                 "a_i = 65535");
}

TYPED_TEST(NtruProof, ModQPhiNAndMulXMinus1) {
  using P = TypeParam;
  EXPECT_PROVEN(check_mod_q_phi_n<P>(&poly_mod_q_phi_n<P>));
  EXPECT_PROVEN(check_mul_x_minus_1<P>(&poly_mul_x_minus_1_ref<P>));
  EXPECT_REFUTED(check_mod_q_phi_n<P>(&mutant<P, &poly_mod_q_phi_n<P>, 0x8000>), "a_i = 32768");
  EXPECT_REFUTED(check_mul_x_minus_1<P>(&mutant<P, &poly_mul_x_minus_1_ref<P>, 0x7FFF>), "a_i = 32767");
}

/// z3_to_zq: exact on Z3 at every position, and in Rq for every input below q (the stated In: Z3 is
/// sufficient); the claim "Out: Rq for every input <= q" is refuted at q (q | (-(q / 2) mod q) = 3q / 2).
TYPED_TEST(NtruProof, Z3ToZq) {
  using P = TypeParam;
  EXPECT_PROVEN(check_z3_to_zq<P>(&poly_z3_to_zq_ref<P>, 3));
  EXPECT_PROVEN(check_z3_to_zq<P>(&poly_z3_to_zq_ref<P>, P::q));
  EXPECT_REFUTED(check_z3_to_zq<P>(&poly_z3_to_zq_ref<P>, P::q + 1), cat("a_i = ", P::q, " "));
  EXPECT_REFUTED(check_z3_to_zq<P>(&mutant<P, &poly_z3_to_zq_ref<P>, 1>, 3), "a_i = 1");
}

/// trinary_zq_to_z3 on every uint16: outputs in {0..3} as stated (3 does occur: the claim "< 3" is
/// refuted at the non-trinary input 3), trinary inputs exact.
TYPED_TEST(NtruProof, TrinaryZqToZ3OnEveryUint16) {
  using P = TypeParam;
  EXPECT_PROVEN(check_trinary_zq_to_z3<P>(&poly_trinary_zq_to_z3_ref<P>, 4));
  EXPECT_REFUTED(check_trinary_zq_to_z3<P>(&poly_trinary_zq_to_z3_ref<P>, 3), "a_i = 3 ");
  EXPECT_REFUTED(check_trinary_zq_to_z3<P>(&mutant<P, &poly_trinary_zq_to_z3_ref<P>, P::q - 1>, 4),
                 cat("a_i = ", P::q - 1, " "));
}

/// Lift against its definition on the family of check_lift; for HRSS the family reaches the
/// largest prefix sum poly_lift_ref's 16-bit loop can form, 4 (n - 1) (its stated bound), and the
/// reduction it then applies to 12 n - prefix < 2^16 is InlineMod3FormsExactOnTheirRanges's.
TYPED_TEST(NtruProof, Lift) {
  using P = TypeParam;
  std::uint32_t max_prefix = 0;
  EXPECT_PROVEN(check_lift<P>(&poly_lift_ref<P>, &max_prefix));
  if constexpr (P::hrss) {
    EXPECT_EQ(max_prefix, 4u * (P::n - 1)) << "the family reaches the stated bound of the prefix sums";
    static_assert(12u * P::n < 65536u && 4u * (P::n - 1) < 12u * P::n);
  }
  std::uint32_t unused = 0;
  EXPECT_REFUTED(check_lift<P>(&mutant<P, &poly_lift_ref<P>, 2>, &unused), "poly_lift_ref");
}

/// The S3 product: each coefficient of the exact cyclic product of Z3 operands is at most 4n, and
/// all-2 times all-2 reaches it (the bound is tight), below 2^15 (poly_mod_3_phi_n's In, proven
/// above for every pair) and 2^13 (the AVX2 Toom-4 product's exact range). Then the product on
/// corner and seeded operands against the schoolbook definition.
TYPED_TEST(NtruProof, S3Multiplication) {
  using P = TypeParam;
  const Poly<P> two = constant<P>(2);
  Poly<P> c;
  poly_mul_cyclic_ref<P>(c, two, two);
  for (std::size_t i = 0; i < P::n; ++i)
    ASSERT_EQ(std::uint32_t{c.c[i]}, 4u * P::n) << "poly_mul_cyclic_ref(2, 2), coefficient " << i;
  static_assert(4u * P::n < (1u << 15) && 4u * P::n < (1u << 13));
  EXPECT_PROVEN(check_s3_mul<P>(&poly_s3_mul_ref<P>));
}

TYPED_TEST(NtruProof, Inversions) {
  using P = TypeParam;
  EXPECT_PROVEN(check_s3_inv<P>(&poly_s3_inv_ref<P>));
  EXPECT_PROVEN(check_r2_rq_inv<P>(&poly_r2_inv_ref<P>, &poly_rq_inv_ref<P>));
  EXPECT_REFUTED(check_s3_inv<P>(&mutant<P, &poly_s3_inv_ref<P>, 1>), "poly_s3_inv_ref");
}

TYPED_TEST(NtruProof, SamplingByteMaps) {
  using P = TypeParam;
  EXPECT_PROVEN(check_sample_iid<P>());
  EXPECT_PROVEN(check_sample_iid_plus<P>());
  if constexpr (P::hps) EXPECT_PROVEN(check_sample_fixed_type<P>());
  // Pr[0] = 86/256, Pr[1] = Pr[2] = 85/256 (sample_iid's comment), over every byte.
  std::array<int, 3> count{};
  for (std::uint32_t b = 0; b < 256; ++b) ++count[b % 3];
  EXPECT_EQ(count, (std::array<int, 3>{86, 85, 85}));
}

TYPED_TEST(NtruProof, Encodings) {
  using P = TypeParam;
  EXPECT_PROVEN(check_s3_frombytes<P>());
  EXPECT_PROVEN(check_s3_tobytes<P>());
  EXPECT_PROVEN(check_encoding_canonical<P>());
  EXPECT_PROVEN(check_q_frombytes<P>());
}

TYPED_TEST(NtruProof, DecryptionChecks) {
  using P = TypeParam;
  EXPECT_PROVEN(check_r_fails_bounds<P>({0, 1, P::q - 1}));
  // A wrong good set (q - 1 left out): the checker must disagree with the kernel at q - 1.
  EXPECT_REFUTED(check_r_fails_bounds<P>({0, 1, 1}), cat("= ", P::q - 1, ": 0, want 1"));
  if constexpr (P::hps) EXPECT_PROVEN(check_m_fails_counts<P>());
}

}  // namespace
}  // namespace pqkem::ntru
