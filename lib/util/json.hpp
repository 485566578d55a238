// A small, strict JSON reader (RFC 8259): conformance vectors in the tests, --baseline files
// in `pqkem bench`. Not part of the cryptographic library (its own target, pqkem_json).
//
// Strict means: exactly one value surrounded by optional whitespace (space, tab, CR, LF); no
// comments, trailing commas, leading zeros, NaN/Infinity, single quotes or byte order mark;
// strings must be valid UTF-8 without raw control characters, and \u escapes must pair
// surrogates correctly; an object may not repeat a key. Anything else throws json::ParseError
// naming the line and column. Nesting is limited to kMaxDepth levels.
//
// Accessors throw json::TypeError when the value has another type or a key is missing, so a
// test reading an unexpected file fails with a message instead of reading garbage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace pqkem::json {

class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class TypeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kMaxDepth = 256;

enum class Type { null, boolean, number, string, array, object };

/// Name of a type, for error messages ("object", "number", ...).
const char* type_name(Type t) noexcept;

class Value;
using Array = std::vector<Value>;
/// Members in document order (keys are unique: the parser rejects duplicates).
using Object = std::vector<std::pair<std::string, Value>>;

/// A number keeps its source text, so integers are read exactly (no round trip through double).
struct Number {
  std::string text;
};

class Value {
 public:
  Value() = default;  // null
  explicit Value(bool b) : m_v(b) {}
  explicit Value(Number n) : m_v(std::move(n)) {}
  explicit Value(std::string s) : m_v(std::move(s)) {}
  explicit Value(Array a) : m_v(std::move(a)) {}
  explicit Value(Object o) : m_v(std::move(o)) {}

  [[nodiscard]] Type type() const noexcept { return static_cast<Type>(m_v.index()); }
  [[nodiscard]] bool is_null() const noexcept { return type() == Type::null; }
  [[nodiscard]] bool is_bool() const noexcept { return type() == Type::boolean; }
  [[nodiscard]] bool is_number() const noexcept { return type() == Type::number; }
  [[nodiscard]] bool is_string() const noexcept { return type() == Type::string; }
  [[nodiscard]] bool is_array() const noexcept { return type() == Type::array; }
  [[nodiscard]] bool is_object() const noexcept { return type() == Type::object; }

  [[nodiscard]] bool as_bool() const;
  /// The number as written (e.g. "-1.5e3").
  [[nodiscard]] const std::string& number_text() const;
  /// An integer: the number must be written without fraction or exponent and fit in int64.
  [[nodiscard]] std::int64_t as_int() const;
  [[nodiscard]] double as_double() const;
  [[nodiscard]] const std::string& as_string() const;
  [[nodiscard]] const Array& as_array() const;
  [[nodiscard]] const Object& as_object() const;

  /// Object member lookup: nullptr if absent (throws if this is not an object).
  [[nodiscard]] const Value* find(std::string_view key) const;
  [[nodiscard]] bool contains(std::string_view key) const { return find(key) != nullptr; }
  /// Object member that must exist.
  [[nodiscard]] const Value& at(std::string_view key) const;
  /// Array element that must exist.
  [[nodiscard]] const Value& at(std::size_t index) const;
  /// Number of elements (array) or members (object).
  [[nodiscard]] std::size_t size() const;

 private:
  [[noreturn]] void type_mismatch(Type wanted) const;
  std::variant<std::monostate, bool, Number, std::string, Array, Object> m_v;
};

/// Parses one JSON document. Throws ParseError.
Value parse(std::string_view text);

/// Reads and parses a file. Throws std::runtime_error if it cannot be read, ParseError if it
/// is not valid JSON (the message names the file).
Value parse_file(const std::filesystem::path& path);

}  // namespace pqkem::json
