// The NTT against FIPS 203's definition, the inverse, multiplication, and every plan shape.
#include <gtest/gtest.h>

#include <random>

#include "mlkem/ntt.hpp"

namespace pqkem::mlkem {
namespace {

std::int64_t mod_q(std::int64_t a) { return ((a % kQ) + kQ) % kQ; }

std::int64_t pow_q(std::int64_t b, int e) {
  std::int64_t r = 1;
  for (int i = 0; i < e; ++i) r = r * b % kQ;
  return r;
}

int bit_rev7(int i) {
  int r = 0;
  for (int b = 0; b < 7; ++b) r |= ((i >> b) & 1) << (6 - b);
  return r;
}

// The NTT as FIPS 203 section 4.3 defines it: f^_{2i} = sum_j f_{2j} zeta^{(2 BitRev7(i)+1) j},
// f^_{2i+1} = sum_j f_{2j+1} zeta^{(2 BitRev7(i)+1) j}, computed naively mod q.
std::array<std::int64_t, 256> ntt_by_definition(const Poly& f) {
  std::array<std::int64_t, 256> r{};
  for (int i = 0; i < 128; ++i) {
    const std::int64_t g = pow_q(17, 2 * bit_rev7(i) + 1);
    std::int64_t even = 0, odd = 0, gp = 1;
    for (int j = 0; j < 128; ++j) {
      even = (even + mod_q(f.c[2 * j]) * gp) % kQ;
      odd = (odd + mod_q(f.c[2 * j + 1]) * gp) % kQ;
      gp = gp * g % kQ;
    }
    r[2 * i] = even;
    r[2 * i + 1] = odd;
  }
  return r;
}

Poly random_poly(std::mt19937& rng, int lo, int hi) {
  std::uniform_int_distribution<int> d(lo, hi);
  Poly p;
  for (auto& x : p.c) x = static_cast<std::int16_t>(d(rng));
  return p;
}

TEST(Ntt, ZetaTableMatchesFips203AppendixA) {
  for (int i = 0; i < 128; ++i) EXPECT_EQ(mod_q(kZetas[i]), pow_q(17, bit_rev7(i)) * 65536 % kQ) << i;
}

TEST(Ntt, MatchesDefinitionOnRandomAndEdgeInputs) {
  std::mt19937 rng(2031);
  std::vector<Poly> inputs;
  for (int t = 0; t < 20; ++t) inputs.push_back(random_poly(rng, -kQ + 1, kQ - 1));
  Poly edge;
  edge.c.fill(kQ - 1);
  inputs.push_back(edge);
  edge.c.fill(-kQ + 1);
  inputs.push_back(edge);
  inputs.push_back(Poly{});
  for (const Poly& f : inputs) {
    const NttPoly r = ntt_ref(f, current_ntt_plan());
    const auto expect = ntt_by_definition(f);
    for (int i = 0; i < kN; ++i) {
      ASSERT_EQ(mod_q(r.c[i]), expect[i]) << i;
      ASSERT_LE(std::abs(r.c[i]), (kQ - 1) / 2);
    }
  }
}

TEST(Ntt, InverseAfterForwardIsIdentityTimesMontgomeryFactor) {
  // inverse_ntt multiplies by R (to cancel multiply_ntts' R^-1), so inverse_ntt_ref(ntt_ref(f)) = f R.
  std::mt19937 rng(7);
  for (int t = 0; t < 50; ++t) {
    const Poly f = random_poly(rng, -kQ + 1, kQ - 1);
    const Poly g = inverse_ntt_ref(ntt_ref(f, current_ntt_plan()), current_ntt_plan());
    for (int i = 0; i < kN; ++i) {
      ASSERT_EQ(mod_q(g.c[i]), mod_q(std::int64_t{f.c[i]} * 65536)) << i;
      ASSERT_LT(std::abs(g.c[i]), kQ);
    }
  }
}

TEST(Ntt, MultiplicationIsNegacyclicConvolution) {
  std::mt19937 rng(99);
  for (int t = 0; t < 10; ++t) {
    const Poly a = random_poly(rng, -kQ + 1, kQ - 1), b = random_poly(rng, -kQ + 1, kQ - 1);
    NttPoly prod;
    multiply_ntts_acc_ref(prod, ntt_ref(a, current_ntt_plan()), ntt_ref(b, current_ntt_plan()));
    reduce(prod);
    const Poly c = inverse_ntt_ref(prod, current_ntt_plan());
    std::array<std::int64_t, 256> expect{};
    for (int i = 0; i < kN; ++i)
      for (int j = 0; j < kN; ++j) {
        const std::int64_t p = std::int64_t{a.c[i]} * b.c[j];
        if (i + j < kN)
          expect[i + j] += p;
        else
          expect[i + j - kN] -= p;  // X^256 = -1
      }
    for (int i = 0; i < kN; ++i) ASSERT_EQ(mod_q(c.c[i]), mod_q(expect[i])) << i;
  }
}

// Every plan computes the same butterflies with the same per-layer reductions: all 44 must
// equal the layer-by-layer plan bit for bit, forward and inverse, on seeded random inputs and
// on edge inputs (zeros, all q-1, all -(q-1), alternating extremes).
TEST(Ntt, AllFortyFourMergePlansAreBitExact) {
  const auto plans = all_ntt_plans();
  ASSERT_EQ(plans.size(), 44u);
  const NttPlanEntry* ref = find_ntt_plan("1111111");
  ASSERT_NE(ref, nullptr);
  std::vector<std::array<std::int16_t, 256>> inputs;
  std::array<std::int16_t, 256> e{};
  inputs.push_back(e);
  e.fill(kQ - 1);
  inputs.push_back(e);
  e.fill(-(kQ - 1));
  inputs.push_back(e);
  for (int i = 0; i < kN; ++i) e[i] = static_cast<std::int16_t>(i % 2 ? kQ - 1 : -(kQ - 1));
  inputs.push_back(e);
  std::mt19937 rng(20260);
  for (int t = 0; t < 1000; ++t) inputs.push_back(random_poly(rng, -kQ + 1, kQ - 1).c);

  for (const NttPlanEntry& plan : plans) {
    ASSERT_EQ(plan.name.size() >= 3 && plan.name.size() <= 7, true) << plan.name;
    for (const auto& in : inputs) {
      auto x = in, y = in;
      ref->forward(x.data());
      plan.forward(y.data());
      ASSERT_EQ(x, y) << "forward plan " << plan.name;
      auto u = in, v = in;
      ref->inverse(u.data());
      plan.inverse(v.data());
      ASSERT_EQ(u, v) << "inverse plan " << plan.name;
      for (auto c : v) ASSERT_LT(std::abs(c), kQ) << "inverse plan " << plan.name;
    }
  }
  EXPECT_EQ(find_ntt_plan("3211")->name, "3211");
  EXPECT_EQ(find_ntt_plan("44"), nullptr);
  EXPECT_EQ(find_ntt_plan("1111112"), nullptr);
  ASSERT_TRUE(parse_ntt_plan("3211").has_value());
  EXPECT_EQ(parse_ntt_plan("3211")->name(), "3211");
  EXPECT_EQ(parse_ntt_plan("3211/3211")->name(), "3211");
  EXPECT_EQ(parse_ntt_plan("11212/22111")->forward->name, "11212");
  EXPECT_EQ(parse_ntt_plan("11212/22111")->inverse->name, "22111");
  EXPECT_FALSE(parse_ntt_plan("3211/").has_value());
  EXPECT_FALSE(parse_ntt_plan("/3211").has_value());
  EXPECT_FALSE(parse_ntt_plan("3211/331/133").has_value());
  EXPECT_FALSE(parse_ntt_plan("").has_value());
  EXPECT_EQ(parse_ntt_plan(kDefaultNttPlan)->name(), kDefaultNttPlan);
}

TEST(Ntt, ForwardOutputBoundHoldsOnWorstCaseInputs) {
  // In: |a_i| < q. Out: |a_i| < 8q. The all-(q-1) and alternating inputs drive the sums highest.
  for (int sign : {1, -1}) {
    std::array<std::int16_t, 256> a{};
    a.fill(static_cast<std::int16_t>(sign * (kQ - 1)));
    find_ntt_plan("1111111")->forward(a.data());
    for (auto c : a) ASSERT_LT(std::abs(c), 8 * kQ);
  }
}

TEST(Ntt, InverseWithEveryPlanSelectedRoundTrips) {
  std::mt19937 rng(77);
  const NttPlanChoice saved = current_ntt_plan();
  for (const NttPlanEntry& plan : all_ntt_plans()) {
    set_ntt_plan(plan);
    const Poly f = random_poly(rng, -kQ + 1, kQ - 1);
    const Poly g = inverse_ntt_ref(ntt_ref(f, current_ntt_plan()), current_ntt_plan());
    for (int i = 0; i < kN; ++i) ASSERT_EQ(mod_q(g.c[i]), mod_q(std::int64_t{f.c[i]} * 65536)) << plan.name;
  }
  set_ntt_plan(saved);
}

}  // namespace
}  // namespace pqkem::mlkem
