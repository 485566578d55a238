// HPKE's AEADs (RFC 5116 interface): AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305, from
// libsodium or OpenSSL; pqkem implements no cipher itself.
//
// Which library (docs/architecture.md, "HPKE", has the measurements). The first EVP cipher call
// in a process loads OpenSSL's providers (about 9M instructions, a few milliseconds), while
// OpenSSL's bulk code runs 3-10x faster than libsodium's here (libsodium's ChaCha20 is its
// portable one: sodium_init(), which would pick its SIMD code, is not called; x25519.hpp says
// why). So a cipher on `automatic`:
//  - starts on libsodium where libsodium has it: ChaCha20-Poly1305 always, AES-256-GCM where the
//    CPU has AES-NI and PCLMUL (pqkem's own CPUID probe: libsodium's needs sodium_init());
//  - moves to OpenSSL's EVP before its first message past bulk_bytes() (where the time lost on
//    libsodium would have paid OpenSSL's start-up), or when the caller says bulk work follows
//    (bulk());
//  - AES-128-GCM runs on EVP throughout (libsodium has none).
// Every backend gives the same bytes (tests/hpke/primitives_test.cpp runs each on the same
// inputs, and an automatic cipher across its move).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "hpke.hpp"
#include "secret.hpp"

namespace pqkem::hpke {

/// Which library runs a cipher: `automatic` is the choice above; the others force one for the
/// cipher's life, for the tests and the benchmark (Error(bad_argument) where that library lacks
/// the cipher or, for libsodium's AES-256-GCM, the CPU lacks AES-NI or PCLMUL).
enum class AeadBackend { automatic, libsodium, openssl };

inline constexpr std::size_t kNonceBytes = 12, kTagBytes = 16;

/// Bytes an automatic cipher processes on libsodium before it moves to EVP.
[[nodiscard]] std::uint64_t bulk_bytes(AeadId aead) noexcept;

/// One AEAD key, expanded once, for many messages in one direction.
class AeadCipher {
public:
  /// aead is not ExportOnly; key has its Nk bytes.
  AeadCipher(AeadId aead, ByteView key, AeadBackend backend = AeadBackend::automatic);
  AeadCipher(const AeadCipher&) = delete;
  AeadCipher& operator=(const AeadCipher&) = delete;
  ~AeadCipher();  ///< wipes the key and its expansion

  /// The library this cipher runs on now (never `automatic`).
  [[nodiscard]] AeadBackend backend() const noexcept;

  /// Bulk work follows: an automatic cipher moves to EVP now (no-op otherwise).
  void bulk();

  /// A second cipher on the same key, on the backend this one runs on now (for another thread:
  /// one cipher must not be used by two threads at once).
  [[nodiscard]] std::unique_ptr<AeadCipher> twin() const;

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
