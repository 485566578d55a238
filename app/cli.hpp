// pqkem CLI: how a subcommand declares its command line, and the one parser behind it.
//
// Each cmd_*.cpp declares its own command (name, description, options, help, footer) through
// CommandBuilder, whose methods are the options the commands share. Only cli.cpp includes CLI11:
// Debian's CLI11 2.1 is header-only, and every translation unit that includes it compiles its
// whole implementation again (about 8 s at -O2 and 50 s under the sanitizers).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "io.hpp"

namespace pqkem::cli {

/// A string option that was either absent or given (possibly empty: `-a ""` from an unset shell
/// variable is an error, never "not given").
using OptString = std::optional<std::string>;

struct EngineOptions;  ///< options.hpp
struct AllOptions;     ///< every command's options (main.cpp)

/// What an output format applies to, for --format's help text.
enum class FormatUse {
  keys,  ///< keygen, pubkey, convert: bin, hex, pem or der
  data,  ///< encaps, decaps: bin or hex (pem and der parse, then fail with require_data_format)
};

/// Whether an option must be given (CLI11 then says so, and the help marks it REQUIRED).
enum class Need { optional, required };

/// An integer option's range, and the value's name in the help (e.g. "N").
struct IntRange {
  IntRange(int lo, int hi, std::string name) : min(lo), max(hi), text(std::move(name)) {}
  /// Records the initial value as the option's default (CLI11's capture_default_str).
  IntRange& with_default() {
    show_default = true;
    return *this;
  }
  /// `message` for a value outside the range or not a number, instead of CLI11's own.
  IntRange& with_message(std::string message) {
    out_of_range = std::move(message);
    return *this;
  }

  int min;
  int max;
  std::string text;
  bool show_default = false;
  std::string out_of_range;
};

/// Declares the options of one subcommand; given by the parser to the command's `declare`.
/// Each option writes into the target it is given, which must outlive the parse.
class CommandBuilder {
public:
  struct Target;  ///< the CLI11 subcommand, known to cli.cpp alone
  explicit CommandBuilder(Target& target) noexcept : m_target(target) {}

  /// `-a,--algorithm ALG`, kept as given (see OptString).
  void algorithm(OptString& target, std::string help, Need need = Need::optional);
  /// A required file option (`--pk PATH`) or positional (`path`); `-` means stdin or stdout.
  void path(std::string name, std::string& target, std::string help);
  /// `--sk PATH`, a secret key to read in any form the key readers accept (decaps, pubkey).
  void secret_key_input(std::string& target);
  /// `--format bin|hex|pem|der`, in any case. The optional form tells absent from the default.
  void format(Format& target, FormatUse use, Need need = Need::optional);
  void format(std::optional<Format>& target, FormatUse use);
  /// `--sk-form seed|expanded|both`.
  void sk_form(std::string& target);
  /// `--impl` and `--ntt-plan`.
  void engine(EngineOptions& target);
  /// `--rng system|openssl`; `what` names the random bytes it supplies.
  void rng(OptString& target, const std::string& what);
  /// `--coins HEX|@FILE`, documented as being for testing only; `what` says which bytes.
  void coins(OptString& target, const std::string& what);
  void flag(std::string name, bool& target, std::string help);
  /// `--force`: replace output files that already exist (never a partial write; output.hpp).
  void force(bool& target);
  /// `--json` for a command that writes files: one JSON object on stdout describing them;
  /// `what` lists the fields beyond the algorithm, the files and their sizes.
  void json_outputs(bool& target, const std::string& what);
  void integer(std::string name, int& target, std::string help, const IntRange& range);
  /// A string option kept as given (see OptString); `text` names its value in the help.
  void string(std::string name, OptString& target, std::string help, std::string text);
  /// A string option with a default, shown as `text` in the help.
  void string(std::string name, std::string& target, std::string help, std::string text);
  /// A repeatable string option.
  void strings(std::string name, std::vector<std::string>& target, std::string help, std::string text);
  /// The text after the options. Its "Examples:" stand alone: they run as written, in order, in
  /// an empty directory (ctest -L docs, tests/docs/doc_examples.sh, which also describes the
  /// `# exit N` and `# needs: WHAT` comments). A blank line starts a new block of examples.
  void footer(std::string text);

private:
  Target& m_target;
};

/// A subcommand: its name and description (as `pqkem --help` lists them), how it declares its
/// options into its member of AllOptions, and how it runs from them.
struct Command {
  const char* name;
  const char* description;
  void (*declare)(CommandBuilder&, AllOptions&);
  void (*run)(const AllOptions&);
};

/// The whole command line: the texts of `pqkem --help` and `--version`, and the commands in the
/// order the help lists them.
struct Program {
  const char* description;
  const char* footer;
  const char* version_help;
  std::string (*version)();
  std::span<const Command> commands;
};

/// Parses the command line into `options`, declaring only the command being run (all of them for
/// `pqkem --help` and anything else that starts with an option), and runs it. Every error is
/// mapped to an exit code here: 0 success, 1 failure on valid usage, 2 usage error; one line on
/// stderr says why.
int run_command_line(int argc, char** argv, const Program& program, AllOptions& options);

}  // namespace pqkem::cli
