// NIST ACVP v1.1.0.40 ML-KEM vectors (FIPS 203): keyGen and encapDecap, every case.
//
// prompt.json holds the inputs and expectedResults.json the outputs; cases are matched by
// (tgId, tcId), and every case in either file must have its partner in the other.
#include <gtest/gtest.h>

#include <cstdlib>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mlkem/ntt.hpp"
#include "pqkem.hpp"
#include "support.hpp"

namespace pqkem::test {
namespace {

using json = nlohmann::json;

struct AcvpCase {
  std::int64_t tg_id;
  std::int64_t tc_id;
  Scheme scheme;
  std::string function;  // encapDecap: the group's "function"; keyGen: empty
  const json* prompt;
  const json* expected;
};

struct AcvpFile {
  json prompt;
  json expected;
  std::vector<AcvpCase> cases;
};

// Loads a prompt/expectedResults pair and joins them by (tgId, tcId). Any structural surprise
// (wrong mode, duplicate or unmatched case, unknown parameter set) throws and fails the test.
AcvpFile load_acvp(const std::string& dir, const std::string& mode) {
  AcvpFile f;
  f.prompt = read_json_file(vector_file(dir + "/prompt.json"));
  f.expected = read_json_file(vector_file(dir + "/expectedResults.json"));
  for (const json* doc : {&f.prompt, &f.expected}) {
    if (doc->at("algorithm").get<std::string>() != "ML-KEM") throw std::runtime_error("not an ML-KEM ACVP file");
    if (doc->at("mode").get<std::string>() != mode)
      throw std::runtime_error("unexpected ACVP mode " + doc->at("mode").get<std::string>());
    if (doc->at("revision").get<std::string>() != "FIPS203") throw std::runtime_error("unexpected ACVP revision");
  }
  if (f.prompt.at("vsId").get<std::int64_t>() != f.expected.at("vsId").get<std::int64_t>())
    throw std::runtime_error("prompt and expectedResults have different vsId");

  std::map<std::pair<std::int64_t, std::int64_t>, const json*> expected;
  for (const json& group : f.expected.at("testGroups").get_ref<const json::array_t&>()) {
    const std::int64_t tg = group.at("tgId").get<std::int64_t>();
    for (const json& tc : group.at("tests").get_ref<const json::array_t&>()) {
      if (!expected.emplace(std::pair{tg, tc.at("tcId").get<std::int64_t>()}, &tc).second)
        throw std::runtime_error("duplicate expected result tgId " + std::to_string(tg) + " tcId " +
                                 std::to_string(tc.at("tcId").get<std::int64_t>()));
    }
  }

  std::set<std::pair<std::int64_t, std::int64_t>> seen;
  for (const json& group : f.prompt.at("testGroups").get_ref<const json::array_t&>()) {
    const std::int64_t tg = group.at("tgId").get<std::int64_t>();
    const Scheme scheme = scheme_named(group.at("parameterSet").get<std::string>());
    const std::string function = group.contains("function") ? group.at("function").get<std::string>() : std::string();
    for (const json& tc : group.at("tests").get_ref<const json::array_t&>()) {
      const std::pair key{tg, tc.at("tcId").get<std::int64_t>()};
      if (!seen.insert(key).second)
        throw std::runtime_error("duplicate prompt tgId " + std::to_string(key.first) + " tcId " +
                                 std::to_string(key.second));
      const auto it = expected.find(key);
      if (it == expected.end())
        throw std::runtime_error("no expected result for tgId " + std::to_string(key.first) + " tcId " +
                                 std::to_string(key.second));
      f.cases.push_back({key.first, key.second, scheme, function, &tc, it->second});
    }
  }
  if (seen.size() != expected.size())
    throw std::runtime_error(std::to_string(expected.size() - seen.size()) + " expected results have no prompt");
  return f;
}

const std::string kKeyGenDir = "mlkem/acvp/ML-KEM-keyGen-FIPS203";
const std::string kEncapDecapDir = "mlkem/acvp/ML-KEM-encapDecap-FIPS203";

std::string case_label(const AcvpCase& c) {
  return "tgId " + std::to_string(c.tg_id) + " tcId " + std::to_string(c.tc_id) + " " +
         std::string(scheme_info(c.scheme).name) + (c.function.empty() ? "" : " " + c.function);
}

Bytes hex_field(const json& v, std::string_view name) { return hex_decode(v.at(name).get<std::string>()); }

// keyGen: (d, z) -> (ek, dk). 25 AFT cases per parameter set.
TEST(AcvpKeyGen, AllCases) {
  const AcvpFile f = load_acvp(kKeyGenDir, "keyGen");
  std::map<Scheme, int> per_scheme;
  for (const AcvpCase& c : f.cases) {
    SCOPED_TRACE(case_label(c));
    run_case([&] {
      Bytes coins = hex_field(*c.prompt, "d");
      const Bytes z = hex_field(*c.prompt, "z");
      ASSERT_EQ(coins.size(), 32u);
      ASSERT_EQ(z.size(), 32u);
      coins.insert(coins.end(), z.begin(), z.end());  // keygen_derand takes d || z
      const KeyPair kp = keygen_derand(c.scheme, coins);
      EXPECT_TRUE(bytes_equal(kp.pk, hex_field(*c.expected, "ek"))) << "ek";
      EXPECT_TRUE(bytes_equal(kp.sk.view(), hex_field(*c.expected, "dk"))) << "dk";
      ++per_scheme[c.scheme];
    });
  }
  EXPECT_EQ(f.cases.size(), 75u);
  EXPECT_EQ(per_scheme[Scheme::MlKem512], 25);
  EXPECT_EQ(per_scheme[Scheme::MlKem768], 25);
  EXPECT_EQ(per_scheme[Scheme::MlKem1024], 25);
}

// All 165 encapDecap cases belong to one of the four functions, 3 x 25 + 3 x 10 x 3.
TEST(AcvpEncapDecap, AllCasesAccountedFor) {
  const AcvpFile f = load_acvp(kEncapDecapDir, "encapDecap");
  std::map<std::string, int> per_function;
  std::map<std::pair<std::string, Scheme>, int> per_group;
  for (const AcvpCase& c : f.cases) {
    ++per_function[c.function];
    ++per_group[{c.function, c.scheme}];
  }
  EXPECT_EQ(f.cases.size(), 165u);
  EXPECT_EQ(per_function.size(), 4u) << "unexpected function names in the encapDecap prompt";
  EXPECT_EQ(per_function["encapsulation"], 75);
  EXPECT_EQ(per_function["decapsulation"], 30);
  EXPECT_EQ(per_function["encapsulationKeyCheck"], 30);
  EXPECT_EQ(per_function["decapsulationKeyCheck"], 30);
  for (const Scheme s : {Scheme::MlKem512, Scheme::MlKem768, Scheme::MlKem1024}) {
    SCOPED_TRACE(scheme_info(s).name);
    EXPECT_EQ((per_group[{"encapsulation", s}]), 25);
    EXPECT_EQ((per_group[{"decapsulation", s}]), 10);
    EXPECT_EQ((per_group[{"encapsulationKeyCheck", s}]), 10);
    EXPECT_EQ((per_group[{"decapsulationKeyCheck", s}]), 10);
  }
}

// encapsulation: (ek, m) -> (c, k); decapsulating c must give k back.
TEST(AcvpEncapDecap, Encapsulation) {
  const AcvpFile f = load_acvp(kEncapDecapDir, "encapDecap");
  int n = 0;
  for (const AcvpCase& c : f.cases) {
    if (c.function != "encapsulation") continue;
    SCOPED_TRACE(case_label(c));
    run_case([&] {
      const Bytes ek = hex_field(*c.prompt, "ek");
      const Bytes m = hex_field(*c.prompt, "m");
      const Encapsulation enc = encaps_derand(c.scheme, ek, m);
      EXPECT_TRUE(bytes_equal(enc.ct, hex_field(*c.expected, "c"))) << "c";
      EXPECT_TRUE(bytes_equal(enc.ss.view(), hex_field(*c.expected, "k"))) << "k";
      ++n;
    });
  }
  EXPECT_EQ(n, 75);
}

// decapsulation: (dk, c) -> k; half the ciphertexts are modified, so k is the implicit
// rejection value J(z || c) there.
TEST(AcvpEncapDecap, Decapsulation) {
  const AcvpFile f = load_acvp(kEncapDecapDir, "encapDecap");
  int n = 0;
  for (const AcvpCase& c : f.cases) {
    if (c.function != "decapsulation") continue;
    SCOPED_TRACE(case_label(c));
    run_case([&] {
      const Bytes dk = hex_field(*c.prompt, "dk");
      const Bytes ct = hex_field(*c.prompt, "c");
      const SecretBytes k = decaps(c.scheme, dk, ct);
      EXPECT_TRUE(bytes_equal(k.view(), hex_field(*c.expected, "k"))) << "k";
      ++n;
    });
  }
  EXPECT_EQ(n, 30);
}

// encapsulationKeyCheck (FIPS 203 s7.2): testPassed true => accepted (and usable by encaps);
// false => rejected. The type check (length) comes first, so a key of the wrong length must
// give bad_length and a key of the right length invalid_encaps_key (the modulus check).
TEST(AcvpEncapDecap, EncapsulationKeyCheck) {
  const AcvpFile f = load_acvp(kEncapDecapDir, "encapDecap");
  int accepted = 0, rejected = 0;
  const Bytes m(32, 0x5a);
  for (const AcvpCase& c : f.cases) {
    if (c.function != "encapsulationKeyCheck") continue;
    SCOPED_TRACE(case_label(c));
    run_case([&] {
      const Bytes ek = hex_field(*c.prompt, "ek");
      if (c.expected->at("testPassed").get<bool>()) {
        EXPECT_TRUE(does_not_throw([&] { check_public_key(c.scheme, ek); }));
        EXPECT_TRUE(does_not_throw([&] { (void)encaps_derand(c.scheme, ek, m); }));
        ++accepted;
      } else {
        const Errc want = ek.size() == scheme_info(c.scheme).pk_bytes ? Errc::invalid_encaps_key : Errc::bad_length;
        EXPECT_TRUE(throws_errc([&] { check_public_key(c.scheme, ek); }, want)) << "check_public_key";
        EXPECT_TRUE(throws_errc([&] { (void)encaps_derand(c.scheme, ek, m); }, want)) << "encaps_derand";
        ++rejected;
      }
    });
  }
  EXPECT_EQ(accepted + rejected, 30);
  EXPECT_GT(accepted, 0);
  EXPECT_GT(rejected, 0);
}

// decapsulationKeyCheck (FIPS 203 s7.3): testPassed true => accepted; false => rejected, with
// bad_length for a wrong length and invalid_decaps_key for a failed H(ek) hash check.
TEST(AcvpEncapDecap, DecapsulationKeyCheck) {
  const AcvpFile f = load_acvp(kEncapDecapDir, "encapDecap");
  int accepted = 0, rejected = 0;
  for (const AcvpCase& c : f.cases) {
    if (c.function != "decapsulationKeyCheck") continue;
    SCOPED_TRACE(case_label(c));
    run_case([&] {
      const Bytes dk = hex_field(*c.prompt, "dk");
      const Bytes ct(scheme_info(c.scheme).ct_bytes, 0);
      if (c.expected->at("testPassed").get<bool>()) {
        EXPECT_TRUE(does_not_throw([&] { check_secret_key(c.scheme, dk); }));
        EXPECT_TRUE(does_not_throw([&] { (void)decaps(c.scheme, dk, ct); }));
        ++accepted;
      } else {
        const Errc want = dk.size() == scheme_info(c.scheme).sk_bytes ? Errc::invalid_decaps_key : Errc::bad_length;
        EXPECT_TRUE(throws_errc([&] { check_secret_key(c.scheme, dk); }, want)) << "check_secret_key";
        EXPECT_TRUE(throws_errc([&] { (void)decaps(c.scheme, dk, ct); }, want)) << "decaps";
        ++rejected;
      }
    });
  }
  EXPECT_EQ(accepted + rejected, 30);
  EXPECT_GT(accepted, 0);
  EXPECT_GT(rejected, 0);
}

// ctest runs this binary once per NTT plan under test (PQKEM_NTT_PLAN); make sure the plan
// asked for is the one the library actually uses.
TEST(NttPlanSelection, EnvironmentPlanIsInEffect) {
  const char* env = std::getenv("PQKEM_NTT_PLAN");
  const std::string expected = env != nullptr ? env : std::string(mlkem::kDefaultNttPlan);
  EXPECT_EQ(mlkem::current_ntt_plan().name(), expected);
}

}  // namespace
}  // namespace pqkem::test
