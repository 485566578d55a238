// pqkem CLI: the options seal and open share (hpke_options.cpp): --info, --psk / --psk-id,
// --kdf / --aead and --raw, and the HPKE suite they choose.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "hpke.hpp"
#include "output.hpp"
#include "pqkem.hpp"

namespace pqkem::cli {

/// The suite seal uses unless --kdf / --aead say otherwise, whatever the machine.
inline constexpr hpke::KdfId kDefaultKdf = hpke::KdfId::HkdfSha256;
inline constexpr hpke::AeadId kDefaultAead = hpke::AeadId::Aes256Gcm;
/// The largest message --raw seals or opens: it is held in memory whole.
inline constexpr std::size_t kRawMaxBytes = 16u << 20;

struct HpkeOptions {
  OptString info;    ///< --info TEXT|@FILE
  OptString psk;     ///< --psk FILE
  OptString psk_id;  ///< --psk-id TEXT
  OptString kdf;     ///< --kdf NAME
  OptString aead;    ///< --aead NAME
  bool raw = false;  ///< --raw: RFC 9180 single shot, enc || ciphertext
};

/// Declares the shared options; `sealing` picks the help texts of seal or open.
void declare_hpke_options(CommandBuilder& cmd, HpkeOptions& opts, bool sealing);

/// The usage checks that need no file, all exit 2: --psk and --psk-id both or neither, a
/// non-empty --psk-id, known --kdf / --aead names (not export-only), and for open (`sealing`
/// false) --kdf / --aead only with --raw, since a sealed file names its own suite.
void check_hpke_usage(const HpkeOptions& opts, bool sealing);
/// The HPKE KEM of `s`; exit 2, naming the algorithms that work, for NTRU and X25519MLKEM768.
hpke::KemId hpke_kem(Scheme s);
/// The suite for `kem` from --kdf / --aead (exit 2 for an unknown name, or export-only).
hpke::Suite chosen_suite(hpke::KemId kem, const HpkeOptions& opts);
/// The --info bytes: the text itself, or the contents of @FILE; empty when absent.
Bytes load_info(const HpkeOptions& opts);
/// The input files the options name (@FILE of --info, --psk), for check_paths.
void add_hpke_inputs(const HpkeOptions& opts, std::vector<PathArg>& inputs);

/// --psk and --psk-id: both or neither (exit 2); the key at least 32 bytes, hex or raw (exit 1).
struct PskInput {
  SecretBytes psk;
  Bytes psk_id;
  [[nodiscard]] hpke::Psk view() const noexcept { return {psk.view(), psk_id}; }
};
std::optional<PskInput> load_psk(const HpkeOptions& opts);

}  // namespace pqkem::cli
