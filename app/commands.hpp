// pqkem CLI: the subcommands. Each one fills a plain options struct from the command line
// (add_*) and then runs from that struct alone (run_*), in its own cmd_*.cpp file.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "io.hpp"
#include "pqkem.hpp"

namespace pqkem::cli {

/// Implementation choices shared by every command that runs an algorithm.
struct EngineOptions {
  std::string impl;      ///< --impl auto|portable|avx2; empty: PQKEM_IMPL or auto
  std::string ntt_plan;  ///< --ntt-plan NAME; empty: PQKEM_NTT_PLAN or the default
};

struct KeygenOptions {
  std::string algorithm;
  std::string pk_path;
  std::string sk_path;
  Format format = Format::bin;
  std::string coins;  ///< empty: random
  bool force = false;
  EngineOptions engine;
};

struct EncapsOptions {
  std::string algorithm;  ///< empty: inferred from the key's length
  std::string pk_path;
  std::string ct_path;
  std::string ss_path;
  Format format = Format::bin;
  std::string coins;
  bool force = false;
  EngineOptions engine;
};

struct DecapsOptions {
  std::string algorithm;
  std::string sk_path;
  std::string ct_path;
  std::string ss_path;
  Format format = Format::bin;
  bool force = false;
  EngineOptions engine;
};

struct ListOptions {
  bool json = false;
};

struct KatOptions {
  std::string algorithm;
  int count = 100;
  EngineOptions engine;
};

struct BenchOptions {
  std::vector<std::string> algorithms;  ///< empty: all
  std::string impl = "auto";
  int iterations = 0;                   ///< 0: as many as fit in the time budget
  bool json = false;
  bool kernels = false;
  bool ntt_plans = false;
  std::string baseline;
  bool fail_on_regression = false;
  std::string ntt_plan;                 ///< --ntt-plan for the operations and kernels
};

CLI::App* add_keygen(CLI::App& app, KeygenOptions& opts);
CLI::App* add_encaps(CLI::App& app, EncapsOptions& opts);
CLI::App* add_decaps(CLI::App& app, DecapsOptions& opts);
CLI::App* add_list(CLI::App& app, ListOptions& opts);
CLI::App* add_kat(CLI::App& app, KatOptions& opts);
CLI::App* add_bench(CLI::App& app, BenchOptions& opts);

void run_keygen(const KeygenOptions& opts);
void run_encaps(const EncapsOptions& opts);
void run_decaps(const DecapsOptions& opts);
void run_list(const ListOptions& opts);
void run_kat(const KatOptions& opts);
void run_bench(const BenchOptions& opts);

// --- Shared by the subcommands (common.cpp) -----------------------------------------------------

/// Adds `--format bin|hex` (case-insensitive) to `cmd`.
void add_format_option(CLI::App& cmd, Format& format);
/// Adds `-a,--algorithm ALG`.
CLI::Option* add_algorithm_option(CLI::App& cmd, std::string& algorithm, const std::string& help);
/// Adds `--impl` and `--ntt-plan` (with_impl: false leaves --impl out, for `bench`, which has
/// its own).
void add_engine_options(CLI::App& cmd, EngineOptions& engine, bool with_impl = true);
/// Applies --impl / --ntt-plan, else validates PQKEM_IMPL / PQKEM_NTT_PLAN from the
/// environment: unknown names are usage errors (exit 2, listing the valid ones); an
/// implementation this CPU or build cannot run is a failure (exit 1) saying why.
void apply_engine_options(const EngineOptions& engine);
/// Adds `--coins HEX|@FILE`, documented as being for testing only.
void add_coins_option(CLI::App& cmd, std::string& coins, const std::string& what);

/// The scheme named on the command line; nullopt if `name` is empty. Exit 2 if unknown.
std::optional<Scheme> parse_algorithm(const std::string& name);
/// "ML-KEM-512, ML-KEM-768, ML-KEM-1024": the algorithms this build implements.
std::string algorithm_names();

/// Where `--coins` comes from: inline hex (parsed and checked when the options are read)
/// or a file (`@FILE`, `@-` for stdin).
class CoinsArg {
public:
  /// Exit 2 if inline text is not hex (or `@` has no file name). Empty `spec`: no coins.
  explicit CoinsArg(const std::string& spec);
  [[nodiscard]] bool given() const noexcept { return m_given; }
  /// The input path when given as @FILE (for the stdin and same-file checks), else empty.
  [[nodiscard]] const std::string& file() const noexcept { return m_file; }
  /// Exactly `needed` coin bytes; exit 2 (inline) or 1 (file) for any other length.
  [[nodiscard]] SecretBytes load(std::size_t needed, const std::string& operation) const;

private:
  bool m_given = false;
  std::string m_file;
  std::optional<SecretBytes> m_inline;
};

/// A public key read from `path`; the scheme is `algorithm` or, if absent, inferred from
/// the key's length. Exit 1 for a length no scheme (or not the given one) has.
std::pair<Scheme, Bytes> read_public_key(const std::string& path, std::optional<Scheme> algorithm);

/// A secret key read from `path`: the expanded key, or a private seed (expanded here; exit 2
/// without `algorithm`, since a seed does not reveal its parameter set).
std::pair<Scheme, SecretBytes> read_secret_key(const std::string& path, std::optional<Scheme> algorithm);

/// A ciphertext of scheme `s` read from `path`.
Bytes read_ciphertext(const std::string& path, Scheme s);

/// Runs `f`, turning a library pqkem::Error into a CliError (exit 1) that names `file`,
/// prefixed with `context`.
template <class F>
auto with_file_context(const std::string& context, const std::string& file, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const pqkem::Error& e) {
    throw CliError(kExitFailure, context.empty() ? std::string(e.what()) : context + ": " + e.what(), file);
  }
}

}  // namespace pqkem::cli
