// pqkem decaps: the shared secret from a secret key and a ciphertext.
#include "commands.hpp"

namespace pqkem::cli {

void run_decaps(const DecapsOptions& opts) {
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
  const SecretBytes ss =
      with_file_context("decapsulation failed", input_name(opts.ct_path), [&] { return decaps(s, sk, ct); });

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

}  // namespace pqkem::cli
