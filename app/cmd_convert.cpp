// pqkem convert: re-encode a public or secret key file (bin, hex, pem, der; any private form).
#include <fmt/format.h>

#include "cmd_convert.hpp"
#include "keys.hpp"
#include "output.hpp"

namespace pqkem::cli {

void run(const ConvertOptions& opts) {
  apply_engine_options(opts.engine);
  const auto algorithm = parse_algorithm(opts.algorithm);
  if (algorithm) require_key_format(*algorithm, opts.format);
  const std::vector<PathArg> inputs{{opts.in_path, "--in"}};
  const std::vector<PathArg> outputs{{opts.out_path, "--out"}};
  check_paths(inputs, outputs, opts.format, opts.force, false);

  KeyInput in = load_key_input(opts.in_path);
  bool is_private = false;
  if (const auto p = container_is_private(in)) {
    is_private = *p;
  } else if (!in.der) {
    const std::size_t n = in.bytes.size();
    bool pk = false;
    bool sk = false;
    std::vector<Scheme> ct_of;  // the schemes with ciphertexts of this size (X-Wing and X25519MLKEM768 share one)
    for (const auto& info : all_schemes()) {
      if (algorithm && info.scheme != *algorithm) continue;
      pk = pk || n == info.pk_bytes;
      sk = sk || n == info.sk_bytes || seed_size(info.scheme) == n;
      if (n == info.ct_bytes) ct_of.push_back(info.scheme);
    }
    if (!pk && !sk) {
      const std::string what = ct_of.empty()
                                   ? std::string()
                                   : fmt::format("; that is the ciphertext size of {}, and convert re-encodes keys",
                                                 scheme_names(ct_of, "or"));
      throw_failure(fmt::format("input has {} bytes ({}): not the size of any public key, secret key or seed{}{}", n,
                                how_read(in.from_hex),
                                algorithm ? fmt::format(" of {}", scheme_info(*algorithm).name) : std::string(), what),
                    in.file);
    }
    is_private = !pk;
  }
  const std::string file = in.file;

  std::vector<PendingOutput> pending;
  if (is_private) {
    const auto key = secret_key_from_input(std::move(in), algorithm, true).key;
    require_key_format(key.scheme, opts.format);
    const auto form = resolve_sk_form(opts.sk_form, opts.format, key.scheme, !key.seed.empty(), file);
    pending.push_back({outputs[0], encode_secret_key(key, opts.format, form), true});
  } else {
    if (!opts.sk_form.empty()) throw_usage("--sk-form applies to secret keys, and the input is a public key", file);
    const auto pub = public_key_from_input(std::move(in), algorithm);
    require_key_format(pub.scheme, opts.format);
    pending.push_back({outputs[0], encode_public_key(pub.scheme, pub.pk, opts.format), false});
  }
  write_outputs(pending, opts.force);
}

/// What `pqkem convert --help` shows after the options. Its examples run as written, in order, in an
/// empty directory (ctest -L docs).
constexpr const char* kFooter =
    R"(Whether the input is a public or a secret key comes from its PEM label, its DER structure
or its length. Secret keys are checked in full first. A secret key keeps its seed when it
has one (pem/der default to the seed form); an expanded key cannot be turned into a seed.
X-Wing and X25519MLKEM768 secret keys are always their seed, in every format; only X-Wing
has a pem/der form (draft-connolly-cfrg-xwing-kem).

Examples:
  pqkem keygen -a ML-KEM-768 --pk alice.pk --sk alice.sk
  pqkem convert --in alice.sk --out alice.pem --format pem       # expanded form: no seed known
  pqkem convert --in alice.pk --out alice.pub.pem --format pem
  pqkem keygen -a ML-KEM-768 --pk bob.pub.pem --sk bob.pem --format pem   # seed form
  pqkem convert --in bob.pem --out bob.der --format der --sk-form both
  pqkem convert --in bob.pem --out bob.seed.hex --format hex --sk-form seed
  pqkem convert --in bob.pub.pem --out - --format hex
  pqkem keygen -a X-Wing --pk carol.pk --sk carol.sk                   # the 32-byte seed
  pqkem convert -a X-Wing --in carol.sk --out carol.pem --format pem
  pqkem convert -a X-Wing --in carol.pk --out carol.pub.pem --format pem
)";

void declare(CommandBuilder& cmd, ConvertOptions& opts) {
  cmd.algorithm(opts.algorithm,
                "Algorithm; needed only for a raw seed, or a raw X-Wing or X25519MLKEM768 public key (they share "
                "their size). If given, the key must fit it");
  cmd.path("--in", opts.in_path, "Key to read: PEM, DER, hex or raw; public or secret (- for stdin)");
  cmd.path("--out", opts.out_path, "Where to write it; mode 0600 for a secret key (- for stdout)");
  cmd.format(opts.format, FormatUse::keys, Need::required);
  cmd.sk_form(opts.sk_form);
  cmd.force(opts.force);
  cmd.engine(opts.engine);
  cmd.footer(kFooter);
}

}  // namespace pqkem::cli
