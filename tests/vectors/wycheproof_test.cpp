// Wycheproof ML-KEM-512 vectors (C2SP/wycheproof, Apache-2.0), all four files.
//
// "valid" cases must be reproduced byte for byte; "invalid" cases must be rejected with a
// pqkem::Error. Each invalid case is classified from its comment and flags into the FIPS 203
// check that catches it, the classification is cross-checked against the input lengths, and
// the library must report exactly that check's error code. A case that fits no known class
// fails the test, so nothing in a file goes unchecked.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "pqkem.hpp"
#include "support.hpp"

namespace pqkem::test {
namespace {

using json = nlohmann::json;

struct WycheproofFile {
  json doc;
  std::vector<const json*> tests;  // every test of every group, in file order
};

// Loads a Wycheproof file, checks its header (algorithm, schema, parameter set of every group)
// and that numberOfTests equals both the number of tests present and the documented count.
WycheproofFile load_wycheproof(const std::string& name, const std::string& schema, std::size_t documented) {
  WycheproofFile f;
  f.doc = read_json_file(vector_file("mlkem/wycheproof/" + name));
  if (f.doc.at("algorithm").get<std::string>() != "ML-KEM") throw std::runtime_error(name + ": not ML-KEM");
  if (f.doc.at("schema").get<std::string>() != schema) throw std::runtime_error(name + ": unexpected schema");
  std::set<std::int64_t> ids;
  for (const json& group : f.doc.at("testGroups").get_ref<const json::array_t&>()) {
    if (scheme_named(group.at("parameterSet").get<std::string>()) != Scheme::MlKem512)
      throw std::runtime_error(name + ": group for another parameter set");
    for (const json& t : group.at("tests").get_ref<const json::array_t&>()) {
      if (!ids.insert(t.at("tcId").get<std::int64_t>()).second)
        throw std::runtime_error(name + ": duplicate tcId " + std::to_string(t.at("tcId").get<std::int64_t>()));
      const std::string& result = t.at("result").get<std::string>();
      if (result != "valid" && result != "invalid")  // "acceptable" would need a policy; none exist
        throw std::runtime_error(name + ": unexpected result \"" + result + "\"");
      f.tests.push_back(&t);
    }
  }
  if (static_cast<std::size_t>(f.doc.at("numberOfTests").get<std::int64_t>()) != f.tests.size())
    throw std::runtime_error(name + ": numberOfTests does not match the tests present");
  if (f.tests.size() != documented)
    throw std::runtime_error(name + ": " + std::to_string(f.tests.size()) + " tests, documented " +
                             std::to_string(documented));
  return f;
}

std::string comment_of(const json& t) {
  return t.contains("comment") ? t.at("comment").get<std::string>() : std::string();
}

std::string label(const json& t) {
  const std::string comment = comment_of(t);
  return "tcId " + std::to_string(t.at("tcId").get<std::int64_t>()) +
         (t.contains("comment") ? " (" + comment + ")" : "");
}

std::set<std::string> flags_of(const json& t) {
  std::set<std::string> flags;
  if (t.contains("flags"))
    for (const json& v : t.at("flags").get_ref<const json::array_t&>()) flags.insert(v.get<std::string>());
  return flags;
}

bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

Bytes field(const json& t, std::string_view name) { return hex_decode(t.at(name).get<std::string>()); }

constexpr Scheme kScheme = Scheme::MlKem512;

// mlkem_512_test.json: seed = d || z -> keygen, ek must match, Decaps(dk, c) = K.
// Invalid cases are of two kinds, told apart by the comment and confirmed by the lengths:
//  - "Private key too short/long": the seed is not 64 bytes; keygen_derand must give
//    bad_length (no ek exists for such a seed, and the file gives none).
//  - "Ciphertext too short/long": the seed is fine, the key pair must still match, and
//    decaps must give bad_length for the ciphertext.
TEST(WycheproofMlKem512, Decaps) {
  const WycheproofFile f = load_wycheproof("mlkem_512_test.json", "mlkem_test_schema.json", 193);
  const SchemeInfo& info = scheme_info(kScheme);
  std::map<std::string, int> kinds;
  for (const json* tp : f.tests) {
    const json& t = *tp;
    SCOPED_TRACE(label(t));
    run_case([&] {
      const Bytes seed = field(t, "seed");
      const Bytes c = field(t, "c");
      const std::string comment = comment_of(t);
      if (t.at("result").get<std::string>() == "valid") {
        ASSERT_EQ(seed.size(), info.seed_bytes);
        const KeyPair kp = keygen_derand(kScheme, seed);
        EXPECT_TRUE(bytes_equal(kp.pk, field(t, "ek"))) << "ek";
        const SecretBytes k = decaps(kScheme, kp.sk, c);
        EXPECT_TRUE(bytes_equal(k.view(), field(t, "K"))) << "K";
        ++kinds["valid"];
      } else if (starts_with(comment, "Private key too")) {
        EXPECT_NE(seed.size(), info.seed_bytes) << "classified as a bad seed length, but the seed is 64 bytes";
        EXPECT_FALSE(t.contains("ek"));
        EXPECT_TRUE(throws_errc([&] { (void)keygen_derand(kScheme, seed); }, Errc::bad_length)) << "keygen_derand";
        ++kinds["bad seed length"];
      } else if (starts_with(comment, "Ciphertext too")) {
        ASSERT_EQ(seed.size(), info.seed_bytes);
        EXPECT_NE(c.size(), info.ct_bytes) << "classified as a bad ciphertext length, but it is " << info.ct_bytes;
        const KeyPair kp = keygen_derand(kScheme, seed);
        EXPECT_TRUE(bytes_equal(kp.pk, field(t, "ek"))) << "ek";
        EXPECT_TRUE(throws_errc([&] { (void)decaps(kScheme, kp.sk, c); }, Errc::bad_length)) << "decaps";
        ++kinds["bad ciphertext length"];
      } else {
        ADD_FAILURE() << "unclassified invalid case";
      }
    });
  }
  EXPECT_EQ(kinds["valid"] + kinds["bad seed length"] + kinds["bad ciphertext length"], 193);
  EXPECT_GT(kinds["bad seed length"], 0);
  EXPECT_GT(kinds["bad ciphertext length"], 0);
}

// mlkem_512_encaps_test.json: (ek, m) -> (c, K). Invalid cases:
//  - flag ModulusOverflow or "Public key not reduced": right length, a coefficient >= q:
//    invalid_encaps_key from check_public_key and from encaps (FIPS 203 s7.2).
//  - "Public key is too short/long": bad_length from both.
TEST(WycheproofMlKem512, Encaps) {
  const WycheproofFile f = load_wycheproof("mlkem_512_encaps_test.json", "mlkem_encaps_test_schema.json", 261);
  const SchemeInfo& info = scheme_info(kScheme);
  std::map<std::string, int> kinds;
  for (const json* tp : f.tests) {
    const json& t = *tp;
    SCOPED_TRACE(label(t));
    run_case([&] {
      const Bytes ek = field(t, "ek");
      const Bytes m = field(t, "m");
      ASSERT_EQ(m.size(), 32u);
      const std::string comment = comment_of(t);
      if (t.at("result").get<std::string>() == "valid") {
        EXPECT_TRUE(does_not_throw([&] { check_public_key(kScheme, ek); }));
        const Encapsulation enc = encaps_derand(kScheme, ek, m);
        EXPECT_TRUE(bytes_equal(enc.ct, field(t, "c"))) << "c";
        EXPECT_TRUE(bytes_equal(enc.ss.view(), field(t, "K"))) << "K";
        ++kinds["valid"];
        return;
      }
      Errc want = Errc::bad_argument;  // set by every branch that does not `continue`
      if (flags_of(t).count("ModulusOverflow") != 0 || comment == "Public key not reduced") {
        EXPECT_EQ(ek.size(), info.pk_bytes) << "modulus case with a wrong key length";
        want = Errc::invalid_encaps_key;
        ++kinds["modulus"];
      } else if (starts_with(comment, "Public key is too")) {
        EXPECT_NE(ek.size(), info.pk_bytes) << "classified as a bad key length, but the key is " << info.pk_bytes;
        want = Errc::bad_length;
        ++kinds["bad key length"];
      } else {
        ADD_FAILURE() << "unclassified invalid case";
        return;
      }
      EXPECT_TRUE(throws_errc([&] { check_public_key(kScheme, ek); }, want)) << "check_public_key";
      EXPECT_TRUE(throws_errc([&] { (void)encaps_derand(kScheme, ek, m); }, want)) << "encaps_derand";
    });
  }
  EXPECT_EQ(kinds["valid"] + kinds["modulus"] + kinds["bad key length"], 261);
  EXPECT_GT(kinds["modulus"], 0);
  EXPECT_GT(kinds["bad key length"], 0);
}

// mlkem_512_keygen_seed_test.json: seed = d || z -> (ek, dk).
TEST(WycheproofMlKem512, KeygenSeed) {
  const WycheproofFile f =
      load_wycheproof("mlkem_512_keygen_seed_test.json", "mlkem_keygen_seed_test_schema.json", 100);
  int n = 0;
  for (const json* tp : f.tests) {
    const json& t = *tp;
    SCOPED_TRACE(label(t));
    run_case([&] {
      ASSERT_EQ(t.at("result").get<std::string>(), "valid") << "this file is documented to hold only valid cases";
      const KeyPair kp = keygen_derand(kScheme, field(t, "seed"));
      EXPECT_TRUE(bytes_equal(kp.pk, field(t, "ek"))) << "ek";
      EXPECT_TRUE(bytes_equal(kp.sk.view(), field(t, "dk"))) << "dk";
      ++n;
    });
  }
  EXPECT_EQ(n, 100);
}

// mlkem_512_semi_expanded_decaps_test.json: (dk, c) -> K, or rejection by flag:
// IncorrectCiphertextLength / IncorrectDecapsulationKeyLength => bad_length,
// InvalidDecapsulationKey => invalid_decaps_key (the H(ek) check of FIPS 203 s7.3).
// MalleableCiphertext cases are valid: decaps must give exactly K.
TEST(WycheproofMlKem512, SemiExpandedDecaps) {
  const WycheproofFile f =
      load_wycheproof("mlkem_512_semi_expanded_decaps_test.json", "mlkem_semi_expanded_decaps_test_schema.json", 9);
  const SchemeInfo& info = scheme_info(kScheme);
  std::map<std::string, int> kinds;
  for (const json* tp : f.tests) {
    const json& t = *tp;
    SCOPED_TRACE(label(t));
    run_case([&] {
      const Bytes dk = field(t, "dk");
      const Bytes c = field(t, "c");
      const Bytes ek = field(t, "ek");
      const std::set<std::string> flags = flags_of(t);
      if (t.at("result").get<std::string>() == "valid") {
        EXPECT_TRUE(does_not_throw([&] { check_secret_key(kScheme, dk); }));
        EXPECT_TRUE(bytes_equal(public_key_from_secret_key(kScheme, dk), ek)) << "ek embedded in dk";
        const SecretBytes k = decaps(kScheme, dk, c);
        EXPECT_TRUE(bytes_equal(k.view(), field(t, "K"))) << "K";
        ++kinds[flags.count("MalleableCiphertext") != 0 ? "valid malleable" : "valid"];
        return;
      }
      ASSERT_EQ(flags.size(), 1u) << "invalid case should carry exactly one flag";
      const std::string& flag = *flags.begin();
      if (flag == "IncorrectCiphertextLength") {
        EXPECT_EQ(dk.size(), info.sk_bytes);
        EXPECT_NE(c.size(), info.ct_bytes);
        EXPECT_TRUE(does_not_throw([&] { check_secret_key(kScheme, dk); })) << "the key itself is fine";
        EXPECT_TRUE(throws_errc([&] { (void)decaps(kScheme, dk, c); }, Errc::bad_length)) << "decaps";
      } else if (flag == "IncorrectDecapsulationKeyLength") {
        EXPECT_NE(dk.size(), info.sk_bytes);
        EXPECT_EQ(c.size(), info.ct_bytes);
        EXPECT_TRUE(throws_errc([&] { check_secret_key(kScheme, dk); }, Errc::bad_length)) << "check_secret_key";
        EXPECT_TRUE(throws_errc([&] { (void)decaps(kScheme, dk, c); }, Errc::bad_length)) << "decaps";
      } else if (flag == "InvalidDecapsulationKey") {
        EXPECT_EQ(dk.size(), info.sk_bytes);
        EXPECT_EQ(c.size(), info.ct_bytes);
        EXPECT_TRUE(throws_errc([&] { check_secret_key(kScheme, dk); }, Errc::invalid_decaps_key))
            << "check_secret_key";
        EXPECT_TRUE(throws_errc([&] { (void)decaps(kScheme, dk, c); }, Errc::invalid_decaps_key)) << "decaps";
      } else {
        ADD_FAILURE() << "unclassified invalid case (flag " << flag << ")";
        return;
      }
      ++kinds[flag];
    });
  }
  EXPECT_EQ(kinds["valid"], 1);
  EXPECT_EQ(kinds["valid malleable"], 2);
  EXPECT_EQ(kinds["IncorrectCiphertextLength"], 2);
  EXPECT_EQ(kinds["IncorrectDecapsulationKeyLength"], 2);
  EXPECT_EQ(kinds["InvalidDecapsulationKey"], 2);
}

}  // namespace
}  // namespace pqkem::test
