// pqkem CLI: errors with exit codes, reading inputs (file or stdin, hex or raw), and writing
// outputs all-or-nothing (temporary file in the same directory, then rename).
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
/// raw bytes. Content made only of hex digits and whitespace is read as hex, unless only its
/// raw length is one `fits` accepts. Exit 1 (naming `file`) for hex with an odd number of
/// digits. The length is *not* checked here when neither reading fits: the caller reports it.
Decoded decode_input(SecretBytes content, const std::function<bool(std::size_t)>& fits, const std::string& file);

/// Strict hex of a command-line argument (whitespace allowed); nullopt if not hex or odd.
std::optional<SecretBytes> parse_hex(std::string_view text);

/// Output encoding: raw bytes, or lower-case hex on one line with a trailing newline.
/// Only bin and hex: pem and der need the key's structure (see encode_public_key and
/// encode_secret_key in commands.hpp); passing them here is a programming error.
SecretBytes encode_output(ByteView data, Format format);

/// A path given on the command line, with the option that named it (for messages).
struct PathArg {
  std::string path;
  std::string option;  ///< e.g. "--pk"
};

/// Checks that can be made before any work, in this order (all exit 2):
/// at most one input and at most one output is "-"; no two outputs name the same file;
/// no output names a file that is also an input.
void check_path_roles(const std::vector<PathArg>& inputs, const std::vector<PathArg>& outputs);

/// Checks that an output can be created, before any work: binary output (bin, der) to a
/// terminal is refused (exit 2); the directory must exist (exit 1); an existing file needs `force`
/// (exit 1); a directory cannot be replaced (exit 1). Existing non-regular files (/dev/null,
/// a FIFO, a process substitution) are written in place and need no `force`.
void check_output(const PathArg& out, Format format, bool force);

/// One encoded output waiting to be written.
struct PendingOutput {
  PathArg target;
  SecretBytes data;     ///< already encoded (see encode_output)
  bool secret = false;  ///< created with mode 0600, whatever the umask
};

/// Writes every output or none of them. Each file output is first written in full to a
/// temporary file in its own directory (".NAME.pqkem-XXXXXX", fsync'ed), then stdout is
/// written, then the temporary files are renamed over their targets (without `force`, a
/// rename never replaces a file that appeared meanwhile). On any failure the temporary files
/// and every target created so far are removed, and CliError (exit 1) names the file.
/// Temporary files are also removed if SIGINT/SIGTERM/SIGHUP arrives while they exist.
void write_outputs(std::vector<PendingOutput>& outputs, bool force);

/// Writes `text` to stdout in full (exit 1 on error, e.g. a closed pipe).
void write_stdout(std::string_view text);

}  // namespace pqkem::cli
