// Tests of the vector-test helpers themselves: reading JSON files, hex decoding, key-value lines.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support.hpp"

namespace pqkem::test {
namespace {

TEST(JsonFile, ParsedOrRefusedNamingTheFile) {
  const std::filesystem::path good = ::testing::TempDir() + "pqkem_support_good.json";
  const std::filesystem::path bad = ::testing::TempDir() + "pqkem_support_bad.json";
  std::ofstream(good) << R"({"tgId": 1, "tests": [{"tcId": 2}]})";
  std::ofstream(bad) << R"({"tgId": 1,})";
  EXPECT_EQ(read_json_file(good).at("tests").at(0).at("tcId").get<int>(), 2);
  try {
    (void)read_json_file(bad);
    ADD_FAILURE() << "malformed JSON was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)read_json_file(::testing::TempDir() + "pqkem_support_missing.json"), std::runtime_error);
}

TEST(Hex, DecodeEncode) {
  EXPECT_EQ(hex_decode(""), Bytes{});
  EXPECT_EQ(hex_decode("00ffAb7F"), (Bytes{0x00, 0xff, 0xab, 0x7f}));
  EXPECT_EQ(hex_encode(Bytes{0x00, 0xff, 0xab}), "00ffab");
  EXPECT_EQ(hex_encode_upper(Bytes{0x00, 0xff, 0xab}), "00FFAB");
  EXPECT_THROW(hex_decode("abc"), std::runtime_error);
  EXPECT_THROW(hex_decode("0g"), std::runtime_error);
  EXPECT_THROW(hex_decode(" 00"), std::runtime_error);
}

TEST(KeyValues, Parse) {
  const auto kv = parse_key_values("d = 00ff\nz = 01\n\n");
  EXPECT_EQ(kv.size(), 2u);
  EXPECT_EQ(kv.at("d"), "00ff");
  EXPECT_THROW(parse_key_values("d = 00\nd = 01\n"), std::runtime_error);
  EXPECT_THROW(parse_key_values("d=00\n"), std::runtime_error);
}

}  // namespace
}  // namespace pqkem::test
