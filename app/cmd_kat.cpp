// pqkem kat: NIST's PQCkemKAT_*.rsp known-answer text, as PQCgenKAT_kem prints it.
#include "commands.hpp"
#include "kat.hpp"

namespace pqkem::cli {

CLI::App* add_kat(CLI::App& app, KatOptions& opts) {
  auto* cmd = app.add_subcommand("kat", "Print the NIST known-answer-test file (PQCkemKAT_*.rsp) to stdout");
  add_algorithm_option(*cmd, opts.algorithm, "Algorithm, e.g. ML-KEM-768 (see 'pqkem list')")
      ->required()
      ->option_text("ALG REQUIRED");
  cmd->add_option("--count", opts.count, "Number of records, at least 1")->capture_default_str()->option_text("N");
  add_engine_options(*cmd, opts.engine);
  cmd->footer(
      "The output is byte for byte what NIST's PQCgenKAT_kem writes: '# <name>', a blank line, then\n"
      "per record count, seed, pk, sk, ct and ss in upper-case hex, and a blank line.\n\n"
      "Examples:\n"
      "  pqkem kat -a ML-KEM-768 > PQCkemKAT_2400.rsp\n"
      "  pqkem kat -a ML-KEM-512 --count 1\n");
  return cmd;
}

void run_kat(const KatOptions& opts) {
  apply_engine_options(opts.engine);
  const Scheme s = *parse_algorithm(opts.algorithm);
  if (opts.count < 1) throw_usage("--count must be at least 1");
  write_stdout(with_file_context("KAT generation failed", {}, [&] { return kat_rsp(s, opts.count); }));
}

}  // namespace pqkem::cli
