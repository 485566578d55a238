// pqkem keygen (cmd_keygen.cpp): its name and options, filled from the command line by declare(), and
// run(), which runs from them alone.
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

  /// The command as `pqkem --help` lists it.
  static constexpr const char* kName = "keygen";
  static constexpr const char* kDescription =
      "Generate a key pair: a public (encapsulation) key and a secret (decapsulation) key";
};

/// Declares keygen's options, help and examples.
void declare(CommandBuilder& cmd, KeygenOptions& opts);
void run(const KeygenOptions& opts);

}  // namespace pqkem::cli
