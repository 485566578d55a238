// The one JSON writer of every --json output (keygen, encaps, decaps, info, list, bench).
//
// A value is built in order and written with one layout: the outermost container and any array
// of objects put one element per line (two spaces per level); every other container is written
// on one line ({"a": 1, "b": [2, 3]}). So a report reads one field per line and a list of
// entries one entry per line, and the layout never depends on the command.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pqkem::cli {

/// `s` as a JSON string literal: quotes and backslashes escaped, control characters as
/// \n, \t or \u00XX; a byte that is not part of well-formed UTF-8 becomes \ufffd, so the
/// output always parses.
std::string json_string(std::string_view s);

class JsonValue {
public:
  JsonValue() = default;  ///< null
  static JsonValue object() { return JsonValue(Kind::object); }
  static JsonValue array() { return JsonValue(Kind::array); }
  static JsonValue string(std::string_view s) { return JsonValue(Kind::scalar, json_string(s)); }
  static JsonValue number(std::uint64_t n) { return JsonValue(Kind::scalar, std::to_string(n)); }
  static JsonValue boolean(bool b) { return JsonValue(Kind::scalar, b ? "true" : "false"); }

  /// Appends a member to an object (keys keep their insertion order).
  JsonValue& add(std::string_view key, JsonValue value);
  JsonValue& add_string(std::string_view key, std::string_view value) { return add(key, string(value)); }
  JsonValue& add_number(std::string_view key, std::uint64_t value) { return add(key, number(value)); }
  JsonValue& add_bool(std::string_view key, bool value) { return add(key, boolean(value)); }
  JsonValue& add_null(std::string_view key) { return add(key, JsonValue()); }
  /// Appends an element to an array.
  JsonValue& push(JsonValue value);

  /// The document: this value in the layout above, then a newline.
  [[nodiscard]] std::string dump() const;

private:
  enum class Kind { scalar, array, object };
  explicit JsonValue(Kind kind, std::string text = {}) : m_kind(kind), m_text(std::move(text)) {}
  void write(std::string& out, int depth) const;

  Kind m_kind = Kind::scalar;
  std::string m_text = "null";                             ///< a scalar's JSON text
  std::vector<std::pair<std::string, JsonValue>> m_items;  ///< members (arrays: empty keys)
};

}  // namespace pqkem::cli
