// pqkem: command-line front end. Declares every subcommand's options and help, parses,
// dispatches to one subcommand's run_* (cmd_*.cpp), and maps every error to an exit code in one
// place: 0 success, 1 failure on valid usage, 2 usage error.
//
// This is the only file that includes CLI11. Debian's CLI11 2.1 is header-only: every
// translation unit that includes it compiles its whole implementation again, about 8 s at -O2
// and 50 s under the sanitizers, so the subcommands do without it.
#include <openssl/crypto.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.hpp"
#include "mlkem/ntt.hpp"
#include "simd/cpu.hpp"

#ifndef PQKEM_APP_VERSION
#define PQKEM_APP_VERSION "unknown"
#endif

namespace pqkem::cli {
namespace {

// --- The options of every subcommand -------------------------------------------------------------

/// What an output format applies to, for --format's help text.
enum class FormatUse {
  keys,  ///< keygen, pubkey, convert: bin, hex, pem or der
  data,  ///< encaps, decaps: bin or hex (pem and der parse, then fail with require_data_format)
};

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
           "ML-KEM pem / der (SubjectPublicKeyInfo and PKCS#8 as in RFC 9935, OpenSSL-compatible). Inputs are "
           "always auto-detected (PEM, DER, hex or raw).";
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
  return cmd.add_option_function<std::string>(
         "--format",
         [&format](const std::string& value) {
           if (const auto f = parse_format(value)) format = *f;  // the check below rejects anything else
         },
         format_help(use))
      ->option_text(use == FormatUse::keys ? "bin|hex|pem|der" : "bin|hex")
      ->check(CLI::Validator(known, ""));
}

/// Adds `--sk-form seed|expanded|both`.
void add_sk_form_option(CLI::App& cmd, std::string& sk_form) {
  cmd.add_option("--sk-form", sk_form,
                 "Private key form (RFC 9935): seed (the 64-byte d || z; the default for pem/der), expanded (the "
                 "FIPS 203 decapsulation key; the default for bin/hex) or both (pem/der only)")
      ->option_text("seed|expanded|both")
      ->check(CLI::IsMember({"seed", "expanded", "both"}));
}

/// Adds a string option kept as given, so that an empty value (`-a "$UNSET"`) is told apart
/// from an absent option and rejected where it is used.
CLI::Option* add_string_option(CLI::App& cmd, const std::string& name, OptString& target, const std::string& help) {
  return cmd.add_option_function<std::string>(name, [&target](const std::string& value) { target = value; }, help);
}

/// Adds `-a,--algorithm ALG`.
CLI::Option* add_algorithm_option(CLI::App& cmd, OptString& algorithm, const std::string& help) {
  return add_string_option(cmd, "-a,--algorithm", algorithm, help)->option_text("ALG");
}

/// Adds `--impl` and `--ntt-plan` (with_impl: false leaves --impl out, for `bench`, which has
/// its own).
void add_engine_options(CLI::App& cmd, EngineOptions& engine, bool with_impl = true) {
  if (with_impl)
    add_string_option(cmd, "--impl", engine.impl,
                   "Implementation: auto (the best this CPU can run), portable or avx2 "
                   "(default: $PQKEM_IMPL, else auto)")
        ->option_text("auto|portable|avx2");
  add_string_option(cmd, "--ntt-plan", engine.ntt_plan,
                 fmt::format("ML-KEM NTT merge plan of the portable path: one plan such as 3211, or FORWARD/INVERSE "
                             "such as 11212/22111 (default: $PQKEM_NTT_PLAN, else {}); see 'pqkem bench "
                             "--ntt-plans'. The AVX2 NTT has its own schedule and ignores it",
                             mlkem::kDefaultNttPlan))
      ->option_text("PLAN");
}

/// Adds `--rng system|openssl`, for the commands that draw random bytes. Checked when applied
/// (apply_rng_option), so the option and PQKEM_RNG get the same message.
void add_rng_option(CLI::App& cmd, OptString& rng, const std::string& what) {
  add_string_option(cmd, "--rng", rng,
                    fmt::format("Where {} come from: system (the kernel's CSPRNG, getrandom(2)) or openssl "
                                "(OpenSSL's DRBG, RAND_bytes) (default: $PQKEM_RNG, else system)",
                                what))
      ->option_text("system|openssl");
}

/// Adds a required file option (`--pk PATH`, or a positional `path`); `-` means stdin or stdout.
CLI::Option* add_path_option(CLI::App& cmd, const std::string& name, std::string& path, const std::string& description) {
  return cmd.add_option(name, path, description)->required()->option_text("PATH REQUIRED");
}

/// Adds `--coins HEX|@FILE`, documented as being for testing only.
void add_coins_option(CLI::App& cmd, OptString& coins, const std::string& what) {
  add_string_option(cmd, "--coins", coins,
                 fmt::format("FOR TESTING ONLY: makes the operation deterministic by supplying exactly the random "
                             "bytes it would draw ({}), as hex or as @FILE (hex or raw; @- for stdin). A wrong "
                             "length is an error. Never use fixed coins for real keys or secrets.",
                             what))
      ->option_text("HEX|@FILE");
}

// The "Examples:" of each help text (and of `pqkem --help`) stand alone: they run as written, in
// order, in an empty directory (ctest -L docs, tests/docs/doc_examples.sh, which also describes
// the `# exit N` and `# needs: WHAT` comments). A blank line starts a new block of examples.
CLI::App* add_keygen(CLI::App& app, KeygenOptions& opts) {
  auto* cmd = app.add_subcommand("keygen",
                                 "Generate a key pair: a public (encapsulation) key and a secret "
                                 "(decapsulation) key");
  add_algorithm_option(*cmd, opts.algorithm, "Algorithm, e.g. ML-KEM-768 (case-insensitive; see 'pqkem list')")
      ->required()
      ->option_text("ALG REQUIRED");
  add_path_option(*cmd, "--pk", opts.pk_path, "Where to write the public key (- for stdout)");
  add_path_option(*cmd, "--sk", opts.sk_path, "Where to write the secret key, mode 0600 (- for stdout)");
  add_format_option(*cmd, opts.format, FormatUse::keys);
  add_sk_form_option(*cmd, opts.sk_form);
  add_coins_option(*cmd, opts.coins, "ML-KEM: d || z, 64 bytes; see 'pqkem list' for every algorithm");
  cmd->add_flag("--force", opts.force, "Replace output files that already exist");
  cmd->add_flag("--json", opts.json,
                "Print one JSON object describing what was written (algorithm, files, sizes, public key "
                "SHA-256; never secrets); no output may then be - (stdout)");
  add_rng_option(*cmd, opts.rng, "the key generation's random bytes (without --coins)");
  add_engine_options(*cmd, opts.engine);
  cmd->footer(
      "Both files are written, or neither. With --format bin or hex the secret key is the\n"
      "standard's expanded form (ML-KEM: the FIPS 203 decapsulation key dk; --sk-form seed writes\n"
      "the 64-byte seed d || z instead). With --format pem or der (ML-KEM only) the keys are\n"
      "SubjectPublicKeyInfo and PKCS#8 as in RFC 9935, as OpenSSL 3.5 writes them; the private\n"
      "key holds the seed unless --sk-form says otherwise.\n\n"
      "Examples:\n"
      "  pqkem keygen -a ML-KEM-768 --pk alice.pk --sk alice.sk\n"
      "  pqkem keygen -a ML-KEM-768 --pk alice.pub.pem --sk alice.pem --format pem\n"
      "  pqkem keygen -a ML-KEM-512 --pk - --sk key.sk --format hex\n");
  return cmd;
}

CLI::App* add_encaps(CLI::App& app, EncapsOptions& opts) {
  auto* cmd = app.add_subcommand("encaps", "Encapsulate: make a ciphertext and a shared secret for a public key");
  add_algorithm_option(*cmd, opts.algorithm,
                       "Algorithm; optional, inferred from the public key's length. If given, the key must fit it");
  add_path_option(*cmd, "--pk", opts.pk_path, "Public key to read: PEM, DER, hex or raw (- for stdin)");
  add_path_option(*cmd, "--ct", opts.ct_path, "Where to write the ciphertext (- for stdout)");
  add_path_option(*cmd, "--ss", opts.ss_path, "Where to write the shared secret, mode 0600 (- for stdout)");
  add_format_option(*cmd, opts.format, FormatUse::data);
  add_coins_option(*cmd, opts.coins, "ML-KEM: m, 32 bytes; see 'pqkem list' for every algorithm");
  cmd->add_flag("--force", opts.force, "Replace output files that already exist");
  cmd->add_flag("--json", opts.json,
                "Print one JSON object describing what was written (algorithm, files, sizes, SHA-256 of the "
                "public key and the ciphertext; never the secret); no output may then be - (stdout)");
  add_rng_option(*cmd, opts.rng, "the encapsulation's random bytes (without --coins)");
  add_engine_options(*cmd, opts.engine);
  cmd->footer(
      "The public key is checked first (ML-KEM: the FIPS 203 modulus check). The ciphertext and\n"
      "the shared secret are both written, or neither.\n\n"
      "Examples:\n"
      "  pqkem keygen -a ML-KEM-768 --pk alice.pk --sk alice.sk\n"
      "  pqkem encaps --pk alice.pk --ct msg.ct --ss sender.ss\n"
      "  cat alice.pk | pqkem encaps --pk - --ct msg2.ct --ss - --format hex\n");
  return cmd;
}

CLI::App* add_decaps(CLI::App& app, DecapsOptions& opts) {
  auto* cmd =
      app.add_subcommand("decaps", "Decapsulate: recover the shared secret from a ciphertext with a secret key");
  add_algorithm_option(*cmd, opts.algorithm,
                       "Algorithm; optional for a PEM/DER or expanded secret key (inferred from its OID or "
                       "length), required for a raw seed. If given, the inputs must fit it");
  add_path_option(*cmd, "--sk", opts.sk_path, "Secret key to read: PEM or DER (PKCS#8, any RFC 9935 form), or an expanded key or private seed as hex or raw (- for stdin)");
  add_path_option(*cmd, "--ct", opts.ct_path, "Ciphertext to read, hex or raw (- for stdin)");
  add_path_option(*cmd, "--ss", opts.ss_path, "Where to write the shared secret, mode 0600 (- for stdout)");
  add_format_option(*cmd, opts.format, FormatUse::data);
  cmd->add_flag("--force", opts.force, "Replace an output file that already exists");
  cmd->add_flag("--json", opts.json,
                "Print one JSON object describing what was written (algorithm, files, sizes, SHA-256 of the "
                "public key and the ciphertext; never the secret); --ss may then not be - (stdout)");
  add_engine_options(*cmd, opts.engine);
  cmd->footer(
      "The secret key is checked first (ML-KEM: the FIPS 203 hash check). A well-formed but wrong\n"
      "ciphertext is not an error: implicit rejection yields an unrelated shared secret.\n\n"
      "Examples:\n"
      "  pqkem keygen -a ML-KEM-768 --pk alice.pk --sk alice.sk\n"
      "  pqkem encaps --pk alice.pk --ct msg.ct --ss sender.ss\n"
      "  pqkem decaps --sk alice.sk --ct msg.ct --ss receiver.ss\n"
      "  cmp sender.ss receiver.ss\n"
      "  pqkem keygen -a ML-KEM-768 --pk bob.pk --sk bob.seed.hex --format hex --sk-form seed\n"
      "  pqkem encaps --pk bob.pk --ct bob.ct --ss bob.ss\n"
      "  pqkem decaps -a ML-KEM-768 --sk bob.seed.hex --ct bob.ct --ss - --format hex   # a seed needs -a\n");
  return cmd;
}

CLI::App* add_pubkey(CLI::App& app, PubkeyOptions& opts) {
  auto* cmd = app.add_subcommand("pubkey", "Derive the public key from a secret key file");
  add_algorithm_option(*cmd, opts.algorithm,
                       "Algorithm; needed only for a raw 64-byte seed. If given, the key must fit it");
  add_path_option(*cmd, "--sk", opts.sk_path,
                  "Secret key to read: PEM or DER (PKCS#8, any RFC 9935 form), or an expanded key or private seed "
                  "as hex or raw (- for stdin)");
  add_path_option(*cmd, "--pk", opts.pk_path, "Where to write the public key (- for stdout)");
  add_format_option(*cmd, opts.format, FormatUse::keys);
  cmd->add_flag("--force", opts.force, "Replace an output file that already exists");
  add_engine_options(*cmd, opts.engine);
  cmd->footer(
      "The secret key is checked in full first (for PKCS#8 and expanded keys: hash, modulus and\n"
      "pairwise consistency checks). Without --format the public key is written in the secret\n"
      "key file's own format (pem -> pem, der -> der, hex -> hex, bin -> bin).\n\n"
      "Examples:\n"
      "  pqkem keygen -a ML-KEM-768 --pk alice.pub.pem --sk alice.pem --format pem\n"
      "  pqkem pubkey --sk alice.pem --pk again.pub.pem && cmp alice.pub.pem again.pub.pem\n"
      "  pqkem pubkey --sk alice.pem --pk - --format hex\n"
      "\n"
      "  # needs: openssl-3.5\n"
      "  openssl genpkey -algorithm ML-KEM-768 -out k.pem && pqkem pubkey --sk k.pem --pk k.pub.pem\n");
  return cmd;
}

CLI::App* add_info(CLI::App& app, InfoOptions& opts) {
  auto* cmd = app.add_subcommand("info", "Describe a key, seed or ciphertext file (never prints secret material)");
  add_path_option(*cmd, "path", opts.path, "File to describe (- for stdin)");
  add_algorithm_option(*cmd, opts.algorithm,
                       "Algorithm; names the parameter set of a raw 64-byte seed, and restricts raw inputs to it");
  cmd->add_flag("--json", opts.json, "Print one JSON object instead of text");
  cmd->footer(
      "Shows the algorithm, the kind (public key, secret key, seed, ciphertext), the file format\n"
      "(bin, hex, pem, der), the private key form, the sizes and the SHA-256 of the public key's\n"
      "raw bytes (the same for every encoding of one key). Keys are checked as when they are used\n"
      "(secret keys in full: hash, modulus and pairwise checks); an invalid key fails with exit 1.\n"
      "A raw NTRU public key and ciphertext have the same size and cannot be told apart.\n\n"
      "Examples:\n"
      "  pqkem keygen -a ML-KEM-768 --pk alice.pub.pem --sk alice.pem --format pem\n"
      "  pqkem info alice.pem\n"
      "  pqkem encaps --pk alice.pub.pem --ct msg.ct --ss sender.ss\n"
      "  pqkem info --json msg.ct\n"
      "  pqkem keygen -a ML-KEM-768 --pk bob.pk --sk bob.seed.hex --format hex --sk-form seed\n"
      "  pqkem info -a ML-KEM-768 bob.seed.hex\n");
  return cmd;
}

CLI::App* add_convert(CLI::App& app, ConvertOptions& opts) {
  auto* cmd = app.add_subcommand("convert", "Re-encode a public or secret key file (bin, hex, pem, der)");
  add_algorithm_option(*cmd, opts.algorithm,
                       "Algorithm; needed only for a raw 64-byte seed. If given, the key must fit it");
  add_path_option(*cmd, "--in", opts.in_path, "Key to read: PEM, DER, hex or raw; public or secret (- for stdin)");
  add_path_option(*cmd, "--out", opts.out_path, "Where to write it; mode 0600 for a secret key (- for stdout)");
  add_format_option(*cmd, opts.format, FormatUse::keys)->required()->option_text("bin|hex|pem|der REQUIRED");
  add_sk_form_option(*cmd, opts.sk_form);
  cmd->add_flag("--force", opts.force, "Replace an output file that already exists");
  add_engine_options(*cmd, opts.engine);
  cmd->footer(
      "Whether the input is a public or a secret key comes from its PEM label, its DER structure\n"
      "or its length. Secret keys are checked in full first. A secret key keeps its seed when it\n"
      "has one (pem/der default to the seed form); an expanded key cannot be turned into a seed.\n\n"
      "Examples:\n"
      "  pqkem keygen -a ML-KEM-768 --pk alice.pk --sk alice.sk\n"
      "  pqkem convert --in alice.sk --out alice.pem --format pem       # expanded form: no seed known\n"
      "  pqkem convert --in alice.pk --out alice.pub.pem --format pem\n"
      "  pqkem keygen -a ML-KEM-768 --pk bob.pub.pem --sk bob.pem --format pem   # seed form\n"
      "  pqkem convert --in bob.pem --out bob.der --format der --sk-form both\n"
      "  pqkem convert --in bob.pem --out bob.seed.hex --format hex --sk-form seed\n"
      "  pqkem convert --in bob.pub.pem --out - --format hex\n");
  return cmd;
}

CLI::App* add_list(CLI::App& app, ListOptions& opts) {
  auto* cmd =
      app.add_subcommand("list", "List the algorithms, their sizes, and the implementations usable on this CPU");
  cmd->add_flag("--json", opts.json, "Print JSON instead of a table");
  cmd->footer("Examples:\n  pqkem list\n  pqkem list --json\n");
  return cmd;
}

CLI::App* add_kat(CLI::App& app, KatOptions& opts) {
  auto* cmd = app.add_subcommand("kat", "Print the NIST known-answer-test file (PQCkemKAT_*.rsp) to stdout");
  add_algorithm_option(*cmd, opts.algorithm, "Algorithm, e.g. ML-KEM-768 (see 'pqkem list')")
      ->required()
      ->option_text("ALG REQUIRED");
  // Checked before CLI11 converts the value, so "-1", "abc" and "99999999999" get the same
  // message as "0" and "10001".
  const auto in_range = [range = CLI::Range(1, kKatMaxCount)](std::string& value) {
    return range(value).empty()
               ? std::string()
               : fmt::format("must be between 1 and {} (NIST's files have {})", kKatMaxCount, kKatNistCount);
  };
  cmd->add_option("--count", opts.count,
                  fmt::format("Number of records, 1 to {} (NIST's files have {}); each is written as soon as it "
                              "is computed",
                              kKatMaxCount, kKatNistCount))
      ->capture_default_str()
      ->option_text("N")
      ->check(CLI::Validator(in_range, ""));
  add_engine_options(*cmd, opts.engine);
  cmd->footer(
      "The output is byte for byte what NIST's PQCgenKAT_kem writes: '# <name>', a blank line, then\n"
      "per record count, seed, pk, sk, ct and ss in upper-case hex, and a blank line.\n\n"
      "Examples:\n"
      "  pqkem kat -a ML-KEM-768 > PQCkemKAT_2400.rsp\n"
      "  pqkem kat -a ML-KEM-512 --count 1\n");
  return cmd;
}

CLI::App* add_bench(CLI::App& app, BenchOptions& opts) {
  auto* cmd = app.add_subcommand("bench", "Measure keypair/encaps/decaps, kernels and NTT plans in rdtsc ticks");
  cmd->add_option("-a,--algorithm", opts.algorithms, "Algorithms to measure (repeatable; default: all)")
      ->option_text("ALG ...");
  cmd->add_option("--impl", opts.impl, "Implementation: auto (the one used by default), portable, avx2, or all")
      ->capture_default_str()
      ->option_text("auto|portable|avx2|all");
  cmd->add_option("--iterations", opts.iterations,
                  "Timed calls per round (default: as many as fit in about 0.25 s per measurement, split over "
                  "the rounds; 11 to max(11, 2000/rounds) per round)")
      ->option_text("N")
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--rounds", opts.rounds,
                  "Rounds per measurement, interleaved across all rows; each round is the median of its calls")
      ->capture_default_str()
      ->option_text("R")
      ->check(CLI::Range(1, 100));
  cmd->add_flag("--json", opts.json, "Print github-action-benchmark 'customSmallerIsBetter' JSON instead of a table");
  cmd->add_flag("--kernels", opts.kernels,
                "Measure the kernels behind each algorithm instead of whole operations, of the --impl "
                "implementation(s) only");
  cmd->add_flag("--ntt-plans", opts.ntt_plans,
                "Measure every ML-KEM NTT merge plan (forward and inverse, portable path), best first");
  add_string_option(*cmd, "--baseline", opts.baseline,
                    "Compare with an earlier --json output; flag rows slower beyond their noise limit (below)")
      ->option_text("FILE");
  add_string_option(*cmd, "--ntt-plan", opts.ntt_plan,
                  "ML-KEM NTT merge plan of the portable path for the operations and kernels (default: "
                  "$PQKEM_NTT_PLAN, else the built-in default)")
      ->option_text("PLAN");
  add_rng_option(*cmd, opts.rng, "the keypair and encaps rows' random bytes");
  cmd->add_flag("--fail-on-regression", opts.fail_on_regression,
                "With --baseline: exit 1 if any row is flagged as a regression");
  cmd->footer(
      "Each measurement is R rounds of N calls after a warm-up; a round's figure is the median of its\n"
      "calls, and rounds are interleaved across rows, so a burst of load spoils one round of many rows\n"
      "rather than a whole row. 'median' is the lowest round median (noise only adds time: the least\n"
      "disturbed round is the best estimate); 'spread' is how far the middle round median lies above it.\n"
      "The timer's granularity (smallest nonzero step of back-to-back rdtsc reads) is measured and shown.\n\n"
      "--baseline flags a row when its median exceeds the baseline's median by more than\n"
      "  limit = 5% + spread(baseline) + spread(this run) + drift + 2 x granularity / baseline median,\n"
      "that is, when even this run's best round is slower than the baseline's best by more than either\n"
      "run showed as noise. drift is how much slower the machine itself got: the largest slow-down of\n"
      "three fixed reference workloads outside pqkem (a loop, OpenSSL SHA3-256 and AES-256-GCM), timed\n"
      "in the same rounds and kept in the JSON; 5% covers what remains unmeasured. Each row's limit is\n"
      "shown, so a run too noisy to see a small slow-down says so. Flagged rows are measured again (up\n"
      "to twice, R rounds each) and keep their lowest round: a passing disturbance is cleared, a real\n"
      "slow-down is not. A row of another implementation matches when each side has exactly one of that\n"
      "measurement (a baseline of --impl avx2 against --impl portable, or a build without AVX2).\n"
      "Baselines from before rounds were recorded are read as one round, as noisy as this run.\n\n"
      "rdtsc ticks count at the TSC's fixed reference rate, not core clock cycles; the rate is measured\n"
      "and printed. Only ratios measured on one machine are comparable.\n\n"
      "Examples:\n"
      "  pqkem bench -a ML-KEM-768\n"
      "  pqkem bench --kernels --impl all\n"
      "  pqkem bench -a ML-KEM-512 --json > base.json\n"
      "  pqkem bench -a ML-KEM-512 --baseline base.json --fail-on-regression || echo \"slower than base.json\"\n");
  return cmd;
}

// --- Parsing and exit codes ---------------------------------------------------------------------

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
  apply_rng_option({});  // PQKEM_RNG: the source named is the one the commands would use
  std::string impls;
  for (const auto name : simd::usable_implementations()) impls += (impls.empty() ? "" : ", ") + std::string(name);
  return fmt::format(
      "pqkem {}\n"
      "library: pqkem {} ({})\n"
      "compiler: {}, C++ {}\n"
      "OpenSSL: {}\n"
      "random bytes: {}\n"
      "implementations usable on this CPU: {}",
      PQKEM_APP_VERSION, pqkem::version(), algorithm_names(), compiler_name(), __cplusplus,
      OpenSSL_version(OPENSSL_VERSION), random_source_text(), impls);
}

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

/// The options of every command; only the chosen command's are filled in.
struct AllOptions {
  KeygenOptions keygen;
  EncapsOptions encaps;
  DecapsOptions decaps;
  PubkeyOptions pubkey;
  InfoOptions info;
  ConvertOptions convert;
  ListOptions list;
  KatOptions kat;
  BenchOptions bench;
};

/// A command: its name, how to declare it, how to run it.
struct Command {
  const char* name;
  CLI::App* (*add)(CLI::App&, AllOptions&);
  void (*run)(const AllOptions&);
};

// The commands, in the order `pqkem --help` lists them.
constexpr Command kCommands[] = {
    {"keygen", [](CLI::App& a, AllOptions& o) { return add_keygen(a, o.keygen); },
     [](const AllOptions& o) { run_keygen(o.keygen); }},
    {"encaps", [](CLI::App& a, AllOptions& o) { return add_encaps(a, o.encaps); },
     [](const AllOptions& o) { run_encaps(o.encaps); }},
    {"decaps", [](CLI::App& a, AllOptions& o) { return add_decaps(a, o.decaps); },
     [](const AllOptions& o) { run_decaps(o.decaps); }},
    {"pubkey", [](CLI::App& a, AllOptions& o) { return add_pubkey(a, o.pubkey); },
     [](const AllOptions& o) { run_pubkey(o.pubkey); }},
    {"info", [](CLI::App& a, AllOptions& o) { return add_info(a, o.info); },
     [](const AllOptions& o) { run_info(o.info); }},
    {"convert", [](CLI::App& a, AllOptions& o) { return add_convert(a, o.convert); },
     [](const AllOptions& o) { run_convert(o.convert); }},
    {"list", [](CLI::App& a, AllOptions& o) { return add_list(a, o.list); },
     [](const AllOptions& o) { run_list(o.list); }},
    {"kat", [](CLI::App& a, AllOptions& o) { return add_kat(a, o.kat); },
     [](const AllOptions& o) { run_kat(o.kat); }},
    {"bench", [](CLI::App& a, AllOptions& o) { return add_bench(a, o.bench); },
     [](const AllOptions& o) { run_bench(o.bench); }},
};

int run(int argc, char** argv) {
  CLI::App app{"pqkem: post-quantum key encapsulation (ML-KEM, FIPS 203; NTRU, NIST round 3) for files and shell scripts", "pqkem"};
  app.require_subcommand(1);
  app.set_version_flag(
      "--version", [] { return version_text(); },
      "Print the version, compiler, OpenSSL, random source and usable implementations, and exit");
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

  // Only the command being run is declared: CLI11 builds each option with many allocations, and
  // declaring all nine commands cost more than an encapsulation (docs/performance.md). All are
  // declared for `pqkem --help` and anything else that starts with an option.
  AllOptions opts;
  std::vector<std::pair<CLI::App*, const Command*>> declared;
  try {
    // CLI11 would say "A subcommand is required" for a mistyped command: name it instead.
    if (argc < 2) throw_usage("no command given; see 'pqkem --help'");
    const std::string first = argv[1];
    if (!first.empty() && first.front() != '-') {
      const auto* chosen = std::find_if(std::begin(kCommands), std::end(kCommands),
                                        [&](const Command& c) { return first == c.name; });
      if (chosen == std::end(kCommands)) {
        std::string names;
        for (const auto& c : kCommands) names += (names.empty() ? "" : ", ") + std::string(c.name);
        throw_usage(fmt::format("unknown command '{}'; the commands are {}", printable(first), names));
      }
      declared.emplace_back(chosen->add(app, opts), chosen);
    } else {
      for (const auto& c : kCommands) declared.emplace_back(c.add(app, opts), &c);
    }
    app.parse(argc, argv);
    for (const auto& [cmd, command] : declared)
      if (cmd->parsed()) command->run(opts);
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
