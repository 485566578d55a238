// pqkem CLI: the subcommands. Each cmd_*.cpp declares its command's options, help and examples
// (declare_*) through CommandBuilder (cli.hpp; only cli.cpp includes CLI11), which fills a plain
// options struct from the command line, and then runs from that struct alone (run_*). main.cpp
// names the commands and lists them. What several commands share has its own header:
// options.hpp (options.cpp), keys.hpp (keys.cpp) and report.hpp (report.cpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "json.hpp"
#include "keys.hpp"
#include "options.hpp"
#include "output.hpp"
#include "report.hpp"
#include "text.hpp"
#include "keyfile/keyfile.hpp"
#include "pqkem.hpp"

namespace pqkem::cli {

struct KeygenOptions {
  OptString algorithm;
  std::string pk_path;
  std::string sk_path;
  Format format = Format::bin;
  std::string sk_form;  ///< --sk-form seed|expanded|both; empty: the format's default
  OptString coins;      ///< absent: random
  bool force = false;
  bool json = false;    ///< --json: describe the outputs on stdout
  OptString rng;        ///< --rng system|openssl; absent: PQKEM_RNG or system
  EngineOptions engine;
};

struct EncapsOptions {
  OptString algorithm;  ///< absent: inferred from the key's length
  std::string pk_path;
  std::string ct_path;
  std::string ss_path;
  Format format = Format::bin;
  OptString coins;
  bool force = false;
  bool json = false;
  OptString rng;        ///< --rng system|openssl; absent: PQKEM_RNG or system
  EngineOptions engine;
};

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

struct PubkeyOptions {
  OptString algorithm;  ///< needed only for a raw seed
  std::string sk_path;
  std::string pk_path;
  std::optional<Format> format;  ///< empty: the secret key file's own format
  bool force = false;
  EngineOptions engine;
};

struct InfoOptions {
  std::string path;
  OptString algorithm;  ///< restricts raw inputs to one algorithm; names a seed's
  bool json = false;
};

struct ConvertOptions {
  OptString algorithm;  ///< needed only for a raw seed
  std::string in_path;
  std::string out_path;
  Format format = Format::bin;
  std::string sk_form;
  bool force = false;
  EngineOptions engine;
};

struct ListOptions {
  bool json = false;
};

/// NIST's PQCgenKAT_kem writes 100 records; `pqkem kat --count` accepts 1 to 100 times that
/// (128 MB of ML-KEM-1024 text, about a second). The library sets no limit.
inline constexpr int kKatNistCount = 100;
inline constexpr int kKatMaxCount = 100 * kKatNistCount;

struct KatOptions {
  OptString algorithm;
  int count = kKatNistCount;
  EngineOptions engine;
};

struct BenchOptions {
  std::vector<std::string> algorithms;  ///< empty: all
  std::string impl = "auto";
  int iterations = 0;                   ///< calls per round; 0: as many as fit in the time budget
  int rounds = 5;                       ///< interleaved rounds per measurement
  bool json = false;
  bool kernels = false;
  bool ntt_plans = false;
  OptString baseline;
  bool fail_on_regression = false;
  OptString ntt_plan;                   ///< --ntt-plan for the operations and kernels
  OptString rng;                        ///< --rng for keypair and encaps; absent: PQKEM_RNG or system
};

void run_keygen(const KeygenOptions& opts);
void run_encaps(const EncapsOptions& opts);
void run_decaps(const DecapsOptions& opts);
void run_pubkey(const PubkeyOptions& opts);
void run_info(const InfoOptions& opts);
void run_convert(const ConvertOptions& opts);
void run_list(const ListOptions& opts);
void run_kat(const KatOptions& opts);
void run_bench(const BenchOptions& opts);

/// Each command declares its options, help and examples (in its cmd_*.cpp, beside its run_*).
void declare_keygen(CommandBuilder& cmd, KeygenOptions& opts);
void declare_encaps(CommandBuilder& cmd, EncapsOptions& opts);
void declare_decaps(CommandBuilder& cmd, DecapsOptions& opts);
void declare_pubkey(CommandBuilder& cmd, PubkeyOptions& opts);
void declare_info(CommandBuilder& cmd, InfoOptions& opts);
void declare_convert(CommandBuilder& cmd, ConvertOptions& opts);
void declare_list(CommandBuilder& cmd, ListOptions& opts);
void declare_kat(CommandBuilder& cmd, KatOptions& opts);
void declare_bench(CommandBuilder& cmd, BenchOptions& opts);

/// The options of every command; only the chosen command's are filled in.
struct AllOptions {
  KeygenOptions keygen;
  EncapsOptions encaps;
  DecapsOptions decaps;
  PubkeyOptions pubkey;
  InfoOptions info;
  ConvertOptions convert;
  ListOptions list;
  KatOptions kat;
  BenchOptions bench;
};

/// The Command whose options are the `Member` of AllOptions, declared by `Declare` and run by `Run`.
template <auto Member, auto Declare, auto Run>
constexpr Command make_command(const char* name, const char* description) {
  return {name, description, [](CommandBuilder& cmd, AllOptions& all) { Declare(cmd, all.*Member); },
          [](const AllOptions& all) { Run(all.*Member); }};
}

}  // namespace pqkem::cli
