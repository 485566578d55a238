// pqkem decaps (cmd_decaps.cpp): its name and options, filled from the command line by declare(), and
// run(), which runs from them alone.
#pragma once

#include <string>

#include "cli.hpp"
#include "io.hpp"
#include "options.hpp"

namespace pqkem::cli {

struct DecapsOptions {
  OptString algorithm;
  std::string sk_path;
  std::string ct_path;
  std::string ss_path;
  Format format = Format::bin;
  bool force = false;
  bool json = false;
  EngineOptions engine;

  /// The command as `pqkem --help` lists it.
  static constexpr const char* kName = "decaps";
  static constexpr const char* kDescription =
      "Decapsulate: recover the shared secret from a ciphertext with a secret key";
};

/// Declares decaps's options, help and examples.
void declare(CommandBuilder& cmd, DecapsOptions& opts);
void run(const DecapsOptions& opts);

}  // namespace pqkem::cli
