#include "keyfile/der.hpp"

#include <cstring>

#include "error.hpp"

namespace pqkem::der {

void Reader::fail(const std::string& why) const { throw Error(Errc::bad_format, m_what + ": " + why); }

Tlv Reader::next() {
  if (m_rest.size() < 2) fail(m_rest.empty() ? "unexpected end of data" : "truncated DER element");
  const std::uint8_t tag = m_rest[0];
  if ((tag & 0x1f) == 0x1f) fail("multi-byte DER tags are not used in key files");
  std::size_t pos = 1;
  std::size_t len = m_rest[pos++];
  if (len == 0x80) fail("indefinite length (BER, not DER)");
  if (len == 0xff) fail("reserved length byte 0xff");
  if (len > 0x80) {
    const std::size_t n = len & 0x7f;
    if (n > 3) fail("length field too long");
    if (m_rest.size() - pos < n) fail("truncated DER length");
    if (m_rest[pos] == 0) fail("non-minimal DER length (leading zero byte)");
    len = 0;
    for (std::size_t i = 0; i < n; ++i) len = (len << 8) | m_rest[pos++];
    if (len < 0x80) fail("non-minimal DER length (long form for a length below 128)");
    if (len > kMaxLength) fail("DER length too large");
  }
  if (m_rest.size() - pos < len) fail("truncated: an element is longer than the data that remains");
  Tlv out{tag, m_rest.subspan(pos, len)};
  m_rest = m_rest.subspan(pos + len);
  return out;
}

namespace {
/// The type a universal tag of the key formats stands for ("an OCTET STRING"); nullptr for
/// any other tag. Messages name only the expected tag (a constant), never the one found.
const char* type_name(std::uint8_t tag) noexcept {
  switch (tag) {
    case kInteger: return "an INTEGER";
    case kBitString: return "a BIT STRING";
    case kOctetString: return "an OCTET STRING";
    case kOid: return "an OBJECT IDENTIFIER";
    case kSequence: return "a SEQUENCE";
    default: return nullptr;
  }
}
}  // namespace

ByteView Reader::expect(std::uint8_t tag, const char* field) {
  if (m_rest.empty()) fail(std::string("missing ") + field);
  if (m_rest[0] != tag) {
    const char* type = type_name(tag);
    fail(std::string(field) + (type != nullptr ? std::string(": expected ") + type : std::string(": wrong tag")));
  }
  return next().content;
}

void Reader::expect_end(const char* after) const {
  if (!m_rest.empty()) fail(std::string("trailing data after ") + after);
}

std::size_t header_size(std::size_t content_size) noexcept {
  if (content_size < 0x80) return 2;
  std::size_t n = 0;
  for (std::size_t v = content_size; v != 0; v >>= 8) ++n;
  return 2 + n;
}

void Writer::header(std::uint8_t tag, std::size_t content_size) {
  const std::size_t h = header_size(content_size);
  if (m_out.size() - m_pos < h) throw Error(Errc::bad_argument, "DER writer: buffer too small");
  m_out[m_pos++] = tag;
  if (content_size < 0x80) {
    m_out[m_pos++] = static_cast<std::uint8_t>(content_size);
    return;
  }
  const std::size_t n = h - 2;
  m_out[m_pos++] = static_cast<std::uint8_t>(0x80 | n);
  for (std::size_t i = n; i-- > 0;) m_out[m_pos++] = static_cast<std::uint8_t>(content_size >> (8 * i));
}

void Writer::raw(ByteView bytes) {
  if (m_out.size() - m_pos < bytes.size()) throw Error(Errc::bad_argument, "DER writer: buffer too small");
  if (!bytes.empty()) std::memcpy(m_out.data() + m_pos, bytes.data(), bytes.size());
  m_pos += bytes.size();
}

void Writer::done() const {
  if (m_pos != m_out.size()) throw Error(Errc::bad_argument, "DER writer: buffer not filled exactly");
}

}  // namespace pqkem::der
