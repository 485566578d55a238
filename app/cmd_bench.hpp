// pqkem bench (cmd_bench.cpp): its options, filled from the command line by declare_bench, and
// run_bench, which runs from them alone.
#pragma once

#include <string>
#include <vector>

#include "cli.hpp"

namespace pqkem::cli {

struct BenchOptions {
  std::vector<std::string> algorithms;  ///< empty: all
  std::string impl = "auto";
  int iterations = 0;  ///< calls per round; 0: as many as fit in the time budget
  int rounds = 5;      ///< interleaved rounds per measurement
  bool json = false;
  bool kernels = false;
  bool ntt_plans = false;
  OptString baseline;
  bool fail_on_regression = false;
  OptString ntt_plan;  ///< --ntt-plan for the operations and kernels
  OptString rng;       ///< --rng for keypair and encaps; absent: PQKEM_RNG or system
};

/// Declares bench's options, help and examples.
void declare_bench(CommandBuilder& cmd, BenchOptions& opts);
void run_bench(const BenchOptions& opts);

}  // namespace pqkem::cli
