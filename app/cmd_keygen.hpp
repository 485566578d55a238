// pqkem keygen (cmd_keygen.cpp): its options, filled from the command line by declare_keygen,
// and run_keygen, which runs from them alone.
#pragma once

#include <string>

#include "cli.hpp"
#include "io.hpp"
#include "options.hpp"

namespace pqkem::cli {

struct KeygenOptions {
  OptString algorithm;
  std::string pk_path;
  std::string sk_path;
  Format format = Format::bin;
  std::string sk_form;  ///< --sk-form seed|expanded|both; empty: the format's default
  OptString coins;      ///< absent: random
  bool force = false;
  bool json = false;  ///< --json: describe the outputs on stdout
  OptString rng;      ///< --rng system|openssl; absent: PQKEM_RNG or system
  EngineOptions engine;
};

/// Declares keygen's options, help and examples.
void declare_keygen(CommandBuilder& cmd, KeygenOptions& opts);
void run_keygen(const KeygenOptions& opts);

}  // namespace pqkem::cli
