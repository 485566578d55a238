// pqkem encaps (cmd_encaps.cpp): its name and options, filled from the command line by declare(), and
// run(), which runs from them alone.
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

  /// The command as `pqkem --help` lists it.
  static constexpr const char* kName = "encaps";
  static constexpr const char* kDescription = "Encapsulate: make a ciphertext and a shared secret for a public key";
};

/// Declares encaps's options, help and examples.
void declare(CommandBuilder& cmd, EncapsOptions& opts);
void run(const EncapsOptions& opts);

}  // namespace pqkem::cli
