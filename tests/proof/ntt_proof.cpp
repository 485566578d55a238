// The bounds of the NTT, its inverse and MultiplyNTTs (lib/mlkem/ntt.hpp, ntt_code.hpp), proven
// for all inputs of their contracts by running the library's own templates on the interval
// domain of ntt_domain.hpp: all 44 forward and 44 inverse merge plans, and the accumulated
// basemul for every number of calls the callers make. A run proves that no sum or difference
// leaves int16, that every Montgomery product meets its precondition, the documented bound of
// every layer and of the output, and the power of R that the callers rely on (the NTT keeps it,
// the inverse multiplies by R, MultiplyNTTs by R^-1).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "mlkem/ntt_code.hpp"
#include "ntt_domain.hpp"

namespace pqkem::mlkem {
namespace {

using proof::Abs;
using proof::Record;

/// A polynomial of abstract coefficients, for multiply_ntts_acc (which takes .c like NttPoly).
struct AbsPoly {
  std::array<Abs, kN> c;
};

AbsPoly inputs(std::int32_t bound, int mont) {
  AbsPoly p;
  for (int i = 0; i < kN; ++i) p.c[i] = proof::input(bound, mont, i);
  return p;
}

/// Runs f() with rec as the current record.
template <class F>
void recording(Record& rec, F f) {
  proof::current() = &rec;
  f();
  proof::current() = nullptr;
}

/// Fails rec unless every output coefficient lies within |a_i| <= max_abs and carries R^mont.
void check_output(Record& rec, const AbsPoly& p, std::int32_t max_abs, const std::string& bound_text, int mont) {
  for (int i = 0; i < kN; ++i) {
    if (p.c[i].mag() > max_abs)
      rec.fail("output coefficient " + std::to_string(i) + " in " + proof::interval(p.c[i]) + " breaks " + bound_text);
    if (p.c[i].mont != mont)
      rec.fail("output coefficient " + std::to_string(i) + " carries R^" + std::to_string(p.c[i].mont) + ", not R^" +
               std::to_string(mont));
  }
}

std::string failures_of(const Record& rec) {
  std::ostringstream s;
  for (const std::string& f : rec.failures) s << "\n  " << f;
  if (rec.failure_count > Record::kMaxFailures) s << "\n  ... " << rec.failure_count << " failures in all";
  return s.str();
}

/// The larger of two recorded kinds at a layer, and the coefficient where it was reached.
struct Peak {
  std::int32_t value;
  int at;
};
Peak peak(const std::array<std::int32_t, 8>& a, const std::array<int, 8>& a_at, const std::array<std::int32_t, 8>& b,
          const std::array<int, 8>& b_at, int layer) {
  return a[layer] >= b[layer] ? Peak{a[layer], a_at[layer]} : Peak{b[layer], b_at[layer]};
}
std::string layer_failure(int layer, const Peak& p, std::int32_t bound) {
  return "layer " + std::to_string(layer) + ", coefficient " + std::to_string(p.at) + ": " + std::to_string(p.value) +
         " breaks the layer's bound <= " + std::to_string(bound);
}

/// One abstract run of a plan: its record and its output.
struct PlanRun {
  std::string plan;
  Record rec;
  AbsPoly out;
};

enum class Direction { forward, inverse };

/// Every plan in one direction on inputs |a_i| <= in_bound, times R^mont.
std::vector<PlanRun> run_plans(Direction dir, std::int32_t in_bound, int mont) {
  std::vector<PlanRun> runs;
  auto one = [&]<class P>() {
    PlanRun& run = runs.emplace_back();
    run.plan = P::kName;
    run.rec.where = "plan " + run.plan + (dir == Direction::forward ? ", forward" : ", inverse");
    run.out = inputs(in_bound, mont);
    recording(run.rec, [&] {
      if (dir == Direction::forward)
        P::forward_on(run.out.c.data());
      else
        P::inverse_on(run.out.c.data());
    });
  };
  ntt_code::for_each_ntt_plan(one);
  return runs;
}

TEST(ProofNtt, EveryForwardPlanWithinItsBounds) {
  // ntt.hpp: "In: |a_i| < q. Out: |a_i| <= 16180 < 5q"; the bounds after layers 1..7 (index).
  constexpr std::array<std::int32_t, 8> kAfter = {0, 5030, 6810, 8539, 10401, 12296, 14164, 16180};
  std::vector<PlanRun> runs = run_plans(Direction::forward, kQ - 1, 0);
  ASSERT_EQ(runs.size(), 44u);
  for (PlanRun& run : runs) {
    Record& rec = run.rec;
    for (int m = 1; m <= 7; ++m) {
      const Peak after = peak(rec.sum, rec.sum_at, rec.diff, rec.diff_at, m);
      if (after.value > kAfter[m] || after.value >= (m + 1) * kQ) rec.fail(layer_failure(m, after, kAfter[m]));
    }
    check_output(rec, run.out, std::min(kAfter[7], 5 * kQ - 1), "|a_i| <= 16180 < 5q", 0);
    // ntt_ref's Barrett reduction after the transform: |f^_i| <= (q-1)/2.
    AbsPoly reduced = run.out;
    recording(rec, [&] {
      for (Abs& x : reduced.c) x = proof::barrett_reduce(x);
    });
    check_output(rec, reduced, (kQ - 1) / 2, "|f^_i| <= (q-1)/2", 0);
    EXPECT_EQ(rec.failure_count, 0) << failures_of(rec);
  }
  // Every plan runs the same butterflies: the same bounds, layer by layer.
  for (const PlanRun& run : runs) {
    EXPECT_EQ(run.rec.sum, runs[0].rec.sum) << run.plan;
    EXPECT_EQ(run.rec.diff, runs[0].rec.diff) << run.plan;
    EXPECT_EQ(run.rec.product, runs[0].rec.product) << run.plan;
  }
  std::cout << "forward, all 44 plans, |a_i| after layers 1..7:";
  for (int m = 1; m <= 7; ++m) std::cout << " " << std::max(runs[0].rec.sum[m], runs[0].rec.diff[m]);
  std::cout << " (5q = " << 5 * kQ << ")\n";
}

TEST(ProofNtt, EveryInversePlanWithinItsBounds) {
  // ntt.hpp: "In: |a_i| < q. Out: |a_i| <= 1747 < q"; bounds after layers 7, 6, 5 (reduced), 4,
  // 3, 2 (reduced), 1: 6656, 13312, 2315, 4257, 8289, 2036, 3788; every difference < 8q. Its
  // input is the output of MultiplyNTTs (R^-1); it multiplies by R.
  constexpr std::array<std::int32_t, 8> kAfter = {0, 3788, 2036, 8289, 4257, 2315, 13312, 6656};  // index = layer
  std::vector<PlanRun> runs = run_plans(Direction::inverse, kQ - 1, -1);
  ASSERT_EQ(runs.size(), 44u);
  for (PlanRun& run : runs) {
    Record& rec = run.rec;
    for (int m = 1; m <= 7; ++m) {
      const bool reduced = m == 5 || m == 2;
      const Peak after = reduced ? peak(rec.product, rec.product_at, rec.reduced, rec.reduced_at, m)
                                 : peak(rec.product, rec.product_at, rec.sum, rec.sum_at, m);
      if (after.value > kAfter[m]) rec.fail(layer_failure(m, after, kAfter[m]));
      if (rec.diff[m] >= 8 * kQ)
        rec.fail("layer " + std::to_string(m) + ", coefficient " + std::to_string(rec.diff_at[m]) + ": difference " +
                 std::to_string(rec.diff[m]) + " breaks < 8q");
      if (reduced != (rec.reduced[m] > 0)) rec.fail("layer " + std::to_string(m) + ": Barrett reduction where none is documented, or none where one is");
    }
    check_output(rec, run.out, 1747, "|a_i| <= 1747 < q", 0);
    EXPECT_EQ(rec.failure_count, 0) << failures_of(rec);
  }
  for (const PlanRun& run : runs) {
    EXPECT_EQ(run.rec.sum, runs[0].rec.sum) << run.plan;
    EXPECT_EQ(run.rec.product, runs[0].rec.product) << run.plan;
    EXPECT_EQ(run.rec.reduced, runs[0].rec.reduced) << run.plan;
  }
  const Record& r0 = runs[0].rec;
  std::cout << "inverse, all 44 plans, |a_i| after layers 7..1:";
  for (int m = 7; m >= 1; --m) std::cout << " " << std::max(r0.product[m], (m == 5 || m == 2) ? r0.reduced[m] : r0.sum[m]);
  std::int32_t out = 0;
  for (const Abs& x : runs[0].out.c) out = std::max(out, x.mag());
  std::cout << "; output after the scaling: " << out << "\n";
}

/// k calls of multiply_ntts_acc from r = 0 on inputs |a_i|, |b_i| <= in_bound: the record and r.
PlanRun run_basemul(int calls, std::int32_t in_bound) {
  PlanRun run;
  run.plan = std::to_string(calls);
  run.rec.where = "multiply_ntts_acc, " + std::to_string(calls) + " calls";
  for (int i = 0; i < kN; ++i) run.out.c[i] = Abs{0, 0, proof::kAnyMont, i};
  const AbsPoly a = inputs(in_bound, 0), b = inputs(in_bound, 0);
  recording(run.rec, [&] {
    for (int n = 0; n < calls; ++n) ntt_code::multiply_ntts_acc(run.out, a, b);
  });
  return run;
}

TEST(ProofNtt, MultiplyNttsAccumulatesUpToTheCallersK) {
  // ntt.hpp: "In: |a_i|, |b_i| < q. Each call adds at most 3666 (< 1.1q) in absolute value to
  // every r_i, so the callers' up to 4 calls (k <= 4) starting from r = 0 stay below 4.5q, and
  // up to 8 would stay inside int16"; the result is a b R^-1, which the inverse NTT's R cancels.
  for (int calls = 1; calls <= 4; ++calls) {
    PlanRun run = run_basemul(calls, kQ - 1);
    check_output(run.rec, run.out, std::min(3666 * calls, 9 * kQ / 2), "|r_i| <= " + std::to_string(3666 * calls), -1);
    EXPECT_EQ(run.rec.failure_count, 0) << failures_of(run.rec);
    // inner_product (backend.hpp) then Barrett-reduces: |r_i| <= (q-1)/2.
    recording(run.rec, [&] {
      for (Abs& x : run.out.c) x = proof::barrett_reduce(x);
    });
    check_output(run.rec, run.out, (kQ - 1) / 2, "|r_i| <= (q-1)/2", -1);
    EXPECT_EQ(run.rec.failure_count, 0) << failures_of(run.rec);
  }
  // The headroom: how many calls fit in int16 before a reduction.
  int fits = 0;
  while (fits < 64 && run_basemul(fits + 1, kQ - 1).rec.failure_count == 0) ++fits;
  EXPECT_GE(fits, 8);
  const PlanRun one = run_basemul(1, kQ - 1);
  std::int32_t most = 0;
  for (const Abs& x : one.out.c) most = std::max(most, x.mag());
  std::cout << "multiply_ntts_acc: one call adds at most " << most << " (2q = " << 2 * kQ << "); " << fits
            << " calls fit in int16\n";
}

// The checks can fail, and say where: a widened input bound breaks a named layer of every plan.
TEST(ProofNtt, AWidenedInputBoundFailsAndNamesPlanLayerCoefficientsAndBound) {
  // Inverse on |a_i| < 4q: the layer-6 sums reach 16q, past int16.
  const std::vector<PlanRun> inv = run_plans(Direction::inverse, 4 * kQ - 1, -1);
  for (const PlanRun& run : inv) {
    ASSERT_GT(run.rec.failure_count, 0) << run.plan;
    const std::string first = run.rec.failures.front();
    EXPECT_NE(first.find("plan " + run.plan + ", inverse: layer 6, coefficients 0 and 4: difference in [-53260, 53260] "
                         "leaves int16 [-32768, 32767]"),
              std::string::npos)
        << first;
  }
  std::cout << "widened inverse input, first failure: " << inv[0].rec.failures.front() << "\n";
  // Forward on any int16: the first layer's differences overflow. (Inputs below 2q would still
  // be fine: the forward NTT has that much headroom.)
  const std::vector<PlanRun> fwd = run_plans(Direction::forward, INT16_MAX, 0);
  for (const PlanRun& run : fwd) {
    ASSERT_GT(run.rec.failure_count, 0) << run.plan;
    EXPECT_NE(run.rec.failures.front().find("plan " + run.plan + ", forward: layer 1, coefficients 0 and 128: difference in "
                                            "[-34810, 34810] leaves int16"),
              std::string::npos)
        << run.rec.failures.front();
  }
  std::cout << "widened forward input, first failure: " << fwd[0].rec.failures.front() << "\n";
  // MultiplyNTTs on |a_i| <= q: outside the domain on which fqmul16 was checked.
  const PlanRun wide = run_basemul(1, kQ);
  ASSERT_GT(wide.rec.failure_count, 0);
  EXPECT_NE(wide.rec.failures.front().find("outside its checked domain |a|, |b| < q"), std::string::npos)
      << wide.rec.failures.front();
}

}  // namespace
}  // namespace pqkem::mlkem
