// HPKE's AEADs (RFC 5116 interface): AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305, from
// libsodium or OpenSSL; pqkem implements no cipher itself.
//
// Which library (docs/architecture.md, "HPKE", has the measurements):
//  - ChaCha20-Poly1305: libsodium (crypto_aead_chacha20poly1305_ietf_*), always.
//  - AES-256-GCM: libsodium's AES-NI code (crypto_aead_aes256gcm_*, its key schedule and GHASH
//    powers expanded once per context by beforenm) where crypto_aead_aes256gcm_is_available()
//    says the CPU has AES-NI and PCLMUL; OpenSSL's EVP otherwise.
//  - AES-128-GCM: OpenSSL's EVP (libsodium has none).
// The first EVP cipher call in a process loads OpenSSL's providers (millions of instructions,
// hash.hpp), which is why EVP is the fallback only. Every backend gives the same bytes
// (tests/hpke/aead_test.cpp runs both on the same inputs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "hpke.hpp"
#include "secret.hpp"

namespace pqkem::hpke {

/// Which library runs a cipher: `automatic` is the choice above; the others force one, for the
/// tests and the benchmark (Error(bad_argument) where that library lacks the cipher or, for
/// libsodium's AES-256-GCM, the CPU lacks AES-NI).
enum class AeadBackend { automatic, libsodium, openssl };

inline constexpr std::size_t kNonceBytes = 12, kTagBytes = 16;

/// One AEAD key, expanded once, for many messages in one direction.
class AeadCipher {
public:
  /// aead is not ExportOnly; key has its Nk bytes.
  AeadCipher(AeadId aead, ByteView key, AeadBackend backend = AeadBackend::automatic);
  AeadCipher(const AeadCipher&) = delete;
  AeadCipher& operator=(const AeadCipher&) = delete;
  ~AeadCipher();  ///< wipes the key and its expansion

  /// The library this cipher runs on (never `automatic`).
  [[nodiscard]] AeadBackend backend() const noexcept;

  /// ct = ciphertext || tag, ct.size() == pt.size() + 16; ct may start at pt.data().
  void seal(std::span<const std::uint8_t, kNonceBytes> nonce, ByteView aad, ByteView pt, std::span<std::uint8_t> ct);
  /// pt.size() == ct.size() - 16 (ct has at least the tag); pt may start at ct.data(). False, with
  /// pt zeroed, when the tag does not verify.
  [[nodiscard]] bool open(std::span<const std::uint8_t, kNonceBytes> nonce, ByteView aad, ByteView ct,
                          std::span<std::uint8_t> pt);

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace pqkem::hpke
