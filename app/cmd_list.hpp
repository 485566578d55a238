// pqkem list (cmd_list.cpp): its options, filled from the command line by declare_list, and
// run_list, which runs from them alone.
#pragma once

#include "cli.hpp"

namespace pqkem::cli {

struct ListOptions {
  bool json = false;
};

/// Declares list's options, help and examples.
void declare_list(CommandBuilder& cmd, ListOptions& opts);
void run_list(const ListOptions& opts);

}  // namespace pqkem::cli
