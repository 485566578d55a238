// The --json writer (app/json.cpp): the one layout every report uses, and strings that always
// parse back to what went in, control characters included (escaped as \u00XX).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "json.hpp"

namespace {

using pqkem::cli::json_string;
using pqkem::cli::JsonValue;

TEST(JsonWriter, ControlCharactersAreEscaped) {
  EXPECT_EQ(json_string(std::string("a\x01"
                                    "b\x1f"
                                    "c\x7f",
                                    6)),
            "\"a\\u0001b\\u001fc\x7f\"");
  EXPECT_EQ(json_string("tab\there\nnew \"q\" \\ \r\b\f"), "\"tab\\there\\nnew \\\"q\\\" \\\\ \\u000d\\u0008\\u000c\"");
  // Every byte below 0x80 survives a round trip through a JSON parser.
  std::string all;
  for (int c = 0; c < 0x80; ++c) all += static_cast<char>(c);
  const std::string doc = JsonValue::array().push(JsonValue::string(all)).dump();
  EXPECT_EQ(nlohmann::json::parse(doc).at(0).get<std::string>(), all);
  for (char c : doc) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 && c != '\n') << static_cast<int>(c);
}

TEST(JsonWriter, BenchRowWithAControlCharacterInItsName) {
  // What bench writes per row (names come from the build, but the writer must not trust them).
  JsonValue rows = JsonValue::array();
  rows.push(JsonValue::object()
                .add_string("name", "ML-KEM-512 keypair\x07 (portable)")
                .add_number("value", 42)
                .add("rounds", JsonValue::array().push(JsonValue::number(42)).push(JsonValue::number(43)))
                .add("reference", JsonValue::object().add_number("loop", 7)));
  EXPECT_EQ(rows.dump(),
            "[\n  {\"name\": \"ML-KEM-512 keypair\\u0007 (portable)\", \"value\": 42, \"rounds\": [42, 43], "
            "\"reference\": {\"loop\": 7}}\n]\n");
  EXPECT_EQ(nlohmann::json::parse(rows.dump()).at(0).at("name"), "ML-KEM-512 keypair\x07 (portable)");
}

TEST(JsonWriter, OneFieldPerLineArraysOfObjectsOnePerLine) {
  JsonValue report = JsonValue::object();
  report.add_string("command", "keygen")
      .add("files", JsonValue::array().push(JsonValue::object().add_string("path", "a").add_number("bytes", 1)))
      .add_null("oid")
      .add_bool("avx2", true)
      .add("empty", JsonValue::array());
  EXPECT_EQ(report.dump(),
            "{\n  \"command\": \"keygen\",\n  \"files\": [\n    {\"path\": \"a\", \"bytes\": 1}\n  ],\n"
            "  \"oid\": null,\n  \"avx2\": true,\n  \"empty\": []\n}\n");
  EXPECT_EQ(JsonValue::string("\xff").dump(), "\"\\ufffd\"\n");
}

}  // namespace
