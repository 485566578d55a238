// pqkem convert (cmd_convert.cpp): its options, filled from the command line by
// declare_convert, and run_convert, which runs from them alone.
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
};

/// Declares convert's options, help and examples.
void declare_convert(CommandBuilder& cmd, ConvertOptions& opts);
void run_convert(const ConvertOptions& opts);

}  // namespace pqkem::cli
