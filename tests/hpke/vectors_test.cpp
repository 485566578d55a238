// draft-ietf-hpke-pq's test vectors (PQKEM_HPKE_VECTORS_DIR/hpke-pq-test-vectors.json, read at
// run time; /work/shared/hpke/README.md, docs/test-data.md). For every suite whose KEM pqkem
// implements: DeriveKeyPair(ikmR), Encap on ikmE, Decap, the key schedule, the ten encryptions
// (seal byte-exact, open back) and the five exports, from the sender's and the recipient's
// context. Suites with another KEM (the DHKEMs, the P-256 and P-384 hybrids) are skipped by
// name in `FullSuite`; their key schedule, encryptions and exports are still checked from
// their shared_secret in `KeySchedule`, which is where SHAKE128 and TurboSHAKE128 meet vectors.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hpke.hpp"
#include "hpke/testing.hpp"
#include "hpke_test_util.hpp"

#ifndef PQKEM_HPKE_VECTORS_DIR
#error "PQKEM_HPKE_VECTORS_DIR must name the directory of hpke-pq-test-vectors.json"
#endif

namespace pqkem::hpke {
namespace {

using test::unhex;
using json = nlohmann::json;

const std::string kFile = std::string(PQKEM_HPKE_VECTORS_DIR) + "/hpke-pq-test-vectors.json";

/// The vectors, read once; an empty array (and a failing test, Vectors.FileIsThere) if the
/// file is missing or malformed.
const json& vectors() {
  static const json v = [] {
    std::ifstream in(kFile);
    if (!in) return json::array();
    try {
      return json::parse(in);
    } catch (const json::exception&) {
      return json::array();
    }
  }();
  return v;
}

TEST(HpkeVectors, FileIsThereWithItsThirteenSuites) {
  ASSERT_EQ(vectors().size(), 13u) << kFile
                                   << ": missing or not the pinned file (scripts/fetch-vectors.sh --hpke fetches it)";
}

std::optional<KemId> implemented_kem(std::uint16_t id) {
  for (const KemInfo& k : all_kems())
    if (static_cast<std::uint16_t>(k.id) == id) return k.id;
  return std::nullopt;
}

Suite suite_of(const json& v) {
  return {static_cast<KemId>(v.at("kem_id").get<std::uint16_t>()),
          static_cast<KdfId>(v.at("kdf_id").get<std::uint16_t>()),
          static_cast<AeadId>(v.at("aead_id").get<std::uint16_t>())};
}

std::string hex_id(std::uint16_t id) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04x", id);
  return buf;
}

/// "KEM 0x0050 (MLKEM768-P256)": the vectors' KEMs that pqkem does not implement, by name.
std::string unimplemented_kem(std::uint16_t id) {
  const char* name = id == 0x0050   ? "MLKEM768-P256"
                     : id == 0x0051 ? "MLKEM1024-P384"
                     : id == 0x0010 ? "DHKEM(P-256, HKDF-SHA256)"
                     : id == 0x0011 ? "DHKEM(P-384, HKDF-SHA384)"
                     : id == 0x0020 ? "DHKEM(X25519, HKDF-SHA256)"
                     : id == 0x0021 ? "DHKEM(X448, HKDF-SHA512)"
                                    : "unknown";
  return "KEM 0x" + hex_id(id) + " (" + name + ") is not implemented by pqkem, whose HPKE KEMs are ML-KEM and X-Wing";
}

std::vector<int> indices() {
  std::vector<int> out;
  for (std::size_t i = 0; i < vectors().size(); ++i) out.push_back(static_cast<int>(i));
  return out;
}

class HpkeVector : public ::testing::TestWithParam<int> {
protected:
  const json& v() const { return vectors().at(static_cast<std::size_t>(GetParam())); }
};

/// The key schedule's outputs, every encryption in order and every export, against the vector,
/// from this context (a sender seals, a recipient opens).
void check_context(const json& v, SenderContext* sender, RecipientContext* recipient) {
  const Context& ctx = sender != nullptr ? static_cast<Context&>(*sender) : static_cast<Context&>(*recipient);
  const testing::Secrets got = testing::secrets_of(ctx);
  EXPECT_EQ(got.key, unhex(v.at("key").get<std::string>()));
  EXPECT_EQ(got.base_nonce, unhex(v.at("base_nonce").get<std::string>()));
  EXPECT_EQ(got.exporter_secret, unhex(v.at("exporter_secret").get<std::string>()));
  std::uint64_t seq = 0;
  for (const json& e : v.at("encryptions")) {
    const Bytes aad = unhex(e.at("aad").get<std::string>()), pt = unhex(e.at("pt").get<std::string>()),
                ct = unhex(e.at("ct").get<std::string>());
    ASSERT_EQ(ctx.sequence(), seq);
    if (sender != nullptr)
      EXPECT_EQ(sender->seal(aad, pt), ct) << "encryption " << seq;
    else
      EXPECT_EQ(recipient->open(aad, ct), pt) << "encryption " << seq;
    ++seq;
  }
  EXPECT_EQ(seq, 10u);
  int exports = 0;
  for (const json& x : v.at("exports")) {
    const SecretBytes secret =
        ctx.export_secret(unhex(x.at("exporter_context").get<std::string>()), x.at("L").get<std::size_t>());
    EXPECT_EQ(Bytes(secret.view().begin(), secret.view().end()), unhex(x.at("exported_value").get<std::string>()))
        << "export " << exports;
    ++exports;
  }
  EXPECT_EQ(exports, 5);
}

// The whole suite through pqkem's KEM: skipped, by name, for a KEM pqkem does not implement.
TEST_P(HpkeVector, FullSuite) {
  const json& vec = v();
  const auto kem_id = vec.at("kem_id").get<std::uint16_t>();
  const auto kem = implemented_kem(kem_id);
  if (!kem) GTEST_SKIP() << unimplemented_kem(kem_id);
  const Suite suite = suite_of(vec);
  SCOPED_TRACE(test::suite_name(suite));
  ASSERT_EQ(vec.at("mode").get<int>(), 0);
  const Bytes info = unhex(vec.at("info").get<std::string>()), sk_rm = unhex(vec.at("skRm").get<std::string>()),
              pk_rm = unhex(vec.at("pkRm").get<std::string>()), enc = unhex(vec.at("enc").get<std::string>()),
              ikm_e = unhex(vec.at("ikmE").get<std::string>()),
              shared_secret = unhex(vec.at("shared_secret").get<std::string>());

  const KeyPair kp = derive_key_pair(*kem, unhex(vec.at("ikmR").get<std::string>()));
  EXPECT_EQ(kp.pk, pk_rm);
  EXPECT_EQ(Bytes(kp.sk.view().begin(), kp.sk.view().end()), sk_rm);

  const Encapsulation e = testing::encap_derand(*kem, pk_rm, ikm_e);
  EXPECT_EQ(e.ct, enc);
  EXPECT_EQ(Bytes(e.ss.view().begin(), e.ss.view().end()), shared_secret);
  const SecretBytes ss = testing::decap(*kem, enc, sk_rm);
  EXPECT_EQ(Bytes(ss.view().begin(), ss.view().end()), shared_secret);

  SenderSetup s = testing::setup_sender_derand(suite, pk_rm, info, std::nullopt, ikm_e);
  EXPECT_EQ(s.enc, enc);
  check_context(vec, &s.context, nullptr);
  RecipientContext r = setup_recipient(suite, enc, sk_rm, info);
  check_context(vec, nullptr, &r);
}

// The receiver also takes the expanded FIPS 203 decapsulation key (ML-KEM) and pqkem's expanded
// X-Wing key: the same context comes out.
TEST_P(HpkeVector, RecipientTakesTheExpandedKey) {
  const json& vec = v();
  const auto kem_id = vec.at("kem_id").get<std::uint16_t>();
  const auto kem = implemented_kem(kem_id);
  if (!kem) GTEST_SKIP() << unimplemented_kem(kem_id);
  const Suite suite = suite_of(vec);
  const KeyPair expanded = keygen_derand(kem_info(*kem).scheme, unhex(vec.at("skRm").get<std::string>()));
  ASSERT_GT(expanded.sk.size(), kem_info(*kem).n_sk);
  RecipientContext r = setup_recipient(suite, unhex(vec.at("enc").get<std::string>()), expanded.sk,
                                       unhex(vec.at("info").get<std::string>()));
  check_context(vec, nullptr, &r);
}

// Every suite's key schedule from its shared_secret, whatever its KEM: the id only enters suite_id.
TEST_P(HpkeVector, KeySchedule) {
  const json& vec = v();
  const Suite suite = suite_of(vec);
  SCOPED_TRACE("KEM 0x" + hex_id(static_cast<std::uint16_t>(suite.kem)) + ", " + std::string(kdf_info(suite.kdf).name) +
               ", " + std::string(aead_info(suite.aead).name));
  const Bytes ss = unhex(vec.at("shared_secret").get<std::string>()), info = unhex(vec.at("info").get<std::string>());
  SenderContext s = testing::sender_from_shared_secret(suite, testing::Mode::base, ss, info, {}, {});
  check_context(vec, &s, nullptr);
  RecipientContext r = testing::recipient_from_shared_secret(suite, testing::Mode::base, ss, info, {}, {});
  check_context(vec, nullptr, &r);
}

std::string vector_name(const ::testing::TestParamInfo<int>& p) {
  const json& v = vectors().at(static_cast<std::size_t>(p.param));
  return "kem" + hex_id(v.at("kem_id").get<std::uint16_t>()) + "_kdf" + hex_id(v.at("kdf_id").get<std::uint16_t>()) +
         "_aead" + hex_id(v.at("aead_id").get<std::uint16_t>());
}

INSTANTIATE_TEST_SUITE_P(Draft, HpkeVector, ::testing::ValuesIn(indices()), vector_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HpkeVector);  // no file: FileIsThere fails instead

}  // namespace
}  // namespace pqkem::hpke
