#include "text.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "util/ascii.hpp"
#include "util/hex.hpp"

namespace pqkem::cli {

void throw_usage(const std::string& what, std::string file) { throw CliError(kExitUsage, what, std::move(file)); }

void throw_failure(const std::string& what, std::string file) { throw CliError(kExitFailure, what, std::move(file)); }

std::size_t utf8_char_at(std::string_view s, std::size_t i) noexcept {
  const auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) return 1;
  std::size_t len = 0;
  std::uint32_t cp = 0;
  if (b >= 0xc2 && b <= 0xdf) {
    len = 2, cp = b & 0x1fu;
  } else if (b >= 0xe0 && b <= 0xef) {
    len = 3, cp = b & 0x0fu;
  } else if (b >= 0xf0 && b <= 0xf4) {
    len = 4, cp = b & 0x07u;
  } else {
    return 0;  // a continuation byte, 0xc0/0xc1 (overlong) or 0xf5..0xff
  }
  if (s.size() - i < len) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3fu);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return 0;  // overlong
  if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return 0;
  return len;
}

bool valid_utf8(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8_char_at(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

namespace {

/// Appends `\xNN` (lower-case) for `byte`. Written out rather than with fmt, which is header-only
/// here and would cost this file about 5 s to compile.
void append_hex_escape(std::string& out, unsigned char byte) {
  out += "\\x";
  out += hex::digit(byte >> 4);
  out += hex::digit(byte & 0xfu);
}

}  // namespace

std::string printable(std::string_view s) {
  // Control characters: C0 and DEL as bytes, C1 (U+0080..U+009F) as their UTF-8 form c2 80..c2 9f.
  const auto control = [](std::string_view ch) {
    const auto b = static_cast<unsigned char>(ch[0]);
    return b < 0x20 || b == 0x7f || (ch.size() == 2 && b == 0xc2 && static_cast<unsigned char>(ch[1]) <= 0x9f);
  };
  bool plain = true;
  for (std::size_t i = 0; plain && i < s.size();) {
    const std::size_t len = utf8_char_at(s, i);
    plain = len != 0 && !control(s.substr(i, len)) && s[i] != '\\';
    i += len;
  }
  if (plain) return std::string(s);

  std::string out = "$'";
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8_char_at(s, i);
    const char c = s[i];
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += c;
    } else if (c == '\n' || c == '\t' || c == '\r') {
      out += c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r";
    } else if (len == 0 || control(s.substr(i, len))) {
      // Not UTF-8, or a control character: each byte as \xNN.
      for (std::size_t k = 0; k < std::max<std::size_t>(len, 1); ++k)
        append_hex_escape(out, static_cast<unsigned char>(s[i + k]));
    } else {
      out.append(s.substr(i, len));
    }
    i += std::max<std::size_t>(len, 1);
  }
  return out + "'";
}

std::string lower_ascii(std::string s) {
  for (auto& c : s) c = util::ascii_lower(c);
  return s;
}

std::string errno_text(int err) { return std::strerror(err); }

std::string input_name(const std::string& path) { return path == "-" ? "stdin" : path; }
std::string output_name(const std::string& path) { return path == "-" ? "stdout" : path; }

}  // namespace pqkem::cli
