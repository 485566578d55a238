// The arithmetic kernels of the ML-KEM AVX2 and AVX-512 backends on the corners of their input
// contracts, against RefBackend bit for bit. The SIMD kernels are out of reach of the abstract
// interpretation that bounds the portable code, so every kernel with an input bound (its contract
// in mlkem/backend.hpp, widened where simd/mlkem/mlkem_avx2.hpp states a wider one) gets, per
// operand: every coefficient at each corner value of its range, alternations of corners, runs of
// +max and -max, one corner coefficient among zeros at every position, and seeded mixes of the
// seven corner values (-max, -max+1, -1, 0, 1, max-1, +max). The sums (add_reduce, sub_reduce)
// instead get operand tuples whose sum sits at the corners of |sum| < 2^15 while the operands sit
// at the int16 extremes. The NTT and its inverse are compared with the portable transform under
// every merge plan as well. Built with the other ML-KEM SIMD tests (mlkem_avx2_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mlkem/backend.hpp"
#include "mlkem/ntt.hpp"
#include "simd_fixture.hpp"

namespace pqkem::mlkem {
namespace {

#if PQKEM_HAVE_AVX2

// ---- the corners of an input contract ------------------------------------------------------------

/// One operand's range as a contract states it: lo <= x <= hi.
struct Range {
  int lo, hi;
  const char* text;
};
constexpr Range kBelowQ{-(kQ - 1), kQ - 1, "|x| < q"};
constexpr Range kHalfQ{-(kQ - 1) / 2, (kQ - 1) / 2, "|x| <= (q-1)/2"};
constexpr Range kBelow2p15{-32767, 32767, "|x| < 2^15"};
constexpr Range kAnyInt16{-32768, 32767, "any int16"};

/// The corner values of a range by index; index 6 - c mirrors index c. For "any int16", -max is
/// -32768 and +max 32767.
constexpr int kNumCorners = 7;
constexpr int kMinus = 0, kZero = 3, kPlus = 6;
constexpr const char* kCornerName[kNumCorners] = {"-max", "-max+1", "-1", "0", "1", "max-1", "+max"};

std::int16_t corner(const Range& r, int c) {
  const int v[kNumCorners] = {r.lo, r.lo + 1, -1, 0, 1, r.hi - 1, r.hi};
  return static_cast<std::int16_t>(v[c]);
}

/// Seeded mixes of corners per kernel (and per variant: k, d, with or without b).
constexpr int kMixes = 128;

/// A pattern of corners: the corner index of every coefficient.
struct Shape {
  std::string name;
  std::array<std::uint8_t, kN> c{};
};

Shape uniform(int c) {
  Shape s{std::string("all ") + kCornerName[c]};
  s.c.fill(static_cast<std::uint8_t>(c));
  return s;
}

/// x, y, x, y ... in runs of `run` coefficients.
Shape runs(int x, int y, int run) {
  Shape s{run == 1 ? std::string("alternating ") + kCornerName[x] + "/" + kCornerName[y]
                   : std::string(kCornerName[x]) + "/" + kCornerName[y] + " in runs of " + std::to_string(run)};
  for (int i = 0; i < kN; ++i) s.c[i] = static_cast<std::uint8_t>((i / run) % 2 == 0 ? x : y);
  return s;
}

Shape single(int pos, int c) {
  Shape s{std::string(kCornerName[c]) + " at index " + std::to_string(pos) + " among zeros"};
  s.c.fill(kZero);
  s.c[pos] = static_cast<std::uint8_t>(c);
  return s;
}

Shape mirror(const Shape& s) {
  Shape m{"mirror of (" + s.name + ")"};
  for (int i = 0; i < kN; ++i) m.c[i] = static_cast<std::uint8_t>(kNumCorners - 1 - s.c[i]);
  return m;
}

Shape mix(std::mt19937_64& rng, int n) {
  Shape s{"corner mix #" + std::to_string(n)};
  for (auto& x : s.c) x = static_cast<std::uint8_t>(rng() % kNumCorners);
  return s;
}

Arr realize(const Shape& s, const Range& r) {
  Arr a;
  for (int i = 0; i < kN; ++i) a[i] = corner(r, s.c[i]);
  return a;
}

/// Every corner alone, the alternations, and runs of +max / -max as long as the butterfly
/// distances of the NTT layers (2 .. 128), so that both inputs of a butterfly sit at opposite
/// corners at some layer.
std::vector<Shape> fixed_shapes() {
  std::vector<Shape> v;
  for (int c = 0; c < kNumCorners; ++c) v.push_back(uniform(c));
  const std::pair<int, int> alternations[] = {{kPlus, kMinus}, {kMinus, kPlus}, {kPlus, kZero},         {kZero, kPlus},
                                              {kMinus, kZero}, {kZero, kMinus}, {kPlus - 1, kMinus + 1}};
  for (const auto& [x, y] : alternations) v.push_back(runs(x, y, 1));
  for (int run = 2; run <= kN / 2; run *= 2) v.push_back(runs(kPlus, kMinus, run));
  return v;
}

using Operands = std::vector<Arr>;

/// Calls f(pattern, operands) on the corner cases of a kernel whose operands j have the ranges
/// ranges[j] (named names[j]), until f returns false:
///  - each fixed shape in every operand, and (more than one operand) alternately in an operand
///    and mirrored in the next;
///  - at every position, +max and -max alone among zeros in every operand, and in one operand
///    while the others are all +max;
///  - `kMixes` seeded mixes, each operand its own.
template <class F>
void for_each_operand_case(const std::vector<Range>& ranges, const std::vector<std::string>& names, std::uint64_t seed,
                           F&& f) {
  const std::size_t n = ranges.size();
  Operands ops(n);
  for (const Shape& s : fixed_shapes()) {
    for (std::size_t j = 0; j < n; ++j) ops[j] = realize(s, ranges[j]);
    if (!f(n == 1 ? s.name : "every operand " + s.name, ops)) return;
    if (n > 1) {
      const Shape m = mirror(s);
      for (std::size_t j = 0; j < n; ++j) ops[j] = realize(j % 2 == 0 ? s : m, ranges[j]);
      if (!f("operands alternately " + s.name + " and its mirror", ops)) return;
    }
  }
  const Shape all_plus = uniform(kPlus);
  for (int pos = 0; pos < kN; ++pos)
    for (const int c : {kPlus, kMinus}) {
      const Shape s = single(pos, c);
      for (std::size_t j = 0; j < n; ++j) ops[j] = realize(s, ranges[j]);
      if (!f(n == 1 ? s.name : "every operand " + s.name, ops)) return;
      if (n > 1)
        for (std::size_t t = 0; t < n; ++t) {
          for (std::size_t j = 0; j < n; ++j) ops[j] = realize(j == t ? s : all_plus, ranges[j]);
          if (!f(names[t] + ": " + s.name + "; the other operands all +max", ops)) return;
        }
    }
  std::mt19937_64 rng(seed);
  for (int m = 0; m < kMixes; ++m) {
    for (std::size_t j = 0; j < n; ++j) ops[j] = realize(mix(rng, m), ranges[j]);
    if (!f("corner mix #" + std::to_string(m) + " (seed " + std::to_string(seed) + ")", ops)) return;
  }
}

// ---- the corners of a sum contract ------------------------------------------------------------

/// Operands at most three, coefficient by coefficient.
using Tuple = std::array<std::int16_t, 3>;

/// The corners of a sum s = sum_j signs[j] x_j under |s| < 2^15 with every x_j any int16: every
/// tuple of int16 corners whose sum obeys the contract, and every tuple whose sum is a corner of
/// the sum's range (-32767, -32766, -1, 0, 1, 32766, 32767) with all operands but one at int16
/// corners and that one whatever the sum asks (when it fits an int16).
std::vector<Tuple> sum_corner_tuples(const std::vector<int>& signs) {
  const int n = static_cast<int>(signs.size());
  const auto sum = [&](const Tuple& t) {
    int s = 0;
    for (int j = 0; j < n; ++j) s += signs[j] * t[j];
    return s;
  };
  int combos = 1;
  for (int j = 0; j < n; ++j) combos *= kNumCorners;
  std::vector<Tuple> v;
  for (int i = 0; i < combos; ++i) {  // every operand at an int16 corner
    Tuple t{};
    for (int j = 0, x = i; j < n; ++j, x /= kNumCorners) t[j] = corner(kAnyInt16, x % kNumCorners);
    if (std::abs(sum(t)) <= 32767) v.push_back(t);
  }
  for (int c = 0; c < kNumCorners; ++c) {  // the sum at a corner, one operand solved for
    const int s = corner(kBelow2p15, c);
    for (int solved = 0; solved < n; ++solved)
      for (int i = 0; i < combos / kNumCorners; ++i) {
        Tuple t{};
        for (int j = 0, x = i; j < n; ++j)
          if (j != solved) {
            t[j] = corner(kAnyInt16, x % kNumCorners);
            x /= kNumCorners;
          }
        const int x = signs[solved] * (s - sum(t));
        if (x < -32768 || x > 32767) continue;
        t[solved] = static_cast<std::int16_t>(x);
        v.push_back(t);
      }
  }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::string tuple_text(const std::vector<std::string>& names, const Tuple& t) {
  std::string a = "(", b = "(";
  for (std::size_t j = 0; j < names.size(); ++j) {
    a += (j ? ", " : "") + names[j];
    b += (j ? ", " : "") + std::to_string(t[j]);
  }
  return a + ") = " + b + ")";
}

/// Calls f(pattern, operands) on the corner cases of a sum (sum_corner_tuples), until f returns
/// false: every tuple in every coefficient; tuples with sum +32767 alternating with tuples with
/// sum -32767, and each alternating with zeros; at every position one such tuple among zeros;
/// all tuples spread over the positions; `kMixes` seeded mixes of tuples.
template <class F>
void for_each_sum_case(const std::vector<int>& signs, const std::vector<std::string>& names, std::uint64_t seed,
                       F&& f) {
  const std::size_t n = signs.size();
  const std::vector<Tuple> all = sum_corner_tuples(signs);
  std::vector<Tuple> plus, minus;
  for (const Tuple& t : all) {
    int s = 0;
    for (std::size_t j = 0; j < n; ++j) s += signs[j] * t[j];
    if (s == 32767) plus.push_back(t);
    if (s == -32767) minus.push_back(t);
  }
  EXPECT_FALSE(plus.empty() || minus.empty());
  if (plus.empty() || minus.empty()) return;
  Operands ops(n);
  const auto run = [&](const std::string& pattern, auto&& tuple_at) {
    for (int i = 0; i < kN; ++i) {
      const Tuple t = tuple_at(i);
      for (std::size_t j = 0; j < n; ++j) ops[j][i] = t[j];
    }
    return f(pattern, ops);
  };
  const Tuple zero{};
  for (const Tuple& t : all)
    if (!run("every coefficient " + tuple_text(names, t), [&](int) { return t; })) return;
  for (std::size_t k = 0; k < std::max(plus.size(), minus.size()); ++k) {
    const Tuple& p = plus[k % plus.size()];
    const Tuple& m = minus[k % minus.size()];
    if (!run("alternating sum +max " + tuple_text(names, p) + " / sum -max " + tuple_text(names, m),
             [&](int i) { return i % 2 == 0 ? p : m; }))
      return;
    if (!run("alternating sum +max " + tuple_text(names, p) + " / zeros", [&](int i) { return i % 2 == 0 ? p : zero; }))
      return;
    if (!run("alternating sum -max " + tuple_text(names, m) + " / zeros", [&](int i) { return i % 2 == 0 ? m : zero; }))
      return;
  }
  for (int pos = 0; pos < kN; ++pos) {
    const Tuple& p = plus[static_cast<std::size_t>(pos) % plus.size()];
    const Tuple& m = minus[static_cast<std::size_t>(pos) % minus.size()];
    if (!run("sum +max " + tuple_text(names, p) + " at index " + std::to_string(pos) + " among zeros",
             [&](int i) { return i == pos ? p : zero; }))
      return;
    if (!run("sum -max " + tuple_text(names, m) + " at index " + std::to_string(pos) + " among zeros",
             [&](int i) { return i == pos ? m : zero; }))
      return;
  }
  for (std::size_t off = 0; off < all.size(); off += kN)
    if (!run("all " + std::to_string(all.size()) + " corner tuples spread, from tuple " + std::to_string(off),
             [&](int i) { return all[(off + static_cast<std::size_t>(i)) % all.size()]; }))
      return;
  std::mt19937_64 rng(seed);
  for (int k = 0; k < kMixes; ++k)
    if (!run("corner tuple mix #" + std::to_string(k) + " (seed " + std::to_string(seed) + ")",
             [&](int) { return all[rng() % all.size()]; }))
      return;
}

// ---- comparisons ------------------------------------------------------------------------------

/// A comparison's place, for its failure message: backend, kernel (and variant), pattern.
struct Where {
  std::string_view backend;
  std::string kernel;
  const std::string& pattern;
};

std::ostream& operator<<(std::ostream& o, const Where& w) {
  return o << w.backend << " " << w.kernel << ", pattern \"" << w.pattern << "\"";
}

/// simd == ref bit for bit, else the first differing index and both values.
template <class T, std::size_t N>
::testing::AssertionResult same_bits(const Where& w, const std::array<T, N>& simd, const std::array<T, N>& ref,
                                     std::string_view ref_name, std::string_view index_kind = "index") {
  for (std::size_t i = 0; i < N; ++i)
    if (simd[i] != ref[i])
      return ::testing::AssertionFailure() << w << ": first difference at " << index_kind << " " << i << ": SIMD "
                                           << +simd[i] << ", " << ref_name << " " << +ref[i];
  return ::testing::AssertionSuccess();
}

/// |out_i| <= bound: the output contract, on the corner inputs.
::testing::AssertionResult within(const Where& w, const Arr& out, int bound, std::string_view contract) {
  for (std::size_t i = 0; i < out.size(); ++i)
    if (std::abs(out[i]) > bound)
      return ::testing::AssertionFailure()
             << w << ": output contract " << contract << " broken at index " << i << ": " << out[i];
  return ::testing::AssertionSuccess();
}

/// Reports a failed comparison (non-fatal) and says whether to go on with the kernel: the first
/// failure of a kernel variant ends it, so one bug gives one message, not thousands.
bool check(const ::testing::AssertionResult& r) {
  if (!r) ADD_FAILURE() << r.message();
  return static_cast<bool>(r);
}

constexpr int kHalf = (kQ - 1) / 2;

// ---- the backends -----------------------------------------------------------------------------

template <class B>
constexpr std::string_view backend_name() {
  return B::kImpl == Impl::avx2 ? "AVX2" : "AVX-512";
}

/// Runs where the CPU has the backend's instruction sets and skips, saying so, where it lacks
/// them; a CPU that has them but a backend that is not usable fails.
template <class B>
class SimdCorner : public ::testing::Test {
protected:
  void SetUp() override {
    if constexpr (B::kImpl == Impl::avx2) {
      if (!cpu_has_avx2())
        GTEST_SKIP() << "this CPU lacks AVX2/BMI1/BMI2/POPCNT/PCLMUL: the AVX2 kernels cannot run here";
    } else {
      if (!cpu_has_avx512())
        GTEST_SKIP() << "this CPU lacks AVX-512 F/VL/BW/DQ/VBMI/VBMI2: the AVX-512 kernels cannot run here";
    }
    ASSERT_TRUE(simd::impl_usable(B::kImpl)) << simd::impl_unusable_reason(B::kImpl);
  }
};

#if PQKEM_HAVE_AVX512
using CornerBackends = ::testing::Types<Avx2Backend, Avx512Backend>;
#else
using CornerBackends = ::testing::Types<Avx2Backend>;
#endif

struct BackendTestName {
  template <class B>
  static std::string GetName(int) {
    return B::kImpl == Impl::avx2 ? "Avx2" : "Avx512";
  }
};

TYPED_TEST_SUITE(SimdCorner, CornerBackends, BackendTestName);

/// NTT (ntt): In |f_i| < q. Against RefBackend and the portable NTT under every merge plan.
TYPED_TEST(SimdCorner, Ntt) {
  using B = TypeParam;
  const std::string current = "RefBackend (plan " + current_ntt_plan().name() + ")";
  for_each_operand_case({kBelowQ}, {"f"}, 0x4e7474, [&](const std::string& pattern, const Operands& ops) {
    const Where w{backend_name<B>(), "ntt (|f_i| < q)", pattern};
    const Poly f{ops[0]};
    const NttPoly got = B::to_fips203_order(B::ntt(f));
    if (!check(same_bits(w, got.c, RefBackend::ntt(f).c, current, "index (FIPS 203 order)"))) return false;
    for (const NttPlanEntry& p : all_ntt_plans())
      if (!check(same_bits(w, got.c, ntt_ref(f, NttPlanChoice{&p, &p}).c, "portable plan " + std::string(p.name),
                           "index (FIPS 203 order)")))
        return false;
    return check(within(w, got.c, kHalf, "|f^_i| <= (q-1)/2"));
  });
}

/// NTT^-1 (inverse_ntt): In |f^_i| < q. Against RefBackend and every merge plan.
TYPED_TEST(SimdCorner, InverseNtt) {
  using B = TypeParam;
  const std::string current = "RefBackend (plan " + current_ntt_plan().name() + ")";
  for_each_operand_case({kBelowQ}, {"f^"}, 0x696e76, [&](const std::string& pattern, const Operands& ops) {
    const Where w{backend_name<B>(), "inverse_ntt (|f^_i| < q, input in FIPS 203 order)", pattern};
    const NttPoly fh{ops[0]};
    const Poly got = B::inverse_ntt(B::from_fips203_order(fh));
    if (!check(same_bits(w, got.c, RefBackend::inverse_ntt(fh).c, current))) return false;
    for (const NttPlanEntry& p : all_ntt_plans())
      if (!check(same_bits(w, got.c, inverse_ntt_ref(fh, NttPlanChoice{&p, &p}).c,
                           "portable plan " + std::string(p.name))))
        return false;
    return check(within(w, got.c, kQ - 1, "|f_i| < q"));
  });
}

/// inner_product for k = 1..4: In |a|, |b| < q.
TYPED_TEST(SimdCorner, InnerProduct) {
  using B = TypeParam;
  for (int k = 1; k <= 4; ++k) {
    std::vector<std::string> names;
    for (int j = 0; j < k; ++j) names.push_back("a_" + std::to_string(j));
    for (int j = 0; j < k; ++j) names.push_back("b_" + std::to_string(j));
    const std::string kernel = "inner_product k = " + std::to_string(k) + " (|a|, |b| < q)";
    const auto compare = [&](const std::string& pattern, const Operands& ops) {
      NttPoly a[4], b[4];
      typename B::NttPoly as[4], bs[4];
      for (int j = 0; j < k; ++j) {
        a[j].c = ops[j];
        b[j].c = ops[k + j];
        as[j] = B::from_fips203_order(a[j]);
        bs[j] = B::from_fips203_order(b[j]);
      }
      NttPoly want;
      RefBackend::inner_product(want, a, b, k);
      typename B::NttPoly got;
      B::inner_product(got, as, bs, k);
      const Where w{backend_name<B>(), kernel, pattern};
      const NttPoly g = B::to_fips203_order(got);
      return check(same_bits(w, g.c, want.c, "RefBackend", "index (FIPS 203 order)")) &&
             check(within(w, g.c, kHalf, "|r_i| <= (q-1)/2"));
    };
    for_each_operand_case(std::vector<Range>(2 * static_cast<std::size_t>(k), kBelowQ), names,
                          0x697000 + static_cast<std::uint64_t>(k), compare);
  }
}

/// tomont_add_reduce: In |t_i| < 2^15 (mlkem_avx2.hpp, the widest stated; the AVX-512 kernel has
/// the same contract), |e_i| < q; and the concept's narrower |t_i| <= (q-1)/2.
TYPED_TEST(SimdCorner, TomontAddReduce) {
  using B = TypeParam;
  for (const Range& t_range : {kBelow2p15, kHalfQ}) {
    const std::string kernel = std::string("tomont_add_reduce (t: ") + t_range.text + ", e: |x| < q)";
    const auto compare = [&](const std::string& pattern, const Operands& ops) {
      NttPoly want{ops[0]};
      const NttPoly e{ops[1]};
      RefBackend::tomont_add_reduce(want, e);
      typename B::NttPoly got = B::from_fips203_order(NttPoly{ops[0]});
      B::tomont_add_reduce(got, B::from_fips203_order(e));
      const Where w{backend_name<B>(), kernel, pattern};
      const NttPoly g = B::to_fips203_order(got);
      return check(same_bits(w, g.c, want.c, "RefBackend", "index (FIPS 203 order)")) &&
             check(within(w, g.c, kHalf, "|t_i| <= (q-1)/2"));
    };
    for_each_operand_case({t_range, kBelowQ}, {"t", "e"}, t_range.hi == 32767 ? 0x746d31 : 0x746d32, compare);
  }
}

/// add_reduce with and without b: In |r_i + a_i (+ b_i)| < 2^15, the operands any int16.
TYPED_TEST(SimdCorner, AddReduce) {
  using B = TypeParam;
  for (const bool with_b : {true, false}) {
    const std::string kernel =
        with_b ? "add_reduce with b (|r + a + b| < 2^15)" : "add_reduce without b (|r + a| < 2^15)";
    const std::vector<int> signs = with_b ? std::vector<int>{1, 1, 1} : std::vector<int>{1, 1};
    const std::vector<std::string> names =
        with_b ? std::vector<std::string>{"r", "a", "b"} : std::vector<std::string>{"r", "a"};
    for_each_sum_case(signs, names, with_b ? 0x616433 : 0x616432, [&](const std::string& pattern, const Operands& ops) {
      const Poly a{ops[1]};
      const Poly b{with_b ? ops[2] : Arr{}};
      Poly want{ops[0]}, got{ops[0]};
      RefBackend::add_reduce(want, a, with_b ? &b : nullptr);
      B::add_reduce(got, a, with_b ? &b : nullptr);
      const Where w{backend_name<B>(), kernel, pattern};
      return check(same_bits(w, got.c, want.c, "RefBackend")) && check(within(w, got.c, kHalf, "|r_i| <= (q-1)/2"));
    });
  }
}

/// sub_reduce: r = Barrett(a - r). In |a_i - r_i| < 2^15, the operands any int16.
TYPED_TEST(SimdCorner, SubReduce) {
  using B = TypeParam;
  for_each_sum_case({-1, 1}, {"r", "a"}, 0x737562, [&](const std::string& pattern, const Operands& ops) {
    const Poly a{ops[1]};
    Poly want{ops[0]}, got{ops[0]};
    RefBackend::sub_reduce(want, a);
    B::sub_reduce(got, a);
    const Where w{backend_name<B>(), "sub_reduce (|a - r| < 2^15)", pattern};
    return check(same_bits(w, got.c, want.c, "RefBackend")) && check(within(w, got.c, kHalf, "|r_i| <= (q-1)/2"));
  });
}

/// encode12 (ByteEncode_12): In |f^_i| < q. Nothing is written past the 384 bytes.
TYPED_TEST(SimdCorner, Encode12) {
  using B = TypeParam;
  for_each_operand_case({kBelowQ}, {"f^"}, 0x656e63, [&](const std::string& pattern, const Operands& ops) {
    const NttPoly f{ops[0]};
    std::array<std::uint8_t, kPolyBytes> want{}, got{};
    RefBackend::encode12(f, want);
    std::array<std::uint8_t, kPolyBytes + 64> guarded;
    guarded.fill(0xA5);
    B::encode12(B::from_fips203_order(f), std::span<std::uint8_t, kPolyBytes>(guarded.data(), kPolyBytes));
    std::copy_n(guarded.begin(), kPolyBytes, got.begin());
    const Where w{backend_name<B>(), "encode12 (|f^_i| < q, input in FIPS 203 order)", pattern};
    if (!check(same_bits(w, got, want, "RefBackend", "byte"))) return false;
    const bool untouched =
        std::all_of(guarded.begin() + kPolyBytes, guarded.end(), [](std::uint8_t x) { return x == 0xA5; });
    EXPECT_TRUE(untouched) << w << ": wrote past the 384 bytes";
    return untouched;
  });
}

template <class B, int D>
void check_compress_encode() {
  const std::string kernel = "compress_encode<" + std::to_string(D) + "> (|f_i| < q)";
  for_each_operand_case({kBelowQ}, {"f"}, 0x636f6d00 + D, [&](const std::string& pattern, const Operands& ops) {
    const Poly f{ops[0]};
    std::array<std::uint8_t, 32 * D> want{}, got{};
    RefBackend::compress_encode<D>(f, want);
    std::array<std::uint8_t, 32 * D + 64> guarded;
    guarded.fill(0xA5);
    B::template compress_encode<D>(f, std::span<std::uint8_t, 32 * D>(guarded.data(), 32 * D));
    std::copy_n(guarded.begin(), 32 * D, got.begin());
    const Where w{backend_name<B>(), kernel, pattern};
    if (!check(same_bits(w, got, want, "RefBackend", "byte"))) return false;
    const bool untouched =
        std::all_of(guarded.begin() + 32 * D, guarded.end(), [](std::uint8_t x) { return x == 0xA5; });
    EXPECT_TRUE(untouched) << w << ": wrote past the " << 32 * D << " bytes";
    return untouched;
  });
}

/// compress_encode<d> (ByteEncode_d(Compress_d)), d in {1, 4, 5, 10, 11}: In |f_i| < q. The
/// AVX-512 backend runs the AVX2 codec (Avx2OrderCodecs); it is checked through that backend too.
TYPED_TEST(SimdCorner, CompressEncode) {
  using B = TypeParam;
  check_compress_encode<B, 1>();
  check_compress_encode<B, 4>();
  check_compress_encode<B, 5>();
  check_compress_encode<B, 10>();
  check_compress_encode<B, 11>();
}

// The AVX2 kernels with an input bound that no backend entry exposes and that have no AVX-512
// twin: the Barrett reduction of a whole polynomial and the accumulating base multiplication.
class SimdCornerAvx2 : public SimdCorner<Avx2Backend> {};

/// reduce_avx2: In any int16. The corners, then every int16 value once.
TEST_F(SimdCornerAvx2, BarrettReduce) {
  const auto compare = [](const std::string& pattern, const Arr& in) {
    Poly want{in};
    reduce(want);
    Arr got = in;
    av::reduce_avx2(got.data());
    const Where w{"AVX2", "reduce_avx2 (any int16)", pattern};
    return check(same_bits(w, got, want.c, "barrett_reduce")) && check(within(w, got, kHalf, "|a_i| <= (q-1)/2"));
  };
  for_each_operand_case({kAnyInt16}, {"a"}, 0x726564,
                        [&](const std::string& pattern, const Operands& ops) { return compare(pattern, ops[0]); });
  for (int lo = -32768; lo < 32768; lo += kN) {
    Arr in;
    for (int i = 0; i < kN; ++i) in[i] = static_cast<std::int16_t>(lo + i);
    if (!compare("every int16 from " + std::to_string(lo), in)) break;
  }
}

/// multiply_ntts_acc_avx2: In |a_i|, |b_i| < q, each call adds less than 2q to |r_i|; up to 4
/// calls from r = 0 (the comment of multiply_ntts_acc_ref), compared after each call.
TEST_F(SimdCornerAvx2, BasemulAccumulatesFourCalls) {
  const std::vector<std::string> names = {"a_0", "a_1", "a_2", "a_3", "b_0", "b_1", "b_2", "b_3"};
  const auto compare = [](const std::string& pattern, const Operands& ops) {
    NttPoly want{};
    Arr got{};  // AVX2 order
    for (int j = 0; j < 4; ++j) {
      multiply_ntts_acc_ref(want, NttPoly{ops[j]}, NttPoly{ops[4 + j]});
      av::multiply_ntts_acc_avx2(got.data(), transposed(ops[j]).data(), transposed(ops[4 + j]).data());
      const Where w{"AVX2", "multiply_ntts_acc (|a|, |b| < q), call " + std::to_string(j + 1) + " of 4 from r = 0",
                    pattern};
      const Arr g = transposed(got);
      if (!check(same_bits(w, g, want.c, "multiply_ntts_acc_ref", "index (FIPS 203 order)")) ||
          !check(within(w, g, 2 * kQ * (j + 1) - 1, "|r_i| < 2q per call")))
        return false;
    }
    return true;
  };
  for_each_operand_case(std::vector<Range>(8, kBelowQ), names, 0x626d61, compare);
}

#endif  // PQKEM_HAVE_AVX2

}  // namespace
}  // namespace pqkem::mlkem
