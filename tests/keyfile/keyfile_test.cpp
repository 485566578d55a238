// Key files: the strict DER reader/writer, PEM, SubjectPublicKeyInfo and PKCS#8 for ML-KEM
// (RFC 9935, against the RFC's example files and files written by OpenSSL 3.5.3) and for X-Wing
// (draft-connolly-cfrg-xwing-kem, against the draft's examples in tests/hybrid/data), and every
// malformed input the readers must reject. A missing vector file fails the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "hash.hpp"
#include "keyfile/der.hpp"
#include "keyfile/keyfile.hpp"
#include "pqkem.hpp"
#include "support.hpp"

namespace pqkem {
namespace {

using keyfile::PrivateKeyForm;
using test::bytes_equal;
using test::throws_errc;

constexpr Scheme kMlKem[] = {Scheme::MlKem512, Scheme::MlKem768, Scheme::MlKem1024};
constexpr PrivateKeyForm kForms[] = {PrivateKeyForm::seed, PrivateKeyForm::expanded, PrivateKeyForm::both};

ByteView view_of(const std::string& s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }
Bytes bytes_of(const std::string& s) { return Bytes(s.begin(), s.end()); }
std::string string_of(ByteView v) { return std::string(v.begin(), v.end()); }

std::string read_vector(const std::string& relative) { return test::read_file(test::vector_file(relative)); }

/// 00 01 02 ... n-1: the seed of every RFC 9935 example (n = 64: d = 00..1f, z = 20..3f) and of
/// the X-Wing draft's (n = 32).
Bytes counting_seed(std::size_t n) {
  Bytes seed(n);
  for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::uint8_t>(i);
  return seed;
}
Bytes rfc_seed() { return counting_seed(64); }
Bytes xwing_seed() { return counting_seed(32); }

/// A file of the X-Wing draft's examples (tests/hybrid/data).
std::string read_hybrid_data(const std::string& name) {
  return test::read_file(std::filesystem::path(PQKEM_HYBRID_DATA_DIR) / name);
}

/// Runs f, expecting pqkem::Error with `code` whose message contains `needle`.
template <class F>
::testing::AssertionResult throws_with(F&& f, Errc code, const std::string& needle) {
  try {
    f();
  } catch (const Error& e) {
    const std::string what = e.what();
    if (e.code() != code)
      return ::testing::AssertionFailure() << "code " << errc_name(e.code()) << " (" << what << "), expected "
                                           << errc_name(code);
    if (what.find(needle) == std::string::npos)
      return ::testing::AssertionFailure() << "message '" << what << "' lacks '" << needle << "'";
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "did not throw (expected '" << needle << "')";
}

/// decode_pkcs8 / decode_spki reject `der` with `code` and a message containing `needle`.
::testing::AssertionResult pkcs8_rejects(const Bytes& der, const std::string& needle, Errc code = Errc::bad_format) {
  return throws_with([&] { keyfile::decode_pkcs8(der); }, code, needle);
}
::testing::AssertionResult spki_rejects(const Bytes& der, Errc code, const std::string& needle) {
  return throws_with([&] { keyfile::decode_spki(der); }, code, needle);
}
/// `der` with one byte appended.
Bytes with_trailing_byte(Bytes der) {
  der.push_back(0x00);
  return der;
}

// --- Test-side DER building (independent of der::Writer) ---------------------------------------

Bytes tlv(std::uint8_t tag, const Bytes& content) {
  Bytes out{tag};
  const std::size_t n = content.size();
  if (n < 0x80) {
    out.push_back(static_cast<std::uint8_t>(n));
  } else if (n < 0x100) {
    out.insert(out.end(), {0x81, static_cast<std::uint8_t>(n)});
  } else {
    out.insert(out.end(), {0x82, static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n)});
  }
  out.insert(out.end(), content.begin(), content.end());
  return out;
}
Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
Bytes oid_bytes(std::uint8_t last) { return {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, last}; }
Bytes alg_id(std::uint8_t last) { return tlv(0x30, tlv(0x06, oid_bytes(last))); }
/// id-XWing, 1.3.6.1.4.1.62253.25722 (the X-Wing draft), and its AlgorithmIdentifier.
const Bytes kXWingOid = {0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xe6, 0x2d, 0x81, 0xc8, 0x7a};
Bytes xwing_alg_id() { return tlv(0x30, tlv(0x06, kXWingOid)); }
Bytes version(std::uint8_t v) { return tlv(0x02, {v}); }
Bytes pkcs8(const Bytes& version_field, const Bytes& alg, const Bytes& choice, const Bytes& extra = {}) {
  return tlv(0x30, cat({version_field, alg, tlv(0x04, choice), extra}));
}
Bytes spki(const Bytes& alg, const Bytes& pk, std::uint8_t unused_bits = 0) {
  Bytes bits{unused_bits};
  bits.insert(bits.end(), pk.begin(), pk.end());
  return tlv(0x30, cat({alg, tlv(0x03, bits)}));
}

struct Fixture {
  Scheme s = Scheme::MlKem512;
  Bytes seed = rfc_seed();
  KeyPair kp = keygen_derand(Scheme::MlKem512, rfc_seed());
  Bytes dk() const { return Bytes(kp.sk.view().begin(), kp.sk.view().end()); }
};

// --- DER primitives -----------------------------------------------------------------------------

TEST(Der, HeaderSizesAreMinimal) {
  EXPECT_EQ(der::header_size(0), 2u);
  EXPECT_EQ(der::header_size(127), 2u);
  EXPECT_EQ(der::header_size(128), 3u);
  EXPECT_EQ(der::header_size(255), 3u);
  EXPECT_EQ(der::header_size(256), 4u);
  EXPECT_EQ(der::header_size(65535), 4u);
  EXPECT_EQ(der::header_size(65536), 5u);
  for (const std::size_t n : {0u, 1u, 127u, 128u, 255u, 256u, 1000u, 65535u, 65536u}) {
    Bytes content(n, 0xab);
    Bytes out(der::tlv_size(n));
    der::Writer w(out);
    w.tlv(0x04, content);
    w.done();
    der::Reader r(out, "test");
    const ByteView got = r.expect(0x04, "octets");
    r.expect_end("octets");
    EXPECT_TRUE(bytes_equal(got, content)) << n;
    if (n < 0x10000) {
      EXPECT_TRUE(bytes_equal(out, tlv(0x04, content))) << n;
    }
  }
}

TEST(Der, WriterRefusesOverflowAndUnderfill) {
  Bytes out(3);
  der::Writer w(out);
  EXPECT_TRUE(throws_errc([&] { w.tlv(0x04, Bytes(5)); }, Errc::bad_argument));
  Bytes out2(4);
  der::Writer w2(out2);
  w2.tlv(0x04, Bytes(1));
  EXPECT_TRUE(throws_errc([&] { w2.done(); }, Errc::bad_argument));
}

TEST(Der, ReaderRejectsNonDer) {
  const auto read_one = [](const Bytes& in) {
    der::Reader r(in, "test");
    r.next();
    r.expect_end("the element");
  };
  EXPECT_NO_THROW(read_one({0x04, 0x01, 0xaa}));
  EXPECT_NO_THROW(read_one({0x04, 0x00}));
  EXPECT_TRUE(throws_with([&] { read_one({0x04, 0x80, 0xaa, 0x00, 0x00}); }, Errc::bad_format, "indefinite length"));
  EXPECT_TRUE(throws_with([&] { read_one({0x04, 0x81, 0x01, 0xaa}); }, Errc::bad_format, "non-minimal"));
  Bytes leading_zero{0x04, 0x82, 0x00, 0x80};
  leading_zero.resize(4 + 0x80, 0);
  EXPECT_TRUE(throws_with([&] { read_one(leading_zero); }, Errc::bad_format, "non-minimal"));
  EXPECT_TRUE(throws_with([&] { read_one({0x04, 0xff}); }, Errc::bad_format, "reserved"));
  EXPECT_TRUE(throws_with([&] { read_one({0x04, 0x85, 1, 0, 0, 0, 0}); }, Errc::bad_format, "length field too long"));
  EXPECT_TRUE(throws_with([&] { read_one({0x04, 0x03, 0xaa}); }, Errc::bad_format, "truncated"));
  EXPECT_TRUE(throws_with([&] { read_one({0x04, 0x82, 0x01}); }, Errc::bad_format, "truncated"));
  EXPECT_TRUE(throws_with([&] { read_one({0x04}); }, Errc::bad_format, "truncated"));
  EXPECT_TRUE(throws_with([&] { read_one({}); }, Errc::bad_format, "end of data"));
  EXPECT_TRUE(throws_with([&] { read_one({0x1f, 0x81, 0x01, 0x00}); }, Errc::bad_format, "multi-byte"));
  EXPECT_TRUE(throws_with([&] { read_one({0x04, 0x01, 0xaa, 0x00}); }, Errc::bad_format, "trailing data"));
  const Bytes integer{0x02, 0x01, 0x00};
  der::Reader r(integer, "test");
  EXPECT_TRUE(throws_with([&] { r.expect(0x04, "field"); }, Errc::bad_format, "test: field: expected an OCTET STRING"));
  der::Reader r2(integer, "test");
  EXPECT_TRUE(throws_with([&] { r2.expect(0x80, "field"); }, Errc::bad_format, "test: field: wrong tag"));
}

// --- The RFC 9935 example files --------------------------------------------------------------

struct RfcCase {
  const char* name;  // "ML-KEM-512"
  Scheme scheme;
};
constexpr RfcCase kRfcCases[] = {{"ML-KEM-512", Scheme::MlKem512}, {"ML-KEM-768", Scheme::MlKem768}};

TEST(Rfc9935, PrivateKeysReadInEveryForm) {
  for (const auto& c : kRfcCases) {
    const auto want = keygen_derand(c.scheme, rfc_seed());
    for (const auto form : kForms) {
      const std::string file = std::string("formats/rfc9935/") + c.name + "-" + std::string(keyfile::form_name(form)) + ".priv";
      SCOPED_TRACE(file);
      const auto pem = keyfile::pem_decode(view_of(read_vector(file)));
      EXPECT_EQ(pem.label, "PRIVATE KEY");
      EXPECT_EQ(keyfile::der_kind(pem.der), keyfile::DerKind::pkcs8);
      const auto key = keyfile::decode_pkcs8(pem.der);
      EXPECT_EQ(key.scheme, c.scheme);
      EXPECT_EQ(key.form, form);
      EXPECT_TRUE(bytes_equal(key.dk, want.sk));
      EXPECT_TRUE(bytes_equal(key.pk, want.pk));
      if (form == PrivateKeyForm::expanded) {
        EXPECT_TRUE(key.seed.empty());
      } else {
        EXPECT_TRUE(bytes_equal(key.seed, rfc_seed()));
      }
    }
  }
}

TEST(Rfc9935, PublicKeysRead) {
  for (const auto& c : kRfcCases) {
    SCOPED_TRACE(c.name);
    const auto pem = keyfile::pem_decode(view_of(read_vector(std::string("formats/rfc9935/") + c.name + ".pub")));
    EXPECT_EQ(pem.label, "PUBLIC KEY");
    EXPECT_EQ(keyfile::der_kind(pem.der), keyfile::DerKind::spki);
    const auto pub = keyfile::decode_spki(pem.der);
    EXPECT_EQ(pub.scheme, c.scheme);
    EXPECT_TRUE(bytes_equal(pub.pk, keygen_derand(c.scheme, rfc_seed()).pk));
  }
}

TEST(Rfc9935, WritingReproducesTheFilesByteForByte) {
  for (const auto& c : kRfcCases) {
    const auto key = keyfile::private_key_from_seed(c.scheme, rfc_seed());
    for (const auto form : kForms) {
      const std::string file = std::string("formats/rfc9935/") + c.name + "-" + std::string(keyfile::form_name(form)) + ".priv";
      SCOPED_TRACE(file);
      const auto pem = keyfile::pem_encode(keyfile::kPemPrivateKey, keyfile::encode_pkcs8(key, form));
      EXPECT_EQ(string_of(pem), read_vector(file));
    }
    const std::string pub = std::string("formats/rfc9935/") + c.name + ".pub";
    SCOPED_TRACE(pub);
    EXPECT_EQ(string_of(keyfile::pem_encode(keyfile::kPemPublicKey, keyfile::encode_spki(c.scheme, key.pk))),
              read_vector(pub));
  }
}

TEST(Rfc9935, BadExamplesAreRejected) {
  const auto pem1 = keyfile::pem_decode(view_of(read_vector("formats/rfc9935/bad-ML-KEM-512-1.priv")));
  EXPECT_TRUE(throws_with([&] { keyfile::decode_pkcs8(pem1.der); }, Errc::invalid_decaps_key,
                          "the seed and the expanded key disagree"));
  const auto pem2 = keyfile::pem_decode(view_of(read_vector("formats/rfc9935/bad-ML-KEM-512-2.priv")));
  EXPECT_TRUE(throws_with([&] { keyfile::decode_pkcs8(pem2.der); }, Errc::invalid_decaps_key, "pairwise consistency"));
}

// --- Files written by OpenSSL 3.5.3 ----------------------------------------------------------

TEST(OpenSsl353, MlKem768EveryFormPemAndDer) {
  const std::string dir = "formats/openssl-3.5.3/";
  const auto pub = keyfile::decode_spki(bytes_of(read_vector(dir + "mlkem768-pub.der")));
  EXPECT_EQ(pub.scheme, Scheme::MlKem768);
  const auto pub_pem = keyfile::pem_decode(view_of(read_vector(dir + "mlkem768-pub.pem")));
  EXPECT_EQ(pub_pem.label, "PUBLIC KEY");
  EXPECT_TRUE(bytes_equal(keyfile::decode_spki(pub_pem.der).pk, pub.pk));
  EXPECT_TRUE(bytes_equal(keyfile::encode_spki(Scheme::MlKem768, pub.pk), bytes_of(read_vector(dir + "mlkem768-pub.der"))));
  EXPECT_EQ(string_of(keyfile::pem_encode(keyfile::kPemPublicKey, keyfile::encode_spki(Scheme::MlKem768, pub.pk))),
            read_vector(dir + "mlkem768-pub.pem"));

  const auto seeded = keyfile::decode_pkcs8(bytes_of(read_vector(dir + "mlkem768-seed.der")));
  ASSERT_EQ(seeded.seed.size(), 64u);
  const auto want = keygen_derand(Scheme::MlKem768, seeded.seed);
  EXPECT_TRUE(bytes_equal(want.pk, pub.pk));
  for (const auto form : kForms) {
    const std::string base = dir + "mlkem768-" + std::string(keyfile::form_name(form));
    SCOPED_TRACE(base);
    const std::string der_file = read_vector(base + ".der");
    const auto from_der = keyfile::decode_pkcs8(bytes_of(der_file));
    const auto pem = keyfile::pem_decode(view_of(read_vector(base + ".pem")));
    EXPECT_EQ(pem.label, "PRIVATE KEY");
    EXPECT_TRUE(bytes_equal(pem.der, bytes_of(der_file)));
    const auto from_pem = keyfile::decode_pkcs8(pem.der);
    for (const auto* key : {&from_der, &from_pem}) {
      EXPECT_EQ(key->scheme, Scheme::MlKem768);
      EXPECT_EQ(key->form, form);
      EXPECT_TRUE(bytes_equal(key->dk, want.sk));
      EXPECT_TRUE(bytes_equal(key->pk, pub.pk));
    }
    // pqkem writes what OpenSSL wrote.
    EXPECT_TRUE(bytes_equal(keyfile::encode_pkcs8(seeded, form), bytes_of(der_file)));
    EXPECT_EQ(string_of(keyfile::pem_encode(keyfile::kPemPrivateKey, keyfile::encode_pkcs8(seeded, form))),
              read_vector(base + ".pem"));
  }
}

TEST(OpenSsl353, MlKem512SeedAndPublicDer) {
  const std::string dir = "formats/openssl-3.5.3/";
  const auto key = keyfile::decode_pkcs8(bytes_of(read_vector(dir + "mlkem512-seed.der")));
  EXPECT_EQ(key.scheme, Scheme::MlKem512);
  EXPECT_EQ(key.form, PrivateKeyForm::seed);
  const auto want = keygen_derand(Scheme::MlKem512, key.seed);
  EXPECT_TRUE(bytes_equal(key.dk, want.sk));
  const auto pub = keyfile::decode_spki(bytes_of(read_vector(dir + "mlkem512-pub.der")));
  EXPECT_EQ(pub.scheme, Scheme::MlKem512);
  EXPECT_TRUE(bytes_equal(pub.pk, want.pk));
  EXPECT_TRUE(bytes_equal(keyfile::encode_pkcs8(key, PrivateKeyForm::seed), bytes_of(read_vector(dir + "mlkem512-seed.der"))));
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
  EXPECT_TRUE(bytes_equal(keyfile::decode_pkcs8(keyfile::encode_pkcs8(
                              keyfile::private_key_from_expanded(Scheme::XWing, key.dk), PrivateKeyForm::seed)).seed,
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
  EXPECT_TRUE(bad(xwing_pkcs8(1, seed), "PKCS#8 private key: unsupported version (draft-connolly-cfrg-xwing-kem requires 0)"));
  EXPECT_TRUE(bad(xwing_pkcs8(2, seed), "unsupported version"));
  const auto pk = keygen_derand(Scheme::XWing, seed).pk;
  Bytes pub_bits{0};
  pub_bits.insert(pub_bits.end(), pk.begin(), pk.end());
  const std::string no_public_key =
      "PKCS#8 private key: X-Wing private keys have no publicKey field (draft-connolly-cfrg-xwing-kem: it MUST be absent)";
  EXPECT_TRUE(bad(xwing_pkcs8(0, seed, tlv(0x81, pub_bits)), no_public_key));
  EXPECT_TRUE(bad(xwing_pkcs8(1, seed, tlv(0x81, pub_bits)), no_public_key));
  EXPECT_TRUE(bad(xwing_pkcs8(0, seed, tlv(0xa0, {})), "attributes are not supported in X-Wing private keys"));
  // The seed is exactly 32 raw bytes: not wrapped as RFC 9935's ML-KEM CHOICE or in an inner
  // OCTET STRING, not shorter or longer.
  const std::string seed_length =
      "PKCS#8 private key: X-Wing privateKey (the seed) has the wrong length; draft-connolly-cfrg-xwing-kem requires 32 "
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
    EXPECT_TRUE(bad(pkcs8(version(0), tlv(0x30, tlv(0x06, near)), seed), "the algorithm OID is not ML-KEM's or X-Wing's"));
  EXPECT_TRUE(bad(tlv(0x30, cat({version(0), xwing_alg_id(), tlv(0x80, seed)})), "privateKey: expected an OCTET STRING"));
  EXPECT_TRUE(bad(Bytes(good.begin(), good.end() - 1), "truncated"));
}

TEST(XWingKeyFile, SpkiRejections) {
  const auto pk = keygen_derand(Scheme::XWing, xwing_seed()).pk;
  const Bytes good = spki(xwing_alg_id(), pk);
  ASSERT_TRUE(bytes_equal(keyfile::encode_spki(Scheme::XWing, pk), good));
  const auto bad = spki_rejects;
  const Bytes trailing = with_trailing_byte(good);
  EXPECT_TRUE(bad(trailing, Errc::bad_format, "trailing data after the SubjectPublicKeyInfo"));
  const std::string length = "X-Wing public key has the wrong length; draft-connolly-cfrg-xwing-kem requires 1216 bytes";
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
  EXPECT_TRUE(bad(xwing_pkcs8(0, xwing_seed()), Errc::bad_format, "SubjectPublicKeyInfo: AlgorithmIdentifier: expected a SEQUENCE"));
  EXPECT_TRUE(throws_with([&] { keyfile::decode_pkcs8(good); }, Errc::bad_format,
                          "PKCS#8 private key: version: expected an INTEGER"));
}

// --- Round trips ----------------------------------------------------------------------------

TEST(RoundTrip, EverySchemeEveryFormDerAndPem) {
  for (const auto s : kMlKem) {
    SCOPED_TRACE(std::string(scheme_info(s).name));
    Bytes seed(64);
    for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::uint8_t>(0xa5 ^ (7 * i));
    const auto key = keyfile::private_key_from_seed(s, seed);
    for (const auto form : kForms) {
      const auto der = keyfile::encode_pkcs8(key, form);
      const auto back = keyfile::decode_pkcs8(der);
      EXPECT_EQ(back.form, form);
      EXPECT_TRUE(bytes_equal(back.dk, key.dk));
      EXPECT_TRUE(bytes_equal(back.pk, key.pk));
      const auto pem = keyfile::pem_decode(keyfile::pem_encode(keyfile::kPemPrivateKey, der));
      EXPECT_TRUE(bytes_equal(pem.der, der));
    }
    const auto spki_der = keyfile::encode_spki(s, key.pk);
    EXPECT_TRUE(bytes_equal(keyfile::decode_spki(spki_der).pk, key.pk));
    // Expanded-only keys can be written expanded, but not as seed or both.
    const auto expanded = keyfile::private_key_from_expanded(s, key.dk);
    EXPECT_TRUE(expanded.seed.empty());
    EXPECT_TRUE(bytes_equal(keyfile::decode_pkcs8(keyfile::encode_pkcs8(expanded, PrivateKeyForm::expanded)).dk, key.dk));
    EXPECT_TRUE(throws_with([&] { keyfile::encode_pkcs8(expanded, PrivateKeyForm::seed); }, Errc::bad_argument,
                            "seed of this key is not known"));
    EXPECT_TRUE(throws_errc([&] { keyfile::encode_pkcs8(expanded, PrivateKeyForm::both); }, Errc::bad_argument));
  }
}

TEST(RoundTrip, PemLineWrapping) {
  for (std::size_t n = 0; n <= 100; ++n) {
    Bytes der(n);
    for (std::size_t i = 0; i < n; ++i) der[i] = static_cast<std::uint8_t>(i * 37 + n);
    const std::string pem = string_of(keyfile::pem_encode("X", der));
    // Lines of at most 64 characters, all but the last exactly 64.
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i < pem.size(); ++i)
      if (pem[i] == '\n') {
        lines.push_back(pem.substr(start, i - start));
        start = i + 1;
      }
    ASSERT_EQ(start, pem.size());
    ASSERT_GE(lines.size(), 2u);
    EXPECT_EQ(lines.front(), "-----BEGIN X-----");
    EXPECT_EQ(lines.back(), "-----END X-----");
    for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
      EXPECT_LE(lines[i].size(), 64u);
      if (i + 2 < lines.size()) {
        EXPECT_EQ(lines[i].size(), 64u);
      }
    }
    if (n == 0) {
      EXPECT_TRUE(throws_with([&] { keyfile::pem_decode(view_of(pem)); }, Errc::bad_format, "no data"));
    } else {
      EXPECT_TRUE(bytes_equal(keyfile::pem_decode(view_of(pem)).der, der)) << n;
    }
  }
}

// --- PEM rejections -------------------------------------------------------------------------

TEST(Pem, LenientWhitespaceStrictContent) {
  const std::string good = "-----BEGIN PUBLIC KEY-----\nAAEC\n-----END PUBLIC KEY-----\n";
  EXPECT_TRUE(bytes_equal(keyfile::pem_decode(view_of(good)).der, Bytes{0, 1, 2}));
  EXPECT_TRUE(keyfile::looks_like_pem(view_of("\n  " + good)));
  EXPECT_FALSE(keyfile::looks_like_pem(view_of("MIIB")));
  // CRLF line ends, surrounding whitespace, no final newline, short lines.
  EXPECT_NO_THROW(keyfile::pem_decode(view_of("\r\n \t-----BEGIN PUBLIC KEY-----\r\nAA\r\nEC\r\n-----END PUBLIC KEY-----")));
  EXPECT_NO_THROW(keyfile::pem_decode(view_of(good + "\n\n  ")));
  EXPECT_TRUE(bytes_equal(keyfile::pem_decode(view_of("-----BEGIN A-----\nAA==\n-----END A-----\n")).der, Bytes{0}));
  EXPECT_TRUE(bytes_equal(keyfile::pem_decode(view_of("-----BEGIN A-----\nAAA=\n-----END A-----\n")).der, Bytes{0, 0}));

  const auto bad = [](const std::string& text, const std::string& needle) {
    return throws_with([&] { keyfile::pem_decode(view_of(text)); }, Errc::bad_format, needle);
  };
  EXPECT_TRUE(bad("-----BEGIN PUBLIC KEY-----\nAAEC\n-----END PRIVATE KEY-----\n", "does not match"));
  EXPECT_TRUE(bad("-----BEGIN PUBLIC KEY-----\nAAEC\n", "no '-----END PUBLIC KEY-----' line"));
  EXPECT_TRUE(bad(good + "junk\n", "data after the END line"));
  EXPECT_TRUE(bad(good + good, "data after the END line"));
  EXPECT_TRUE(bad("junk\n" + good, "no '-----BEGIN ' line"));
  EXPECT_TRUE(bad("-----BEGIN PUBLIC KEY\nAAEC\n-----END PUBLIC KEY-----\n", "malformed BEGIN line"));
  EXPECT_TRUE(bad("-----BEGIN -----\nAAEC\n-----END -----\n", "malformed BEGIN line"));
  EXPECT_TRUE(bad("-----BEGIN PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nAAEC\n-----END PRIVATE KEY-----\n",
                  "headers are not supported"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAA*C\n-----END A-----\n", "invalid character"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAA EC\n-----END A-----\n", "invalid character"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAAE\n-----END A-----\n", "multiple of 4"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAA==AAEC\n-----END A-----\n", "padding in the middle"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nA=EC\n-----END A-----\n", "padding in the middle"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAB==\n-----END A-----\n", "non-zero padding bits"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAAB=\n-----END A-----\n", "non-zero padding bits"));
  EXPECT_TRUE(bad("-----BEGIN A-----\n-----END A-----\n", "no data"));
}

// --- SubjectPublicKeyInfo rejections ------------------------------------------------------------

TEST(Spki, Rejections) {
  const Fixture f;
  const Bytes good = spki(alg_id(1), f.kp.pk);
  ASSERT_TRUE(bytes_equal(keyfile::encode_spki(f.s, f.kp.pk), good));
  EXPECT_NO_THROW(keyfile::decode_spki(good));
  const auto bad = spki_rejects;
  const Bytes trailing = with_trailing_byte(good);
  EXPECT_TRUE(bad(trailing, Errc::bad_format, "SubjectPublicKeyInfo: trailing data after the SubjectPublicKeyInfo"));
  EXPECT_TRUE(bad(tlv(0x30, cat({alg_id(1), tlv(0x03, cat({Bytes{0}, f.kp.pk})), Bytes{0x05, 0x00}})),
                  Errc::bad_format, "trailing data after the subjectPublicKey"));
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
      {{0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01}, "RSA"},  // rsaEncryption 1.2.840.113549.1.1.1
      {{0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01}, "EC"},              // id-ecPublicKey 1.2.840.10045.2.1
      {{0x2b, 0x65, 0x6e}, "X25519"},                                   // 1.3.101.110
      {{0x2b, 0x65, 0x6f}, "X448"},                                     // 1.3.101.111
      {{0x2b, 0x65, 0x70}, "Ed25519"},                                  // 1.3.101.112
      {{0x2b, 0x65, 0x71}, "Ed448"},                                    // 1.3.101.113
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
  ASSERT_TRUE(bytes_equal(keyfile::encode_pkcs8(keyfile::private_key_from_seed(f.s, f.seed), PrivateKeyForm::seed), good));
  EXPECT_NO_THROW(keyfile::decode_pkcs8(good));
  const auto bad = [](const Bytes& der, const std::string& needle) { return pkcs8_rejects(der, needle); };
  const Bytes trailing = with_trailing_byte(good);
  EXPECT_TRUE(bad(trailing, "PKCS#8 private key: trailing data after the PKCS#8 structure"));
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), cat({seed_choice, Bytes{0x00}})), "trailing data after the private key"));
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
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x30, cat({tlv(0x04, f.seed), tlv(0x04, f.dk()), Bytes{0x05, 0x00}}))),
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
  const auto bad = [](const Bytes& der, Errc code, const std::string& needle) { return pkcs8_rejects(der, needle, code); };
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
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x04, unreduced)), Errc::invalid_decaps_key,
                  "invalid encapsulation key"));
  // Secret part s changed, ek and H(ek) intact: only the pairwise check sees it.
  Bytes bad_s = dk;
  bad_s[3] ^= 0x01;
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1), tlv(0x04, bad_s)), Errc::invalid_decaps_key, "pairwise consistency"));
  // 'both' whose expanded key belongs to another seed.
  Bytes other_seed = f.seed;
  other_seed[0] ^= 0x80;
  const auto other = keygen_derand(f.s, other_seed);
  EXPECT_TRUE(bad(pkcs8(version(0), alg_id(1),
                        tlv(0x30, cat({tlv(0x04, f.seed), tlv(0x04, Bytes(other.sk.view().begin(), other.sk.view().end()))}))),
                  Errc::invalid_decaps_key, "disagree"));
  EXPECT_NO_THROW(keyfile::decode_pkcs8(pkcs8(version(0), alg_id(1), tlv(0x30, cat({tlv(0x04, f.seed), tlv(0x04, dk)})))));
}

// --- No value decoded from the input in any message ---------------------------------------------
//
// A raw secret key of a wrong length that starts with 0x30 is tried as DER, and a secret key
// may be given where a public key belongs, so the DER readers see secret bytes: their
// messages may name the structure, the field and the rule that failed, never a length, count,
// tag or OID read from the input. Checked two ways: (a) every number in a message (decimal,
// or hexadecimal after 0x) is one of the standard's constants the messages use, and (b) inputs
// whose failure is the same rule at the same place, but whose content differs, get the same
// message.

/// The numbers the messages may contain: RFC and FIPS numbers, parameter-set names, the
/// standard's sizes, DER's short-form limit (128), the arcs of the constant OIDs and the
/// foreign algorithm names.
const std::set<std::string> kAllowedNumbers = {
    "0",   "1",   "2",   "3",    "4",    "6",    "7",    "8",    "16",   "32",    "44",    "64",    "65",
    "87",  "101", "128", "203",  "448",  "512",  "768",  "800",  "840",  "1024", "1184", "1216", "1568",
    "1632", "2400", "3168", "5280", "5958", "9935", "25519", "25722", "62253"};
/// Hexadecimal constants the messages may contain ("reserved length byte 0xff").
const std::set<std::string> kAllowedHex = {"0xff"};

/// (a): every hexadecimal and decimal number in `message` is an allowed constant.
::testing::AssertionResult only_constant_numbers(const std::string& message) {
  std::size_t i = 0;
  while (i < message.size()) {
    if (!std::isdigit(static_cast<unsigned char>(message[i]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    const bool hex = message.compare(i, 2, "0x") == 0;
    if (hex) end += 2;
    while (end < message.size() && (hex ? std::isxdigit(static_cast<unsigned char>(message[end]))
                                        : std::isdigit(static_cast<unsigned char>(message[end]))))
      ++end;
    const std::string number = message.substr(i, end - i);
    if ((hex ? kAllowedHex : kAllowedNumbers).count(number) == 0)
      return ::testing::AssertionFailure() << "'" << number << "' in: " << message;
    i = end;
  }
  return ::testing::AssertionSuccess();
}

/// The message of the pqkem::Error that `decode(input)` throws; nullopt if it succeeds. Any
/// other exception escapes and fails the test.
template <class Decode>
std::optional<std::string> message_of(Decode decode, const Bytes& input) {
  try {
    decode(input);
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

const auto kDecodePkcs8 = [](const Bytes& in) { keyfile::decode_pkcs8(in); };
const auto kDecodeSpki = [](const Bytes& in) { keyfile::decode_spki(in); };

/// (b): every input of `family` is rejected, all with one message, and that message passes (a).
template <class Decode>
::testing::AssertionResult one_message(Decode decode, const std::vector<Bytes>& family) {
  std::optional<std::string> first;
  for (std::size_t i = 0; i < family.size(); ++i) {
    const auto got = message_of(decode, family[i]);
    if (!got) return ::testing::AssertionFailure() << "input " << i << " was accepted";
    if (!first) first = got;
    if (*got != *first)
      return ::testing::AssertionFailure() << "input 0: '" << *first << "'\ninput " << i << ": '" << *got << "'";
  }
  if (!first) return ::testing::AssertionFailure() << "empty family";
  return only_constant_numbers(*first);
}

class Random {
public:
  explicit Random(std::uint64_t seed) : m_rng(seed) {}
  /// Uniform in [lo, hi].
  std::size_t in(std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(m_rng); }
  std::uint8_t byte() { return static_cast<std::uint8_t>(in(0, 255)); }
  Bytes bytes(std::size_t n) {
    Bytes out(n);
    for (auto& b : out) b = byte();
    return out;
  }

private:
  std::mt19937_64 m_rng;
};

/// `tag`, then a minimal long-form length of 1 to 3 bytes (0x81 / 0x82 / 0x83) of a value
/// larger than the random rest, so the element always claims more than remains.
Bytes overlong_element(Random& rng, std::uint8_t tag) {
  const std::size_t n = rng.in(1, 3);
  const std::size_t lo = std::size_t{1} << (8 * n - 8 + (n == 1 ? 7 : 0));  // 128, 256, 65536
  const std::size_t hi = std::min<std::size_t>((std::size_t{1} << (8 * n)) - 1, der::kMaxLength);
  const std::size_t rest = rng.in(0, std::min<std::size_t>(lo - 1, 5000));
  const std::size_t len = rng.in(std::max(lo, rest + 1), hi);
  Bytes out{tag, static_cast<std::uint8_t>(0x80 | n)};
  for (std::size_t i = n; i-- > 0;) out.push_back(static_cast<std::uint8_t>(len >> (8 * i)));
  const Bytes tail = rng.bytes(rest);
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

/// Well-formed encodings of real keys: PKCS#8 in every form and SPKI, for every ML-KEM set;
/// PKCS#8 and SPKI for X-Wing.
std::vector<Bytes> real_encodings() {
  std::vector<Bytes> out;
  for (const auto s : kMlKem) {
    const auto key = keyfile::private_key_from_seed(s, rfc_seed());
    for (const auto form : kForms) {
      const auto der = keyfile::encode_pkcs8(key, form);
      out.emplace_back(der.view().begin(), der.view().end());
    }
    out.push_back(keyfile::encode_spki(s, key.pk));
  }
  const auto xwing = keyfile::private_key_from_seed(Scheme::XWing, xwing_seed());
  const auto der = keyfile::encode_pkcs8(xwing, PrivateKeyForm::seed);
  out.emplace_back(der.view().begin(), der.view().end());
  out.push_back(keyfile::encode_spki(Scheme::XWing, xwing.pk));
  return out;
}

TEST(NoInputInMessages, RandomDerLikeInputs) {
  Random rng(20250917);
  const std::vector<Bytes> real = real_encodings();
  constexpr std::size_t kLengths[] = {2,    3,    4,    5,    6,    10,   64,   66,   100, 130,
                                      800,  1184, 1568, 1632, 2399, 2400, 2401, 3168, 4000};
  for (int i = 0; i < 2000; ++i) {
    Bytes in;
    const std::size_t variant = rng.in(0, 9);
    if (variant <= 1) {  // 0x30, then random bytes
      in = rng.bytes(kLengths[rng.in(0, std::size(kLengths) - 1)]);
      in[0] = 0x30;
    } else if (variant == 2) {  // 0x30 with a long-form length (0x81 / 0x82 / 0x83), then random
      in = rng.bytes(kLengths[rng.in(3, std::size(kLengths) - 1)]);
      in[0] = 0x30;
      in[1] = static_cast<std::uint8_t>(0x81 + rng.in(0, 2));
    } else if (variant == 3) {  // an outer SEQUENCE that fits exactly, random content
      in = tlv(0x30, rng.bytes(rng.in(0, 3000)));
    } else if (variant == 4) {  // a PKCS#8 version and a random rest inside a fitting SEQUENCE
      in = tlv(0x30, cat({version(static_cast<std::uint8_t>(rng.in(0, 1))), rng.bytes(rng.in(0, 3000))}));
    } else {  // a real encoding, changed
      in = real[rng.in(0, real.size() - 1)];
      const std::size_t at = rng.in(0, in.size() - 1);
      const auto pos = in.begin() + static_cast<std::ptrdiff_t>(at);
      switch (variant) {
        case 5:  // one byte changed, anywhere
          in[at] ^= static_cast<std::uint8_t>(rng.in(1, 255));
          break;
        case 6:  // one byte changed in the headers at the front
          in[at % 32] ^= static_cast<std::uint8_t>(rng.in(1, 255));
          break;
        case 7: {  // bytes appended
          const Bytes tail = rng.bytes(rng.in(1, 40));
          in.insert(in.end(), tail.begin(), tail.end());
          break;
        }
        case 8:  // truncated
          in.resize(at);
          break;
        default:  // one byte removed or inserted
          if (rng.in(0, 1) == 0) {
            in.erase(pos);
          } else {
            in.insert(pos, rng.byte());
          }
      }
    }
    for (const auto& decode : {+kDecodePkcs8, +kDecodeSpki}) {
      const auto message = message_of(decode, in);
      if (message) {
        ASSERT_TRUE(only_constant_numbers(*message)) << "input " << i << " (variant " << variant << ")";
      }
    }
  }
}

TEST(NoInputInMessages, SameRuleSameMessage) {
  Random rng(9935);
  const Fixture f;
  const Bytes seed_choice = tlv(0x80, f.seed);
  // `make` builds one member of a family; 100 members each.
  const auto family = [&](auto make) {
    std::vector<Bytes> out;
    for (int i = 0; i < 100; ++i) out.push_back(make());
    return out;
  };
  for (const auto& decode : {+kDecodePkcs8, +kDecodeSpki}) {
    SCOPED_TRACE(decode == +kDecodePkcs8 ? "decode_pkcs8" : "decode_spki");
    // The outer SEQUENCE claims more than remains, whatever the length and the rest.
    EXPECT_TRUE(one_message(decode, family([&] { return overlong_element(rng, 0x30); })));
    // The first byte is not a SEQUENCE tag, whatever it is.
    EXPECT_TRUE(one_message(decode, family([&] {
      Bytes in = rng.bytes(rng.in(1, 3000));
      while (in[0] == 0x30) in[0] = rng.byte();
      return in;
    })));
    // The same raw buffer header (0x30 0x83 and a length) with different contents.
    const Bytes header{0x30, 0x83, 0x2a, 0x43, 0x47};
    EXPECT_TRUE(one_message(decode, family([&] { return cat({header, rng.bytes(2394)}); })));
  }
  // Trailing data after a whole structure, however much.
  const std::vector<Bytes> real = real_encodings();
  for (const bool pkcs8_family : {true, false}) {
    SCOPED_TRACE(pkcs8_family ? "trailing PKCS#8" : "trailing SPKI");
    EXPECT_TRUE(one_message(pkcs8_family ? +kDecodePkcs8 : +kDecodeSpki, family([&] {
      Bytes in;
      do {
        in = real[rng.in(0, real.size() - 1)];
      } while ((keyfile::der_kind(in) == keyfile::DerKind::pkcs8) != pkcs8_family);
      const Bytes tail = rng.bytes(rng.in(1, 300));
      in.insert(in.end(), tail.begin(), tail.end());
      return in;
    })));
  }
  // A field of the wrong length, whatever its length and content.
  const auto wrong_length = [&](std::size_t right) {
    std::size_t n = 0;
    do {
      n = rng.in(0, 4000);
    } while (n == right);
    return rng.bytes(n);
  };
  for (std::uint8_t k = 1; k <= 3; ++k) {
    const auto& info = scheme_info(kMlKem[k - 1]);
    SCOPED_TRACE(std::string(info.name));
    const Bytes alg = alg_id(k);
    EXPECT_TRUE(one_message(kDecodeSpki, family([&] { return spki(alg, wrong_length(info.pk_bytes)); })));
    EXPECT_TRUE(one_message(kDecodePkcs8, family([&] { return pkcs8(version(0), alg, tlv(0x80, wrong_length(64))); })));
    EXPECT_TRUE(one_message(kDecodePkcs8,
                            family([&] { return pkcs8(version(0), alg, tlv(0x04, wrong_length(info.sk_bytes))); })));
    EXPECT_TRUE(one_message(kDecodePkcs8, family([&] {
      const Bytes dk = rng.bytes(rng.in(0, 3000));
      return pkcs8(version(0), alg, tlv(0x30, cat({tlv(0x04, wrong_length(64)), tlv(0x04, dk)})));
    })));
  }
  // X-Wing: a public key or seed of the wrong length.
  EXPECT_TRUE(one_message(kDecodeSpki, family([&] { return spki(xwing_alg_id(), wrong_length(1216)); })));
  EXPECT_TRUE(one_message(kDecodePkcs8, family([&] { return pkcs8(version(0), xwing_alg_id(), wrong_length(32)); })));
  // An OID that is neither ML-KEM's, X-Wing's nor a well-known one (only X-Wing's has 10 or more
  // bytes, which random bytes do not hit).
  const auto foreign_alg = [&] { return tlv(0x30, tlv(0x06, rng.bytes(rng.in(10, 40)))); };
  EXPECT_TRUE(one_message(kDecodePkcs8, family([&] { return pkcs8(version(0), foreign_alg(), seed_choice); })));
  EXPECT_TRUE(one_message(kDecodeSpki, family([&] { return spki(foreign_alg(), f.kp.pk); })));
  // A field with the wrong tag, whatever the tag and the content.
  const auto tag_except = [&](std::initializer_list<std::uint8_t> right) {
    std::uint8_t t = 0;
    do {
      t = rng.byte();
    } while (std::find(right.begin(), right.end(), t) != right.end());
    return t;
  };
  const auto wrong_tag = [&](std::initializer_list<std::uint8_t> right) {
    return tlv(tag_except(right), rng.bytes(rng.in(0, 100)));
  };
  EXPECT_TRUE(one_message(kDecodePkcs8, family([&] { return pkcs8(wrong_tag({0x02}), alg_id(1), seed_choice); })));
  EXPECT_TRUE(one_message(kDecodePkcs8, family([&] { return pkcs8(version(0), wrong_tag({0x30}), seed_choice); })));
  EXPECT_TRUE(
      one_message(kDecodePkcs8, family([&] { return pkcs8(version(0), alg_id(1), wrong_tag({0x80, 0x04, 0x30})); })));
  EXPECT_TRUE(one_message(kDecodePkcs8, family([&] {
    return pkcs8(version(0), alg_id(1), tlv(0x30, cat({wrong_tag({0x04}), tlv(0x04, f.dk())})));
  })));
  EXPECT_TRUE(one_message(kDecodeSpki, family([&] { return spki(tlv(0x30, wrong_tag({0x06})), f.kp.pk); })));
  EXPECT_TRUE(one_message(kDecodeSpki, family([&] { return tlv(0x30, cat({alg_id(1), wrong_tag({0x03})})); })));
}

TEST(NoInputInMessages, RawSecretKeyStartingWithASequenceTag) {
  // One byte short of an ML-KEM-768 expanded key, starting 0x30 0x83 2a 43 47: read as DER, it
  // is a SEQUENCE claiming 2769735 bytes with 2394 left.
  Random rng(2399);
  Bytes raw = rng.bytes(2399);
  const Bytes header{0x30, 0x83, 0x2a, 0x43, 0x47};
  std::copy(header.begin(), header.end(), raw.begin());
  const std::string truncated = "truncated: an element is longer than the data that remains";
  EXPECT_EQ(message_of(kDecodePkcs8, raw), "PKCS#8 private key: " + truncated);
  EXPECT_EQ(message_of(kDecodeSpki, raw), "SubjectPublicKeyInfo: " + truncated);
  // A whole ML-KEM-768 key (2400 bytes) given as a public key.
  raw.push_back(rng.byte());
  const auto as_spki = message_of(kDecodeSpki, raw);
  ASSERT_TRUE(as_spki.has_value());
  EXPECT_TRUE(only_constant_numbers(*as_spki));
}

// --- Schemes without an OID, helpers ----------------------------------------------------------

// NTRU and X25519MLKEM768 have no OID: no key files. ML-KEM and X-Wing have.
TEST(KeyFile, SchemesWithoutAnOidHaveNoKeyFiles) {
  for (const auto& info : all_schemes()) {
    const bool with_oid = info.family == pqkem::Family::MlKem || info.scheme == Scheme::XWing;
    EXPECT_EQ(keyfile::has_key_files(info.scheme), with_oid) << info.name;
    EXPECT_EQ(keyfile::oid_standard(info.scheme).has_value(), with_oid) << info.name;
    EXPECT_EQ(keyfile::key_file_holds_seed_only(info.scheme), info.scheme == Scheme::XWing) << info.name;
    if (with_oid) continue;
    const auto kp = keygen(info.scheme);
    EXPECT_TRUE(throws_with([&] { keyfile::encode_spki(info.scheme, kp.pk); }, Errc::bad_argument, "has no standard OID"));
    keyfile::PrivateKey key;
    key.scheme = info.scheme;
    key.dk = kp.sk.clone();
    key.pk = kp.pk;
    EXPECT_TRUE(throws_with([&] { keyfile::encode_pkcs8(key, PrivateKeyForm::expanded); }, Errc::bad_argument,
                            "has no standard OID"));
  }
  EXPECT_EQ(keyfile::oid_text(Scheme::MlKem1024), "2.16.840.1.101.3.4.4.3");
  EXPECT_EQ(keyfile::oid_text(Scheme::XWing), "1.3.6.1.4.1.62253.25722");
  EXPECT_EQ(keyfile::oid_standard(Scheme::MlKem512), "RFC 9935");
  EXPECT_EQ(keyfile::oid_standard(Scheme::XWing), "draft-connolly-cfrg-xwing-kem");
}

TEST(KeyFile, FormNamesAndDerKind) {
  for (const auto form : kForms) EXPECT_EQ(keyfile::parse_form(keyfile::form_name(form)), form);
  EXPECT_FALSE(keyfile::parse_form("Seed").has_value());
  EXPECT_FALSE(keyfile::der_kind(Bytes{0x30, 0x03, 0x04, 0x01, 0x00}).has_value());
  EXPECT_FALSE(keyfile::der_kind(Bytes{0x30, 0x03, 0x02, 0x01}).has_value());
  EXPECT_FALSE(keyfile::der_kind(Bytes{0x30, 0x03, 0x02, 0x01, 0x00, 0x00}).has_value());
  EXPECT_EQ(keyfile::der_kind(Bytes{0x30, 0x03, 0x02, 0x01, 0x00}), keyfile::DerKind::pkcs8);
  EXPECT_EQ(keyfile::der_kind(Bytes{0x30, 0x02, 0x30, 0x00}), keyfile::DerKind::spki);
  EXPECT_TRUE(keyfile::starts_like_der(Bytes{0x30, 0x00}));
  EXPECT_FALSE(keyfile::starts_like_der(Bytes{0x31, 0x00}));
}

// A damaged or truncated ML-KEM key file is still recognised by its first bytes, so that its
// error names the key file it was (private or public); unrelated bytes are not.
TEST(KeyFile, DerKindByPrefix) {
  for (const auto& in : real_encodings()) {
    const auto kind = keyfile::der_kind(in);
    ASSERT_TRUE(kind.has_value());
    EXPECT_EQ(keyfile::der_kind_by_prefix(in), kind);
    for (const std::size_t n : {std::size_t{20}, std::size_t{40}, in.size() / 2, in.size() - 1})
      EXPECT_EQ(keyfile::der_kind_by_prefix(ByteView(in).first(n)), kind) << n << " bytes";
    // Any one byte of the first 24 replaced by any other value: still recognised.
    for (std::size_t at = 0; at < 24; ++at) {
      Bytes damaged = in;
      damaged[at] ^= 0x5a;
      EXPECT_EQ(keyfile::der_kind_by_prefix(damaged), kind) << "byte " << at;
    }
  }
  // A PKCS#8 whose version INTEGER's tag became a SEQUENCE's keeps the whole outer shape; it is
  // named PKCS#8 by where its AlgorithmIdentifier sits, not SPKI by its first tag.
  Bytes p8 = pkcs8(version(0), alg_id(2), tlv(0x80, rfc_seed()));
  p8[2] = 0x30;
  EXPECT_EQ(keyfile::der_kind(p8), keyfile::DerKind::pkcs8);
  // Random bytes, and too little to tell, are neither.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000; ++i) {
    Bytes in(static_cast<std::size_t>(rng() % 3000));
    for (auto& b : in) b = static_cast<std::uint8_t>(rng());
    if (!in.empty()) in[0] = 0x30;
    EXPECT_FALSE(keyfile::der_kind_by_prefix(in).has_value());
  }
  EXPECT_FALSE(keyfile::der_kind_by_prefix(ByteView(real_encodings().front()).first(8)).has_value());
}

TEST(KeyFile, Sha256) {
  EXPECT_EQ(test::hex_encode(keyfile::sha256(view_of("abc"))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace pqkem
