// pqkem CLI: reading inputs (file or stdin, hex or raw) and encoding outputs. Writing them is
// output.hpp's; errors and message text are text.hpp's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "secret.hpp"

namespace pqkem::cli {

/// Output (and detected input) encodings. pem and der exist only for keys of schemes with a
/// standard OID (ML-KEM, RFC 9935); ciphertexts and shared secrets are always bin or hex.
enum class Format { bin, hex, pem, der };

/// "bin", "hex", "pem", "der".
const char* format_name(Format format) noexcept;
/// True for the formats that write bytes which are not text (refused on a terminal).
inline bool is_binary(Format format) noexcept { return format == Format::bin || format == Format::der; }

/// An owned file descriptor, closed on destruction (-1: none).
class Fd {
public:
  Fd() = default;
  explicit Fd(int fd) noexcept : m_fd(fd) {}
  Fd(Fd&& other) noexcept : m_fd(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset();
      m_fd = other.release();
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  [[nodiscard]] int get() const noexcept { return m_fd; }
  void reset() noexcept;

private:
  int release() noexcept {
    const int fd = m_fd;
    m_fd = -1;
    return fd;
  }
  int m_fd = -1;
};

/// Makes descriptors 0, 1 and 2 safe before pqkem opens any file: each one that is closed is
/// opened on /dev/null, so that no file opened later can take its number (a closed stdout would
/// otherwise send "-" output into the first output file). A closed stdin is opened write-only and
/// a closed stdout read-only, so that reading the one and writing the other still fail (EBADF);
/// a closed stderr is opened for writing (messages are lost, as they would have been). Call it
/// first thing in main. False if /dev/null cannot be opened.
bool guard_standard_descriptors() noexcept;

/// True if descriptor `fd` (0, 1 or 2) was closed when guard_standard_descriptors ran.
bool standard_stream_closed(int fd) noexcept;

/// Largest input accepted, in bytes. Far above any key or ciphertext, even as spaced hex;
/// the limit stops `--pk /dev/zero` from eating all memory.
inline constexpr std::size_t kMaxInputBytes = 1u << 20;

/// An input read in pieces (seal, open): `path`, or stdin for "-". Opening checks what
/// read_input checks first: exit 2 for an empty name, exit 1 for a closed stdin, a file that
/// cannot be opened, or a directory.
class InputStream {
public:
  explicit InputStream(const std::string& path);
  /// Fills `buffer` from the input, short only at its end (a pipe's short reads are
  /// continued): the bytes read. Exit 1 on a read error.
  std::size_t read(std::span<std::uint8_t> buffer);
  /// The size of a regular file as opened; nullopt for pipes, devices and empty files.
  [[nodiscard]] std::optional<std::uint64_t> known_size() const noexcept { return m_known_size; }
  /// The input's name for messages ("stdin" for -).
  [[nodiscard]] const std::string& name() const noexcept { return m_name; }

private:
  std::string m_name;
  Fd m_file;  // none for stdin
  int m_fd = -1;
  std::optional<std::uint64_t> m_known_size;
};

/// The whole content of `path`, or of stdin for "-". Exit 1 if it cannot be opened or read,
/// is empty, or is larger than kMaxInputBytes. The buffer wipes itself (inputs may be secret).
SecretBytes read_input(const std::string& path);

/// An input's bytes after format detection.
struct Decoded {
  SecretBytes bytes;
  bool from_hex = false;
};

/// Detects the format of `content`: hex (either case, whitespace and line breaks ignored) or
/// raw bytes. Content made only of hex digits and whitespace is always hex (random raw bytes
/// never are). Exit 1 (naming `file`) for hex with an odd number of digits, and for other text
/// (hex with a 0x prefix, a typo): raw keys and ciphertexts are never printable text. The
/// length is the caller's to check. Deciding the format takes time that depends only on the
/// length of `content`.
Decoded decode_input(SecretBytes content, const std::string& file);

/// Strict hex of a command-line argument (whitespace allowed); nullopt if not hex or odd.
std::optional<SecretBytes> parse_hex(std::string_view text);

/// Output encoding: raw bytes, or lower-case hex on one line with a trailing newline.
/// Only bin and hex: pem and der need the key's structure (see encode_public_key and
/// encode_secret_key in keys.hpp); passing them here is a programming error.
SecretBytes encode_output(ByteView data, Format format);

}  // namespace pqkem::cli
