// pqkem keygen: a fresh key pair, written all-or-nothing.
#include <fmt/format.h>

#include "commands.hpp"

namespace pqkem::cli {

CLI::App* add_keygen(CLI::App& app, KeygenOptions& opts) {
  auto* cmd = app.add_subcommand("keygen",
                                 "Generate a key pair: a public (encapsulation) key and a secret "
                                 "(decapsulation) key");
  add_algorithm_option(*cmd, opts.algorithm, "Algorithm, e.g. ML-KEM-768 (case-insensitive; see 'pqkem list')")
      ->required()
      ->option_text("ALG REQUIRED");
  cmd->add_option("--pk", opts.pk_path, "Where to write the public key (- for stdout)")
      ->required()
      ->option_text("PATH REQUIRED");
  cmd->add_option("--sk", opts.sk_path, "Where to write the secret key, mode 0600 (- for stdout)")
      ->required()
      ->option_text("PATH REQUIRED");
  add_format_option(*cmd, opts.format);
  add_coins_option(*cmd, opts.coins, "ML-KEM: d || z, 64 bytes; see 'pqkem list' for every algorithm");
  cmd->add_flag("--force", opts.force, "Replace output files that already exist");
  add_engine_options(*cmd, opts.engine);
  cmd->footer(
      "Both files are written, or neither. The secret key is the standard's expanded form\n"
      "(ML-KEM: the FIPS 203 decapsulation key dk).\n\n"
      "Examples:\n"
      "  pqkem keygen -a ML-KEM-768 --pk alice.pk --sk alice.sk\n"
      "  pqkem keygen -a ML-KEM-512 --pk - --sk key.sk --format hex\n");
  return cmd;
}

void run_keygen(const KeygenOptions& opts) {
  apply_engine_options(opts.engine);
  const Scheme s = *parse_algorithm(opts.algorithm);
  const auto& info = scheme_info(s);
  const CoinsArg coins(opts.coins);

  std::vector<PathArg> inputs;
  if (!coins.file().empty()) inputs.push_back({coins.file(), "--coins"});
  const std::vector<PathArg> outputs{{opts.pk_path, "--pk"}, {opts.sk_path, "--sk"}};
  check_path_roles(inputs, outputs);
  for (const auto& out : outputs) check_output(out, opts.format, opts.force);

  const auto keys = [&] {
    if (!coins.given()) return with_file_context("key generation failed", {}, [&] { return keygen(s); });
    const SecretBytes c = coins.load(info.keygen_coin_bytes(), fmt::format("{} keygen", info.name));
    return with_file_context("key generation failed", {}, [&] { return keygen_derand(s, c); });
  }();

  std::vector<PendingOutput> pending;
  pending.push_back({outputs[0], encode_output(keys.pk, opts.format), false});
  pending.push_back({outputs[1], encode_output(keys.sk.view(), opts.format), true});
  write_outputs(pending, opts.force);
}

}  // namespace pqkem::cli
