// pqkem CLI: the options seal and open share (hpke_options.hpp).
#include "hpke_options.hpp"

#include <type_traits>

#include <fmt/format.h>

#include "keys.hpp"
#include "text.hpp"

namespace pqkem::cli {
namespace {

/// "HKDF-SHA256, HKDF-SHA384, ..." from a table of the library's.
template <class Info>
std::string names_of(std::span<const Info> table) {
  std::string names;
  for (const auto& entry : table) {
    if constexpr (std::is_same_v<Info, hpke::AeadInfo>) {
      if (entry.id == hpke::AeadId::ExportOnly) continue;  // cannot seal
    }
    names += (names.empty() ? "" : ", ") + std::string(entry.name);
  }
  return names;
}

}  // namespace

void declare_hpke_options(CommandBuilder& cmd, HpkeOptions& opts, bool sealing) {
  cmd.string("--info", opts.info,
             sealing ? "Context bound into the encryption, as text or @FILE; open must be given the same"
                     : "The --info the file was sealed with, as text or @FILE",
             "TEXT|@FILE");
  cmd.string("--psk", opts.psk,
             "A pre-shared key (HPKE PSK mode) of at least 32 bytes, hex or raw, read from FILE; needs --psk-id",
             "FILE");
  cmd.string("--psk-id", opts.psk_id, "The pre-shared key's identifier, as text; needs --psk", "TEXT");
  cmd.string("--kdf", opts.kdf,
             sealing ? fmt::format("HPKE KDF: {} (default HKDF-SHA256)", names_of(hpke::all_kdfs()))
                     : "With --raw: the KDF it was sealed with (default HKDF-SHA256); a sealed file names its own",
             "NAME");
  cmd.string("--aead", opts.aead,
             sealing ? fmt::format("HPKE AEAD: {} (default AES-256-GCM)", names_of(hpke::all_aeads()))
                     : "With --raw: the AEAD it was sealed with (default AES-256-GCM); a sealed file names its own",
             "NAME");
  cmd.flag("--raw", opts.raw,
           sealing ? "Write RFC 9180 single-shot output, enc || ciphertext (no header, empty aad), which other HPKE "
                     "libraries open; for messages up to 16 MiB"
                   : "Open RFC 9180 single-shot input, enc || ciphertext, as other HPKE libraries seal it (up to "
                     "16 MiB)");
}

void check_hpke_usage(const HpkeOptions& opts, bool sealing) {
  if (opts.psk.has_value() != opts.psk_id.has_value()) throw_usage("--psk and --psk-id go together: give both");
  if (opts.psk_id && opts.psk_id->empty()) throw_usage("--psk-id is empty");
  if (!sealing && !opts.raw && (opts.kdf || opts.aead))
    throw_usage("--kdf and --aead go with --raw: a sealed file names its own suite");
  chosen_suite(hpke::KemId::MlKem768, opts);  // the names
}

hpke::KemId hpke_kem(Scheme s) {
  try {
    return hpke::kem_for_scheme(s);
  } catch (const Error& e) {
    throw_usage(e.what());
  }
}

hpke::Suite chosen_suite(hpke::KemId kem, const HpkeOptions& opts) {
  hpke::Suite suite{kem, kDefaultKdf, kDefaultAead};
  if (opts.kdf) {
    const auto kdf = hpke::parse_kdf(*opts.kdf);
    if (!kdf)
      throw_usage(fmt::format("unknown --kdf '{}'; the KDFs are {}", printable(*opts.kdf), names_of(hpke::all_kdfs())));
    suite.kdf = *kdf;
  }
  if (opts.aead) {
    const auto aead = hpke::parse_aead(*opts.aead);
    if (!aead || *aead == hpke::AeadId::ExportOnly)
      throw_usage(fmt::format("{} --aead '{}'; the AEADs are {}", aead ? "export-only cannot seal:" : "unknown",
                              printable(*opts.aead), names_of(hpke::all_aeads())));
    suite.aead = *aead;
  }
  return suite;
}

Bytes load_info(const HpkeOptions& opts) {
  if (!opts.info) return {};
  if (!opts.info->empty() && opts.info->front() == '@') {
    const SecretBytes content = read_input(opts.info->substr(1));
    return Bytes(content.view().begin(), content.view().end());
  }
  return Bytes(opts.info->begin(), opts.info->end());
}

void add_hpke_inputs(const HpkeOptions& opts, std::vector<PathArg>& inputs) {
  if (opts.info && !opts.info->empty() && opts.info->front() == '@') inputs.push_back({opts.info->substr(1), "--info"});
  if (opts.psk) inputs.push_back({*opts.psk, "--psk"});
}

std::optional<PskInput> load_psk(const HpkeOptions& opts) {
  if (!opts.psk) return std::nullopt;
  const std::string file = input_name(*opts.psk);
  Decoded decoded = decode_input(read_input(*opts.psk), file);
  if (decoded.bytes.size() < 32)
    throw_failure(
        fmt::format("the pre-shared key is shorter than the 32 bytes HPKE needs ({})", how_read(decoded.from_hex)),
        file);
  return PskInput{std::move(decoded.bytes), Bytes(opts.psk_id->begin(), opts.psk_id->end())};
}

}  // namespace pqkem::cli
