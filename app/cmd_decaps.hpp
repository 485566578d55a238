// pqkem decaps (cmd_decaps.cpp): its options, filled from the command line by declare_decaps,
// and run_decaps, which runs from them alone.
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
};

/// Declares decaps's options, help and examples.
void declare_decaps(CommandBuilder& cmd, DecapsOptions& opts);
void run_decaps(const DecapsOptions& opts);

}  // namespace pqkem::cli
