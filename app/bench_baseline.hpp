// pqkem bench --baseline: an earlier --json output, read strictly, and each row of this run
// compared with its baseline row by bench_stats.hpp's rule.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench_stats.hpp"
#include "bench_timer.hpp"

namespace pqkem::cli {

struct BaselineRow {
  std::string name;
  bench_stats::Summary summary;
  std::uint64_t granularity = 0;  ///< 0: not recorded
};

struct Baseline {
  std::string path;
  std::vector<BaselineRow> rows;
  bool without_rounds = false;               ///< written by a pqkem without rounds: one median per row
  std::map<std::string, double> references;  ///< reference workload -> its ticks in that run
};

/// An earlier --json output. Exit 1 if unreadable (read_input's checks and size limit, as for
/// every input) or not in that format. Files from before rounds existed (no "rounds" member)
/// are read as one round with an unknown spread.
Baseline read_baseline(const std::string& path);

struct Comparison {
  const BaselineRow* base = nullptr;  ///< nullptr: no such row in the baseline
  std::string base_impl;              ///< set when matched to another implementation's row
  bench_stats::Verdict verdict;
};

/// The machine's slow-down since the baseline's run: the largest of the reference workloads'.
double machine_drift(const Baseline& baseline, const std::vector<Row>& references);

/// Every row of `results` against its baseline row (in the same order), with the drift of the
/// reference workloads.
std::vector<Comparison> compare_all(const Baseline& baseline, const std::vector<Row>& results,
                                    std::uint64_t granularity, const std::vector<Row>& references);

/// After the table: a note on an old baseline, and the regressions (exit 1 with
/// --fail-on-regression).
void report_regressions(const Baseline& baseline, const std::vector<Comparison>& compared, bool fail);

}  // namespace pqkem::cli
