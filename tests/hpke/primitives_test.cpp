// HPKE's primitives against independent computations: every AEAD backend against the other
// (libsodium and OpenSSL must give the same bytes), and the labeled KDFs against OpenSSL's
// HMAC, HKDF and SHAKE on the explicitly concatenated labeled inputs (draft-ietf-hpke-hpke,
// section 4). The draft's vectors use neither HKDF-SHA512 nor a PQ suite with SHAKE128.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include <array>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "hpke/aead.hpp"
#include "hpke/kdf.hpp"
#include "hpke_test_util.hpp"

namespace pqkem::hpke {
namespace {

Bytes random_bytes(std::mt19937& rng, std::size_t n) {
  Bytes b(n);
  for (auto& c : b) c = static_cast<std::uint8_t>(rng());
  return b;
}

bool sodium_has_aes256gcm() {
  try {
    AeadCipher probe(AeadId::Aes256Gcm, Bytes(32), AeadBackend::libsodium);
    return true;
  } catch (const Error&) {
    return false;
  }
}

/// The AEADs libsodium runs here (ChaCha20-Poly1305; AES-256-GCM where the CPU allows), with
/// a line saying why AES-256-GCM is missing when it is.
std::vector<AeadId> sodium_aeads() {
  if (sodium_has_aes256gcm()) return {AeadId::ChaCha20Poly1305, AeadId::Aes256Gcm};
  std::printf("skip: libsodium has no AES-256-GCM on this CPU (no AES-NI or PCLMUL)\n");
  return {AeadId::ChaCha20Poly1305};
}

// Every length from 0 to 300 (and some long ones), with aad of varying length: the two
// libraries agree byte for byte, each opens the other's output, and in-place works.
TEST(HpkeAead, LibsodiumAndOpenSslGiveTheSameBytes) {
  for (AeadId id : sodium_aeads()) {
    const AeadInfo& info = aead_info(id);
    SCOPED_TRACE(info.name);
    std::mt19937 rng(static_cast<unsigned>(static_cast<unsigned>(id) * 31));
    const Bytes key = random_bytes(rng, info.n_k);
    AeadCipher sodium(id, key, AeadBackend::libsodium), openssl(id, key, AeadBackend::openssl);
    ASSERT_EQ(sodium.backend(), AeadBackend::libsodium);
    ASSERT_EQ(openssl.backend(), AeadBackend::openssl);
    std::vector<std::size_t> lengths;
    for (std::size_t n = 0; n <= 300; ++n) lengths.push_back(n);
    for (std::size_t n : {4095, 4096, 65536, 65537}) lengths.push_back(n);
    for (std::size_t n : lengths) {
      const Bytes pt = random_bytes(rng, n), aad = random_bytes(rng, n % 37), nonce_v = random_bytes(rng, 12);
      const std::span<const std::uint8_t, 12> nonce(nonce_v.data(), 12);
      Bytes a(n + 16), b(n + 16), back(n);
      sodium.seal(nonce, aad, pt, a);
      openssl.seal(nonce, aad, pt, b);
      ASSERT_EQ(a, b) << n;
      ASSERT_TRUE(openssl.open(nonce, aad, a, back)) << n;
      ASSERT_EQ(back, pt);
      ASSERT_TRUE(sodium.open(nonce, aad, b, back)) << n;
      ASSERT_EQ(back, pt);
      Bytes in_place = pt;
      in_place.resize(n + 16);
      openssl.seal(nonce, aad, ByteView(in_place).first(n), in_place);
      ASSERT_EQ(in_place, a);
      b[n / 2] ^= 0x20;
      ASSERT_FALSE(sodium.open(nonce, aad, b, back));
      ASSERT_FALSE(openssl.open(nonce, aad, b, back));
      ASSERT_EQ(back, Bytes(n, 0)) << "a failed open leaves zeros";
    }
  }
}

TEST(HpkeAead, AutomaticChoiceAndRefusals) {
  EXPECT_EQ(AeadCipher(AeadId::ChaCha20Poly1305, Bytes(32)).backend(), AeadBackend::libsodium);
  EXPECT_EQ(AeadCipher(AeadId::Aes128Gcm, Bytes(16)).backend(), AeadBackend::openssl);
  EXPECT_EQ(AeadCipher(AeadId::Aes256Gcm, Bytes(32)).backend(),
            sodium_has_aes256gcm() ? AeadBackend::libsodium : AeadBackend::openssl);
  EXPECT_TRUE(
      test::throws_errc([] { AeadCipher(AeadId::Aes128Gcm, Bytes(16), AeadBackend::libsodium); }, Errc::bad_argument));
  EXPECT_TRUE(test::throws_errc([] { AeadCipher(AeadId::ExportOnly, Bytes()); }, Errc::bad_argument));
  EXPECT_TRUE(test::throws_errc([] { AeadCipher(AeadId::Aes128Gcm, Bytes(32)); }, Errc::bad_length));
}

// RFC 8439, section 2.8.2: the ChaCha20-Poly1305 AEAD example, on both libraries.
TEST(HpkeAead, ChaCha20Poly1305Rfc8439Example) {
  using test::unhex;
  const Bytes key = unhex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
  const Bytes nonce_v = unhex("070000004041424344454647"), aad = unhex("50515253c0c1c2c3c4c5c6c7");
  const std::string text =
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be "
      "it.";
  const Bytes want = unhex(
      "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b29"
      "05d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b"
      "6116"
      "1ae10b594f09e26a7e902ecbd0600691");
  for (AeadBackend backend : {AeadBackend::libsodium, AeadBackend::openssl}) {
    AeadCipher c(AeadId::ChaCha20Poly1305, key, backend);
    Bytes ct(text.size() + 16);
    c.seal(std::span<const std::uint8_t, 12>(nonce_v.data(), 12), aad, test::bytes(text), ct);
    EXPECT_EQ(ct, want);
  }
}

// --- the labeled KDFs ---

const std::uint8_t kSuiteId[10] = {'H', 'P', 'K', 'E', 0x00, 0x41, 0x00, 0x03, 0x00, 0x03};

Bytes concat(std::initializer_list<ByteView> pieces) {
  Bytes out;
  for (ByteView p : pieces) out.insert(out.end(), p.begin(), p.end());
  return out;
}

const char* digest_name(KdfId id) {
  return id == KdfId::HkdfSha256 ? "SHA256" : id == KdfId::HkdfSha384 ? "SHA384" : "SHA512";
}

Bytes openssl_hkdf_expand(KdfId id, ByteView prk, ByteView info, std::size_t n) {
  std::unique_ptr<EVP_KDF, decltype(&EVP_KDF_free)> kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr), &EVP_KDF_free);
  std::unique_ptr<EVP_KDF_CTX, decltype(&EVP_KDF_CTX_free)> ctx(EVP_KDF_CTX_new(kdf.get()), &EVP_KDF_CTX_free);
  int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
  std::string digest = digest_name(id);
  Bytes key(prk.begin(), prk.end()), inf(info.begin(), info.end());
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode),
                               OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest.data(), 0),
                               OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, key.data(), key.size()),
                               OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, inf.data(), inf.size()),
                               OSSL_PARAM_construct_end()};
  Bytes out(n);
  EXPECT_EQ(EVP_KDF_derive(ctx.get(), out.data(), out.size(), params), 1);
  return out;
}

TEST(HpkeKdf, LabeledExtractAndExpandAreHkdfOnTheLabeledInputs) {
  std::mt19937 rng(5);
  for (KdfId id : {KdfId::HkdfSha256, KdfId::HkdfSha384, KdfId::HkdfSha512}) {
    const LabeledKdf kdf(id, kSuiteId);
    const std::size_t n_h = kdf.info().n_h;
    SCOPED_TRACE(kdf.info().name);
    for (std::size_t salt_len : {0, 1, 32, 200}) {
      const Bytes salt = random_bytes(rng, salt_len), ikm = random_bytes(rng, salt_len * 3 + 5);
      Bytes prk(n_h);
      kdf.labeled_extract(prk, salt, "secret", ikm);
      const Bytes msg = concat({test::bytes("HPKE-v1"), kSuiteId, test::bytes("secret"), ikm});
      Bytes want(n_h);
      unsigned len = 0;
      const EVP_MD* md = id == KdfId::HkdfSha256 ? EVP_sha256() : id == KdfId::HkdfSha384 ? EVP_sha384() : EVP_sha512();
      HMAC(md, salt.data(), static_cast<int>(salt.size()), msg.data(), msg.size(), want.data(), &len);
      EXPECT_EQ(prk, want) << salt_len;
    }
    const Bytes prk = random_bytes(rng, n_h), a = random_bytes(rng, 3), b = random_bytes(rng, 40);
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, n_h, n_h + 1, 3 * n_h + 7, 255 * n_h}) {
      Bytes got(n);
      kdf.labeled_expand(got, prk, "exp", {a, b});
      const Be16 len(n);
      const Bytes info = concat({len.view(), test::bytes("HPKE-v1"), kSuiteId, test::bytes("exp"), a, b});
      if (n > 0) {
        EXPECT_EQ(got, openssl_hkdf_expand(id, prk, info, n)) << n;
      }
    }
  }
}

// An automatic cipher starts on libsodium where libsodium has the cipher and moves to OpenSSL
// after bulk_bytes, or at bulk(); the bytes stay those of the forced backends, and a twin
// (for a second thread) gives them too.
TEST(HpkeAead, AutomaticMovesToOpenSslWithTheSameBytes) {
  std::mt19937 rng(9);
  for (AeadId id : sodium_aeads()) {
    const AeadInfo& info = aead_info(id);
    SCOPED_TRACE(info.name);
    const Bytes key = random_bytes(rng, info.n_k);
    AeadCipher automatic(id, key), forced(id, key, AeadBackend::libsodium), later(id, key);
    ASSERT_EQ(automatic.backend(), AeadBackend::libsodium);
    const std::size_t block = 65536;
    const std::size_t blocks = bulk_bytes(id) / block + 2;
    std::array<std::uint8_t, 12> nonce{};
    for (std::size_t i = 0; i < blocks; ++i) {
      nonce[11] = static_cast<std::uint8_t>(i);
      const Bytes pt = random_bytes(rng, block);
      Bytes a(block + 16), b(block + 16), back(block);
      automatic.seal(nonce, {}, pt, a);
      forced.seal(nonce, {}, pt, b);
      ASSERT_EQ(a, b) << i;
      // The move comes before the first message past bulk_bytes (a failed move seals nothing).
      EXPECT_EQ(automatic.backend(), i * block >= bulk_bytes(id) ? AeadBackend::openssl : AeadBackend::libsodium)
          << i;
      const std::unique_ptr<AeadCipher> twin = automatic.twin();
      EXPECT_EQ(twin->backend(), automatic.backend());
      ASSERT_TRUE(twin->open(nonce, {}, a, back));
      ASSERT_EQ(back, pt);
      if (i == 0) {
        later.bulk();
        EXPECT_EQ(later.backend(), AeadBackend::openssl);
        Bytes c(block + 16);
        later.seal(nonce, {}, pt, c);
        EXPECT_EQ(c, a);
      }
    }
    forced.bulk();  // a forced backend stays
    EXPECT_EQ(forced.backend(), AeadBackend::libsodium);
  }
}

Bytes openssl_xof(const char* name, ByteView in, std::size_t n) {
  std::unique_ptr<EVP_MD, decltype(&EVP_MD_free)> md(EVP_MD_fetch(nullptr, name, nullptr), &EVP_MD_free);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  Bytes out(n);
  EXPECT_TRUE(EVP_DigestInit_ex2(ctx.get(), md.get(), nullptr) == 1 &&
              EVP_DigestUpdate(ctx.get(), in.data(), in.size()) == 1 &&
              EVP_DigestFinalXOF(ctx.get(), out.data(), out.size()) == 1);
  return out;
}

TEST(HpkeKdf, LabeledDeriveIsShakeOnTheLabeledInput) {
  std::mt19937 rng(6);
  for (KdfId id : {KdfId::Shake128, KdfId::Shake256}) {
    const LabeledKdf kdf(id, kSuiteId);
    SCOPED_TRACE(kdf.info().name);
    for (std::size_t n : {std::size_t{0}, std::size_t{32}, std::size_t{200}, std::size_t{1000}}) {
      const Bytes ikm1 = random_bytes(rng, n % 50), ikm2 = random_bytes(rng, 300), ctx = random_bytes(rng, n % 170);
      Bytes got(n);
      kdf.labeled_derive(got, {ikm1, ikm2}, "DeriveKeyPair", {ctx});
      const Be16 label_len(13), len(n);
      const Bytes in = concat({ikm1, ikm2, test::bytes("HPKE-v1"), kSuiteId, label_len.view(),
                               test::bytes("DeriveKeyPair"), len.view(), ctx});
      EXPECT_EQ(got, openssl_xof(id == KdfId::Shake128 ? "SHAKE128" : "SHAKE256", in, n)) << n;
    }
  }
}

}  // namespace
}  // namespace pqkem::hpke
