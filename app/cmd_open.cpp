// pqkem open: decrypts what pqkem seal wrote (the suite comes from the file) or, with --raw, an
// RFC 9180 single-shot message, with the recipient's secret key.
#include <fmt/format.h>

#include "cmd_open.hpp"
#include "keys.hpp"
#include "report.hpp"
#include "sealed.hpp"

namespace pqkem::cli {
namespace {

/// --json: the suite, sizes and the SHA-256 of enc; never key material or plaintext.
std::string open_report(const OpenOptions& opts, Scheme s, const hpke::Suite& suite, bool psk, ByteView enc,
                        const sealed::StreamStats& stats, std::uint32_t chunk_bytes) {
  JsonValue j = json_hpke_report("open", s, suite, opts.hpke.raw, psk);
  j.add_string("secret_key", opts.sk_path).add_string("input", opts.in_path).add_string("output", opts.out_path);
  add_hpke_sizes(j, stats.plaintext_bytes, stats.sealed_bytes, chunk_bytes, stats.chunks, enc);
  return j.dump();
}

/// --raw: enc || ciphertext, opened in one piece.
sealed::StreamStats open_raw(const hpke::Suite& suite, ByteView sk, ByteView info, const std::optional<hpke::Psk>& psk,
                             InputStream& in, StreamOutput& out, Bytes& enc_out) {
  const auto& kem = hpke::kem_info(suite.kem);
  const auto& aead = hpke::aead_info(suite.aead);
  const SecretBytes input = sealed::read_message(in, kRawMaxBytes + kem.n_enc + aead.n_t);
  if (input.size() < kem.n_enc + aead.n_t)
    throw_failure(fmt::format("too short for {} with {}: {} bytes of enc and {} of tag at least", kem.name, aead.name,
                              kem.n_enc, aead.n_t),
                  in.name());
  const ByteView all = input.view();
  enc_out.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(kem.n_enc));
  try {
    // Opened into a wiping buffer: the single-shot hpke::open returns a plain Bytes, whose
    // plaintext would be freed unwiped.
    const ByteView ct = all.subspan(kem.n_enc);
    SecretBytes pt(ct.size() - aead.n_t);
    hpke::setup_recipient(suite, enc_out, sk, info, psk).open({}, ct, pt.span());
    out.write(pt);
    return {pt.size(), input.size(), 1};
  } catch (const Error& e) {
    if (e.code() != Errc::open_failure) throw;
    throw_failure("does not open: wrong secret key, --info, --psk, --kdf or --aead, or the input was altered",
                  in.name());
  }
}

/// Without -a, how to read a secret key file that does not name its parameter set (raw or hex
/// bytes): as the sealed file's KEM when its size fits that KEM's seed or expanded key, and a
/// 32-byte key as X-Wing's seed (the only HPKE KEM with such keys). nullopt otherwise: the key
/// readers then decide, or say what -a must tell.
std::optional<Scheme> raw_key_algorithm(const KeyInput& key, const std::optional<sealed::ReadHeader>& header) {
  if (key.der) return std::nullopt;
  const std::size_t n = key.bytes.size();
  if (header) {
    const Scheme s = hpke::kem_info(header->header.suite.kem).scheme;
    if (n == scheme_info(s).sk_bytes || n == seed_size(s)) return s;
  }
  if (n == seed_size(Scheme::XWing)) return Scheme::XWing;
  return std::nullopt;
}

}  // namespace

void run(const OpenOptions& opts) {
  apply_engine_options(opts.engine);
  const auto algorithm = parse_algorithm(opts.algorithm);
  if (algorithm) hpke_kem(*algorithm);
  check_hpke_usage(opts.hpke, false);

  std::vector<PathArg> inputs{{opts.sk_path, "--sk"}, {opts.in_path, "--in"}};
  add_hpke_inputs(opts.hpke, inputs);
  const std::vector<PathArg> outputs{{opts.out_path, "--out"}};
  check_paths(inputs, outputs, Format::hex, opts.force, opts.json);

  InputStream in(opts.in_path);
  std::optional<sealed::ReadHeader> header;
  if (!opts.hpke.raw) header = sealed::read_header(in);
  KeyInput key_input = load_key_input(opts.sk_path);
  const auto read_as = algorithm ? algorithm : raw_key_algorithm(key_input, header);
  const auto key = secret_key_from_input(std::move(key_input), read_as, false);
  const Scheme s = key.key.scheme;
  const hpke::KemId kem = hpke_kem(s);
  const ByteView sk = key.key.seed.size() != 0 ? key.key.seed.view() : key.key.dk.view();
  const Bytes info = load_info(opts.hpke);
  const auto psk = load_psk(opts.hpke);
  const auto psk_view = psk ? std::optional(psk->view()) : std::nullopt;

  StreamOutput out(outputs[0], true, opts.force);
  sealed::StreamStats stats;
  hpke::Suite suite = header ? header->header.suite : chosen_suite(kem, opts.hpke);
  Bytes enc;
  if (header) {
    stats = sealed::open_stream(*header, kem, sk, info, psk_view, in, out);
    enc = header->enc;
  } else {
    stats = open_raw(suite, sk, info, psk_view, in, out, enc);
  }
  const std::uint32_t chunk_bytes = header ? header->header.chunk_bytes : 0;
  if (opts.json) write_stdout(open_report(opts, s, suite, psk.has_value(), enc, stats, chunk_bytes));
  out.commit();
}

/// What `pqkem open --help` shows after the options. Its examples run as written, in order, in an
/// empty directory (ctest -L docs).
constexpr const char* kFooter =
    R"(A sealed file names its suite: open needs only the secret key, and the --info and --psk it was
sealed with. Anything wrong (another key, a changed, cut, reordered or extended file) is exit 1
with one line saying which chunk failed. With --out FILE nothing appears unless the whole file
authenticates. With --out - each 64 KiB chunk is written once it authenticates: a damaged file
still exits 1, after the chunks before the damage.

Examples:
  pqkem keygen -a X-Wing --pk bob.pk --sk bob.sk
  echo 'attack at dawn' | pqkem seal --pk bob.pk --in - --out note.sealed
  pqkem open --sk bob.sk --in note.sealed --out -
  pqkem open --sk bob.sk --in note.sealed --out note.txt --info wrong   # exit 1
)";

void declare(CommandBuilder& cmd, OpenOptions& opts) {
  cmd.algorithm(opts.algorithm, "Algorithm; needed only for a raw seed (ML-KEM 64 bytes, X-Wing 32)");
  cmd.secret_key_input(opts.sk_path);
  cmd.path("--in", opts.in_path, "The sealed file (- for stdin)");
  cmd.path("--out", opts.out_path, "Where to write what was sealed, mode 0600 (- for stdout)");
  declare_hpke_options(cmd, opts.hpke, false);
  cmd.force(opts.force);
  cmd.json_outputs(opts.json, "HPKE suite, SHA-256 of enc; never a secret or the plaintext");
  cmd.engine(opts.engine);
  cmd.footer(kFooter);
}

}  // namespace pqkem::cli
