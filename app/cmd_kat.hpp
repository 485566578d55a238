// pqkem kat (cmd_kat.cpp): its options, filled from the command line by declare_kat, and
// run_kat, which runs from them alone.
#pragma once

#include "cli.hpp"
#include "options.hpp"

namespace pqkem::cli {

/// NIST's PQCgenKAT_kem writes 100 records; `pqkem kat --count` accepts 1 to 100 times that
/// (128 MB of ML-KEM-1024 text, about a second). The library sets no limit.
inline constexpr int kKatNistCount = 100;
inline constexpr int kKatMaxCount = 100 * kKatNistCount;

struct KatOptions {
  OptString algorithm;
  int count = kKatNistCount;
  EngineOptions engine;
};

/// Declares kat's options, help and examples.
void declare_kat(CommandBuilder& cmd, KatOptions& opts);
void run_kat(const KatOptions& opts);

}  // namespace pqkem::cli
