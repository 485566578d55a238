// pqkem kat: NIST's PQCkemKAT_*.rsp known-answer text, as PQCgenKAT_kem prints it, streamed.
#include <string>

#include "cmd_kat.hpp"
#include "kat.hpp"
#include "output.hpp"

namespace pqkem::cli {

namespace {

/// Exit 2 for a scheme NIST's procedure does not cover: the hybrids are not NIST PQC
/// submissions. The message says where their reference vectors are instead.
void require_nist_kat(Scheme s) {
  if (has_kat_procedure(s)) return;
  const auto& info = scheme_info(s);
  const std::string name(info.name);
  const std::string instead =
      s == Scheme::XWing
          ? "its reference vectors are the test vectors of draft-connolly-cfrg-xwing-kem (seed, eseed, pk, ct, ss), "
            "which 'pqkem keygen -a X-Wing --coins SEED' and 'pqkem encaps -a X-Wing --coins ESEED' reproduce"
          : "check it through its components' vectors (ML-KEM-768: NIST ACVP; X25519: RFC 7748) with 'pqkem keygen "
            "-a " +
                name + " --coins' and 'pqkem encaps -a " + name + " --coins'";
  throw_usage(name + " has no NIST known-answer-test procedure (" + std::string(info.standard) +
              " is not a NIST PQC submission, which PQCgenKAT_kem is for); " + instead);
}

}  // namespace

void run(const KatOptions& opts) {
  apply_engine_options(opts.engine);
  const Scheme s = require_algorithm(opts.algorithm);
  require_nist_kat(s);
  use_openssl();  // the KAT DRBG's AES
  // declare() keeps --count within 1..kKatMaxCount. Each record goes to stdout as soon as it is
  // computed, so memory use does not grow with the count.
  with_file_context("KAT generation failed", {}, [&] { kat_rsp(s, opts.count, write_stdout); });
}

/// What `pqkem kat --help` shows after the options. Its examples run as written, in order, in an
/// empty directory (ctest -L docs).
constexpr const char* kFooter =
    R"(The output is byte for byte what NIST's PQCgenKAT_kem writes: '# <name>', a blank line, then
per record count, seed, pk, sk, ct and ss in upper-case hex, and a blank line. The hybrids
X-Wing and X25519MLKEM768 are not NIST submissions and have no such procedure (exit 2): X-Wing's
reference vectors are its draft's, which keygen --coins and encaps --coins reproduce.

Examples:
  pqkem kat -a ML-KEM-768 > PQCkemKAT_2400.rsp
  pqkem kat -a ML-KEM-512 --count 1
)";

void declare(CommandBuilder& cmd, KatOptions& opts) {
  cmd.algorithm(opts.algorithm,
                "Algorithm, e.g. ML-KEM-768 (see 'pqkem list'); ML-KEM and NTRU only: X-Wing and X25519MLKEM768 "
                "have no NIST KAT procedure",
                Need::required);
  // Without fmt, which costs this small file several seconds to compile (see main.cpp).
  const std::string max = std::to_string(kKatMaxCount);
  const std::string nist = " (NIST's files have " + std::to_string(kKatNistCount) + ")";
  cmd.integer("--count", opts.count,
              "Number of records, 1 to " + max + nist + "; each is written as soon as it is computed",
              IntRange(1, kKatMaxCount, "N").with_default().with_message("must be between 1 and " + max + nist));
  cmd.engine(opts.engine);
  cmd.footer(kFooter);
}

}  // namespace pqkem::cli
