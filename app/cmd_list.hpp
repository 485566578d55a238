// pqkem list (cmd_list.cpp): its name and options, filled from the command line by declare(), and
// run(), which runs from them alone.
#pragma once

#include "cli.hpp"

namespace pqkem::cli {

struct ListOptions {
  bool json = false;

  /// The command as `pqkem --help` lists it.
  static constexpr const char* kName = "list";
  static constexpr const char* kDescription =
      "List the algorithms, their sizes, and the implementations usable on this CPU";
};

/// Declares list's options, help and examples.
void declare(CommandBuilder& cmd, ListOptions& opts);
void run(const ListOptions& opts);

}  // namespace pqkem::cli
