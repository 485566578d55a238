// pqkem pubkey (cmd_pubkey.cpp): its options, filled from the command line by declare_pubkey,
// and run_pubkey, which runs from them alone.
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
};

/// Declares pubkey's options, help and examples.
void declare_pubkey(CommandBuilder& cmd, PubkeyOptions& opts);
void run_pubkey(const PubkeyOptions& opts);

}  // namespace pqkem::cli
