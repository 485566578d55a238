// pqkem pubkey (cmd_pubkey.cpp): its name and options, filled from the command line by declare(), and
// run(), which runs from them alone.
#pragma once

#include <optional>
#include <string>

#include "cli.hpp"
#include "io.hpp"
#include "options.hpp"

namespace pqkem::cli {

struct PubkeyOptions {
  OptString algorithm;  ///< needed only for a raw seed
  std::string sk_path;
  std::string pk_path;
  std::optional<Format> format;  ///< empty: the secret key file's own format
  bool force = false;
  EngineOptions engine;

  /// The command as `pqkem --help` lists it.
  static constexpr const char* kName = "pubkey";
  static constexpr const char* kDescription = "Derive the public key from a secret key file";
};

/// Declares pubkey's options, help and examples.
void declare(CommandBuilder& cmd, PubkeyOptions& opts);
void run(const PubkeyOptions& opts);

}  // namespace pqkem::cli
