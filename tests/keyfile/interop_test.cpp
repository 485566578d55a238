// Key files for ML-KEM (RFC 9935) against the RFC's example files and the files OpenSSL 3.5.3
// wrote, read from PQKEM_VECTORS_DIR (through the vector-test helpers); a missing vector file
// fails the test. ctest labels these suites `vectors`, not `keyfile` (CMakeLists.txt).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "keyfile/keyfile.hpp"
#include "keyfile_test_util.hpp"
#include "pqkem.hpp"
#include "support.hpp"

namespace pqkem {
namespace {

using namespace keyfile_test;
using test::bytes_equal;

Bytes bytes_of(const std::string& s) { return Bytes(s.begin(), s.end()); }

std::string read_vector(const std::string& relative) { return test::read_file(test::vector_file(relative)); }

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
      const std::string file =
          std::string("formats/rfc9935/") + c.name + "-" + std::string(keyfile::form_name(form)) + ".priv";
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
      const std::string file =
          std::string("formats/rfc9935/") + c.name + "-" + std::string(keyfile::form_name(form)) + ".priv";
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
  EXPECT_TRUE(
      bytes_equal(keyfile::encode_spki(Scheme::MlKem768, pub.pk), bytes_of(read_vector(dir + "mlkem768-pub.der"))));
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
  EXPECT_TRUE(
      bytes_equal(keyfile::encode_pkcs8(key, PrivateKeyForm::seed), bytes_of(read_vector(dir + "mlkem512-seed.der"))));
}

}  // namespace
}  // namespace pqkem
