#include "json.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "text.hpp"

namespace pqkem::cli {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x80) {
      // JSON text is UTF-8: a whole well-formed character is copied, any other byte becomes
      // U+FFFD (the commands refuse such paths before this, see require_json_paths).
      const std::size_t len = utf8_char_at(s, i);
      out += len == 0 ? std::string_view("\\ufffd") : s.substr(i, len);
      i += std::max<std::size_t>(len, 1);
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (b < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(b));
        } else {
          out += c;
        }
    }
    ++i;
  }
  return out + "\"";
}

JsonValue& JsonValue::add(std::string_view key, JsonValue value) {
  m_items.emplace_back(std::string(key), std::move(value));
  return *this;
}

JsonValue& JsonValue::push(JsonValue value) {
  m_items.emplace_back(std::string(), std::move(value));
  return *this;
}

void JsonValue::write(std::string& out, int depth) const {
  if (m_kind == Kind::scalar) {
    out += m_text;
    return;
  }
  const bool of_objects =
      std::any_of(m_items.begin(), m_items.end(), [](const auto& item) { return item.second.m_kind == Kind::object; });
  const bool one_per_line = depth == 0 || (m_kind == Kind::array && of_objects);
  out += m_kind == Kind::object ? '{' : '[';
  for (std::size_t i = 0; i < m_items.size(); ++i) {
    if (i > 0) out += ',';
    if (one_per_line)
      out.append("\n").append(2 * static_cast<std::size_t>(depth + 1), ' ');
    else if (i > 0)
      out += ' ';
    if (m_kind == Kind::object) out += json_string(m_items[i].first) + ": ";
    m_items[i].second.write(out, depth + 1);
  }
  if (one_per_line) out.append("\n").append(2 * static_cast<std::size_t>(depth), ' ');
  out += m_kind == Kind::object ? '}' : ']';
}

std::string JsonValue::dump() const {
  std::string out;
  write(out, 0);
  return out + "\n";
}

}  // namespace pqkem::cli
