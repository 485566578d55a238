// pqkem CLI: errors with exit codes, text for messages, reading inputs (file or stdin, hex or
// raw) and encoding outputs. Writing them is output.hpp's.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "secret.hpp"

namespace pqkem::cli {

/// Exit codes a script can rely on.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  ///< valid usage, but an input, key or I/O operation failed
inline constexpr int kExitUsage = 2;    ///< the command line itself is wrong

/// The one exception type of the CLI. `main` prints "pqkem: <what> (<file>)" and exits with
/// `exit_code()`. A message never contains secret material, only names, lengths and errno text.
class CliError : public std::runtime_error {
public:
  CliError(int exit_code, const std::string& what, std::string file)
      : std::runtime_error(what), m_exit_code(exit_code), m_file(std::move(file)) {}
  [[nodiscard]] int exit_code() const noexcept { return m_exit_code; }
  [[nodiscard]] const std::string& file() const noexcept { return m_file; }

private:
  int m_exit_code;
  std::string m_file;
};

/// Exit 2: the command line is wrong (the user must change the command).
[[noreturn]] void throw_usage(const std::string& what, std::string file = {});
/// Exit 1: the command line is fine, but an input, key or I/O operation failed.
[[noreturn]] void throw_failure(const std::string& what, std::string file = {});

/// Output (and detected input) encodings. pem and der exist only for keys of schemes with a
/// standard OID (ML-KEM, RFC 9935); ciphertexts and shared secrets are always bin or hex.
enum class Format { bin, hex, pem, der };

/// "bin", "hex", "pem", "der".
const char* format_name(Format format) noexcept;
/// True for the formats that write bytes which are not text (refused on a terminal).
inline bool is_binary(Format format) noexcept { return format == Format::bin || format == Format::der; }

/// The length (1 to 4) of the well-formed UTF-8 character at s[i], or 0 if none starts there.
/// Pre: i < s.size().
std::size_t utf8_char_at(std::string_view s, std::size_t i) noexcept;
/// True if `s` is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool valid_utf8(std::string_view s) noexcept;

/// `s` for a one-line message: unchanged if it is UTF-8 without control characters or
/// backslashes, else in the shell's $'...' quoting (\n, \t, \\, \', \xNN for control characters and bytes that are not
/// UTF-8), so a file name can neither split the line nor send escape sequences to a terminal.
std::string printable(std::string_view s);

/// `s` with ASCII letters in lower case (names, formats and implementations ignore case).
std::string lower_ascii(std::string s);

/// strerror(err), for messages.
std::string errno_text(int err);

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

/// "stdin" for "-", the path otherwise (for messages).
std::string input_name(const std::string& path);
/// "stdout" for "-", the path otherwise (for messages).
std::string output_name(const std::string& path);

/// Largest input accepted, in bytes. Far above any key or ciphertext, even as spaced hex;
/// the limit stops `--pk /dev/zero` from eating all memory.
inline constexpr std::size_t kMaxInputBytes = 1u << 20;

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
/// encode_secret_key in commands.hpp); passing them here is a programming error.
SecretBytes encode_output(ByteView data, Format format);

}  // namespace pqkem::cli
