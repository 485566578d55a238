// Strict JSON reader: see json.hpp for the accepted grammar.
#include "util/json.hpp"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <unordered_set>

namespace pqkem::json {

const char* type_name(Type t) noexcept {
  switch (t) {
    case Type::null:
      return "null";
    case Type::boolean:
      return "boolean";
    case Type::number:
      return "number";
    case Type::string:
      return "string";
    case Type::array:
      return "array";
    case Type::object:
      return "object";
  }
  return "?";
}

void Value::type_mismatch(Type wanted) const {
  throw TypeError(std::string("JSON: expected ") + type_name(wanted) + ", found " + type_name(type()));
}

bool Value::as_bool() const {
  if (!is_bool()) type_mismatch(Type::boolean);
  return std::get<bool>(m_v);
}

const std::string& Value::number_text() const {
  if (!is_number()) type_mismatch(Type::number);
  return std::get<Number>(m_v).text;
}

std::int64_t Value::as_int() const {
  const std::string& t = number_text();
  std::int64_t v = 0;
  const char* end = t.data() + t.size();
  auto [p, ec] = std::from_chars(t.data(), end, v);
  if (ec == std::errc::result_out_of_range) throw TypeError("JSON: integer out of range: " + t);
  if (ec != std::errc() || p != end) throw TypeError("JSON: expected an integer, found " + t);
  return v;
}

double Value::as_double() const {
  const std::string& t = number_text();
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || errno == ERANGE) throw TypeError("JSON: number out of range: " + t);
  return v;
}

const std::string& Value::as_string() const {
  if (!is_string()) type_mismatch(Type::string);
  return std::get<std::string>(m_v);
}

const Array& Value::as_array() const {
  if (!is_array()) type_mismatch(Type::array);
  return std::get<Array>(m_v);
}

const Object& Value::as_object() const {
  if (!is_object()) type_mismatch(Type::object);
  return std::get<Object>(m_v);
}

const Value* Value::find(std::string_view key) const {
  for (const auto& [k, v] : as_object())
    if (k == key) return &v;
  return nullptr;
}

const Value& Value::at(std::string_view key) const {
  const Value* v = find(key);
  if (v == nullptr) throw TypeError("JSON: missing member \"" + std::string(key) + "\"");
  return *v;
}

const Value& Value::at(std::size_t index) const {
  const Array& a = as_array();
  if (index >= a.size())
    throw TypeError("JSON: index " + std::to_string(index) + " out of range (size " + std::to_string(a.size()) + ")");
  return a[index];
}

std::size_t Value::size() const {
  if (is_array()) return std::get<Array>(m_v).size();
  if (is_object()) return std::get<Object>(m_v).size();
  throw TypeError(std::string("JSON: size() of a ") + type_name(type()));
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : m_text(text) {}

  Value document() {
    skip_ws();
    Value v = value(0);
    skip_ws();
    if (m_pos != m_text.size()) fail("unexpected data after the top-level value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < m_pos && i < m_text.size(); ++i) {
      if (m_text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw ParseError("JSON parse error at line " + std::to_string(line) + ", column " + std::to_string(col) + ": " +
                     what);
  }

  [[nodiscard]] bool at_end() const noexcept { return m_pos >= m_text.size(); }
  [[nodiscard]] char peek() const noexcept { return at_end() ? '\0' : m_text[m_pos]; }

  void expect(char c) {
    if (at_end() || m_text[m_pos] != c) fail(std::string("expected '") + c + "'");
    ++m_pos;
  }

  void skip_ws() noexcept {
    while (!at_end()) {
      const char c = m_text[m_pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      ++m_pos;
    }
  }

  Value value(int depth) {
    if (depth >= kMaxDepth) fail("nesting deeper than " + std::to_string(kMaxDepth));
    if (at_end()) fail("unexpected end of input, expected a value");
    switch (peek()) {
      case '{':
        return Value(object(depth));
      case '[':
        return Value(array(depth));
      case '"':
        return Value(string());
      case 't':
        literal("true");
        return Value(true);
      case 'f':
        literal("false");
        return Value(false);
      case 'n':
        literal("null");
        return Value();
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return Value(number());
        fail(std::string("unexpected character '") + peek() + "'");
    }
  }

  void literal(std::string_view word) {
    if (m_text.substr(m_pos, word.size()) != word) fail("invalid literal");
    m_pos += word.size();
  }

  Object object(int depth) {
    expect('{');
    Object members;
    std::unordered_set<std::string> keys;
    skip_ws();
    if (peek() == '}') {
      ++m_pos;
      return members;
    }
    for (;;) {
      skip_ws();
      if (peek() != '"') fail("expected a string key");
      std::string key = string();
      if (!keys.insert(key).second) fail("duplicate key \"" + key + "\"");
      skip_ws();
      expect(':');
      skip_ws();
      Value v = value(depth + 1);
      members.emplace_back(std::move(key), std::move(v));
      skip_ws();
      if (peek() == ',') {
        ++m_pos;
        continue;
      }
      expect('}');
      return members;
    }
  }

  Array array(int depth) {
    expect('[');
    Array items;
    skip_ws();
    if (peek() == ']') {
      ++m_pos;
      return items;
    }
    for (;;) {
      skip_ws();
      items.push_back(value(depth + 1));
      skip_ws();
      if (peek() == ',') {
        ++m_pos;
        continue;
      }
      expect(']');
      return items;
    }
  }

  // number = [ "-" ] ( "0" / digit1-9 *digit ) [ "." 1*digit ] [ ( "e" / "E" ) [ "+" / "-" ] 1*digit ]
  Number number() {
    const std::size_t start = m_pos;
    auto digits = [&] {
      const std::size_t d = m_pos;
      while (!at_end() && peek() >= '0' && peek() <= '9') ++m_pos;
      return m_pos - d;
    };
    if (peek() == '-') ++m_pos;
    if (peek() == '0') {
      ++m_pos;
      if (peek() >= '0' && peek() <= '9') fail("leading zero in a number");
    } else if (digits() == 0) {
      fail("expected a digit");
    }
    if (peek() == '.') {
      ++m_pos;
      if (digits() == 0) fail("expected a digit after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++m_pos;
      if (peek() == '+' || peek() == '-') ++m_pos;
      if (digits() == 0) fail("expected a digit in the exponent");
    }
    return Number{std::string(m_text.substr(start, m_pos - start))};
  }

  unsigned hex4() {
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      if (at_end()) fail("unexpected end of input in \\u escape");
      const char c = m_text[m_pos++];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<unsigned>(c - 'A' + 10);
      } else {
        fail("invalid hex digit in \\u escape");
      }
    }
    return v;
  }

  static void put_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  // Copies one UTF-8 encoded scalar value (2 to 4 bytes, lead byte at m_pos), rejecting
  // overlong forms, surrogates and code points above U+10FFFF (RFC 3629).
  void utf8_sequence(std::string& out) {
    const auto b0 = static_cast<unsigned char>(m_text[m_pos]);
    std::size_t len = 0;
    unsigned cp = 0, min = 0;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      len = 2, cp = b0 & 0x1Fu, min = 0x80;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      len = 3, cp = b0 & 0x0Fu, min = 0x800;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      len = 4, cp = b0 & 0x07u, min = 0x10000;
    } else {
      fail("invalid UTF-8 lead byte");
    }
    if (m_pos + len > m_text.size()) fail("truncated UTF-8 sequence");
    for (std::size_t i = 1; i < len; ++i) {
      const auto b = static_cast<unsigned char>(m_text[m_pos + i]);
      if ((b & 0xC0u) != 0x80u) fail("invalid UTF-8 continuation byte");
      cp = (cp << 6) | (b & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) fail("invalid UTF-8 sequence");
    out.append(m_text.substr(m_pos, len));
    m_pos += len;
  }

  std::string string() {
    expect('"');
    std::string out;
    for (;;) {
      if (at_end()) fail("unterminated string");
      const auto c = static_cast<unsigned char>(m_text[m_pos]);
      if (c == '"') {
        ++m_pos;
        return out;
      }
      if (c < 0x20) fail("unescaped control character in a string");
      if (c >= 0x80) {
        utf8_sequence(out);
        continue;
      }
      ++m_pos;
      if (c != '\\') {
        out += static_cast<char>(c);
        continue;
      }
      if (at_end()) fail("unterminated escape");
      const char e = m_text[m_pos++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xDC00 && cp <= 0xDFFF) fail("unpaired low surrogate");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (m_text.substr(m_pos, 2) != "\\u") fail("unpaired high surrogate");
            m_pos += 2;
            const unsigned lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) fail("high surrogate not followed by a low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          put_utf8(out, cp);
          break;
        }
        default:
          fail(std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

}  // namespace

Value parse(std::string_view text) { return Parser(text).document(); }

Value parse_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw std::runtime_error("cannot read " + path.string());
  try {
    return parse(text);
  } catch (const ParseError& e) {
    throw ParseError(path.string() + ": " + e.what());
  }
}

}  // namespace pqkem::json
