// Tests of the vector-test helpers themselves: the strict JSON reader and hex decoding.
#include "util/json.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support.hpp"

namespace pqkem::test {
namespace {

using json::parse;
using json::ParseError;
using json::Type;
using json::TypeError;

TEST(JsonReader, Literals) {
  EXPECT_TRUE(parse("null").is_null());
  EXPECT_TRUE(parse(" true ").as_bool());
  EXPECT_FALSE(parse("\n\tfalse\r\n").as_bool());
  EXPECT_THROW(parse("nul"), ParseError);
  EXPECT_THROW(parse("True"), ParseError);
  EXPECT_THROW(parse("truex"), ParseError);
}

TEST(JsonReader, Numbers) {
  EXPECT_EQ(parse("0").as_int(), 0);
  EXPECT_EQ(parse("-0").as_int(), 0);
  EXPECT_EQ(parse("165").as_int(), 165);
  EXPECT_EQ(parse("-9223372036854775808").as_int(), INT64_MIN);
  EXPECT_EQ(parse("9223372036854775807").as_int(), INT64_MAX);
  EXPECT_THROW((void)parse("9223372036854775808").as_int(), TypeError);
  EXPECT_THROW((void)parse("1.0").as_int(), TypeError);
  EXPECT_THROW((void)parse("1e3").as_int(), TypeError);
  EXPECT_DOUBLE_EQ(parse("-1.5e3").as_double(), -1500.0);
  EXPECT_DOUBLE_EQ(parse("2.5E-1").as_double(), 0.25);
  EXPECT_EQ(parse("1.50").number_text(), "1.50");
  for (const char* bad : {"01", "-", "+1", "1.", ".5", "1e", "1e+", "0x10", "NaN", "Infinity", "-01", "1.e3"})
    EXPECT_THROW(parse(bad), ParseError) << bad;
}

TEST(JsonReader, Strings) {
  EXPECT_EQ(parse(R"("")").as_string(), "");
  EXPECT_EQ(parse(R"("abc")").as_string(), "abc");
  EXPECT_EQ(parse(R"("\"\\\/\b\f\n\r\t")").as_string(), "\"\\/\b\f\n\r\t");
  EXPECT_EQ(parse(R"("\u0041\u00e9\u20AC")").as_string(), "A\xC3\xA9\xE2\x82\xAC");
  EXPECT_EQ(parse(R"("\ud83d\ude00")").as_string(), "\xF0\x9F\x98\x80");  // surrogate pair
  EXPECT_EQ(parse("\"2\xE2\x81\xBB\xC2\xB9\xE2\x81\xB6\"").as_string(),
            "2\xE2\x81\xBB\xC2\xB9\xE2\x81\xB6");  // raw UTF-8
  EXPECT_EQ(parse(R"("\u0000")").as_string(), std::string(1, '\0'));
  for (const char* bad : {
           R"("abc)",               // unterminated
           "\"a\nb\"",              // raw control character
           "\"a\tb\"",              // raw tab
           R"("\x41")",             // unknown escape
           R"("\u12")",             // short \u
           R"("\u12G4")",           // bad hex
           R"("\ud83d")",           // lone high surrogate
           R"("\ud83dx")",          // high surrogate not followed by \u
           R"("\ud83d\u0041")",     // high surrogate followed by a non-surrogate
           R"("\ude00")",           // lone low surrogate
           "\"\xC3\"",              // truncated UTF-8
           "\"\xC0\xAF\"",          // overlong
           "\"\xED\xA0\x80\"",      // encoded surrogate
           "\"\xF4\x90\x80\x80\"",  // above U+10FFFF
           "\"\xFF\"",              // invalid byte
           "'abc'",                 // single quotes
       })
    EXPECT_THROW(parse(bad), ParseError) << bad;
}

TEST(JsonReader, ArraysAndObjects) {
  const json::Value v = parse(R"({"tgId": 1, "tests": [ {"tcId": 2, "testPassed": false}, {} ], "n": null})");
  ASSERT_TRUE(v.is_object());
  EXPECT_EQ(v.size(), 3u);
  EXPECT_EQ(v.at("tgId").as_int(), 1);
  EXPECT_EQ(v.at("tests").size(), 2u);
  EXPECT_EQ(v.at("tests").at(0).at("tcId").as_int(), 2);
  EXPECT_FALSE(v.at("tests").at(0).at("testPassed").as_bool());
  EXPECT_EQ(v.at("tests").at(1).size(), 0u);
  EXPECT_TRUE(v.at("n").is_null());
  EXPECT_TRUE(v.contains("n"));
  EXPECT_FALSE(v.contains("missing"));
  EXPECT_EQ(v.find("missing"), nullptr);
  EXPECT_THROW((void)v.at("missing"), TypeError);
  EXPECT_THROW((void)v.at("tests").at(2), TypeError);
  EXPECT_THROW((void)v.at("tgId").as_string(), TypeError);
  EXPECT_THROW((void)v.at("tests").at(0).at("testPassed").as_int(), TypeError);
  EXPECT_EQ(v.as_object()[1].first, "tests");  // document order is kept
  EXPECT_EQ(parse("[]").size(), 0u);
  EXPECT_EQ(parse("[[[]]]").at(0).at(0).size(), 0u);
  for (const char* bad : {
           "[1,]",
           "[,1]",
           "[1 2]",
           "{\"a\":1,}",
           "{\"a\" 1}",
           "{a:1}",
           "{\"a\":1,\"a\":2}",  // duplicate key
           "[",
           "{",
           "]",
           "{\"a\":}",
           "[1]]",
           "{} {}",
           "// c\n1",
           "\xEF\xBB\xBF{}",  // BOM
           "",
       })
    EXPECT_THROW(parse(bad), ParseError) << bad;
}

TEST(JsonReader, DepthLimit) {
  std::string ok(json::kMaxDepth - 1, '['), deep(json::kMaxDepth + 1, '[');
  ok += std::string(json::kMaxDepth - 1, ']');
  deep += std::string(json::kMaxDepth + 1, ']');
  EXPECT_NO_THROW(parse(ok));
  EXPECT_THROW(parse(deep), ParseError);
}

TEST(JsonReader, ErrorNamesLineAndColumn) {
  try {
    parse("{\n  \"a\": [1,\n  ]\n}");
    FAIL() << "no error";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("line 3, column 3"), std::string::npos) << e.what();
  }
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
