// pqkem: command-line front end. Parses, dispatches to one subcommand, and maps every error to
// an exit code in one place: 0 success, 1 failure on valid usage, 2 usage error.
#include <openssl/crypto.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "commands.hpp"
#include "simd/cpu.hpp"

#ifndef PQKEM_APP_VERSION
#define PQKEM_APP_VERSION "unknown"
#endif

namespace pqkem::cli {
namespace {

std::string compiler_name() {
#if defined(__clang__)
  return fmt::format("Clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown compiler";
#endif
}

std::string version_text() {
  std::string impls;
  for (const auto name : simd::usable_implementations()) impls += (impls.empty() ? "" : ", ") + std::string(name);
  return fmt::format(
      "pqkem {}\n"
      "library: pqkem {} ({})\n"
      "compiler: {}, C++ {}\n"
      "OpenSSL: {}\n"
      "implementations usable on this CPU: {}",
      PQKEM_APP_VERSION, pqkem::version(), algorithm_names(), compiler_name(), __cplusplus,
      OpenSSL_version(OPENSSL_VERSION), impls);
}

/// One line on stderr: "pqkem: <what> (<file>)".
void report(const std::string& what, const std::string& file) {
  if (file.empty()) {
    fmt::print(stderr, "pqkem: {}\n", what);
  } else {
    fmt::print(stderr, "pqkem: {} ({})\n", what, file);
  }
}

/// CLI11 messages can span lines ("... \nRun with --help ..."): keep the first one.
std::string first_line(std::string s) {
  const auto nl = s.find('\n');
  if (nl != std::string::npos) s.erase(nl);
  return s;
}

int run(int argc, char** argv) {
  CLI::App app{"pqkem: post-quantum key encapsulation (ML-KEM, FIPS 203; NTRU, NIST round 3) for files and shell scripts", "pqkem"};
  app.require_subcommand(1);
  app.set_version_flag(
      "--version", [] { return version_text(); },
      "Print the version, compiler, OpenSSL and usable implementations, and exit");
  app.footer(
      "Exit codes: 0 success, 1 failure (unreadable or malformed input, invalid key, I/O error),\n"
      "2 usage error. Run 'pqkem <command> --help' for a command's options.\n\n"
      "Examples:\n"
      "  pqkem keygen -a ML-KEM-768 --pk alice.pk --sk alice.sk\n"
      "  pqkem encaps --pk alice.pk --ct msg.ct --ss sender.ss\n"
      "  pqkem decaps --sk alice.sk --ct msg.ct --ss receiver.ss\n"
      "  cmp sender.ss receiver.ss\n"
      "  pqkem keygen -a ML-KEM-768 --pk alice.pub.pem --sk alice.pem --format pem   # RFC 9935, OpenSSL 3.5\n"
      "  pqkem info alice.pem\n");

  KeygenOptions keygen_opts;
  EncapsOptions encaps_opts;
  DecapsOptions decaps_opts;
  PubkeyOptions pubkey_opts;
  InfoOptions info_opts;
  ConvertOptions convert_opts;
  ListOptions list_opts;
  KatOptions kat_opts;
  BenchOptions bench_opts;
  auto* keygen_cmd = add_keygen(app, keygen_opts);
  auto* encaps_cmd = add_encaps(app, encaps_opts);
  auto* decaps_cmd = add_decaps(app, decaps_opts);
  auto* pubkey_cmd = add_pubkey(app, pubkey_opts);
  auto* info_cmd = add_info(app, info_opts);
  auto* convert_cmd = add_convert(app, convert_opts);
  auto* list_cmd = add_list(app, list_opts);
  auto* kat_cmd = add_kat(app, kat_opts);
  auto* bench_cmd = add_bench(app, bench_opts);

  try {
    // CLI11 would say "A subcommand is required" for a mistyped command: name it instead.
    if (argc < 2) throw_usage("no command given; see 'pqkem --help'");
    const std::string first = argv[1];
    if (!first.empty() && first.front() != '-') {
      std::string names;
      bool known = false;
      for (const auto* sub : std::as_const(app).get_subcommands([](const CLI::App*) { return true; })) {
        names += (names.empty() ? "" : ", ") + sub->get_name();
        known = known || sub->get_name() == first;
      }
      const bool printable = std::all_of(first.begin(), first.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
      if (!known) throw_usage(fmt::format("unknown command '{}'; the commands are {}", printable ? first : "?", names));
    }
    app.parse(argc, argv);
    if (keygen_cmd->parsed()) run_keygen(keygen_opts);
    if (encaps_cmd->parsed()) run_encaps(encaps_opts);
    if (decaps_cmd->parsed()) run_decaps(decaps_opts);
    if (pubkey_cmd->parsed()) run_pubkey(pubkey_opts);
    if (info_cmd->parsed()) run_info(info_opts);
    if (convert_cmd->parsed()) run_convert(convert_opts);
    if (list_cmd->parsed()) run_list(list_opts);
    if (kat_cmd->parsed()) run_kat(kat_opts);
    if (bench_cmd->parsed()) run_bench(bench_opts);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version: printed to stdout
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

}  // namespace
}  // namespace pqkem::cli

int main(int argc, char** argv) noexcept {
  // A closed pipe must surface as a write error (cleaned up, exit 1), not kill the process
  // between writing temporary files and renaming them.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return pqkem::cli::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pqkem: internal error: %s\n", e.what());
  } catch (...) {
    std::fputs("pqkem: internal error\n", stderr);
  }
  return pqkem::cli::kExitFailure;
}
