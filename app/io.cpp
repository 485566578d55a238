#include "io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

#include <fmt/format.h>

#include "ct.hpp"

namespace pqkem::cli {

void throw_usage(const std::string& what, std::string file) { throw CliError(kExitUsage, what, std::move(file)); }

void throw_failure(const std::string& what, std::string file) { throw CliError(kExitFailure, what, std::move(file)); }

std::string input_name(const std::string& path) { return path == "-" ? "stdin" : path; }
std::string output_name(const std::string& path) { return path == "-" ? "stdout" : path; }

namespace {

std::string errno_text(int err) { return std::strerror(err); }

// Hex digits of secret keys and seeds are secret: which range a digit falls in must not show in
// the timing, so these two are branch-free (ct::in_range_mask), not short-circuit tests.
bool is_hex_digit(unsigned char c) noexcept {
  return (ct::in_range_mask(c, '0', '9') | ct::in_range_mask(c, 'a', 'f') | ct::in_range_mask(c, 'A', 'F')) != 0;
}

bool is_space(unsigned char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

unsigned hex_value(unsigned char c) noexcept {
  return (ct::in_range_mask(c, '0', '9') & (c - '0')) | (ct::in_range_mask(c, 'a', 'f') & (c - 'a' + 10u)) |
         (ct::in_range_mask(c, 'A', 'F') & (c - 'A' + 10u));
}

/// Number of hex digits if `text` is only hex digits and whitespace with at least one digit,
/// nullopt otherwise.
std::optional<std::size_t> count_hex_digits(ByteView text) noexcept {
  std::size_t digits = 0;
  for (const auto c : text) {
    if (is_hex_digit(c)) {
      ++digits;
    } else if (!is_space(c)) {
      return std::nullopt;
    }
  }
  if (digits == 0) return std::nullopt;
  return digits;
}

/// Decodes hex digits, skipping whitespace. Pre: count_hex_digits(text) == digits, digits even.
SecretBytes decode_hex(ByteView text, std::size_t digits) {
  SecretBytes out(digits / 2);
  std::size_t n = 0;
  unsigned hi = 0;
  for (const auto c : text) {
    if (!is_hex_digit(c)) continue;
    if (n % 2 == 0) {
      hi = hex_value(c);
    } else {
      out[n / 2] = static_cast<std::uint8_t>((hi << 4) | hex_value(c));
    }
    ++n;
  }
  return out;
}

/// Writes all of `data` to `fd`, retrying on EINTR. Returns 0 or an errno value.
int write_all(int fd, ByteView data) noexcept {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

/// The directory part of a path ("." if none), for creating a sibling temporary file.
std::string parent_dir(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

mode_t current_umask() noexcept {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

// --- Removal of temporary files when a signal ends the process mid-write. -------------------
// The handler may only call async-signal-safe functions (unlink, signal, raise), so the paths
// live in fixed static buffers.
constexpr std::size_t kMaxCleanup = 16;
char g_cleanup_paths[kMaxCleanup][PATH_MAX];
volatile std::sig_atomic_t g_cleanup_count = 0;

extern "C" void cleanup_on_signal(int sig) {
  for (std::sig_atomic_t i = 0; i < g_cleanup_count; ++i) ::unlink(g_cleanup_paths[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

/// Installs the cleanup handler for the lifetime of the object; forgets registered paths and
/// restores the previous handlers on destruction.
class SignalCleanup {
public:
  SignalCleanup() {
    struct sigaction sa {};
    sa.sa_handler = cleanup_on_signal;
    sigemptyset(&sa.sa_mask);
    for (std::size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &sa, &m_old[i]);
  }
  SignalCleanup(const SignalCleanup&) = delete;
  SignalCleanup& operator=(const SignalCleanup&) = delete;
  ~SignalCleanup() {
    g_cleanup_count = 0;
    for (std::size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &m_old[i], nullptr);
  }
  static void add(const std::string& path) noexcept {
    if (g_cleanup_count >= static_cast<std::sig_atomic_t>(kMaxCleanup) || path.size() >= PATH_MAX) return;
    std::memcpy(g_cleanup_paths[g_cleanup_count], path.c_str(), path.size() + 1);
    g_cleanup_count = g_cleanup_count + 1;
  }

private:
  static constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};
  struct sigaction m_old[3]{};
};

/// A unique, unused name beside `target` (".NAME.pqkem-XXXXXX"), created as an empty file
/// with mode 0600 by mkstemp. Returns the open descriptor and fills `name`; -1 and errno on error.
int make_temp_beside(const std::string& target, const char* tag, std::string& name) {
  // Keep the name below NAME_MAX whatever the target's length.
  const std::string base = base_name(target).substr(0, 200);
  std::string dir = parent_dir(target);
  if (dir != "/") dir += '/';
  std::string tmpl = fmt::format("{}.{}.{}-XXXXXX", dir, base, tag);
  const int fd = ::mkstemp(tmpl.data());
  if (fd >= 0) name = tmpl;
  return fd;
}

/// rename(from, to) that never replaces an existing `to`: renameat2(RENAME_NOREPLACE), or on
/// file systems without it link()+unlink(). Returns 0 or an errno value.
int rename_noreplace(const std::string& from, const std::string& to) noexcept {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) return errno;
  if (::link(from.c_str(), to.c_str()) != 0) return errno;
  ::unlink(from.c_str());
  return 0;
}

/// Identity of a path for "are these the same file" checks.
struct FileId {
  bool exists = false;
  bool special = false;  ///< exists and is neither a regular file nor a directory
  dev_t dev = 0;
  ino_t ino = 0;
  std::string canonical;
};

FileId identify(const std::string& path) {
  FileId id;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.special = !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    id.dev = st.st_dev;
    id.ino = st.st_ino;
  }
  std::error_code ec;
  const auto abs = std::filesystem::absolute(path, ec);
  if (!ec) {
    const auto canon = std::filesystem::weakly_canonical(abs, ec);
    id.canonical = ec ? abs.lexically_normal().string() : canon.string();
  } else {
    id.canonical = path;
  }
  return id;
}

/// True if both paths certainly name the same file. Special files (/dev/null, pipes) are never
/// "the same": writing twice to /dev/null is fine.
bool same_file(const FileId& a, const FileId& b) {
  if (a.special || b.special) return false;
  if (a.exists && b.exists) return a.dev == b.dev && a.ino == b.ino;
  return a.canonical == b.canonical;
}

}  // namespace

SecretBytes read_input(const std::string& path) {
  const std::string name = input_name(path);
  if (path.empty()) throw_usage("empty file name; give a path or - for stdin");
  int fd = 0;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw_failure(fmt::format("cannot open input: {}", errno_text(errno)), name);
  }
  struct FdCloser {
    int fd;
    ~FdCloser() {
      if (fd > 0) ::close(fd);
    }
  } closer{fd};

  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) throw_failure("input is a directory, not a file", name);

  SecretBytes buffer(kMaxInputBytes + 1);
  std::size_t used = 0;
  while (used < buffer.size()) {
    const ssize_t n = ::read(fd, buffer.data() + used, buffer.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_failure(fmt::format("cannot read input: {}", errno_text(errno)), name);
    }
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  if (used == 0) throw_failure("input is empty", name);
  if (used > kMaxInputBytes)
    throw_failure(fmt::format("input is larger than {} bytes: not a key or ciphertext", kMaxInputBytes), name);
  return SecretBytes(ByteView(buffer.data(), used));
}

Decoded decode_input(SecretBytes content, const std::function<bool(std::size_t)>& fits, const std::string& file) {
  const auto digits = count_hex_digits(content.view());
  if (!digits) return {std::move(content), false};
  const bool even = *digits % 2 == 0;
  if (even && fits(*digits / 2)) return {decode_hex(content.view(), *digits), true};
  if (fits(content.size())) return {std::move(content), false};  // raw bytes that happen to look like hex
  if (!even) throw_failure(fmt::format("input looks like hex but has an odd number of hex digits: {}", *digits), file);
  return {decode_hex(content.view(), *digits), true};
}

std::optional<SecretBytes> parse_hex(std::string_view text) {
  const ByteView bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  const auto digits = count_hex_digits(bytes);
  if (!digits || *digits % 2 != 0) return std::nullopt;
  return decode_hex(bytes, *digits);
}

const char* format_name(Format format) noexcept {
  switch (format) {
    case Format::bin:
      return "bin";
    case Format::hex:
      return "hex";
    case Format::pem:
      return "pem";
    case Format::der:
      return "der";
  }
  return "?";
}

SecretBytes encode_output(ByteView data, Format format) {
  if (format == Format::pem || format == Format::der)
    throw std::logic_error("encode_output: pem and der need a key structure");
  if (format == Format::bin) return SecretBytes(data);
  static constexpr char kDigits[] = "0123456789abcdef";
  SecretBytes out(2 * data.size() + 1);
  for (std::size_t i = 0; i < data.size(); ++i) {
    out[2 * i] = static_cast<std::uint8_t>(kDigits[data[i] >> 4]);
    out[2 * i + 1] = static_cast<std::uint8_t>(kDigits[data[i] & 0xf]);
  }
  out[2 * data.size()] = '\n';
  return out;
}

void check_path_roles(const std::vector<PathArg>& inputs, const std::vector<PathArg>& outputs) {
  for (const auto* list : {&inputs, &outputs}) {
    for (const auto& p : *list)
      if (p.path.empty())
        throw_usage(fmt::format("{} needs a file name, or - for {}", p.option, list == &inputs ? "stdin" : "stdout"));
  }
  const auto two_dashes = [](const std::vector<PathArg>& list) -> std::optional<std::pair<std::string, std::string>> {
    const PathArg* first = nullptr;
    for (const auto& p : list) {
      if (p.path != "-") continue;
      if (first != nullptr) return std::make_pair(first->option, p.option);
      first = &p;
    }
    return std::nullopt;
  };
  if (const auto dup = two_dashes(inputs))
    throw_usage(
        fmt::format("{} and {} both read stdin (-); at most one input can come from stdin", dup->first, dup->second));
  if (const auto dup = two_dashes(outputs))
    throw_usage(fmt::format("{} and {} both write to stdout (-); at most one output can go to stdout", dup->first,
                            dup->second));

  std::vector<FileId> out_ids;
  for (const auto& o : outputs) out_ids.push_back(o.path == "-" ? FileId{} : identify(o.path));
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].path == "-") continue;
    for (std::size_t j = 0; j < i; ++j) {
      if (outputs[j].path != "-" && same_file(out_ids[j], out_ids[i]))
        throw_usage(fmt::format("{} and {} name the same file; give each output its own file", outputs[j].option,
                                outputs[i].option),
                    outputs[i].path);
    }
    for (const auto& in : inputs) {
      if (in.path == "-") continue;
      if (same_file(identify(in.path), out_ids[i]))
        throw_usage(fmt::format("output {} would overwrite input {}; write the output to another file",
                                outputs[i].option, in.option),
                    outputs[i].path);
    }
  }
}

void check_output(const PathArg& out, Format format, bool force) {
  if (out.path == "-") {
    if (is_binary(format) && ::isatty(STDOUT_FILENO) == 1)
      throw_usage(fmt::format("refusing to write binary {} to a terminal; use --format {}, or redirect to a file",
                              out.option, format == Format::der ? "pem" : "hex"),
                  "stdout");
    return;
  }
  struct stat st {};
  if (::stat(out.path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw_failure("output is a directory; give a file name", out.path);
    if (S_ISREG(st.st_mode) && !force) throw_failure("output file already exists; use --force to replace it", out.path);
    return;  // a regular file with --force, or a special file (/dev/null, a pipe) written in place
  }
  const int err = errno;
  if (err != ENOENT) throw_failure(fmt::format("cannot use output path: {}", errno_text(err)), out.path);
  struct stat lst {};
  if (::lstat(out.path.c_str(), &lst) == 0) throw_failure("output is a dangling symbolic link", out.path);
  const std::string dir = parent_dir(out.path);
  struct stat dst {};
  if (::stat(dir.c_str(), &dst) != 0) {
    const int derr = errno;
    if (derr == ENOENT) throw_failure(fmt::format("directory '{}' does not exist; create it first", dir), out.path);
    throw_failure(fmt::format("cannot use directory '{}': {}", dir, errno_text(derr)), out.path);
  }
  if (!S_ISDIR(dst.st_mode)) throw_failure(fmt::format("'{}' is not a directory", dir), out.path);
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw_failure(fmt::format("cannot create a file in directory '{}': {}", dir, errno_text(errno)), out.path);
}

void write_stdout(std::string_view text) {
  const ByteView bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  if (const int err = write_all(STDOUT_FILENO, bytes); err != 0)
    throw_failure(fmt::format("cannot write: {}", errno_text(err)), "stdout");
}

void write_outputs(std::vector<PendingOutput>& outputs, bool force) {
  // One staged file output. `target` is the path actually replaced: a symbolic link to a
  // regular file is followed, so the link survives and its target gets the new content.
  struct Staged {
    const PendingOutput* out = nullptr;
    std::string target;
    std::string temp;      ///< complete new content, renamed over target at the end
    std::string backup;    ///< hard link to the replaced file (--force), restored on failure
    bool direct = false;   ///< an existing special file, written in place
    bool existed = false;  ///< target existed before (--force)
    bool renamed = false;
  };
  std::vector<Staged> staged;
  const PendingOutput* to_stdout = nullptr;
  const mode_t public_mode = 0666 & ~current_umask();
  SignalCleanup signal_guard;

  // Undo everything on failure: remove temporary files, restore replaced files from their
  // backups, remove targets this call created.
  const auto fail = [&](const std::string& what, const std::string& file) {
    for (auto it = staged.rbegin(); it != staged.rend(); ++it) {
      if (it->renamed) {
        if (it->existed && !it->backup.empty()) {
          ::rename(it->backup.c_str(), it->target.c_str());
          it->backup.clear();
        } else if (!it->existed) {
          ::unlink(it->target.c_str());
        }
      }
      if (!it->temp.empty() && !it->renamed) ::unlink(it->temp.c_str());
      if (!it->backup.empty()) ::unlink(it->backup.c_str());
    }
    throw_failure(what, file);
  };

  // 1. Every file output to a complete, synced temporary file beside its target.
  for (const auto& out : outputs) {
    if (out.target.path == "-") {
      to_stdout = &out;
      continue;
    }
    Staged s;
    s.out = &out;
    s.target = out.target.path;
    struct stat lst {};
    struct stat st {};
    if (::lstat(s.target.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode) && ::stat(s.target.c_str(), &st) == 0 &&
        S_ISREG(st.st_mode)) {
      if (char* real = ::realpath(s.target.c_str(), nullptr)) {
        s.target = real;
        std::free(real);
      }
    }
    if (::stat(s.target.c_str(), &st) == 0) {
      s.existed = true;
      s.direct = !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    }
    staged.push_back(std::move(s));
    Staged& cur = staged.back();
    if (cur.direct) continue;

    std::string temp;
    const int fd = make_temp_beside(cur.target, "pqkem", temp);
    if (fd < 0)
      fail(fmt::format("cannot create a temporary file beside the output: {}", errno_text(errno)), out.target.path);
    cur.temp = temp;
    SignalCleanup::add(temp);
    int err = 0;
    if (::fchmod(fd, out.secret ? 0600 : public_mode) != 0) err = errno;
    if (err == 0) err = write_all(fd, out.data.view());
    if (err == 0 && ::fsync(fd) != 0) err = errno;
    if (::close(fd) != 0 && err == 0) err = errno;
    if (err != 0) fail(fmt::format("cannot write output: {}", errno_text(err)), out.target.path);
  }

  // 2. stdout, then special files: neither can be undone, so they come before any rename.
  if (to_stdout != nullptr) {
    if (const int err = write_all(STDOUT_FILENO, to_stdout->data.view()); err != 0)
      fail(fmt::format("cannot write: {}", errno_text(err)), "stdout");
  }
  for (auto& s : staged) {
    if (!s.direct) continue;
    const int fd = ::open(s.target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) fail(fmt::format("cannot open output: {}", errno_text(errno)), s.out->target.path);
    int err = write_all(fd, s.out->data.view());
    if (::close(fd) != 0 && err == 0) err = errno;
    if (err != 0) fail(fmt::format("cannot write output: {}", errno_text(err)), s.out->target.path);
  }

  // 3. Back up files about to be replaced (hard links, so nothing is copied), then rename.
  for (auto& s : staged) {
    if (s.direct || !s.existed) continue;
    std::string backup;
    const int fd = make_temp_beside(s.target, "pqkem-old", backup);
    if (fd < 0) continue;  // no backup possible: still correct unless a later rename fails
    ::close(fd);
    ::unlink(backup.c_str());
    if (::link(s.target.c_str(), backup.c_str()) == 0) {
      s.backup = backup;
      SignalCleanup::add(backup);
    }
  }
  for (auto& s : staged) {
    if (s.direct) continue;
    const int err =
        force ? (::rename(s.temp.c_str(), s.target.c_str()) == 0 ? 0 : errno) : rename_noreplace(s.temp, s.target);
    if (err == EEXIST) fail("output file appeared meanwhile; use --force to replace it", s.out->target.path);
    if (err != 0) fail(fmt::format("cannot replace output: {}", errno_text(err)), s.out->target.path);
    s.renamed = true;
  }
  for (auto& s : staged) {
    if (!s.backup.empty()) ::unlink(s.backup.c_str());
  }

  // 4. Make the renames durable (best effort: a failure here loses nothing already written).
  for (const auto& s : staged) {
    if (s.direct) continue;
    const int dfd = ::open(parent_dir(s.target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  }
}

}  // namespace pqkem::cli
