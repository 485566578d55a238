// pqkem encaps (cmd_encaps.cpp): its options, filled from the command line by declare_encaps,
// and run_encaps, which runs from them alone.
#pragma once

#include <string>

#include "cli.hpp"
#include "io.hpp"
#include "options.hpp"

namespace pqkem::cli {

struct EncapsOptions {
  OptString algorithm;  ///< absent: inferred from the key's length
  std::string pk_path;
  std::string ct_path;
  std::string ss_path;
  Format format = Format::bin;
  OptString coins;
  bool force = false;
  bool json = false;
  OptString rng;  ///< --rng system|openssl; absent: PQKEM_RNG or system
  EngineOptions engine;
};

/// Declares encaps's options, help and examples.
void declare_encaps(CommandBuilder& cmd, EncapsOptions& opts);
void run_encaps(const EncapsOptions& opts);

}  // namespace pqkem::cli
