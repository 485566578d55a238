// pqkem CLI: the subcommands. Each cmd_*.cpp declares its command's options, help and examples
// (declare_*) through CommandBuilder (cli.hpp; only cli.cpp includes CLI11), which fills a plain
// options struct from the command line, and then runs from that struct alone (run_*). main.cpp
// names the commands and lists them.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "json.hpp"
#include "output.hpp"
#include "text.hpp"
#include "keyfile/keyfile.hpp"
#include "pqkem.hpp"

namespace pqkem::cli {

/// Implementation choices shared by every command that runs an algorithm.
struct EngineOptions {
  OptString impl;      ///< --impl auto|portable|avx2|avx512; absent: PQKEM_IMPL or auto
  OptString ntt_plan;  ///< --ntt-plan NAME; absent: PQKEM_NTT_PLAN or the default
};

struct KeygenOptions {
  OptString algorithm;
  std::string pk_path;
  std::string sk_path;
  Format format = Format::bin;
  std::string sk_form;  ///< --sk-form seed|expanded|both; empty: the format's default
  OptString coins;      ///< absent: random
  bool force = false;
  bool json = false;    ///< --json: describe the outputs on stdout
  OptString rng;        ///< --rng system|openssl; absent: PQKEM_RNG or system
  EngineOptions engine;
};

struct EncapsOptions {
  OptString algorithm;  ///< absent: inferred from the key's length
  std::string pk_path;
  std::string ct_path;
  std::string ss_path;
  Format format = Format::bin;
  OptString coins;
  bool force = false;
  bool json = false;
  OptString rng;        ///< --rng system|openssl; absent: PQKEM_RNG or system
  EngineOptions engine;
};

struct DecapsOptions {
  OptString algorithm;
  std::string sk_path;
  std::string ct_path;
  std::string ss_path;
  Format format = Format::bin;
  bool force = false;
  bool json = false;
  EngineOptions engine;
};

struct PubkeyOptions {
  OptString algorithm;  ///< needed only for a raw seed
  std::string sk_path;
  std::string pk_path;
  std::optional<Format> format;  ///< empty: the secret key file's own format
  bool force = false;
  EngineOptions engine;
};

struct InfoOptions {
  std::string path;
  OptString algorithm;  ///< restricts raw inputs to one algorithm; names a seed's
  bool json = false;
};

struct ConvertOptions {
  OptString algorithm;  ///< needed only for a raw seed
  std::string in_path;
  std::string out_path;
  Format format = Format::bin;
  std::string sk_form;
  bool force = false;
  EngineOptions engine;
};

struct ListOptions {
  bool json = false;
};

/// NIST's PQCgenKAT_kem writes 100 records; `pqkem kat --count` accepts 1 to 100 times that
/// (128 MB of ML-KEM-1024 text, about a second). The library sets no limit.
inline constexpr int kKatNistCount = 100;
inline constexpr int kKatMaxCount = 100 * kKatNistCount;

struct KatOptions {
  OptString algorithm;
  int count = kKatNistCount;
  EngineOptions engine;
};

struct BenchOptions {
  std::vector<std::string> algorithms;  ///< empty: all
  std::string impl = "auto";
  int iterations = 0;                   ///< calls per round; 0: as many as fit in the time budget
  int rounds = 5;                       ///< interleaved rounds per measurement
  bool json = false;
  bool kernels = false;
  bool ntt_plans = false;
  OptString baseline;
  bool fail_on_regression = false;
  OptString ntt_plan;                   ///< --ntt-plan for the operations and kernels
  OptString rng;                        ///< --rng for keypair and encaps; absent: PQKEM_RNG or system
};

void run_keygen(const KeygenOptions& opts);
void run_encaps(const EncapsOptions& opts);
void run_decaps(const DecapsOptions& opts);
void run_pubkey(const PubkeyOptions& opts);
void run_info(const InfoOptions& opts);
void run_convert(const ConvertOptions& opts);
void run_list(const ListOptions& opts);
void run_kat(const KatOptions& opts);
void run_bench(const BenchOptions& opts);

/// Each command declares its options, help and examples (in its cmd_*.cpp, beside its run_*).
void declare_keygen(CommandBuilder& cmd, KeygenOptions& opts);
void declare_encaps(CommandBuilder& cmd, EncapsOptions& opts);
void declare_decaps(CommandBuilder& cmd, DecapsOptions& opts);
void declare_pubkey(CommandBuilder& cmd, PubkeyOptions& opts);
void declare_info(CommandBuilder& cmd, InfoOptions& opts);
void declare_convert(CommandBuilder& cmd, ConvertOptions& opts);
void declare_list(CommandBuilder& cmd, ListOptions& opts);
void declare_kat(CommandBuilder& cmd, KatOptions& opts);
void declare_bench(CommandBuilder& cmd, BenchOptions& opts);

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

/// The Command whose options are the `Member` of AllOptions, declared by `Declare` and run by `Run`.
template <auto Member, auto Declare, auto Run>
constexpr Command make_command(const char* name, const char* description) {
  return {name, description, [](CommandBuilder& cmd, AllOptions& all) { Declare(cmd, all.*Member); },
          [](const AllOptions& all) { Run(all.*Member); }};
}


// --- Options shared by the subcommands (options.cpp) -------------------------------------------

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

// --- Reading and encoding keys and ciphertexts (keys.cpp) --------------------------------------

/// A key file's bytes after format detection (PEM, DER, hex or raw; see load_key_input).
struct KeyInput {
  SecretBytes bytes;      ///< DER (pem / der, or DER given as hex) or the raw key bytes
  Format format = Format::bin;  ///< how the file is encoded: bin, hex, pem or der
  bool der = false;       ///< `bytes` is a DER structure (SubjectPublicKeyInfo or PKCS#8)
  bool from_hex = false;  ///< the file was hex
  std::string pem_label;  ///< for pem
  std::string file;       ///< name for messages
  std::size_t file_bytes = 0;  ///< size of the file as read
  /// With `der`: which structure the DER is, or was meant to be when damaged (PEM: unset; the
  /// label says).
  std::optional<keyfile::DerKind> der_kind;
};

/// Reads `path` and detects its encoding: PEM (after optional whitespace, "-----BEGIN "), else
/// hex or raw bytes as decode_input decides, and then DER if the bytes have the outer shape of an
/// SPKI / PKCS#8 structure (keyfile::der_kind), or begin like an ML-KEM key file that has been
/// truncated or damaged (keyfile::der_kind_by_prefix; its decoder then says what is wrong).
/// Exit 1 for a malformed PEM block or text that is not hex.
KeyInput load_key_input(const std::string& path);

/// True if `in` holds a private key by its container (PEM label, DER structure); nullopt
/// for raw bytes.
std::optional<bool> container_is_private(const KeyInput& in);

/// A public key with how its file was encoded.
struct PublicKeyInput {
  Scheme scheme{};
  Bytes pk;
  Format format = Format::bin;
  bool der = false;
};

/// A secret key with how its file was encoded. `key.pk` is filled for PKCS#8, seeds and full
/// checks, not for a raw expanded key read without `full_check` (decaps does not need it, and
/// recomputing an NTRU public key costs an inversion).
struct SecretKeyInput {
  keyfile::PrivateKey key;
  Format format = Format::bin;
  bool der = false;
};

/// The public key in `in`; the scheme is `algorithm` or comes from the OID or the length.
/// Exit 1 for a private key, a wrong PEM label, malformed DER, a wrong length or an invalid key.
PublicKeyInput public_key_from_input(KeyInput in, std::optional<Scheme> algorithm);
/// The secret key in `in`: PKCS#8 in any form (fully checked), an expanded key (with
/// `full_check`: hash, modulus and pairwise checks; without it, for decaps, unchecked here,
/// since pqkem::decaps runs the hash check itself), or a raw seed (exit 2 without `algorithm`,
/// since a seed does not reveal its parameter set).
SecretKeyInput secret_key_from_input(KeyInput in, std::optional<Scheme> algorithm, bool full_check);

/// load_key_input + public_key_from_input, with the sizes of public keys.
PublicKeyInput load_public_key(const std::string& path, std::optional<Scheme> algorithm);
/// load_key_input + secret_key_from_input, with the sizes of secret keys and seeds.
SecretKeyInput load_secret_key(const std::string& path, std::optional<Scheme> algorithm, bool full_check);

/// A public key read from `path`; the scheme is `algorithm` or, if absent, inferred from
/// the key's OID or length. Exit 1 for a length no scheme (or not the given one) has.
std::pair<Scheme, Bytes> read_public_key(const std::string& path, std::optional<Scheme> algorithm);

/// A secret key read from `path` for decaps: the expanded key, or a private seed (expanded here;
/// exit 2 without `algorithm`, since a seed does not reveal its parameter set). An expanded key
/// is left for pqkem::decaps to check.
std::pair<Scheme, SecretBytes> read_secret_key(const std::string& path, std::optional<Scheme> algorithm);
/// "not a valid ML-KEM-768 secret key": what a failed check of a raw secret key of `s` says
/// before the library's reason, on loading or (decaps) in the decapsulation.
std::string secret_key_context(Scheme s);

/// "read as hex" or "read as raw bytes", for messages about an input's length.
const char* how_read(bool from_hex) noexcept;

/// The private seed size of `s` if its keys can be given as a seed that keygen_derand
/// expands (ML-KEM: 64, d || z; X-Wing 32, X25519MLKEM768 96); nullopt otherwise (NTRU).
std::optional<std::size_t> seed_size(Scheme s) noexcept;
/// The names of `schemes`: "X-Wing", "X-Wing or X25519MLKEM768", "ML-KEM-512, ML-KEM-768 and
/// ML-KEM-1024" (`last_sep` "and").
std::string scheme_names(const std::vector<Scheme>& schemes, const char* last_sep);
/// True if the standard secret key of `s` is its seed and pqkem's expanded form (sk_bytes) is
/// in memory only: the hybrids (hybrid/hybrid.hpp). Their key files always hold the seed; an
/// expanded key is neither written nor read, and --sk-form expanded or both is a usage error.
bool secret_key_is_seed(Scheme s) noexcept;
/// Exit 2 if raw input of `n` bytes fits the `what` ("public key", "ciphertext") of more than
/// one scheme (`fits`; the hybrids share their public key and ciphertext sizes): -a must say.
void require_unambiguous_size(const char* what, std::size_t n, bool from_hex, const std::vector<Scheme>& fits,
                              const std::string& file);

/// A ciphertext of scheme `s` read from `path`.
Bytes read_ciphertext(const std::string& path, Scheme s);

/// Exit 2 if `format` is pem or der and `s` has no standard OID (NTRU, X25519MLKEM768).
void require_key_format(Scheme s, Format format);
/// The private-key form to write for `--sk-form` (`given`, may be empty) and `format`:
/// default seed for pem/der when the seed is known (else expanded), expanded for bin/hex; the
/// hybrids always seed (secret_key_is_seed). Exit 2 for both with bin/hex, seed/both for a
/// scheme without a seed, or expanded/both for a hybrid; exit 1 (naming `file`) for seed/both
/// when only the expanded key is known.
keyfile::PrivateKeyForm resolve_sk_form(const std::string& given, Format format, Scheme s, bool seed_known,
                                        const std::string& file);
/// A public key encoded as `format` (pem/der: SubjectPublicKeyInfo).
SecretBytes encode_public_key(Scheme s, ByteView pk, Format format);
/// A secret key encoded as `format` in `form` (pem/der: PKCS#8; bin/hex: the raw seed or
/// expanded key).
SecretBytes encode_secret_key(const keyfile::PrivateKey& key, Format format, keyfile::PrivateKeyForm form);

// --- The --json report (report.cpp) ----------------------------------------------------------

/// --json on keygen, encaps and decaps: one JSON object on stdout describing what was written
/// (never secret material). The fields every report starts with: command, algorithm and data
/// format.
JsonValue json_report(std::string_view command, const SchemeInfo& info, Format format);
/// The JSON array describing `outputs` as written: option, path, kind (`kinds`, one per output)
/// and the bytes written.
JsonValue json_files(const std::vector<PendingOutput>& outputs, const std::vector<std::string_view>& kinds);
/// Lower-case hex SHA-256 of `data` (fingerprints of public keys and ciphertexts).
std::string sha256_hex(ByteView data);
/// Queues `report` for stdout with the other outputs, so write_outputs prints it before any
/// file is renamed into place: if stdout fails, no file is written (all-or-nothing).
void add_json_report(std::vector<PendingOutput>& outputs, const JsonValue& report);

/// Runs `f`, turning a library pqkem::Error into a CliError (exit 1) that names `file`,
/// prefixed with `context`.
template <class F>
auto with_file_context(const std::string& context, const std::string& file, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const pqkem::Error& e) {
    throw CliError(kExitFailure, context.empty() ? std::string(e.what()) : context + ": " + e.what(), file);
  }
}

}  // namespace pqkem::cli
