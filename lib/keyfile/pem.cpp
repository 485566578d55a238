// PEM (RFC 7468) around base64 (RFC 4648, standard alphabet, padded). The text of a private
// key file is secret: its characters are decoded without a branch or table index on them.
#include <algorithm>
#include <cstring>

#include "ct.hpp"
#include "error.hpp"
#include "keyfile/keyfile.hpp"

namespace pqkem::keyfile {
namespace {

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 6-bit value of a base64 character, or -1. Branch-free, as the characters of a PEM
/// private key are secret: which range a character falls in must not show in the timing.
int base64_value(std::uint8_t c) noexcept {
  std::uint32_t v = 0, ok = 0, m = 0;
  m = ct::in_range_mask(c, 'A', 'Z'), v |= m & (c - 'A'), ok |= m;
  m = ct::in_range_mask(c, 'a', 'z'), v |= m & (c - 'a' + 26u), ok |= m;
  m = ct::in_range_mask(c, '0', '9'), v |= m & (c - '0' + 52u), ok |= m;
  m = ct::in_range_mask(c, '+', '+'), v |= m & 62u, ok |= m;
  m = ct::in_range_mask(c, '/', '/'), v |= m & 63u, ok |= m;
  return static_cast<int>(v | ~ok);  // ~ok is all ones (-1) for a character outside the alphabet
}

[[noreturn]] void pem_fail(const std::string& why) { throw Error(Errc::bad_format, "PEM: " + why); }

/// Strict decoding of `text` (only alphabet characters and final '=' padding).
SecretBytes base64_decode(ByteView text) {
  if (text.empty()) pem_fail("the block holds no data");
  if (text.size() % 4 != 0) pem_fail("the base64 data is not a multiple of 4 characters (truncated?)");
  std::size_t pad = 0;
  if (text[text.size() - 1] == '=') pad = text[text.size() - 2] == '=' ? 2 : 1;
  SecretBytes out(text.size() / 4 * 3 - pad);
  std::size_t o = 0;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    std::uint32_t v = 0;
    const bool last = i + 4 == text.size();
    for (std::size_t j = 0; j < 4; ++j) {
      const std::uint8_t c = text[i + j];
      int d = base64_value(c);
      if (c == '=' && last && j >= 4 - pad) d = 0;
      if (d < 0) pem_fail(c == '=' ? "'=' padding in the middle of the base64 data" : "invalid base64 character");
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    const std::size_t n = last ? 3 - pad : 3;
    if (last && pad > 0 && (v & ((pad == 1 ? 0xffu : 0xffffu))) != 0)
      pem_fail("non-zero padding bits in the base64 data");
    for (std::size_t j = 0; j < n; ++j) out[o++] = static_cast<std::uint8_t>(v >> (16 - 8 * j));
    secure_wipe(&v, sizeof v);  // private keys pass through here
  }
  return out;
}

bool is_ws(std::uint8_t c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool starts_with(ByteView text, std::size_t pos, std::string_view prefix) noexcept {
  return text.size() - pos >= prefix.size() && std::memcmp(text.data() + pos, prefix.data(), prefix.size()) == 0;
}

}  // namespace

SecretBytes pem_encode(std::string_view label, ByteView der) {
  const std::string begin = "-----BEGIN " + std::string(label) + "-----\n";
  const std::string end = "-----END " + std::string(label) + "-----\n";
  const std::size_t chars = (der.size() + 2) / 3 * 4;
  const std::size_t lines = (chars + 63) / 64;
  SecretBytes out(begin.size() + chars + lines + end.size());
  std::size_t o = 0;
  const auto put = [&](std::string_view s) {
    std::memcpy(out.data() + o, s.data(), s.size());
    o += s.size();
  };
  put(begin);
  std::size_t col = 0;
  for (std::size_t i = 0; i < der.size(); i += 3) {
    const std::size_t n = der.size() - i < 3 ? der.size() - i : 3;
    std::uint32_t v = static_cast<std::uint32_t>(der[i]) << 16;
    if (n > 1) v |= static_cast<std::uint32_t>(der[i + 1]) << 8;
    if (n > 2) v |= der[i + 2];
    for (std::size_t j = 0; j < 4; ++j) {
      out[o++] = j <= n ? static_cast<std::uint8_t>(kBase64[(v >> (18 - 6 * j)) & 0x3f]) : '=';
      if (++col == 64) {
        out[o++] = '\n';
        col = 0;
      }
    }
    secure_wipe(&v, sizeof v);
  }
  if (col != 0) out[o++] = '\n';
  put(end);
  return out;
}

bool looks_like_pem(ByteView text) noexcept {
  std::size_t pos = 0;
  while (pos < text.size() && is_ws(text[pos])) ++pos;
  return starts_with(text, pos, "-----BEGIN ");
}

PemBlock pem_decode(ByteView text) {
  std::size_t pos = 0;
  while (pos < text.size() && is_ws(text[pos])) ++pos;
  // Reads one line from pos (without its LF / CRLF); false at the end of the input.
  const auto next_line = [&](ByteView& line) {
    if (pos >= text.size()) return false;
    std::size_t end = pos;
    while (end < text.size() && text[end] != '\n') ++end;
    std::size_t stop = end;
    if (stop > pos && text[stop - 1] == '\r') --stop;
    line = text.subspan(pos, stop - pos);
    pos = end < text.size() ? end + 1 : end;
    return true;
  };
  const auto as_string = [](ByteView v) { return std::string(reinterpret_cast<const char*>(v.data()), v.size()); };

  ByteView line;
  if (!next_line(line) || !starts_with(line, 0, "-----BEGIN ")) pem_fail("no '-----BEGIN ' line");
  constexpr std::string_view kDashes = "-----";
  const std::size_t begin_len = std::string_view("-----BEGIN ").size();
  if (line.size() < begin_len + kDashes.size() || !starts_with(line, line.size() - kDashes.size(), kDashes))
    pem_fail("malformed BEGIN line");
  const ByteView label = line.subspan(begin_len, line.size() - begin_len - kDashes.size());
  if (label.empty() || label.size() > 64) pem_fail("malformed BEGIN line");
  for (const auto c : label)
    if (c < 0x20 || c > 0x7e) pem_fail("malformed BEGIN line");
  PemBlock block;
  block.label = as_string(label);

  SecretBytes body(text.size());
  std::size_t n = 0;
  bool ended = false;
  while (next_line(line)) {
    if (starts_with(line, 0, "-----END ")) {
      if (as_string(line) != "-----END " + block.label + "-----")
        pem_fail("the END line does not match '-----BEGIN " + block.label + "-----'");
      ended = true;
      break;
    }
    if (std::find(line.begin(), line.end(), ':') != line.end())
      pem_fail("PEM headers are not supported (an encrypted key? decrypt it first)");
    for (const auto c : line) {
      if (base64_value(c) < 0 && c != '=') pem_fail("invalid character in the base64 data");
      body[n++] = c;
    }
  }
  if (!ended) pem_fail("no '-----END " + block.label + "-----' line (truncated?)");
  while (pos < text.size()) {
    if (!is_ws(text[pos])) pem_fail("data after the END line (only one PEM block is allowed)");
    ++pos;
  }
  block.der = base64_decode(ByteView(body.data(), n));
  return block;
}

}  // namespace pqkem::keyfile
