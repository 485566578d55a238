// pqkem pubkey: the public key of a secret key file (any accepted form), written all-or-nothing.

#include "cmd_pubkey.hpp"
#include "keys.hpp"
#include "output.hpp"

namespace pqkem::cli {

void run(const PubkeyOptions& opts) {
  apply_engine_options(opts.engine);
  const auto algorithm = parse_algorithm(opts.algorithm);
  if (algorithm && opts.format) require_key_format(*algorithm, *opts.format);
  const std::vector<PathArg> inputs{{opts.sk_path, "--sk"}};
  const std::vector<PathArg> outputs{{opts.pk_path, "--pk"}};
  check_path_roles(inputs, outputs);
  // The format may come from the input: check the terminal rule again once it is known.
  check_output(outputs[0], opts.format.value_or(Format::hex), opts.force);

  const auto in = load_secret_key(opts.sk_path, algorithm, true);
  const Format format = opts.format.value_or(in.format);
  require_key_format(in.key.scheme, format);
  check_output(outputs[0], format, opts.force);

  std::vector<PendingOutput> pending;
  pending.push_back({outputs[0], encode_public_key(in.key.scheme, in.key.pk, format), false});
  write_outputs(pending, opts.force);
}

/// What `pqkem pubkey --help` shows after the options. Its examples run as written, in order, in an
/// empty directory (ctest -L docs).
constexpr const char* kFooter =
    R"(The secret key is checked in full first (for PKCS#8 and expanded keys: hash, modulus and
pairwise consistency checks). Without --format the public key is written in the secret
key file's own format (pem -> pem, der -> der, hex -> hex, bin -> bin).

Examples:
  pqkem keygen -a ML-KEM-768 --pk alice.pub.pem --sk alice.pem --format pem
  pqkem pubkey --sk alice.pem --pk again.pub.pem && cmp alice.pub.pem again.pub.pem
  pqkem pubkey --sk alice.pem --pk - --format hex
  pqkem keygen -a X25519MLKEM768 --pk bob.pk --sk bob.seed
  pqkem pubkey -a X25519MLKEM768 --sk bob.seed --pk bob2.pk && cmp bob.pk bob2.pk
)";

void declare(CommandBuilder& cmd, PubkeyOptions& opts) {
  cmd.algorithm(opts.algorithm,
                "Algorithm; needed only for a raw seed (ML-KEM 64 bytes, X-Wing 32, X25519MLKEM768 96). If given, "
                "the key must fit it");
  cmd.secret_key_input(opts.sk_path);
  cmd.path("--pk", opts.pk_path, "Where to write the public key (- for stdout)");
  cmd.format(opts.format, FormatUse::keys);
  cmd.force(opts.force);
  cmd.engine(opts.engine);
  cmd.footer(kFooter);
}

}  // namespace pqkem::cli
