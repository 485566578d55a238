// pqkem encaps: a ciphertext and shared secret for a public key; both written, or neither.
#include <fmt/format.h>

#include "cmd_encaps.hpp"
#include "keys.hpp"
#include "output.hpp"
#include "report.hpp"

namespace pqkem::cli {

void run(const EncapsOptions& opts) {
  apply_engine_options(opts.engine);
  apply_rng_option(opts.rng);
  const auto algorithm = parse_algorithm(opts.algorithm);
  require_data_format(opts.format);
  const CoinsArg coins(opts.coins);

  std::vector<PathArg> inputs{{opts.pk_path, "--pk"}};
  if (!coins.file().empty()) inputs.push_back({coins.file(), "--coins"});
  const std::vector<PathArg> outputs{{opts.ct_path, "--ct"}, {opts.ss_path, "--ss"}};
  check_paths(inputs, outputs, opts.format, opts.force, opts.json);

  const auto key = read_public_key(opts.pk_path, algorithm);
  const Scheme s = key.first;
  const Bytes& pk = key.second;
  const auto& info = scheme_info(s);
  const auto result = [&] {
    const std::string pk_file = input_name(opts.pk_path);
    if (!coins.given()) return with_file_context("encapsulation failed", pk_file, [&] { return encaps(s, pk); });
    const SecretBytes c = coins.load(info.encaps_coin_bytes(), fmt::format("{} encaps", info.name));
    return with_file_context("encapsulation failed", pk_file, [&] { return encaps_derand(s, pk, c); });
  }();

  std::vector<PendingOutput> pending;
  pending.push_back({outputs[0], encode_output(result.ct, opts.format), false});
  pending.push_back({outputs[1], encode_output(result.ss.view(), opts.format), true});
  if (opts.json) {
    JsonValue j = json_report("encaps", info, opts.format);
    j.add_string("public_key", opts.pk_path)
        .add_string("public_key_sha256", sha256_hex(pk))
        .add("files", json_files(pending, {"ciphertext", "shared_secret"}))
        .add_number("ciphertext_bytes", result.ct.size())
        .add_number("shared_secret_bytes", result.ss.size())
        .add_string("ciphertext_sha256", sha256_hex(result.ct));
    add_json_report(pending, j);
  }
  write_outputs(pending, opts.force);
}

/// What `pqkem encaps --help` shows after the options. Its examples run as written, in order, in an
/// empty directory (ctest -L docs).
constexpr const char* kFooter =
    R"(The public key is checked first (ML-KEM, and the ML-KEM-768 part of a hybrid: the FIPS 203
modulus check). X25519MLKEM768 refuses a key whose X25519 part has small order (the X25519
secret would be all zero; exit 1); X-Wing does not check it, as its draft says. The
ciphertext and the shared secret are both written, or neither.

Examples:
  pqkem keygen -a ML-KEM-768 --pk alice.pk --sk alice.sk
  pqkem encaps --pk alice.pk --ct msg.ct --ss sender.ss
  cat alice.pk | pqkem encaps --pk - --ct msg2.ct --ss - --format hex
  pqkem keygen -a X-Wing --pk bob.pk --sk bob.sk
  pqkem encaps -a X-Wing --pk bob.pk --ct bob.ct --ss bob.ss     # a raw hybrid key needs -a
)";

void declare(CommandBuilder& cmd, EncapsOptions& opts) {
  cmd.algorithm(opts.algorithm,
                "Algorithm; optional, inferred from the public key's OID or length, except for a raw X-Wing or "
                "X25519MLKEM768 key (both 1216 bytes). If given, the key must fit it");
  cmd.path("--pk", opts.pk_path, "Public key to read: PEM, DER, hex or raw (- for stdin)");
  cmd.path("--ct", opts.ct_path, "Where to write the ciphertext (- for stdout)");
  cmd.path("--ss", opts.ss_path, "Where to write the shared secret, mode 0600 (- for stdout)");
  cmd.format(opts.format, FormatUse::data);
  cmd.coins(opts.coins,
            "ML-KEM: m, 32 bytes; X-Wing and X25519MLKEM768: m || X25519 ephemeral private key, 64 bytes (X-Wing's "
            "eseed); see 'pqkem list' for every algorithm");
  cmd.force(opts.force);
  cmd.json_outputs(opts.json, "SHA-256 of the public key and the ciphertext; never the secret");
  cmd.rng(opts.rng, "the encapsulation's random bytes (without --coins)");
  cmd.engine(opts.engine);
  cmd.footer(kFooter);
}

}  // namespace pqkem::cli
