// The one file that includes CLI11 (why: cli.hpp): CommandBuilder's options, the parse, and the
// mapping of every error to an exit code.
#include "cli.hpp"

#include <algorithm>
#include <new>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "mlkem/ntt.hpp"
#include "options.hpp"
#include "output.hpp"

namespace pqkem::cli {

struct CommandBuilder::Target {
  CLI::App& cmd;
};

namespace {

/// The format named `value` (bin, hex, pem or der, in any case; see format_name), or nullopt.
std::optional<Format> parse_format(const std::string& value) {
  const std::string name = lower_ascii(value);
  for (const Format f : {Format::bin, Format::hex, Format::pem, Format::der})
    if (name == format_name(f)) return f;
  return std::nullopt;
}

std::string format_help(FormatUse use) {
  if (use == FormatUse::keys)
    return "Output format: bin (raw bytes, the default), hex (lower-case, one line, trailing newline), or for "
           "ML-KEM and X-Wing pem / der (SubjectPublicKeyInfo and PKCS#8: RFC 9935, OpenSSL-compatible; "
           "draft-connolly-cfrg-xwing-kem); NTRU and X25519MLKEM768 have none. Inputs are always auto-detected "
           "(PEM, DER, hex or raw).";
  return "Output format: bin (raw bytes, the default) or hex (lower-case, one line, trailing newline); "
         "ciphertexts and shared secrets have no pem/der form. Inputs are always auto-detected (PEM, DER, hex or "
         "raw).";
}

/// Adds `--format bin|hex|pem|der` (case-insensitive) to `cmd`. `Target` is Format, or
/// std::optional<Format> to tell an absent option from the default.
template <typename Target>
CLI::Option* add_format_option(CLI::App& cmd, Target& format, FormatUse use) {
  // Every use accepts all four names: encaps and decaps then refuse pem and der with a message
  // that says why (require_data_format).
  const auto known = [](std::string& value) -> std::string {
    return parse_format(value) ? std::string() : "must be bin, hex, pem or der, not '" + printable(value) + "'";
  };
  return cmd
      .add_option_function<std::string>(
          "--format",
          [&format](const std::string& value) {
            if (const auto f = parse_format(value)) format = *f;  // the check below rejects anything else
          },
          format_help(use))
      ->option_text(use == FormatUse::keys ? "bin|hex|pem|der" : "bin|hex")
      ->check(CLI::Validator(known, ""));
}

/// Adds a string option kept as given, so that an empty value (`-a "$UNSET"`) is told apart
/// from an absent option and rejected where it is used.
CLI::Option* add_string_option(CLI::App& cmd, std::string name, OptString& target, std::string help) {
  return cmd.add_option_function<std::string>(
      std::move(name), [&target](const std::string& value) { target = value; }, std::move(help));
}

}  // namespace

void CommandBuilder::algorithm(OptString& target, std::string help, Need need) {
  auto* opt = add_string_option(m_target.cmd, "-a,--algorithm", target, std::move(help))->option_text("ALG");
  if (need == Need::required) opt->required()->option_text("ALG REQUIRED");
}

void CommandBuilder::path(std::string name, std::string& target, std::string help) {
  m_target.cmd.add_option(std::move(name), target, std::move(help))->required()->option_text("PATH REQUIRED");
}

void CommandBuilder::secret_key_input(std::string& target) {
  path("--sk", target,
       "Secret key to read: PEM or DER (PKCS#8: ML-KEM in any RFC 9935 form, X-Wing), or an expanded key (not for "
       "X-Wing and X25519MLKEM768, whose key is the seed) or private seed as hex or raw (- for stdin)");
}

void CommandBuilder::format(Format& target, FormatUse use, Need need) {
  auto* opt = add_format_option(m_target.cmd, target, use);
  if (need == Need::required) opt->required()->option_text("bin|hex|pem|der REQUIRED");
}

void CommandBuilder::format(std::optional<Format>& target, FormatUse use) {
  add_format_option(m_target.cmd, target, use);
}

void CommandBuilder::sk_form(std::string& target) {
  m_target.cmd
      .add_option("--sk-form", target,
                  "Private key form of ML-KEM (RFC 9935): seed (the 64-byte d || z; the default for pem/der), "
                  "expanded (the FIPS 203 decapsulation key; the default for bin/hex) or both (pem/der only). "
                  "X-Wing and X25519MLKEM768 keys are always their seed (32, 96 bytes): only seed is accepted")
      ->option_text("seed|expanded|both")
      ->check(CLI::IsMember({"seed", "expanded", "both"}));
}

void CommandBuilder::engine(EngineOptions& target) {
  add_string_option(m_target.cmd, "--impl", target.impl,
                    "Implementation: auto, portable, avx2 or avx512 (default: $PQKEM_IMPL, else auto). auto "
                    "picks avx512 on AMD Zen 4 and Zen 5, else avx2 where the CPU has it, else portable; "
                    "'pqkem list' shows what this CPU can run")
      ->option_text("auto|portable|avx2|avx512");
  add_string_option(
      m_target.cmd, "--ntt-plan", target.ntt_plan,
      fmt::format("ML-KEM NTT merge plan of the portable path: one plan such as 3211, or "
                  "FORWARD/INVERSE such as 11212/22111 (default: $PQKEM_NTT_PLAN, else {}); see "
                  "'pqkem bench --ntt-plans'. The AVX2 and AVX-512 backends' NTT has its own schedule and ignores it",
                  mlkem::kDefaultNttPlan))
      ->option_text("PLAN");
}

// --rng is checked when applied (apply_rng_option), so the option and PQKEM_RNG get the same
// message.
void CommandBuilder::rng(OptString& target, const std::string& what) {
  add_string_option(m_target.cmd, "--rng", target,
                    fmt::format("Where {} come from: system (the kernel's CSPRNG, getrandom(2)) or openssl "
                                "(OpenSSL's DRBG, RAND_bytes) (default: $PQKEM_RNG, else system)",
                                what))
      ->option_text("system|openssl");
}

void CommandBuilder::coins(OptString& target, const std::string& what) {
  add_string_option(m_target.cmd, "--coins", target,
                    fmt::format("FOR TESTING ONLY: makes the operation deterministic by supplying exactly the "
                                "coins it would otherwise take from the random source ({}), as hex or as @FILE "
                                "(hex or raw; @- for stdin). A wrong length is an error. Never use fixed coins for "
                                "real keys or secrets.",
                                what))
      ->option_text("HEX|@FILE");
}

void CommandBuilder::flag(std::string name, bool& target, std::string help) {
  m_target.cmd.add_flag(std::move(name), target, std::move(help));
}

void CommandBuilder::force(bool& target) {
  m_target.cmd.add_flag("--force", target, "Replace output files that already exist");
}

void CommandBuilder::json_outputs(bool& target, const std::string& what) {
  m_target.cmd.add_flag("--json", target,
                        fmt::format("Print one JSON object describing what was written (algorithm, files, sizes, {}); "
                                    "no output may then be - (stdout)",
                                    what));
}

namespace {

/// The value of `text` if it is a plain decimal number (digits only: no sign, no space, no 0x,
/// and leading zeros do not make it octal) in [lo, hi]; nullopt otherwise.
std::optional<int> parse_decimal(std::string_view text, int lo, int hi) {
  if (text.empty() || text.size() > 12) return std::nullopt;
  long long value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value < lo || value > hi) return std::nullopt;
  return static_cast<int>(value);
}

}  // namespace

void CommandBuilder::integer(std::string name, int& target, std::string help, const IntRange& range) {
  // Parsed here, not by CLI11, which reads 010 as octal and 0x10 as hex: a count in a script is
  // decimal. The check runs before the conversion, so "-1", "abc", "0x10" and "99999999999"
  // all get the range's message.
  const int lo = range.min;
  const int hi = range.max;
  auto* opt = m_target.cmd.add_option_function<std::string>(
      std::move(name),
      [&target, lo, hi](const std::string& value) { target = parse_decimal(value, lo, hi).value_or(lo); },
      std::move(help));
  if (range.show_default) opt->default_str(std::to_string(target));
  opt->option_text(range.text);
  const std::string message =
      range.out_of_range.empty() ? fmt::format("must be a decimal number from {} to {}", lo, hi) : range.out_of_range;
  opt->check(CLI::Validator(
      [lo, hi, message](std::string& value) { return parse_decimal(value, lo, hi) ? std::string() : message; }, ""));
}

void CommandBuilder::string(std::string name, OptString& target, std::string help, std::string text) {
  add_string_option(m_target.cmd, std::move(name), target, std::move(help))->option_text(std::move(text));
}

void CommandBuilder::string(std::string name, std::string& target, std::string help, std::string text) {
  m_target.cmd.add_option(std::move(name), target, std::move(help))
      ->capture_default_str()
      ->option_text(std::move(text));
}

void CommandBuilder::strings(std::string name, std::vector<std::string>& target, std::string help, std::string text) {
  m_target.cmd.add_option(std::move(name), target, std::move(help))->option_text(std::move(text));
}

void CommandBuilder::footer(std::string text) { m_target.cmd.footer(std::move(text)); }

namespace {

/// One line on stderr: "pqkem: <what> (<file>)". The file name is shown with printable(); values
/// inside `what` were made printable where they were put in, and any control character left
/// (from a library's message) becomes '?', so the line stays one line.
void report(std::string what, const std::string& file) {
  for (auto& c : what)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  if (file.empty()) {
    fmt::print(stderr, "pqkem: {}\n", what);
  } else {
    fmt::print(stderr, "pqkem: {} ({})\n", what, printable(file));
  }
}

/// CLI11 messages can span lines ("... \nRun with --help ..."): keep the first one.
std::string first_line(std::string s) {
  const auto nl = s.find('\n');
  if (nl != std::string::npos) s.erase(nl);
  return s;
}

/// Prints the text of --help or --version (`e`) to stdout, and fails (exit 1) as every other
/// output does when it cannot be written: a full disk, a closed stdout.
int print_help(const CLI::App& app, const CLI::ParseError& e) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = app.exit(e, out, err);
  try {
    write_stdout(out.str());
  } catch (const CliError& failed) {
    report(failed.what(), failed.file());
    return failed.exit_code();
  }
  return code;
}

/// Adds `command` to `app` with its options, filled into `opts` by the parse.
CLI::App* declare(CLI::App& app, const Command& command, AllOptions& opts) {
  auto* cmd = app.add_subcommand(command.name, command.description);
  CommandBuilder::Target target{*cmd};
  CommandBuilder builder(target);
  command.declare(builder, opts);
  return cmd;
}

}  // namespace

int run_command_line(int argc, char** argv, const Program& program, AllOptions& opts) {
  CLI::App app{program.description, "pqkem"};
  app.require_subcommand(1);
  app.set_version_flag("--version", program.version, program.version_help);
  app.footer(program.footer);

  // Only the command being run is declared: CLI11 builds each option with many allocations, and
  // declaring every command cost more than an encapsulation (docs/performance.md). All are
  // declared for `pqkem --help` and anything else that starts with an option.
  std::vector<std::pair<CLI::App*, const Command*>> declared;
  try {
    // CLI11 would say "A subcommand is required" for a mistyped command: name it instead.
    if (argc < 2) throw_usage("no command given; see 'pqkem --help'");
    const std::string first = argv[1];
    if (!first.empty() && first.front() != '-') {
      const auto chosen = std::find_if(program.commands.begin(), program.commands.end(),
                                       [&](const Command& c) { return first == c.name; });
      if (chosen == program.commands.end()) {
        std::string names;
        for (const auto& c : program.commands) names += (names.empty() ? "" : ", ") + std::string(c.name);
        throw_usage(fmt::format("unknown command '{}'; the commands are {}", printable(first), names));
      }
      declared.emplace_back(declare(app, *chosen, opts), &*chosen);
    } else {
      for (const auto& c : program.commands) declared.emplace_back(declare(app, c, opts), &c);
    }
    app.parse(argc, argv);
    for (const auto& [cmd, command] : declared)
      if (cmd->parsed()) command->run(opts);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return print_help(app, e);  // --help, --version
    std::string hint = "pqkem --help";
    for (const auto* sub : app.get_subcommands()) hint = fmt::format("pqkem {} --help", sub->get_name());
    report(fmt::format("{}; see '{}'", first_line(e.what()), hint), {});
    return kExitUsage;
  } catch (const CliError& e) {
    report(e.what(), e.file());
    return e.exit_code();
  } catch (const pqkem::Error& e) {
    report(e.what(), {});
    return kExitFailure;
  } catch (const std::bad_alloc&) {
    report("out of memory", {});
    return kExitFailure;
  }
}

}  // namespace pqkem::cli
