// pqkem bench: the statistic behind --baseline, kept free of timing so that a test can check
// the decision on made-up numbers.
//
// A measurement is R rounds; a round is the median of N timed calls. The rounds of all rows are
// interleaved (round 1 of every row, then round 2 ...), so a burst of load from another tenant
// spoils one round of many rows rather than every round of one row.
//
//  - best   = the lowest round median. Noise on a shared machine only ever adds time, so the
//             least disturbed round is the best estimate of what the code costs.
//  - spread = (median of the round medians - best) / best: how much a typical round lost to
//             noise in this run. One wild round does not move it; it is 0 when rounds agree.
//
//  - drift  = how much slower the machine itself is in this run than in the baseline's: the
//             change of the best round median of a fixed reference loop that no change to
//             pqkem touches, measured in the same interleaved rounds (0 if it got faster).
//             A shared host has slow phases that last longer than a whole run (another
//             tenant's job, a busier physical core): every row of a run then sits a few percent
//             above the last run with tight rounds, which no spread can show.
//
// A row regresses when best_now > best_base * (1 + limit), with
//     limit = kFloor + spread_base + spread_now + drift + 2 * granularity / best_base.
// Every round of the new run is then slower than the baseline's best by more than either run's
// own noise and the machine's measured slow-down, plus a floor for what remains unmeasured,
// plus two timer steps (each best is a median of whole timer steps).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace pqkem::cli::bench_stats {

/// The part of the limit no measured spread accounts for: 5%.
inline constexpr double kFloor = 0.05;

struct Summary {
  double best = 0;               ///< lowest round median, ticks
  std::optional<double> spread;  ///< relative; absent for a baseline written before rounds existed
};

/// Summary of round medians (at least one).
inline Summary summarize(std::vector<double> rounds) {
  std::sort(rounds.begin(), rounds.end());
  const double best = rounds.front();
  // Median of the rounds; with an even count the upper middle, so that the noise is rounded up
  // (a wider limit), never down.
  const double mid = rounds[rounds.size() / 2];
  return {best, best > 0 ? (mid - best) / best : 0.0};
}

struct Verdict {
  double ratio = 0;  ///< best_now / best_base
  double limit = 0;  ///< allowed relative slow-down
  bool regression = false;
};

/// Relative slow-down of the reference loop from the baseline's run to this one, never below 0
/// (0 if either is unknown).
inline double drift(double reference_base, double reference_now) {
  return reference_base > 0 && reference_now > 0 ? std::max(0.0, reference_now / reference_base - 1) : 0.0;
}

/// Compares a row with its baseline. granularity: the coarser timer step of the two runs, in
/// ticks; machine_drift: drift() of the two runs. A baseline without a spread (older files) is
/// assumed as noisy as this run.
inline Verdict compare(const Summary& base, const Summary& now, double granularity, double machine_drift = 0) {
  const double spread_now = now.spread.value_or(0.0);
  const double spread_base = base.spread.value_or(spread_now);
  Verdict v;
  if (base.best <= 0) return v;
  v.ratio = now.best / base.best;
  v.limit = kFloor + spread_base + spread_now + std::max(0.0, machine_drift) + 2 * granularity / base.best;
  v.regression = v.ratio > 1 + v.limit;
  return v;
}

}  // namespace pqkem::cli::bench_stats
