// pqkem: command-line front end. Names the commands (each cmd_*.cpp declares its own options
// and help) and holds their options, gives the texts of `pqkem --help` and `--version`, and
// hands the command line to run_command_line (cli.cpp), which parses, runs one command and maps
// every error to an exit code: 0 success, 1 failure on valid usage, 2 usage error.
#include <openssl/crypto.h>

#include <array>
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <tuple>

#include "cli.hpp"
#include "cmd_bench.hpp"
#include "cmd_convert.hpp"
#include "cmd_decaps.hpp"
#include "cmd_encaps.hpp"
#include "cmd_info.hpp"
#include "cmd_kat.hpp"
#include "cmd_keygen.hpp"
#include "cmd_list.hpp"
#include "cmd_open.hpp"
#include "cmd_pubkey.hpp"
#include "cmd_seal.hpp"
#include "io.hpp"
#include "options.hpp"
#include "simd/cpu.hpp"
#include "text.hpp"

#ifndef PQKEM_APP_VERSION
#define PQKEM_APP_VERSION "unknown"
#endif

namespace pqkem::cli {

/// The commands, in the order `pqkem --help` lists them, as their options structs: each cmd_*.hpp
/// holds its command's name, description and options, which its declare() fills from the command
/// line (through CommandBuilder, cli.hpp; only cli.cpp includes CLI11) and its run() runs from
/// alone. Only the chosen command's options are filled in.
struct AllOptions : std::tuple<KeygenOptions, EncapsOptions, DecapsOptions, SealOptions, OpenOptions, PubkeyOptions,
                               InfoOptions, ConvertOptions, ListOptions, KatOptions, BenchOptions> {};

namespace {

/// The Command whose options are `Options`: found by type in AllOptions, declared by its
/// command's declare() and run by its run().
template <class Options>
constexpr Command command() {
  return {Options::kName, Options::kDescription,
          [](CommandBuilder& cmd, AllOptions& all) { declare(cmd, std::get<Options>(all)); },
          [](const AllOptions& all) { run(std::get<Options>(all)); }};
}

template <class... Options>
constexpr std::array<Command, sizeof...(Options)> commands_of(const std::tuple<Options...>*) {
  return {command<Options>()...};
}

constexpr auto kCommands = commands_of(static_cast<const AllOptions*>(nullptr));

// Text without fmt: built header-only, fmt costs each file that includes it about 4 s at -O2
// and 10 s under the sanitizers.
std::string dotted(int major, int minor, int patch) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::string compiler_name() {
#if defined(__clang__)
  return "Clang " + dotted(__clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return "GCC " + dotted(__GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown compiler";
#endif
}

std::string version_text() {
  apply_rng_option({});  // PQKEM_RNG: the source named is the one the commands would use
  check_engine_environment();
  std::string impls;
  for (const auto name : simd::usable_implementations()) impls += (impls.empty() ? "" : ", ") + std::string(name);
  return "pqkem " PQKEM_APP_VERSION
         "\n"
         "library: pqkem " +
         std::string(pqkem::version()) + " (" + algorithm_names() +
         ")\n"
         "compiler: " +
         compiler_name() + ", C++ " + std::to_string(__cplusplus) +
         "\n"
         "OpenSSL: " +
         OpenSSL_version(OPENSSL_VERSION) +
         "\n"
         "random bytes: " +
         random_source_text() +
         "\n"
         "implementations usable on this CPU: " +
         impls;
}

constexpr Program kProgram{
    .description =
        "pqkem: post-quantum key encapsulation (ML-KEM, FIPS 203; NTRU, NIST round 3; the hybrids "
        "X-Wing and X25519MLKEM768, ML-KEM-768 with X25519) for files and shell scripts",
    .footer =
        "Exit codes: 0 success, 1 failure (unreadable or malformed input, invalid key, I/O error),\n"
        "2 usage error. Run 'pqkem <command> --help' for a command's options.\n\n"
        "Examples:\n"
        "  pqkem keygen -a ML-KEM-768 --pk alice.pk --sk alice.sk\n"
        "  pqkem encaps --pk alice.pk --ct msg.ct --ss sender.ss\n"
        "  pqkem decaps --sk alice.sk --ct msg.ct --ss receiver.ss\n"
        "  cmp sender.ss receiver.ss\n"
        "  pqkem keygen -a ML-KEM-768 --pk alice.pub.pem --sk alice.pem --format pem   # RFC 9935, OpenSSL 3.5\n"
        "  pqkem info alice.pem\n",
    .version_help = "Print the version, compiler, OpenSSL, random source and usable implementations, and exit",
    .version = version_text,
    .commands = kCommands,
};

}  // namespace
}  // namespace pqkem::cli

int main(int argc, char** argv) noexcept {
  // Before anything is opened: a closed stdin, stdout or stderr must not be taken over by an
  // output file.
  if (!pqkem::cli::guard_standard_descriptors()) {
    std::fputs("pqkem: cannot open /dev/null in place of a closed stdin, stdout or stderr\n", stderr);
    return pqkem::cli::kExitFailure;
  }
  // A closed pipe and a file-size limit (ulimit -f) must surface as write errors (cleaned up,
  // exit 1: "Broken pipe", "File too large"), not kill the process between writing temporary
  // files and renaming them.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    pqkem::cli::AllOptions options;
    return pqkem::cli::run_command_line(argc, argv, pqkem::cli::kProgram, options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pqkem: internal error: %s\n", e.what());
  } catch (...) {
    std::fputs("pqkem: internal error\n", stderr);
  }
  return pqkem::cli::kExitFailure;
}
