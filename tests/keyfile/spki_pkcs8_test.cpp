// SubjectPublicKeyInfo and PKCS#8 for ML-KEM: every malformed structure and key material the
// readers must reject, with its error code and message, and foreign algorithms named by OID.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hash.hpp"
#include "keyfile/der.hpp"
#include "keyfile/keyfile.hpp"
#include "keyfile_test_util.hpp"
#include "pqkem.hpp"
#include "support.hpp"

namespace pqkem {
namespace {

using namespace keyfile_test;
using test::bytes_equal;

// --- SubjectPublicKeyInfo rejections ------------------------------------------------------------

TEST(Spki, Rejections) {
  const Fixture f;
  const Bytes good = spki(alg_id(1), f.kp.pk);
  ASSERT_TRUE(bytes_equal(keyfile::encode_spki(f.s, f.kp.pk), good));
  EXPECT_NO_THROW(keyfile::decode_spki(good));
  const auto bad = spki_rejects;
  const Bytes trailing = with_trailing_byte(good);
  EXPECT_TRUE(bad(trailing, Errc::bad_format, "SubjectPublicKeyInfo: trailing data after the SubjectPublicKeyInfo"));
  EXPECT_TRUE(bad(tlv(0x30, cat({alg_id(1), tlv(0x03, cat({Bytes{0}, f.kp.pk})), Bytes{0x05, 0x00}})), Errc::bad_format,
                  "trailing data after the subjectPublicKey"));
  EXPECT_TRUE(bad(spki(alg_id(2), f.kp.pk), Errc::bad_format,
                  "ML-KEM-768 public key has the wrong length; RFC 9935 requires 1184 bytes"));
  EXPECT_TRUE(bad(spki(alg_id(4), f.kp.pk), Errc::bad_format,
                  "SubjectPublicKeyInfo: the algorithm OID is not ML-KEM's or X-Wing's (RFC 9935: "
                  "2.16.840.1.101.3.4.4.1, .2 or .3 for ML-KEM-512, -768, -1024; draft-connolly-cfrg-xwing-kem: "
                  "1.3.6.1.4.1.62253.25722)"));
  EXPECT_TRUE(bad(spki(tlv(0x30, tlv(0x06, {0x2b, 0x65, 0x6e})), f.kp.pk), Errc::bad_format,
                  "SubjectPublicKeyInfo: this is an X25519 key, not ML-KEM"));
  EXPECT_TRUE(bad(spki(tlv(0x30, cat({tlv(0x06, oid_bytes(1)), Bytes{0x05, 0x00}})), f.kp.pk), Errc::bad_format,
                  "has parameters"));
  EXPECT_TRUE(bad(spki(alg_id(1), f.kp.pk, 1), Errc::bad_format, "0 unused bits"));
  EXPECT_TRUE(bad(spki(alg_id(1), Bytes(f.kp.pk.begin(), f.kp.pk.end() - 1)), Errc::bad_format,
                  "ML-KEM-512 public key has the wrong length; RFC 9935 requires 800 bytes"));
  Bytes unreduced = f.kp.pk;
  unreduced[0] = 0xff;
  unreduced[1] |= 0x0f;  // first 12-bit coefficient 0xfff >= q
  EXPECT_TRUE(bad(spki(alg_id(1), unreduced), Errc::invalid_encaps_key, "modulo q"));
  // Indefinite and non-minimal outer lengths.
  Bytes indefinite{0x30, 0x80};
  indefinite.insert(indefinite.end(), good.begin() + 4, good.end());
  indefinite.insert(indefinite.end(), {0x00, 0x00});
  EXPECT_TRUE(bad(indefinite, Errc::bad_format, "indefinite length"));
  ASSERT_EQ(good[1], 0x82);
  Bytes long_len{0x30, 0x83, 0x00, good[2], good[3]};
  long_len.insert(long_len.end(), good.begin() + 4, good.end());
  EXPECT_TRUE(bad(long_len, Errc::bad_format, "non-minimal"));
  EXPECT_TRUE(bad(Bytes(good.begin(), good.end() - 1), Errc::bad_format,
                  "SubjectPublicKeyInfo: truncated: an element is longer than the data that remains"));
  EXPECT_TRUE(bad(tlv(0x31, Bytes(good.begin() + 4, good.end())), Errc::bad_format,
                  "SubjectPublicKeyInfo: the outer element: expected a SEQUENCE"));
  EXPECT_TRUE(bad(spki(tlv(0x30, tlv(0x04, oid_bytes(1))), f.kp.pk), Errc::bad_format,
                  "algorithm OID: expected an OBJECT IDENTIFIER"));
  EXPECT_TRUE(bad(tlv(0x30, cat({alg_id(1), tlv(0x04, f.kp.pk)})), Errc::bad_format,
                  "subjectPublicKey: expected a BIT STRING"));
  // A PKCS#8 key is not an SPKI.
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x80, f.seed)), Errc::bad_format,
                  "SubjectPublicKeyInfo: AlgorithmIdentifier: expected a SEQUENCE"));
}

TEST(Spki, WellKnownForeignOidsAreNamed) {
  const Fixture f;
  // The OID read from the input is never printed; one of these constants is named instead.
  const struct {
    Bytes oid;
    const char* name;
  } known[] = {
      {{0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01}, "RSA"},        // rsaEncryption 1.2.840.113549.1.1.1
      {{0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01}, "EC"},                     // id-ecPublicKey 1.2.840.10045.2.1
      {{0x2b, 0x65, 0x6e}, "X25519"},                                         // 1.3.101.110
      {{0x2b, 0x65, 0x6f}, "X448"},                                           // 1.3.101.111
      {{0x2b, 0x65, 0x70}, "Ed25519"},                                        // 1.3.101.112
      {{0x2b, 0x65, 0x71}, "Ed448"},                                          // 1.3.101.113
      {{0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11}, "ML-DSA-44"},  // 2.16.840.1.101.3.4.3.17
      {{0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12}, "ML-DSA-65"},
      {{0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x13}, "ML-DSA-87"},
  };
  for (const auto& k : known) {
    const Bytes alg = tlv(0x30, tlv(0x06, k.oid));
    const std::string want = std::string("this is an ") + k.name + " key, not ML-KEM or X-Wing";
    EXPECT_TRUE(throws_with([&] { keyfile::decode_spki(spki(alg, f.kp.pk)); }, Errc::bad_format,
                            "SubjectPublicKeyInfo: " + want));
    EXPECT_TRUE(throws_with([&] { keyfile::decode_pkcs8(pkcs8(version(0), alg, tlv(0x80, f.seed))); }, Errc::bad_format,
                            "PKCS#8 private key: " + want));
    // A prefix or an extension of a known OID is not that algorithm.
    for (const Bytes& near : {Bytes(k.oid.begin(), k.oid.end() - 1), cat({k.oid, Bytes{0x01}})}) {
      const Bytes der = spki(tlv(0x30, tlv(0x06, near)), f.kp.pk);
      EXPECT_TRUE(
          throws_with([&] { keyfile::decode_spki(der); }, Errc::bad_format, "the algorithm OID is not ML-KEM's"));
    }
  }
}

// --- PKCS#8 rejections ------------------------------------------------------------------------

TEST(Pkcs8, StructureRejections) {
  const Fixture f;
  const Bytes seed_choice = tlv(0x80, f.seed);
  const Bytes good = pkcs8(version(0), alg_id(1), seed_choice);
  ASSERT_TRUE(
      bytes_equal(keyfile::encode_pkcs8(keyfile::private_key_from_seed(f.s, f.seed), PrivateKeyForm::seed), good));
  EXPECT_NO_THROW(keyfile::decode_pkcs8(good));
  const auto bad = [](const Bytes& der, const std::string& needle) { return pkcs8_rejects(der, needle); };
  const Bytes trailing = with_trailing_byte(good);
  EXPECT_TRUE(bad(trailing, "PKCS#8 private key: trailing data after the PKCS#8 structure"));
  EXPECT_TRUE(
      bad(pkcs8(version(0), alg_id(1), cat({seed_choice, Bytes{0x00}})), "trailing data after the private key"));
  EXPECT_TRUE(bad(pkcs8(version(2), alg_id(1), seed_choice), "unsupported version"));
  EXPECT_TRUE(bad(pkcs8(tlv(0x02, {0x00, 0x00}), alg_id(1), seed_choice), "unsupported version"));
  EXPECT_TRUE(bad(pkcs8(alg_id(1), alg_id(1), seed_choice), "PKCS#8 private key: version: expected an INTEGER"));
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(9), seed_choice), "PKCS#8 private key: the algorithm OID is not ML-KEM's"));
  EXPECT_TRUE(bad(tlv(0x30, cat({version(0), alg_id(1), tlv(0x80, f.seed)})), "privateKey: expected an OCTET STRING"));
  EXPECT_TRUE(bad(pkcs8(version(0), tlv(0x30, cat({tlv(0x06, oid_bytes(1)), Bytes{0x05, 0x00}})), seed_choice),
                  "has parameters"));
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), seed_choice, tlv(0xa0, {})), "attributes are not supported"));
  Bytes pub_bits{0};
  pub_bits.insert(pub_bits.end(), f.kp.pk.begin(), f.kp.pk.end());
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), seed_choice, tlv(0x81, pub_bits)), "publicKey field needs version 1"));
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), seed_choice, Bytes{0x05, 0x00}), "trailing data after the privateKey"));
  // Version 1 with a matching public key is accepted; a mismatching one is not.
  EXPECT_NO_THROW(keyfile::decode_pkcs8(pkcs8(version(1), alg_id(1), seed_choice, tlv(0x81, pub_bits))));
  pub_bits[10] ^= 1;
  EXPECT_TRUE(bad(pkcs8(version(1), alg_id(1), seed_choice, tlv(0x81, pub_bits)), "does not match the private key"));
  // Private key CHOICE: decided by tag, lengths exact.
  const std::string not_a_form =
      "PKCS#8 private key: privateKey: not one of RFC 9935's private key forms (seed [0], expandedKey OCTET STRING, "
      "both SEQUENCE)";
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x81, f.seed)), not_a_form));
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0xa0, f.seed)), not_a_form));
  const std::string seed_length =
      "PKCS#8 private key: ML-KEM-512 seed has the wrong length; RFC 9935 requires 64 bytes";
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x80, Bytes(f.seed.begin(), f.seed.end() - 1))), seed_length));
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x80, cat({f.seed, Bytes{0}}))), seed_length));
  // A 64-byte expandedKey is not a seed (the tag decides, not the length).
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x04, f.seed)),
                  "ML-KEM-512 expandedKey has the wrong length; RFC 9935 requires 1632 bytes"));
  // An ML-KEM-512 key labelled ML-KEM-768.
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(2), tlv(0x04, f.dk())),
                  "ML-KEM-768 expandedKey has the wrong length; RFC 9935 requires 2400 bytes"));
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x30, tlv(0x04, f.seed))), "missing expandedKey"));
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x30, cat({tlv(0x80, f.seed), tlv(0x04, f.dk())}))),
                  "PKCS#8 private key (both): seed: expected an OCTET STRING"));
  EXPECT_TRUE(
      bad(pkcs8(version(0), alg_id(1), tlv(0x30, cat({tlv(0x04, f.seed), tlv(0x04, f.dk()), Bytes{0x05, 0x00}}))),
          "trailing data after the expandedKey"));
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x30, cat({tlv(0x04, Bytes(32)), tlv(0x04, f.dk())}))),
                  "PKCS#8 private key (both): ML-KEM-512 seed has the wrong length; RFC 9935 requires 64 bytes"));
  // Indefinite length inside the privateKey OCTET STRING.
  Bytes indefinite_choice{0x80, 0x80};
  indefinite_choice.insert(indefinite_choice.end(), f.seed.begin(), f.seed.end());
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), indefinite_choice), "indefinite length"));
  // Non-minimal length of the seed.
  Bytes long_seed{0x80, 0x81, 0x40};
  long_seed.insert(long_seed.end(), f.seed.begin(), f.seed.end());
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), long_seed), "non-minimal"));
}

TEST(Pkcs8, KeyMaterialRejections) {
  const Fixture f;
  const Bytes dk = f.dk();
  const auto info = scheme_info(f.s);
  EXPECT_NO_THROW(keyfile::decode_pkcs8(pkcs8(version(0), alg_id(1), tlv(0x04, dk))));
  const auto bad = [](const Bytes& der, Errc code, const std::string& needle) {
    return pkcs8_rejects(der, needle, code);
  };
  // H(ek) stored in dk does not match ek.
  Bytes bad_hash = dk;
  bad_hash[info.sk_bytes - 64] ^= 1;
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x04, bad_hash)), Errc::invalid_decaps_key, "H(ek)"));
  // Embedded ek changed (H(ek) then no longer matches).
  const std::size_t ek_at = 384 * 2;
  Bytes bad_ek = dk;
  bad_ek[ek_at + 5] ^= 0x10;
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x04, bad_ek)), Errc::invalid_decaps_key, "H(ek)"));
  // Embedded ek with an unreduced coefficient and a recomputed H(ek): the modulus check.
  Bytes unreduced = dk;
  unreduced[ek_at] = 0xff;
  unreduced[ek_at + 1] |= 0x0f;
  std::array<std::uint8_t, 32> h{};
  hash::sha3_256(h, {ByteView(unreduced).subspan(ek_at, info.pk_bytes)});
  std::copy(h.begin(), h.end(), unreduced.begin() + static_cast<std::ptrdiff_t>(ek_at + info.pk_bytes));
  EXPECT_TRUE(
      bad(pkcs8(version(0), alg_id(1), tlv(0x04, unreduced)), Errc::invalid_decaps_key, "invalid encapsulation key"));
  // Secret part s changed, ek and H(ek) intact: only the pairwise check sees it.
  Bytes bad_s = dk;
  bad_s[3] ^= 0x01;
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x04, bad_s)), Errc::invalid_decaps_key, "pairwise consistency"));
  // 'both' whose expanded key belongs to another seed.
  Bytes other_seed = f.seed;
  other_seed[0] ^= 0x80;
  const auto other = keygen_derand(f.s, other_seed);
  EXPECT_TRUE(
      bad(pkcs8(version(0), alg_id(1),
                tlv(0x30, cat({tlv(0x04, f.seed), tlv(0x04, Bytes(other.sk.view().begin(), other.sk.view().end()))}))),
          Errc::invalid_decaps_key, "disagree"));
  EXPECT_NO_THROW(
      keyfile::decode_pkcs8(pkcs8(version(0), alg_id(1), tlv(0x30, cat({tlv(0x04, f.seed), tlv(0x04, dk)})))));
}

}  // namespace
}  // namespace pqkem
