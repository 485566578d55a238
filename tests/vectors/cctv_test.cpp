// C2SP CCTV ML-KEM vectors (FIPS 203 final): strcmp, modulus, unluckysample and the
// accumulated test, for ML-KEM-512, -768 and -1024.
#include <gtest/gtest.h>

#include <cstdlib>

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "hash.hpp"
#include "mlkem/ntt.hpp"
#include "pqkem.hpp"
#include "support.hpp"

namespace pqkem::test {
namespace {

constexpr Scheme kAllSchemes[] = {Scheme::MlKem512, Scheme::MlKem768, Scheme::MlKem1024};

std::string file_for(const char* kind, Scheme s, const char* suffix = ".txt") {
  return std::string("mlkem/cctv/") + kind + "/" + std::string(scheme_info(s).name) + suffix;
}

// Reads a "key = hex" file and checks it has exactly the expected keys.
std::map<std::string, Bytes> read_key_hex(const std::string& relative, const std::set<std::string>& keys) {
  const auto kv = parse_key_values(read_file(vector_file(relative)));
  std::map<std::string, Bytes> out;
  for (const auto& [k, v] : kv) {
    if (keys.count(k) == 0) throw std::runtime_error(relative + ": unexpected key " + k);
    out.emplace(k, hex_decode(v));
  }
  if (out.size() != keys.size()) throw std::runtime_error(relative + ": missing keys");
  return out;
}

class CctvPerScheme : public ::testing::TestWithParam<Scheme> {};

std::string scheme_param_name(const ::testing::TestParamInfo<Scheme>& info) { return scheme_test_name(info.param); }

// strcmp: the re-encrypted ciphertext and c differ after a zero byte; an implementation
// comparing with strcmp() would wrongly accept. Decaps(dk, c) must be K (the rejection value).
TEST_P(CctvPerScheme, Strcmp) {
  const Scheme s = GetParam();
  const auto v = read_key_hex(file_for("strcmp", s), {"dk", "c", "K"});
  ASSERT_EQ(v.at("dk").size(), scheme_info(s).sk_bytes);
  ASSERT_EQ(v.at("c").size(), scheme_info(s).ct_bytes);
  const SecretBytes k = decaps(s, v.at("dk"), v.at("c"));
  EXPECT_TRUE(bytes_equal(k.view(), v.at("K")));
}

// modulus: every encapsulation key has a coefficient >= q and must fail the FIPS 203 s7.2
// modulus check, both in check_public_key and in encaps.
TEST_P(CctvPerScheme, ModulusRejected) {
  const Scheme s = GetParam();
  const std::map<Scheme, std::size_t> documented = {
      {Scheme::MlKem512, 775}, {Scheme::MlKem768, 780}, {Scheme::MlKem1024, 1040}};
  const std::vector<std::string> lines = split_lines(read_gzip_file(vector_file(file_for("modulus", s, ".txt.gz"))));
  const Bytes m(32, 0x42);
  std::size_t n = 0;
  for (const std::string& line : lines) {
    ++n;
    SCOPED_TRACE("line " + std::to_string(n));
    run_case([&] {
      const Bytes ek = hex_decode(line);
      ASSERT_EQ(ek.size(), scheme_info(s).pk_bytes);
      EXPECT_TRUE(throws_errc([&] { check_public_key(s, ek); }, Errc::invalid_encaps_key)) << "check_public_key";
      EXPECT_TRUE(throws_errc([&] { (void)encaps_derand(s, ek, m); }, Errc::invalid_encaps_key)) << "encaps_derand";
    });
  }
  EXPECT_EQ(n, documented.at(s));
}

// unluckysample: SampleNTT needs more than 575 SHAKE-128 bytes for the first matrix entry,
// so an implementation squeezing a fixed amount fails. Keygen, encaps and decaps byte-equal.
TEST_P(CctvPerScheme, UnluckySample) {
  const Scheme s = GetParam();
  const auto v = read_key_hex(file_for("unluckysample", s), {"d", "z", "ek", "dk", "m", "c", "K"});
  Bytes coins = v.at("d");
  coins.insert(coins.end(), v.at("z").begin(), v.at("z").end());
  ASSERT_EQ(coins.size(), 64u);
  const KeyPair kp = keygen_derand(s, coins);
  EXPECT_TRUE(bytes_equal(kp.pk, v.at("ek"))) << "ek";
  EXPECT_TRUE(bytes_equal(kp.sk.view(), v.at("dk"))) << "dk";
  const Encapsulation enc = encaps_derand(s, v.at("ek"), v.at("m"));
  EXPECT_TRUE(bytes_equal(enc.ct, v.at("c"))) << "c";
  EXPECT_TRUE(bytes_equal(enc.ss.view(), v.at("K"))) << "K";
  const SecretBytes k = decaps(s, v.at("dk"), v.at("c"));
  EXPECT_TRUE(bytes_equal(k.view(), v.at("K"))) << "decaps K";
}

INSTANTIATE_TEST_SUITE_P(Cctv, CctvPerScheme, ::testing::ValuesIn(kAllSchemes), scheme_param_name);

// The accumulated test (vectors README, CCTV procedure for FIPS 203 final).
// RNG = SHAKE-128(""), one stream. Per test: d, z, m (32 bytes each); (ek, dk) = KeyGen(d, z);
// (K, c) = Encaps(ek, m); Decaps(dk, c) = K; c' = next ct_bytes of the stream,
// K' = Decaps(dk, c'); absorb ek, dk, c, K, K' into a running SHAKE-128. Result: its first
// 32 output bytes.
Bytes accumulated(Scheme s, int tests) {
  const SchemeInfo& info = scheme_info(s);
  hash::Xof rng(hash::XofKind::shake128);
  hash::Xof acc(hash::XofKind::shake128);
  Bytes coins(64), m(32), c_random(info.ct_bytes);
  for (int i = 0; i < tests; ++i) {
    rng.squeeze(coins);  // d then z
    rng.squeeze(m);
    const KeyPair kp = keygen_derand(s, coins);
    const Encapsulation enc = encaps_derand(s, kp.pk, m);
    const SecretBytes k = decaps(s, kp.sk, enc.ct);
    if (!bytes_equal(k.view(), enc.ss.view()))
      throw std::runtime_error("accumulated test " + std::to_string(i) + ": Decaps(dk, c) != K");
    rng.squeeze(c_random);
    const SecretBytes k_reject = decaps(s, kp.sk, c_random);
    acc.absorb(kp.pk);
    acc.absorb(kp.sk.view());
    acc.absorb(enc.ct);
    acc.absorb(enc.ss.view());
    acc.absorb(k_reject.view());
  }
  Bytes out(32);
  acc.squeeze(out);
  return out;
}

// Published results (vectors README, "Accumulated test").
struct AccumulatedCase {
  Scheme scheme;
  int tests;
  const char* hash;
};

constexpr AccumulatedCase kAccumulated[] = {
    {Scheme::MlKem512, 1, "124b6a9587c1c50ad5983d02b17d0761e5b6b50273f9b4b15f5afc8b8c9d05ab"},
    {Scheme::MlKem768, 1, "f98f7d4cdfead60fca190b36cf84af5438f98a03c5ca3780ee73fea10fa834a6"},
    {Scheme::MlKem1024, 1, "bbadeda836ff632114d5fd2a87cb3c718882ec7c15b63452fb3eef15b64d1ca9"},
    {Scheme::MlKem512, 10, "3dd07a86fcec47735136b0034d3282cc90a16ccf01e49e1b66a87afcae696690"},
    {Scheme::MlKem768, 10, "3313043a4b8d07165cc64e27ff58f11d8527cae5db1767f85529b6a505faa833"},
    {Scheme::MlKem1024, 10, "e9f17641909d966e70ce0b84ce53c582d5e69db5644b12b20b9e86dbc4dabd9d"},
    {Scheme::MlKem512, 100, "449120c6e320ef3e9fbfa2316e5f2d2e1e6dd37d8ff5d086d5d2db7d42aff0a1"},
    {Scheme::MlKem768, 100, "8d65b902f28edc683cebee2872962fd165a4d197c9e24ec74caa4470270df0b7"},
    {Scheme::MlKem1024, 100, "c3ffe9ebecfa479c142656cbfbc6417efa05b77e994fe538eef4daed166363df"},
};

constexpr AccumulatedCase kAccumulatedLong[] = {
    {Scheme::MlKem512, 10000, "705dcffc87f4e67e35a09dcaa31772e86f3341bd3ccf1e78a5fef99ae6a35a13"},
    {Scheme::MlKem768, 10000, "f959d18d3d1180121433bf0e05f11e7908cf9d03edc150b2b07cb90bef5bc1c1"},
    {Scheme::MlKem1024, 10000, "e3bf82b013307b2e9d47dde791ff6dfc82e694e6382404abdb948b908b75bad5"},
};

void PrintTo(const AccumulatedCase& c, std::ostream* os) {
  *os << scheme_info(c.scheme).name << ", " << c.tests << " tests";
}

std::string accumulated_name(const ::testing::TestParamInfo<AccumulatedCase>& info) {
  return scheme_test_name(info.param.scheme) + "_" + std::to_string(info.param.tests);
}

void run_accumulated(const AccumulatedCase& c) {
  const auto start = std::chrono::steady_clock::now();
  const Bytes got = accumulated(c.scheme, c.tests);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(hex_encode(got), c.hash) << scheme_info(c.scheme).name << ", " << c.tests << " tests";
  ::testing::Test::RecordProperty("milliseconds", static_cast<int>(ms));
}

// The RNG of the accumulated test is SHAKE-128 of the empty string, read as one stream; the
// README gives its first 16 bytes. Also checks that reading the stream in pieces of any size
// gives the same bytes as reading it at once (the accumulated test depends on it).
TEST(CctvAccumulated, RngStream) {
  Bytes whole(4000);
  {
    hash::Xof x(hash::XofKind::shake128);
    x.squeeze(whole);
  }
  EXPECT_EQ(hex_encode(ByteView(whole).first(16)), "7f9c2ba4e88f827d616045507605853e");
  hash::Xof x(hash::XofKind::shake128);
  Bytes pieces;
  for (std::size_t n = 1; pieces.size() < whole.size(); n = n * 3 + 1) {
    Bytes part(std::min(n, whole.size() - pieces.size()));
    x.squeeze(part);
    pieces.insert(pieces.end(), part.begin(), part.end());
  }
  EXPECT_TRUE(bytes_equal(pieces, whole));
}

class CctvAccumulatedTest : public ::testing::TestWithParam<AccumulatedCase> {};
TEST_P(CctvAccumulatedTest, Hash) { run_accumulated(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cctv, CctvAccumulatedTest, ::testing::ValuesIn(kAccumulated), accumulated_name);

// 10000 iterations: separate suite so CMake can give it its own label and timeout.
class CctvAccumulatedLong : public ::testing::TestWithParam<AccumulatedCase> {};
TEST_P(CctvAccumulatedLong, Hash) { run_accumulated(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cctv, CctvAccumulatedLong, ::testing::ValuesIn(kAccumulatedLong), accumulated_name);

// ctest runs this binary once per NTT plan under test (PQKEM_NTT_PLAN); make sure the plan
// asked for is the one the library actually uses.
TEST(NttPlanSelection, EnvironmentPlanIsInEffect) {
  const char* env = std::getenv("PQKEM_NTT_PLAN");
  const std::string expected = env != nullptr ? env : std::string(mlkem::kDefaultNttPlan);
  EXPECT_EQ(mlkem::current_ntt_plan().name(), expected);
}

}  // namespace
}  // namespace pqkem::test
