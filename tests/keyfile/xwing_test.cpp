// Key files for X-Wing (draft-connolly-cfrg-xwing-kem): the draft's examples in tests/hybrid/data
// read and written byte for byte, round trips, the seed-only form, and every malformed SPKI and
// PKCS#8 the readers must reject.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "keyfile/der.hpp"
#include "keyfile/keyfile.hpp"
#include "keyfile_test_util.hpp"
#include "pqkem.hpp"
#include "support.hpp"

namespace pqkem {
namespace {

using namespace keyfile_test;
using test::bytes_equal;
using test::throws_errc;

/// A file of the X-Wing draft's examples (tests/hybrid/data).
std::string read_hybrid_data(const std::string& name) {
  return test::read_file(std::filesystem::path(PQKEM_HYBRID_DATA_DIR) / name);
}

// --- X-Wing (draft-connolly-cfrg-xwing-kem, "Use in X.509 Public Key Infrastructure") ---------
//
// SubjectPublicKeyInfo { AlgorithmIdentifier { id-XWing }, BIT STRING pk (1216 bytes) }; PKCS#8
// version 0 { AlgorithmIdentifier { id-XWing }, OCTET STRING { the raw 32-byte seed } }, no
// publicKey, parameters absent in both.

/// An X-Wing PKCS#8 built by hand: version, AlgorithmIdentifier, privateKey content, extra fields.
Bytes xwing_pkcs8(std::uint8_t v, const Bytes& priv, const Bytes& extra = {}) {
  return pkcs8(version(v), xwing_alg_id(), priv, extra);
}

TEST(XWingKeyFile, DraftExamplesReadAndWrittenByteForByte) {
  const std::string priv_pem = read_hybrid_data("xwing.priv");
  const std::string pub_pem = read_hybrid_data("xwing.pub");
  const auto want = keygen_derand(Scheme::XWing, xwing_seed());

  const auto priv = keyfile::pem_decode(view_of(priv_pem));
  EXPECT_EQ(priv.label, "PRIVATE KEY");
  // The draft's structure, byte for byte: the raw seed directly inside the OCTET STRING.
  EXPECT_TRUE(bytes_equal(priv.der, xwing_pkcs8(0, xwing_seed())));
  EXPECT_EQ(priv.der.size(), 54u);
  EXPECT_EQ(keyfile::der_kind(priv.der), keyfile::DerKind::pkcs8);
  const auto key = keyfile::decode_pkcs8(priv.der);
  EXPECT_EQ(key.scheme, Scheme::XWing);
  EXPECT_EQ(key.form, PrivateKeyForm::seed);
  EXPECT_TRUE(bytes_equal(key.seed, xwing_seed()));
  EXPECT_TRUE(bytes_equal(key.dk, want.sk));
  EXPECT_TRUE(bytes_equal(key.pk, want.pk));

  const auto pub = keyfile::pem_decode(view_of(pub_pem));
  EXPECT_EQ(pub.label, "PUBLIC KEY");
  EXPECT_TRUE(bytes_equal(pub.der, spki(xwing_alg_id(), want.pk)));
  EXPECT_EQ(keyfile::der_kind(pub.der), keyfile::DerKind::spki);
  const auto pk = keyfile::decode_spki(pub.der);
  EXPECT_EQ(pk.scheme, Scheme::XWing);
  EXPECT_TRUE(bytes_equal(pk.pk, want.pk));

  // pqkem writes the draft's files for that seed.
  const auto made = keyfile::private_key_from_seed(Scheme::XWing, xwing_seed());
  EXPECT_EQ(string_of(keyfile::pem_encode(keyfile::kPemPrivateKey, keyfile::encode_pkcs8(made, PrivateKeyForm::seed))),
            priv_pem);
  EXPECT_EQ(string_of(keyfile::pem_encode(keyfile::kPemPublicKey, keyfile::encode_spki(Scheme::XWing, made.pk))),
            pub_pem);
}

TEST(XWingKeyFile, RoundTrips) {
  for (int i = 0; i < 8; ++i) {
    Bytes seed(32);
    for (std::size_t j = 0; j < seed.size(); ++j) seed[j] = static_cast<std::uint8_t>(0x5a ^ (31 * j + 7 * i));
    const auto key = keyfile::private_key_from_seed(Scheme::XWing, seed);
    const auto der = keyfile::encode_pkcs8(key, PrivateKeyForm::seed);
    EXPECT_TRUE(bytes_equal(der, xwing_pkcs8(0, seed)));
    const auto back = keyfile::decode_pkcs8(der);
    EXPECT_EQ(back.scheme, Scheme::XWing);
    EXPECT_EQ(back.form, PrivateKeyForm::seed);
    EXPECT_TRUE(bytes_equal(back.seed, seed));
    EXPECT_TRUE(bytes_equal(back.dk, key.dk));
    EXPECT_TRUE(bytes_equal(back.pk, key.pk));
    EXPECT_TRUE(bytes_equal(keyfile::pem_decode(keyfile::pem_encode(keyfile::kPemPrivateKey, der)).der, der));
    const auto spki_der = keyfile::encode_spki(Scheme::XWing, key.pk);
    EXPECT_EQ(spki_der.size(), 1240u);
    EXPECT_TRUE(bytes_equal(keyfile::decode_spki(spki_der).pk, key.pk));
    // The key works: what encapsulates to the SPKI's key decapsulates with the PKCS#8's.
    const auto enc = encaps(Scheme::XWing, keyfile::decode_spki(spki_der).pk);
    EXPECT_TRUE(bytes_equal(decaps(Scheme::XWing, back.seed, enc.ct), enc.ss));
  }
}

// The expanded form is pqkem's in-memory cache: never written to a key file.
TEST(XWingKeyFile, OnlyTheSeedForm) {
  const auto key = keyfile::private_key_from_seed(Scheme::XWing, xwing_seed());
  for (const auto form : {PrivateKeyForm::expanded, PrivateKeyForm::both})
    EXPECT_TRUE(throws_with([&] { keyfile::encode_pkcs8(key, form); }, Errc::bad_argument,
                            "X-Wing private keys hold only the seed (draft-connolly-cfrg-xwing-kem)"));
  // A hybrid's expanded key starts with its seed: a key made from it knows the seed.
  for (const auto s : {Scheme::XWing, Scheme::X25519MlKem768}) {
    const auto& info = scheme_info(s);
    SCOPED_TRACE(std::string(info.name));
    const auto kp = keygen(s);
    const auto expanded = keyfile::private_key_from_expanded(s, kp.sk);
    EXPECT_TRUE(bytes_equal(expanded.seed, kp.sk.view().first(info.seed_bytes)));
    EXPECT_TRUE(bytes_equal(expanded.pk, kp.pk));
    // private_key_from_expanded takes the expanded form only, not the seed.
    EXPECT_TRUE(throws_errc([&] { keyfile::private_key_from_expanded(s, kp.sk.view().first(info.seed_bytes)); },
                            Errc::bad_length));
  }
  EXPECT_TRUE(
      bytes_equal(keyfile::decode_pkcs8(keyfile::encode_pkcs8(keyfile::private_key_from_expanded(Scheme::XWing, key.dk),
                                                              PrivateKeyForm::seed))
                      .seed,
                  xwing_seed()));
}

TEST(XWingKeyFile, Pkcs8Rejections) {
  const Bytes seed = xwing_seed();
  const Bytes good = xwing_pkcs8(0, seed);
  EXPECT_NO_THROW(keyfile::decode_pkcs8(good));
  const auto bad = [](const Bytes& der, const std::string& needle) { return pkcs8_rejects(der, needle); };
  const Bytes trailing = with_trailing_byte(good);
  EXPECT_TRUE(bad(trailing, "PKCS#8 private key: trailing data after the PKCS#8 structure"));
  EXPECT_TRUE(bad(xwing_pkcs8(0, seed, Bytes{0x05, 0x00}), "trailing data after the privateKey"));
  // Version 0 only; the publicKey MUST be absent (whatever the version, matching or not).
  EXPECT_TRUE(
      bad(xwing_pkcs8(1, seed), "PKCS#8 private key: unsupported version (draft-connolly-cfrg-xwing-kem requires 0)"));
  EXPECT_TRUE(bad(xwing_pkcs8(2, seed), "unsupported version"));
  const auto pk = keygen_derand(Scheme::XWing, seed).pk;
  Bytes pub_bits{0};
  pub_bits.insert(pub_bits.end(), pk.begin(), pk.end());
  const std::string no_public_key =
      "PKCS#8 private key: X-Wing private keys have no publicKey field (draft-connolly-cfrg-xwing-kem: it MUST be "
      "absent)";
  EXPECT_TRUE(bad(xwing_pkcs8(0, seed, tlv(0x81, pub_bits)), no_public_key));
  EXPECT_TRUE(bad(xwing_pkcs8(1, seed, tlv(0x81, pub_bits)), no_public_key));
  EXPECT_TRUE(bad(xwing_pkcs8(0, seed, tlv(0xa0, {})), "attributes are not supported in X-Wing private keys"));
  // The seed is exactly 32 raw bytes: not wrapped as RFC 9935's ML-KEM CHOICE or in an inner
  // OCTET STRING, not shorter or longer.
  const std::string seed_length =
      "PKCS#8 private key: X-Wing privateKey (the seed) has the wrong length; draft-connolly-cfrg-xwing-kem requires "
      "32 "
      "bytes";
  for (const Bytes& priv : {Bytes(seed.begin(), seed.end() - 1), cat({seed, Bytes{0}}), Bytes{}, tlv(0x80, seed),
                            tlv(0x04, seed), Bytes(64, 0x11)})
    EXPECT_TRUE(bad(xwing_pkcs8(0, priv), seed_length)) << priv.size();
  // Parameters present (NULL, or anything) in the AlgorithmIdentifier.
  const std::string parameters =
      "the AlgorithmIdentifier has parameters; draft-connolly-cfrg-xwing-kem requires them to be absent";
  EXPECT_TRUE(bad(pkcs8(version(0), tlv(0x30, cat({tlv(0x06, kXWingOid), Bytes{0x05, 0x00}})), seed), parameters));
  EXPECT_TRUE(bad(pkcs8(version(0), tlv(0x30, cat({tlv(0x06, kXWingOid), tlv(0x04, {1})})), seed), parameters));
  // A prefix or an extension of the OID is not X-Wing.
  for (const Bytes& near : {Bytes(kXWingOid.begin(), kXWingOid.end() - 1), cat({kXWingOid, Bytes{0x01}})})
    EXPECT_TRUE(
        bad(pkcs8(version(0), tlv(0x30, tlv(0x06, near)), seed), "the algorithm OID is not ML-KEM's or X-Wing's"));
  EXPECT_TRUE(
      bad(tlv(0x30, cat({version(0), xwing_alg_id(), tlv(0x80, seed)})), "privateKey: expected an OCTET STRING"));
  EXPECT_TRUE(bad(Bytes(good.begin(), good.end() - 1), "truncated"));
}

TEST(XWingKeyFile, SpkiRejections) {
  const auto pk = keygen_derand(Scheme::XWing, xwing_seed()).pk;
  const Bytes good = spki(xwing_alg_id(), pk);
  ASSERT_TRUE(bytes_equal(keyfile::encode_spki(Scheme::XWing, pk), good));
  const auto bad = spki_rejects;
  const Bytes trailing = with_trailing_byte(good);
  EXPECT_TRUE(bad(trailing, Errc::bad_format, "trailing data after the SubjectPublicKeyInfo"));
  const std::string length =
      "X-Wing public key has the wrong length; draft-connolly-cfrg-xwing-kem requires 1216 bytes";
  EXPECT_TRUE(bad(spki(xwing_alg_id(), Bytes(pk.begin(), pk.end() - 1)), Errc::bad_format, length));
  EXPECT_TRUE(bad(spki(xwing_alg_id(), cat({pk, Bytes{0}})), Errc::bad_format, length));
  // An ML-KEM-768 key (the first 1184 bytes) under the X-Wing OID, and the X-Wing key under ML-KEM-768's.
  EXPECT_TRUE(bad(spki(xwing_alg_id(), Bytes(pk.begin(), pk.begin() + 1184)), Errc::bad_format, length));
  EXPECT_TRUE(bad(spki(alg_id(2), pk), Errc::bad_format, "ML-KEM-768 public key has the wrong length"));
  EXPECT_TRUE(bad(spki(xwing_alg_id(), pk, 1), Errc::bad_format, "0 unused bits"));
  EXPECT_TRUE(bad(spki(tlv(0x30, cat({tlv(0x06, kXWingOid), Bytes{0x05, 0x00}})), pk), Errc::bad_format,
                  "the AlgorithmIdentifier has parameters; draft-connolly-cfrg-xwing-kem requires them to be absent"));
  // The ML-KEM-768 part is checked (FIPS 203 modulus check).
  Bytes unreduced = pk;
  unreduced[0] = 0xff;
  unreduced[1] |= 0x0f;
  EXPECT_TRUE(bad(spki(xwing_alg_id(), unreduced), Errc::invalid_encaps_key, "modulo q"));
  // A PKCS#8 is not an SPKI, and the other way round.
  EXPECT_TRUE(bad(xwing_pkcs8(0, xwing_seed()), Errc::bad_format,
                  "SubjectPublicKeyInfo: AlgorithmIdentifier: expected a SEQUENCE"));
  EXPECT_TRUE(throws_with([&] { keyfile::decode_pkcs8(good); }, Errc::bad_format,
                          "PKCS#8 private key: version: expected an INTEGER"));
}

}  // namespace
}  // namespace pqkem
