// pqkem convert (cmd_convert.cpp): its name and options, filled from the command line by declare(), and
// run(), which runs from them alone.
#pragma once

#include <string>

#include "cli.hpp"
#include "io.hpp"
#include "options.hpp"

namespace pqkem::cli {

struct ConvertOptions {
  OptString algorithm;  ///< needed only for a raw seed
  std::string in_path;
  std::string out_path;
  Format format = Format::bin;
  std::string sk_form;
  bool force = false;
  EngineOptions engine;

  /// The command as `pqkem --help` lists it.
  static constexpr const char* kName = "convert";
  static constexpr const char* kDescription = "Re-encode a public or secret key file (bin, hex, pem, der)";
};

/// Declares convert's options, help and examples.
void declare(CommandBuilder& cmd, ConvertOptions& opts);
void run(const ConvertOptions& opts);

}  // namespace pqkem::cli
