// pqkem kat: NIST's PQCkemKAT_*.rsp known-answer text, as PQCgenKAT_kem prints it, streamed.
#include "commands.hpp"
#include "kat.hpp"

namespace pqkem::cli {

void run_kat(const KatOptions& opts) {
  apply_engine_options(opts.engine);
  const Scheme s = require_algorithm(opts.algorithm);
  use_openssl();  // the KAT DRBG's AES
  // main.cpp keeps --count within 1..kKatMaxCount. Each record goes to stdout as soon as it is
  // computed, so memory use does not grow with the count.
  with_file_context("KAT generation failed", {}, [&] { kat_rsp(s, opts.count, write_stdout); });
}

}  // namespace pqkem::cli
