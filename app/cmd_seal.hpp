// pqkem seal (cmd_seal.cpp): its name and options, filled from the command line by declare(), and
// run(), which runs from them alone.
#pragma once

#include <string>

#include "cli.hpp"
#include "hpke_options.hpp"
#include "options.hpp"

namespace pqkem::cli {

struct SealOptions {
  OptString algorithm;
  std::string pk_path;
  std::string in_path;
  std::string out_path;
  HpkeOptions hpke;
  bool force = false;
  bool json = false;
  OptString rng;
  EngineOptions engine;

  /// The command as `pqkem --help` lists it.
  static constexpr const char* kName = "seal";
  static constexpr const char* kDescription = "Encrypt a file to a public key (HPKE with ML-KEM or X-Wing)";
};

/// Declares seal's options, help and examples.
void declare(CommandBuilder& cmd, SealOptions& opts);
void run(const SealOptions& opts);

}  // namespace pqkem::cli
