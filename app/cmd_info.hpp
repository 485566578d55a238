// pqkem info (cmd_info.cpp): its options, filled from the command line by declare_info, and
// run_info, which runs from them alone.
#pragma once

#include <string>

#include "cli.hpp"

namespace pqkem::cli {

struct InfoOptions {
  std::string path;
  OptString algorithm;  ///< restricts raw inputs to one algorithm; names a seed's
  bool json = false;
};

/// Declares info's options, help and examples.
void declare_info(CommandBuilder& cmd, InfoOptions& opts);
void run_info(const InfoOptions& opts);

}  // namespace pqkem::cli
