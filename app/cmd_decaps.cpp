// pqkem decaps: the shared secret from a secret key and a ciphertext.
#include "cmd_decaps.hpp"
#include "keys.hpp"
#include "output.hpp"
#include "report.hpp"

namespace pqkem::cli {

void run(const DecapsOptions& opts) {
  apply_engine_options(opts.engine);
  const auto algorithm = parse_algorithm(opts.algorithm);
  require_data_format(opts.format);
  const std::vector<PathArg> inputs{{opts.sk_path, "--sk"}, {opts.ct_path, "--ct"}};
  const std::vector<PathArg> outputs{{opts.ss_path, "--ss"}};
  check_paths(inputs, outputs, opts.format, opts.force, opts.json);

  const auto key = read_secret_key(opts.sk_path, algorithm);
  const Scheme s = key.first;
  const SecretBytes& sk = key.second;
  const Bytes ct = read_ciphertext(opts.ct_path, s);
  // An expanded key is checked inside decaps (read_secret_key leaves it to it): its failure
  // names the key file, as a check on loading would have.
  const SecretBytes ss = [&] {
    try {
      return decaps(s, sk, ct);
    } catch (const pqkem::Error& e) {
      if (e.code() == Errc::invalid_decaps_key)
        throw CliError(kExitFailure, secret_key_context(s) + ": " + e.what(), input_name(opts.sk_path));
      throw CliError(kExitFailure, std::string("decapsulation failed: ") + e.what(), input_name(opts.ct_path));
    }
  }();

  std::vector<PendingOutput> pending;
  pending.push_back({outputs[0], encode_output(ss.view(), opts.format), true});
  if (opts.json) {
    const auto& info = scheme_info(s);
    const Bytes pk = with_file_context("invalid secret key", input_name(opts.sk_path),
                                       [&] { return public_key_from_secret_key(s, sk); });
    JsonValue j = json_report("decaps", info, opts.format);
    j.add_string("secret_key", opts.sk_path)
        .add_string("public_key_sha256", sha256_hex(pk))
        .add_string("ciphertext", opts.ct_path)
        .add_string("ciphertext_sha256", sha256_hex(ct))
        .add("files", json_files(pending, {"shared_secret"}))
        .add_number("ciphertext_bytes", ct.size())
        .add_number("shared_secret_bytes", ss.size());
    add_json_report(pending, j);
  }
  write_outputs(pending, opts.force);
}

/// What `pqkem decaps --help` shows after the options. Its examples run as written, in order, in an
/// empty directory (ctest -L docs).
constexpr const char* kFooter =
    R"(The secret key is checked first (ML-KEM: the FIPS 203 hash check). A well-formed but wrong
ciphertext is not an error: implicit rejection yields an unrelated shared secret (for the
hybrids, through their ML-KEM-768 part). X25519MLKEM768 refuses a ciphertext whose X25519
part has small order (exit 1); X-Wing does not check it, as its draft says.

Examples:
  pqkem keygen -a ML-KEM-768 --pk alice.pk --sk alice.sk
  pqkem encaps --pk alice.pk --ct msg.ct --ss sender.ss
  pqkem decaps --sk alice.sk --ct msg.ct --ss receiver.ss
  cmp sender.ss receiver.ss
  pqkem keygen -a ML-KEM-768 --pk bob.pk --sk bob.seed.hex --format hex --sk-form seed
  pqkem encaps --pk bob.pk --ct bob.ct --ss bob.ss
  pqkem decaps -a ML-KEM-768 --sk bob.seed.hex --ct bob.ct --ss - --format hex   # a seed needs -a
  pqkem keygen -a X-Wing --pk carol.pub.pem --sk carol.pem --format pem
  pqkem encaps --pk carol.pub.pem --ct carol.ct --ss carol-sender.ss
  pqkem decaps --sk carol.pem --ct carol.ct --ss carol.ss && cmp carol-sender.ss carol.ss
)";

void declare(CommandBuilder& cmd, DecapsOptions& opts) {
  cmd.algorithm(opts.algorithm,
                "Algorithm; optional for a PEM/DER or expanded secret key (inferred from its OID or "
                "length), required for a raw seed (every X-Wing and X25519MLKEM768 raw key). If given, the "
                "inputs must fit it");
  cmd.secret_key_input(opts.sk_path);
  cmd.path("--ct", opts.ct_path, "Ciphertext to read, hex or raw (- for stdin)");
  cmd.path("--ss", opts.ss_path, "Where to write the shared secret, mode 0600 (- for stdout)");
  cmd.format(opts.format, FormatUse::data);
  cmd.force(opts.force);
  cmd.json_outputs(opts.json, "SHA-256 of the public key and the ciphertext; never the secret");
  cmd.engine(opts.engine);
  cmd.footer(kFooter);
}

}  // namespace pqkem::cli
