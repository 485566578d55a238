#include "hpke/kdf.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <sodium.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "error.hpp"
#include "hash.hpp"

namespace pqkem::hpke {
namespace {

constexpr std::uint8_t kVersionLabel[7] = {'H', 'P', 'K', 'E', '-', 'v', '1'};

ByteView label_bytes(std::string_view s) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

[[noreturn]] void openssl_failed(const char* what) {
  throw Error(Errc::openssl_failure, std::string("HPKE: OpenSSL ") + what + " failed");
}

/// HMAC (RFC 2104) with the hash of an HKDF suite, fed piece by piece. SHA-256 and SHA-512
/// from libsodium, SHA-384 from OpenSSL's EVP_MAC (the only one libsodium lacks). The state
/// holds key material: wiped (libsodium's) or freed with its key cleansed (OpenSSL's) at the end.
class Hmac {
public:
  Hmac(KdfId kdf, ByteView key) : m_kdf(kdf) {
    // An empty key (HKDF's default salt, LabeledExtract with no salt) may have a null pointer,
    // which neither libsodium nor OpenSSL accepts (both declare the argument non-null).
    static const std::uint8_t kNoKey = 0;
    const std::uint8_t* key_data = key.empty() ? &kNoKey : key.data();
    switch (kdf) {
      case KdfId::HkdfSha256: crypto_auth_hmacsha256_init(&m_sha256, key_data, key.size()); return;
      case KdfId::HkdfSha512: crypto_auth_hmacsha512_init(&m_sha512, key_data, key.size()); return;
      case KdfId::HkdfSha384: {
        std::unique_ptr<EVP_MAC, decltype(&EVP_MAC_free)> mac(EVP_MAC_fetch(nullptr, "HMAC", nullptr), &EVP_MAC_free);
        if (!mac) openssl_failed("HMAC fetch");
        m_ctx = EVP_MAC_CTX_new(mac.get());
        if (m_ctx == nullptr) openssl_failed("HMAC context");
        char digest[] = "SHA384";
        const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                                     OSSL_PARAM_construct_end()};
        if (EVP_MAC_init(m_ctx, key_data, key.size(), params) != 1) {
          EVP_MAC_CTX_free(m_ctx);
          openssl_failed("HMAC-SHA384 init");
        }
        return;
      }
      default: throw Error(Errc::bad_argument, "HPKE: HMAC needs an HKDF suite");
    }
  }
  Hmac(const Hmac&) = delete;
  Hmac& operator=(const Hmac&) = delete;
  ~Hmac() {
    if (m_ctx != nullptr) EVP_MAC_CTX_free(m_ctx);  // cleanses its key schedule
    secure_wipe(&m_sha256, sizeof m_sha256);
    secure_wipe(&m_sha512, sizeof m_sha512);
  }

  void update(ByteView in) {
    if (in.empty()) return;
    switch (m_kdf) {
      case KdfId::HkdfSha256: crypto_auth_hmacsha256_update(&m_sha256, in.data(), in.size()); return;
      case KdfId::HkdfSha512: crypto_auth_hmacsha512_update(&m_sha512, in.data(), in.size()); return;
      default:
        if (EVP_MAC_update(m_ctx, in.data(), in.size()) != 1) openssl_failed("HMAC-SHA384 update");
    }
  }
  /// The tag, Nh bytes.
  void final(std::span<std::uint8_t> out) {
    switch (m_kdf) {
      case KdfId::HkdfSha256: crypto_auth_hmacsha256_final(&m_sha256, out.data()); return;
      case KdfId::HkdfSha512: crypto_auth_hmacsha512_final(&m_sha512, out.data()); return;
      default: {
        std::size_t n = 0;
        if (EVP_MAC_final(m_ctx, out.data(), &n, out.size()) != 1 || n != out.size())
          openssl_failed("HMAC-SHA384 final");
      }
    }
  }

private:
  KdfId m_kdf;
  crypto_auth_hmacsha256_state m_sha256{};
  crypto_auth_hmacsha512_state m_sha512{};
  EVP_MAC_CTX* m_ctx = nullptr;
};

}  // namespace

LabeledKdf::LabeledKdf(KdfId kdf, ByteView suite_id) noexcept
    : m_info(&kdf_info(kdf)), m_suite_id{}, m_suite_id_bytes(std::min(suite_id.size(), kMaxSuiteIdBytes)) {
  std::copy_n(suite_id.begin(), m_suite_id_bytes, m_suite_id);
}

void LabeledKdf::labeled_extract(std::span<std::uint8_t> prk, ByteView salt, std::string_view label,
                                 ByteView ikm) const {
  // Extract(salt, ikm) = HMAC(salt, ikm) (RFC 5869, section 2.2); an empty salt is HashLen
  // zeros, which HMAC's zero-padding of the key makes the same as the empty key.
  Hmac mac(m_info->id, salt);
  mac.update({kVersionLabel, sizeof kVersionLabel});
  mac.update({m_suite_id, m_suite_id_bytes});
  mac.update(label_bytes(label));
  mac.update(ikm);
  mac.final(prk.first(m_info->n_h));
}

void LabeledKdf::labeled_expand(std::span<std::uint8_t> out, ByteView prk, std::string_view label,
                                std::initializer_list<ByteView> info) const {
  // Expand (RFC 5869, section 2.3): T(i) = HMAC(prk, T(i-1) || info' || i), with the labeled
  // info' = I2OSP(L, 2) || "HPKE-v1" || suite_id || label || info.
  const std::size_t n_h = m_info->n_h;
  const Be16 length(out.size());
  Secret<64> t;  // T(i), n_h bytes
  for (std::size_t done = 0, i = 1; done < out.size(); ++i) {
    Hmac mac(m_info->id, prk);
    if (i > 1) mac.update({t.bytes, n_h});
    mac.update(length.view());
    mac.update({kVersionLabel, sizeof kVersionLabel});
    mac.update({m_suite_id, m_suite_id_bytes});
    mac.update(label_bytes(label));
    for (ByteView piece : info) mac.update(piece);
    const std::uint8_t counter = static_cast<std::uint8_t>(i);
    mac.update({&counter, 1});
    mac.final({t.bytes, n_h});
    const std::size_t n = std::min(n_h, out.size() - done);
    std::copy_n(t.bytes, n, out.begin() + static_cast<std::ptrdiff_t>(done));
    done += n;
  }
}

namespace {
template <class X>
void derive_with(X& xof, std::span<std::uint8_t> out, std::initializer_list<ByteView> ikm, ByteView suite_id,
                 std::string_view label, std::initializer_list<ByteView> context) noexcept {
  for (ByteView piece : ikm) xof.absorb(piece);
  xof.absorb({kVersionLabel, sizeof kVersionLabel});
  xof.absorb(suite_id);
  xof.absorb(Be16(label.size()).view());
  xof.absorb(label_bytes(label));
  xof.absorb(Be16(out.size()).view());
  for (ByteView piece : context) xof.absorb(piece);
  xof.squeeze(out);
}
}  // namespace

void LabeledKdf::labeled_derive(std::span<std::uint8_t> out, std::initializer_list<ByteView> ikm,
                                std::string_view label, std::initializer_list<ByteView> context) const noexcept {
  // LabeledDerive: Derive(ikm || "HPKE-v1" || suite_id || lengthPrefixed(label) || I2OSP(L, 2)
  // || context, L), where Derive is the XOF's output of L bytes (SHAKE: d = 8L bits;
  // TurboSHAKE: D = 0x1F). The sponges wipe themselves.
  const ByteView suite_id(m_suite_id, m_suite_id_bytes);
  const hash::XofKind kind = m_info->n_h == 32 ? hash::XofKind::shake128 : hash::XofKind::shake256;
  if (m_info->id == KdfId::Shake128 || m_info->id == KdfId::Shake256) {
    hash::Xof xof(kind);
    derive_with(xof, out, ikm, suite_id, label, context);
  } else {
    hash::TurboShake xof(kind);
    derive_with(xof, out, ikm, suite_id, label, context);
  }
}

}  // namespace pqkem::hpke
