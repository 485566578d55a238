// pqkem bench (cmd_bench.cpp): its name and options, filled from the command line by declare(), and
// run(), which runs from them alone.
#pragma once

#include <string>
#include <vector>

#include "cli.hpp"
#include "ticks.hpp"

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
  std::string coins = "random";  ///< random: keygen()/encaps() draw per call; fixed: the _derand rows

  /// The command as `pqkem --help` lists it.
  static constexpr const char* kName = "bench";
  /// The unit is this build's clock (ticks.hpp): rdtsc ticks on x86, nanoseconds elsewhere.
  static constexpr const char* kDescription =
      timing::kTsc ? "Measure keypair/encaps/decaps, seal/open, kernels and NTT plans in rdtsc ticks"
                   : "Measure keypair/encaps/decaps, seal/open, kernels and NTT plans in nanoseconds "
                     "(clock_gettime)";
};

/// Declares bench's options, help and examples.
void declare(CommandBuilder& cmd, BenchOptions& opts);
void run(const BenchOptions& opts);

}  // namespace pqkem::cli
