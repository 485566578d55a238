// pqkem seal: encrypts a file to a public key with HPKE (the KEM of the key, HKDF-SHA256 and
// AES-256-GCM unless --kdf / --aead say otherwise), as a sealed file (sealed.hpp) or, with --raw,
// as RFC 9180 single-shot output.
#include <fmt/format.h>

#include "cmd_seal.hpp"
#include "keys.hpp"
#include "report.hpp"
#include "sealed.hpp"

namespace pqkem::cli {
namespace {

/// --json: the suite, sizes and fingerprints; never key material.
std::string seal_report(const SealOptions& opts, Scheme s, const hpke::Suite& suite, bool psk, ByteView pk,
                        ByteView enc, const sealed::StreamStats& stats) {
  JsonValue j = json_hpke_report("seal", s, suite, opts.hpke.raw, psk);
  j.add_string("public_key", opts.pk_path)
      .add_string("public_key_sha256", sha256_hex(pk))
      .add_string("input", opts.in_path)
      .add_string("output", opts.out_path);
  add_hpke_sizes(j, stats.plaintext_bytes, stats.sealed_bytes, opts.hpke.raw ? 0 : sealed::kChunkBytes, stats.chunks,
                 enc);
  return j.dump();
}

}  // namespace

void run(const SealOptions& opts) {
  apply_engine_options(opts.engine);
  apply_rng_option(opts.rng);
  const auto algorithm = parse_algorithm(opts.algorithm);
  if (algorithm) hpke_kem(*algorithm);
  check_hpke_usage(opts.hpke, true);

  std::vector<PathArg> inputs{{opts.pk_path, "--pk"}, {opts.in_path, "--in"}};
  add_hpke_inputs(opts.hpke, inputs);
  const std::vector<PathArg> outputs{{opts.out_path, "--out"}};
  check_paths(inputs, outputs, Format::bin, opts.force, opts.json);

  KeyInput key_input = load_key_input(opts.pk_path);
  // A raw 1216-byte key is X-Wing's or X25519MLKEM768's; only X-Wing has an HPKE KEM.
  const bool x_wing_size = !key_input.der && key_input.bytes.size() == scheme_info(Scheme::XWing).pk_bytes;
  const auto key = public_key_from_input(std::move(key_input), algorithm || !x_wing_size ? algorithm : Scheme::XWing);
  const hpke::Suite suite = chosen_suite(hpke_kem(key.scheme), opts.hpke);
  const Bytes info = load_info(opts.hpke);
  const auto psk = load_psk(opts.hpke);
  const auto psk_view = psk ? std::optional(psk->view()) : std::nullopt;

  InputStream in(opts.in_path);
  StreamOutput out(outputs[0], false, opts.force);
  sealed::StreamStats stats;
  Bytes enc;
  if (opts.hpke.raw) {
    const SecretBytes message = sealed::read_message(in, kRawMaxBytes);
    auto result = hpke::seal(suite, key.pk, info, {}, message, psk_view);
    out.write(result.enc);
    out.write(result.ct);
    stats = {message.size(), result.enc.size() + result.ct.size(), 1};
    enc = std::move(result.enc);
  } else {
    stats = sealed::seal_stream({suite, psk.has_value(), sealed::kChunkBytes}, key.pk, info, psk_view, in, out, enc);
  }
  if (opts.json) write_stdout(seal_report(opts, key.scheme, suite, psk.has_value(), key.pk, enc, stats));
  out.commit();
}

/// What `pqkem seal --help` shows after the options. Its examples run as written, in order, in an
/// empty directory (ctest -L docs).
constexpr const char* kFooter =
    R"(The output is a pqkem sealed file (docs/files.md): a header naming the HPKE suite, then the input
in 64 KiB chunks, each authenticated, in bounded memory whatever the size. 'pqkem open' needs
only the secret key (and the same --info and --psk). With --out FILE the file appears only once
complete. Never encrypt with 'openssl enc -pass file:SECRET': it reads a binary secret only up to
its first newline byte.

Examples:
  pqkem keygen -a ML-KEM-768 --pk bob.pk --sk bob.sk
  echo 'attack at dawn' > note.txt
  pqkem seal --pk bob.pk --in note.txt --out note.sealed
  pqkem open --sk bob.sk --in note.sealed --out note.again && cmp note.txt note.again
  tar -c note.txt | pqkem seal --pk bob.pk --in - --out - --info backup-2026 > backup.sealed
  pqkem seal --pk bob.pk --in note.txt --out note.hpke --raw --aead ChaCha20-Poly1305   # RFC 9180
)";

void declare(CommandBuilder& cmd, SealOptions& opts) {
  cmd.algorithm(opts.algorithm,
                "Algorithm; optional, inferred from the public key (a raw X-Wing key needs -a X-Wing). ML-KEM and "
                "X-Wing only: NTRU and X25519MLKEM768 have no HPKE KEM");
  cmd.path("--pk", opts.pk_path, "The recipient's public key: PEM, DER, hex or raw (- for stdin)");
  cmd.path("--in", opts.in_path, "The file to encrypt, any size (- for stdin; an empty input is an empty message)");
  cmd.path("--out", opts.out_path, "Where to write the sealed file (- for stdout)");
  declare_hpke_options(cmd, opts.hpke, true);
  cmd.force(opts.force);
  cmd.json_outputs(opts.json, "HPKE suite, SHA-256 of the public key and of enc; never a secret");
  cmd.rng(opts.rng, "the encapsulation's random bytes");
  cmd.engine(opts.engine);
  cmd.footer(kFooter);
}

}  // namespace pqkem::cli
