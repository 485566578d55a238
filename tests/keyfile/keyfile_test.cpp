// Key files: the strict DER reader/writer (lib/keyfile/der.cpp) and what lib/keyfile knows of
// the schemes: which have an OID and key files, form names, recognising a key file by its first
// bytes, SHA-256 for fingerprints. The RFC's and OpenSSL's files are read in interop_test.cpp, the
// X-Wing draft's in xwing_test.cpp; PEM in pem_test.cpp, the SPKI and PKCS#8 rejections in
// spki_pkcs8_test.cpp, the messages in messages_test.cpp (helpers: keyfile_test_util.hpp).
#include <gtest/gtest.h>

#include <random>
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
    EXPECT_TRUE(
        throws_with([&] { keyfile::encode_spki(info.scheme, kp.pk); }, Errc::bad_argument, "has no standard OID"));
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
