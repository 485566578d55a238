// pqkem open (cmd_open.cpp): its name and options, filled from the command line by declare(), and
// run(), which runs from them alone.
#pragma once

#include <string>

#include "cli.hpp"
#include "hpke_options.hpp"
#include "options.hpp"

namespace pqkem::cli {

struct OpenOptions {
  OptString algorithm;
  std::string sk_path;
  std::string in_path;
  std::string out_path;
  HpkeOptions hpke;
  bool force = false;
  bool json = false;
  EngineOptions engine;

  /// The command as `pqkem --help` lists it.
  static constexpr const char* kName = "open";
  static constexpr const char* kDescription = "Decrypt a file sealed to your public key, with its secret key";
};

/// Declares open's options, help and examples.
void declare(CommandBuilder& cmd, OpenOptions& opts);
void run(const OpenOptions& opts);

}  // namespace pqkem::cli
