#include "hpke/aead.hpp"

#include <openssl/evp.h>
#include <sodium.h>

#include <algorithm>
#include <climits>
#include <string>

#include "error.hpp"
#include "simd/cpu.hpp"

namespace pqkem::hpke {
namespace {

// libsodium's AES-256-GCM code needs AES-NI and PCLMUL (what crypto_aead_aes256gcm_is_available()
// checks, after sodium_init()).
bool sodium_aes256gcm_usable() noexcept {
  const simd::CpuFeatures& f = simd::cpu_features();
  return f.aesni && f.pclmul;
}

[[noreturn]] void openssl_failed(const char* what) {
  throw Error(Errc::openssl_failure, std::string("HPKE: OpenSSL ") + what + " failed");
}

// libsodium and OpenSSL want a valid pointer even for zero bytes.
const std::uint8_t kEmpty[1] = {0};
const std::uint8_t* ptr(ByteView v) noexcept { return v.empty() ? kEmpty : v.data(); }

// EVP takes int lengths: longer inputs go in pieces of 2^30 bytes.
constexpr std::size_t kEvpPiece = std::size_t{1} << 30;

}  // namespace

// Measured (docs/architecture.md): EVP's start-up is worth about 1 MiB of libsodium's portable
// ChaCha20-Poly1305 and 4 MiB of its AES-256-GCM.
std::uint64_t bulk_bytes(AeadId aead) noexcept {
  return aead == AeadId::ChaCha20Poly1305 ? std::uint64_t{1} << 20 : std::uint64_t{4} << 20;
}

struct AeadCipher::Impl {
  AeadId id;
  AeadBackend backend;            // the library in use now
  bool automatic = false;         // may move from libsodium to EVP
  std::uint64_t sodium_bytes = 0;  // processed on libsodium, while automatic
  std::uint8_t key[32] = {};       // the key itself (libsodium's ChaCha20-Poly1305, twin, the move to EVP)
  crypto_aead_aes256gcm_state aes{};  // libsodium AES-256-GCM: the expanded key (16-byte aligned type)
  EVP_CIPHER_CTX* evp = nullptr;      // OpenSSL: the context holding the expanded key

  ~Impl() {
    secure_wipe(&aes, sizeof aes);
    secure_wipe(key, sizeof key);
    EVP_CIPHER_CTX_free(evp);  // cleanses the key schedule
  }

  [[nodiscard]] ByteView key_view() const noexcept { return {key, aead_info(id).n_k}; }

  void start_evp() {
    const EVP_CIPHER* cipher = id == AeadId::Aes128Gcm   ? EVP_aes_128_gcm()
                               : id == AeadId::Aes256Gcm ? EVP_aes_256_gcm()
                                                         : EVP_chacha20_poly1305();
    evp = EVP_CIPHER_CTX_new();
    if (evp == nullptr || EVP_CipherInit_ex(evp, cipher, nullptr, nullptr, nullptr, 1) != 1 ||
        EVP_CIPHER_CTX_ctrl(evp, EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(kNonceBytes), nullptr) != 1 ||
        EVP_CipherInit_ex(evp, nullptr, nullptr, key, nullptr, 1) != 1)
      openssl_failed("AEAD key setup");
    backend = AeadBackend::openssl;
    secure_wipe(&aes, sizeof aes);
  }

  // Before a message of n bytes: an automatic cipher that has processed bulk_bytes on libsodium
  // moves to EVP first, so a failing move throws before anything is sealed with the nonce.
  void before_message(std::size_t n) {
    if (!automatic || backend != AeadBackend::libsodium) return;
    if (sodium_bytes >= bulk_bytes(id)) {
      start_evp();
      return;
    }
    sodium_bytes += n;
  }

  // Feeds `in` to EVP_CipherUpdate (out null: additional data).
  void evp_update(const std::uint8_t* in, std::size_t n, std::uint8_t* out) const {
    for (std::size_t done = 0; done < n;) {
      const std::size_t piece = std::min(n - done, kEvpPiece);
      int written = 0;
      if (EVP_CipherUpdate(evp, out == nullptr ? nullptr : out + done, &written, in + done, static_cast<int>(piece)) !=
          1)
        openssl_failed("AEAD update");
      done += piece;
    }
  }
};

AeadCipher::AeadCipher(AeadId aead, ByteView key, AeadBackend backend) : m_impl(std::make_unique<Impl>()) {
  Impl& s = *m_impl;
  s.id = aead;
  if (aead != AeadId::Aes128Gcm && aead != AeadId::Aes256Gcm && aead != AeadId::ChaCha20Poly1305)
    throw Error(Errc::bad_argument, "HPKE: the export-only AEAD has no cipher");
  if (key.size() != aead_info(aead).n_k) throw Error(Errc::bad_length, "HPKE: AEAD key of the wrong length");
  std::copy(key.begin(), key.end(), s.key);
  const bool sodium_has = aead == AeadId::ChaCha20Poly1305 || (aead == AeadId::Aes256Gcm && sodium_aes256gcm_usable());
  if (backend == AeadBackend::automatic) {
    s.automatic = true;
    backend = sodium_has ? AeadBackend::libsodium : AeadBackend::openssl;
  }
  if (backend == AeadBackend::openssl) {
    s.start_evp();
    return;
  }
  if (!sodium_has)
    throw Error(Errc::bad_argument, std::string("HPKE: libsodium has no ") + std::string(aead_info(aead).name) +
                                        (aead == AeadId::Aes256Gcm ? " on this CPU (no AES-NI or PCLMUL)" : ""));
  s.backend = AeadBackend::libsodium;
  if (aead == AeadId::Aes256Gcm) crypto_aead_aes256gcm_beforenm(&s.aes, s.key);
}

AeadCipher::~AeadCipher() = default;

AeadBackend AeadCipher::backend() const noexcept { return m_impl->backend; }

void AeadCipher::bulk() {
  Impl& s = *m_impl;
  if (s.automatic && s.backend == AeadBackend::libsodium) s.start_evp();
}

std::unique_ptr<AeadCipher> AeadCipher::twin() const {
  const Impl& s = *m_impl;
  auto t = std::make_unique<AeadCipher>(s.id, s.key_view(), s.backend);
  t->m_impl->automatic = s.automatic;
  t->m_impl->sodium_bytes = s.sodium_bytes;
  return t;
}

void AeadCipher::seal(std::span<const std::uint8_t, kNonceBytes> nonce, ByteView aad, ByteView pt,
                      std::span<std::uint8_t> ct) {
  Impl& s = *m_impl;
  std::uint8_t* const tag = ct.data() + pt.size();
  s.before_message(pt.size());
  if (s.backend == AeadBackend::libsodium) {
    if (s.id == AeadId::ChaCha20Poly1305)
      crypto_aead_chacha20poly1305_ietf_encrypt_detached(ct.data(), tag, nullptr, ptr(pt), pt.size(), ptr(aad),
                                                         aad.size(), nullptr, nonce.data(), s.key);
    else
      crypto_aead_aes256gcm_encrypt_detached_afternm(ct.data(), tag, nullptr, ptr(pt), pt.size(), ptr(aad), aad.size(),
                                                     nullptr, nonce.data(), &s.aes);
    return;
  }
  if (EVP_CipherInit_ex(s.evp, nullptr, nullptr, nullptr, nonce.data(), 1) != 1) openssl_failed("AEAD nonce");
  s.evp_update(aad.data(), aad.size(), nullptr);
  s.evp_update(pt.data(), pt.size(), ct.data());
  int written = 0;
  if (EVP_CipherFinal_ex(s.evp, tag, &written) != 1 ||
      EVP_CIPHER_CTX_ctrl(s.evp, EVP_CTRL_AEAD_GET_TAG, static_cast<int>(kTagBytes), tag) != 1)
    openssl_failed("AEAD seal");
}

bool AeadCipher::open(std::span<const std::uint8_t, kNonceBytes> nonce, ByteView aad, ByteView ct,
                      std::span<std::uint8_t> pt) {
  Impl& s = *m_impl;
  const std::size_t n = ct.size() - kTagBytes;
  // A copy of the tag: in place, pt overwrites ct's body but not its tag; OpenSSL also wants
  // a mutable pointer.
  std::uint8_t tag[kTagBytes];
  std::copy_n(ct.data() + n, kTagBytes, tag);
  bool ok = false;
  s.before_message(n);
  if (s.backend == AeadBackend::libsodium) {
    ok = s.id == AeadId::ChaCha20Poly1305
             ? crypto_aead_chacha20poly1305_ietf_decrypt_detached(pt.data(), nullptr, ptr(ct), n, tag, ptr(aad),
                                                                  aad.size(), nonce.data(), s.key) == 0
             : crypto_aead_aes256gcm_decrypt_detached_afternm(pt.data(), nullptr, ptr(ct), n, tag, ptr(aad), aad.size(),
                                                              nonce.data(), &s.aes) == 0;
  } else {
    if (EVP_CipherInit_ex(s.evp, nullptr, nullptr, nullptr, nonce.data(), 0) != 1) openssl_failed("AEAD nonce");
    s.evp_update(aad.data(), aad.size(), nullptr);
    s.evp_update(ct.data(), n, pt.data());
    int written = 0;
    if (EVP_CIPHER_CTX_ctrl(s.evp, EVP_CTRL_AEAD_SET_TAG, static_cast<int>(kTagBytes), tag) != 1)
      openssl_failed("AEAD tag");
    ok = EVP_CipherFinal_ex(s.evp, pt.data() + n, &written) == 1;
  }
  // Nothing of a message that does not authenticate leaves: OpenSSL has already written its
  // unauthenticated plaintext.
  if (!ok) secure_wipe(pt.data(), pt.size());
  return ok;
}

}  // namespace pqkem::hpke
