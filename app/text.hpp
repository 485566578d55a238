// pqkem CLI: errors with exit codes, and text for messages (file names and values made
// printable, errno text). Reading inputs is io.hpp's, writing outputs output.hpp's.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "error.hpp"

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

/// "stdin" for "-", the path otherwise (for messages).
std::string input_name(const std::string& path);
/// "stdout" for "-", the path otherwise (for messages).
std::string output_name(const std::string& path);

/// Runs `f`, turning a library pqkem::Error into a CliError (exit 1) that names `file`,
/// prefixed with `context`.
template <class F>
auto with_file_context(const std::string& context, const std::string& file, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const pqkem::Error& e) {
    throw CliError(kExitFailure, context.empty() ? std::string(e.what()) : context + ": " + e.what(), file);
  }
}

}  // namespace pqkem::cli
