// pqkem kat (cmd_kat.cpp): its name and options, filled from the command line by declare(), and
// run(), which runs from them alone.
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

  /// The command as `pqkem --help` lists it.
  static constexpr const char* kName = "kat";
  static constexpr const char* kDescription = "Print the NIST known-answer-test file (PQCkemKAT_*.rsp) to stdout";
};

/// Declares kat's options, help and examples.
void declare(CommandBuilder& cmd, KatOptions& opts);
void run(const KatOptions& opts);

}  // namespace pqkem::cli
