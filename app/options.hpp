// pqkem CLI: the options several commands share (options.cpp): -a, --impl, --ntt-plan, --rng,
// --coins, --format for data files, and the environment variables standing in for them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "cli.hpp"
#include "io.hpp"
#include "pqkem.hpp"

namespace pqkem::cli {

/// Implementation choices shared by every command that runs an algorithm.
struct EngineOptions {
  OptString impl;      ///< --impl auto|portable|avx2|avx512; absent: PQKEM_IMPL or auto
  OptString ntt_plan;  ///< --ntt-plan NAME; absent: PQKEM_NTT_PLAN or the default
};

/// Exit 2 if `format` is pem or der: ciphertexts and shared secrets have no such form.
void require_data_format(Format format);
/// Applies --impl / --ntt-plan, else validates PQKEM_IMPL / PQKEM_NTT_PLAN from the
/// environment: unknown names are usage errors (exit 2, listing the valid ones); an
/// implementation this CPU or build cannot run is a failure (exit 1) saying why.
void apply_engine_options(const EngineOptions& engine);
/// Checks PQKEM_IMPL and PQKEM_NTT_PLAN as apply_engine_options does (unknown names: exit 2)
/// without applying them, for the commands that run no operation (list, --version): a typo in
/// the environment is reported wherever it is read, not ignored.
void check_engine_environment();
/// Applies --rng, else PQKEM_RNG from the environment (empty counts as unset), to the
/// process's random source: a name other than system or openssl is a usage error (exit 2).
/// Only the commands that draw random bytes (keygen, encaps, bench) and the ones that report
/// the source (list, --version) read it.
void apply_rng_option(const OptString& rng);

/// Call before the first OpenSSL call of a command that uses OpenSSL (--rng openssl, kat,
/// bench): OpenSSL then registers no exit handler. Its cleanup at exit frees what the process is
/// about to give back anyway and cost about 1 M instructions per call (docs/performance.md).
void use_openssl();
/// The source in use, e.g. "getrandom(2) (system)".
std::string random_source_text();

/// The scheme named on the command line; nullopt if -a was not given. Exit 2 if the name is
/// unknown, including an empty name (`-a ""`).
std::optional<Scheme> parse_algorithm(const OptString& name);
/// The scheme of a required -a: as parse_algorithm, and exit 2 if -a was not given.
Scheme require_algorithm(const OptString& name);
/// "ML-KEM-512, ML-KEM-768, ML-KEM-1024": the algorithms this build implements.
std::string algorithm_names();

/// Where `--coins` comes from: inline hex (parsed and checked when the options are read)
/// or a file (`@FILE`, `@-` for stdin).
class CoinsArg {
public:
  /// Exit 2 if the text is empty or not hex (or `@` has no file name). Absent `spec`: no coins.
  explicit CoinsArg(const OptString& spec);
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

}  // namespace pqkem::cli
