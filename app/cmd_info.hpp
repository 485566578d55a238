// pqkem info (cmd_info.cpp): its name and options, filled from the command line by declare(), and
// run(), which runs from them alone.
#pragma once

#include <string>

#include "cli.hpp"

namespace pqkem::cli {

struct InfoOptions {
  std::string path;
  OptString algorithm;  ///< restricts raw inputs to one algorithm; names a seed's
  bool json = false;

  /// The command as `pqkem --help` lists it.
  static constexpr const char* kName = "info";
  static constexpr const char* kDescription = "Describe a key, seed or ciphertext file (never prints secret material)";
};

/// Declares info's options, help and examples.
void declare(CommandBuilder& cmd, InfoOptions& opts);
void run(const InfoOptions& opts);

}  // namespace pqkem::cli
