// pqkem keygen: a fresh key pair, written all-or-nothing.
#include <fmt/format.h>

#include "cmd_keygen.hpp"
#include "keys.hpp"
#include "output.hpp"
#include "report.hpp"

namespace pqkem::cli {

void run(const KeygenOptions& opts) {
  apply_engine_options(opts.engine);
  apply_rng_option(opts.rng);
  const Scheme s = require_algorithm(opts.algorithm);
  const auto& info = scheme_info(s);
  require_key_format(s, opts.format);
  const bool seeded = seed_size(s).has_value();  // ML-KEM, hybrids: the keygen coins are the private seed
  const auto form = resolve_sk_form(opts.sk_form, opts.format, s, seeded, {});
  const CoinsArg coins(opts.coins);

  std::vector<PathArg> inputs;
  if (!coins.file().empty()) inputs.push_back({coins.file(), "--coins"});
  const std::vector<PathArg> outputs{{opts.pk_path, "--pk"}, {opts.sk_path, "--sk"}};
  check_paths(inputs, outputs, opts.format, opts.force, opts.json);

  SecretBytes c;
  if (coins.given()) {
    c = coins.load(info.keygen_coin_bytes(), fmt::format("{} keygen", info.name));
  } else {
    c = with_file_context("key generation failed", {}, [&] { return random_keygen_coins(s); });
  }
  const keyfile::PrivateKey key = with_file_context("key generation failed", {}, [&] {
    if (seeded) return keyfile::private_key_from_seed(s, c);
    auto kp = keygen_derand(s, c);
    keyfile::PrivateKey k;
    k.scheme = s;
    k.form = keyfile::PrivateKeyForm::expanded;
    k.dk = std::move(kp.sk);
    k.pk = std::move(kp.pk);
    return k;
  });

  std::vector<PendingOutput> pending;
  pending.push_back({outputs[0], encode_public_key(s, key.pk, opts.format), false});
  pending.push_back({outputs[1], encode_secret_key(key, opts.format, form), true});
  if (opts.json) {
    JsonValue j = json_report("keygen", info, opts.format);
    j.add_string("secret_key_form", keyfile::form_name(form))
        .add("files", json_files(pending, {"public_key", "secret_key"}))
        .add_number("public_key_bytes", key.pk.size())
        // The expanded key's size, except for the hybrids, whose secret key is the seed.
        .add_number("secret_key_bytes", secret_key_is_seed(s) ? info.seed_bytes : info.sk_bytes)
        .add_string("public_key_sha256", sha256_hex(key.pk));
    add_json_report(pending, j);
  }
  write_outputs(pending, opts.force);
}

/// What `pqkem keygen --help` shows after the options. Its examples run as written, in order, in an
/// empty directory (ctest -L docs).
constexpr const char* kFooter = R"(Both files are written, or neither. With --format bin or hex the secret key is the
standard's expanded form (ML-KEM: the FIPS 203 decapsulation key dk; --sk-form seed writes
the 64-byte seed d || z instead). With --format pem or der the keys are SubjectPublicKeyInfo
and PKCS#8: for ML-KEM as in RFC 9935, as OpenSSL 3.5 writes them, the private key holding
the seed unless --sk-form says otherwise; for X-Wing as in draft-connolly-cfrg-xwing-kem.
X-Wing and X25519MLKEM768 secret keys are always their seed (32 and 96 bytes), in every
format: pqkem's expanded form of them is never written (--sk-form expanded or both: exit 2).
NTRU and X25519MLKEM768 have no standard OID, so no pem or der form.

Examples:
  pqkem keygen -a ML-KEM-768 --pk alice.pk --sk alice.sk
  pqkem keygen -a ML-KEM-768 --pk alice.pub.pem --sk alice.pem --format pem
  pqkem keygen -a ML-KEM-512 --pk - --sk key.sk --format hex
  pqkem keygen -a X-Wing --pk bob.pub.pem --sk bob.pem --format pem
  pqkem keygen -a X25519MLKEM768 --pk carol.pk --sk carol.seed          # the 96-byte seed
)";

void declare(CommandBuilder& cmd, KeygenOptions& opts) {
  cmd.algorithm(opts.algorithm, "Algorithm, e.g. ML-KEM-768 (case-insensitive; see 'pqkem list')", Need::required);
  cmd.path("--pk", opts.pk_path, "Where to write the public key (- for stdout)");
  cmd.path("--sk", opts.sk_path, "Where to write the secret key, mode 0600 (- for stdout)");
  cmd.format(opts.format, FormatUse::keys);
  cmd.sk_form(opts.sk_form);
  cmd.coins(opts.coins,
            "ML-KEM: d || z, 64 bytes; X-Wing: its 32-byte seed; X25519MLKEM768: d || z || X25519 private key, "
            "96 bytes; see 'pqkem list' for every algorithm");
  cmd.force(opts.force);
  cmd.json_outputs(opts.json, "public key SHA-256; never secrets");
  cmd.rng(opts.rng, "the key generation's random bytes (without --coins)");
  cmd.engine(opts.engine);
  cmd.footer(kFooter);
}

}  // namespace pqkem::cli
