// pqkem pubkey: the public key of a secret key file (any accepted form), written all-or-nothing.
#include <fmt/format.h>

#include "commands.hpp"

namespace pqkem::cli {

void run_pubkey(const PubkeyOptions& opts) {
  apply_engine_options(opts.engine);
  const auto algorithm = parse_algorithm(opts.algorithm);
  if (algorithm && opts.format) require_key_format(*algorithm, *opts.format);
  const std::vector<PathArg> inputs{{opts.sk_path, "--sk"}};
  const std::vector<PathArg> outputs{{opts.pk_path, "--pk"}};
  check_path_roles(inputs, outputs);
  // The format may come from the input: check the terminal rule again once it is known.
  check_output(outputs[0], opts.format.value_or(Format::hex), opts.force);

  const auto in = load_secret_key(opts.sk_path, algorithm, true, true);
  const Format format = opts.format.value_or(in.format);
  require_key_format(in.key.scheme, format);
  check_output(outputs[0], format, opts.force);

  std::vector<PendingOutput> pending;
  pending.push_back({outputs[0], encode_public_key(in.key.scheme, in.key.pk, format), false});
  write_outputs(pending, opts.force);
}

}  // namespace pqkem::cli
