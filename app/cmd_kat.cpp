// pqkem kat: NIST's PQCkemKAT_*.rsp known-answer text, as PQCgenKAT_kem prints it.
#include "commands.hpp"
#include "kat.hpp"

namespace pqkem::cli {

void run_kat(const KatOptions& opts) {
  apply_engine_options(opts.engine);
  const Scheme s = *parse_algorithm(opts.algorithm);
  if (opts.count < 1) throw_usage("--count must be at least 1");
  write_stdout(with_file_context("KAT generation failed", {}, [&] { return kat_rsp(s, opts.count); }));
}

}  // namespace pqkem::cli
