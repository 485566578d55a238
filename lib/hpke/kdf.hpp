// HPKE's labeled key derivation (draft-ietf-hpke-hpke, section 4, "Labeled Derivation
// Functions") over the suite's KDF:
//  - two-stage, HKDF (RFC 5869): LabeledExtract and LabeledExpand on HMAC-SHA256 and
//    HMAC-SHA512 from libsodium, HMAC-SHA384 from OpenSSL's EVP_MAC (libsodium has no SHA-384;
//    its first use in a process costs OpenSSL's provider start-up, some 5M instructions);
//  - single-stage, the SHA-3 XOFs: LabeledDerive on SHAKE128/256 and TurboSHAKE128/256, pqkem's
//    own Keccak (hash.hpp).
// Every input is fed to the MAC or sponge piece by piece: no buffer ever holds a labeled
// secret, and the MAC and sponge states are wiped when done.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

#include "hpke.hpp"
#include "secret.hpp"

namespace pqkem::hpke {

/// The longest suite_id: "HPKE" || kem_id || kdf_id || aead_id.
inline constexpr std::size_t kMaxSuiteIdBytes = 10;

/// I2OSP(n, 2), for the lengths HPKE prefixes (n < 2^16, checked by the callers).
struct Be16 {
  std::uint8_t b[2];
  explicit Be16(std::size_t n) noexcept : b{static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n)} {}
  [[nodiscard]] ByteView view() const noexcept { return {b, 2}; }
};

/// One KDF with one suite_id ("KEM" || kem_id inside a KEM, "HPKE" || the three ids elsewhere).
class LabeledKdf {
public:
  /// kdf must be one of the KdfId values (the caller has looked it up).
  LabeledKdf(KdfId kdf, ByteView suite_id) noexcept;

  [[nodiscard]] const KdfInfo& info() const noexcept { return *m_info; }

  /// LabeledExtract(salt, label, ikm) into prk (Nh bytes); two-stage only.
  void labeled_extract(std::span<std::uint8_t> prk, ByteView salt, std::string_view label, ByteView ikm) const;
  /// LabeledExpand(prk, label, info, L) into out (L = out.size() <= 255 Nh, below 2^16); two-stage
  /// only. info is the concatenation of the pieces.
  void labeled_expand(std::span<std::uint8_t> out, ByteView prk, std::string_view label,
                      std::initializer_list<ByteView> info) const;
  /// LabeledDerive(ikm, label, context, L) into out (L = out.size() < 2^16); single-stage only.
  /// ikm and context are the concatenations of their pieces.
  void labeled_derive(std::span<std::uint8_t> out, std::initializer_list<ByteView> ikm, std::string_view label,
                      std::initializer_list<ByteView> context) const noexcept;

private:
  const KdfInfo* m_info;
  std::uint8_t m_suite_id[kMaxSuiteIdBytes];
  std::size_t m_suite_id_bytes;
};

/// The suite_id of a KEM: "KEM" || I2OSP(kem_id, 2).
struct KemSuiteId {
  std::uint8_t b[5];
  explicit KemSuiteId(std::uint16_t kem_id) noexcept
      : b{'K', 'E', 'M', static_cast<std::uint8_t>(kem_id >> 8), static_cast<std::uint8_t>(kem_id)} {}
  [[nodiscard]] ByteView view() const noexcept { return {b, 5}; }
};

}  // namespace pqkem::hpke
