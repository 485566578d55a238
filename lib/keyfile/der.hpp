// pqkem: a small, strict DER reader and writer (ITU-T X.690, Distinguished Encoding Rules),
// enough for SubjectPublicKeyInfo and PKCS#8 (RFC 5280, RFC 5958). Only what those need:
// single-byte tags, definite minimal lengths, no recursion. The reader never reads outside
// its input and fails with Error(Errc::bad_format) on anything that is not DER.
//
// The input may be secret (a secret key given where a public key belongs, or key bytes that
// happen to have a DER outer shape). So a message names the structure, the field and the rule
// that failed, and never a value read from the input (a length, a count of bytes, a tag).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "secret.hpp"

namespace pqkem::der {

/// Tags used by the key formats (class, constructed bit and number in one byte).
inline constexpr std::uint8_t kInteger = 0x02;
inline constexpr std::uint8_t kBitString = 0x03;
inline constexpr std::uint8_t kOctetString = 0x04;
inline constexpr std::uint8_t kOid = 0x06;
inline constexpr std::uint8_t kSequence = 0x30;
inline constexpr std::uint8_t kContext0Primitive = 0x80;    ///< [0] IMPLICIT, primitive
inline constexpr std::uint8_t kContext1Primitive = 0x81;    ///< [1] IMPLICIT, primitive
inline constexpr std::uint8_t kContext0Constructed = 0xa0;  ///< [0] IMPLICIT, constructed

/// Largest content length the reader accepts (4 MiB): far above any key, and it keeps the
/// length arithmetic trivially free of overflow.
inline constexpr std::size_t kMaxLength = std::size_t{1} << 22;

/// One TLV: its tag and a view of its contents inside the reader's input.
struct Tlv {
  std::uint8_t tag = 0;
  ByteView content;
};

/// Reads consecutive TLVs from a byte string, front to back. Every length is checked against
/// what remains, so a Tlv's content always lies inside the input.
class Reader {
public:
  /// `what` names the structure being read, for error messages ("SubjectPublicKeyInfo").
  Reader(ByteView input, std::string what) : m_rest(input), m_what(std::move(what)) {}

  [[nodiscard]] bool empty() const noexcept { return m_rest.empty(); }
  /// The next tag without consuming it; 0 when nothing is left (0x00 is never a valid tag
  /// in the structures read here).
  [[nodiscard]] std::uint8_t peek_tag() const noexcept { return m_rest.empty() ? 0 : m_rest[0]; }

  /// The next TLV, whatever its tag. Rejects: high tag numbers (0x1f), indefinite lengths
  /// (0x80), reserved 0xff, long-form lengths that are not minimal (< 128, or a leading zero
  /// byte), more than 3 length bytes, lengths past the end of the input.
  Tlv next();
  /// The next TLV, which must have tag `tag`; `field` names it in the error message, with
  /// the type expected ("privateKey: expected an OCTET STRING").
  ByteView expect(std::uint8_t tag, const char* field);
  /// Fails unless everything has been read ("trailing data after <after>").
  void expect_end(const char* after) const;

  [[noreturn]] void fail(const std::string& why) const;

private:
  ByteView m_rest;
  std::string m_what;
};

/// Size of a TLV header (tag and minimal definite length) for `content_size` bytes of content.
std::size_t header_size(std::size_t content_size) noexcept;
/// Size of a whole TLV with `content_size` bytes of content.
inline std::size_t tlv_size(std::size_t content_size) noexcept { return header_size(content_size) + content_size; }

/// Writes DER into a buffer sized in advance (with tlv_size), front to back. Writing past the
/// end is a programming error and throws Error(Errc::bad_argument); `done()` checks that the
/// buffer was filled exactly.
class Writer {
public:
  explicit Writer(std::span<std::uint8_t> out) noexcept : m_out(out) {}
  /// Tag and minimal definite length; the content follows with further calls.
  void header(std::uint8_t tag, std::size_t content_size);
  void raw(ByteView bytes);
  void tlv(std::uint8_t tag, ByteView content) {
    header(tag, content.size());
    raw(content);
  }
  void done() const;

private:
  std::span<std::uint8_t> m_out;
  std::size_t m_pos = 0;
};

}  // namespace pqkem::der
