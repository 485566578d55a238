// pqkem encaps: a ciphertext and shared secret for a public key; both written, or neither.
#include <fmt/format.h>

#include "commands.hpp"

namespace pqkem::cli {

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
  add_engine_options(*cmd, opts.engine);
  cmd->footer(
      "The public key is checked first (ML-KEM: the FIPS 203 modulus check). The ciphertext and\n"
      "the shared secret are both written, or neither.\n\n"
      "Examples:\n"
      "  pqkem encaps --pk alice.pk --ct msg.ct --ss sender.ss\n"
      "  cat alice.pk | pqkem encaps --pk - --ct msg.ct --ss - --format hex\n");
  return cmd;
}

void run_encaps(const EncapsOptions& opts) {
  apply_engine_options(opts.engine);
  const auto algorithm = parse_algorithm(opts.algorithm);
  require_data_format(opts.format);
  const CoinsArg coins(opts.coins);

  std::vector<PathArg> inputs{{opts.pk_path, "--pk"}};
  if (!coins.file().empty()) inputs.push_back({coins.file(), "--coins"});
  const std::vector<PathArg> outputs{{opts.ct_path, "--ct"}, {opts.ss_path, "--ss"}};
  check_path_roles(inputs, outputs);
  if (opts.json) require_json_outputs(outputs);
  for (const auto& out : outputs) check_output(out, opts.format, opts.force);

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
    JsonObject j = json_report("encaps", info, opts.format);
    j.add_string("public_key", opts.pk_path)
        .add_string("public_key_sha256", sha256_hex(pk))
        .add_json("files", json_files(pending, {"ciphertext", "shared_secret"}))
        .add_number("ciphertext_bytes", result.ct.size())
        .add_number("shared_secret_bytes", result.ss.size())
        .add_string("ciphertext_sha256", sha256_hex(result.ct));
    add_json_report(pending, j);
  }
  write_outputs(pending, opts.force);
}

}  // namespace pqkem::cli
