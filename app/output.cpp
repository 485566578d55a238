#include "output.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <tuple>
#include <utility>

#include <fmt/format.h>

namespace pqkem::cli {
namespace {

// --- Test hooks ------------------------------------------------------------------------------
// Only the pqkem_test_hooks binary of a test build has them (PQKEM_TEST_HOOKS): races and
// signals are tested by stopping or signalling the process at a named step instead of by timing.
// PQKEM_TEST_HOOK=STEP:ACTION[,STEP:ACTION...]; ACTION is stop (SIGSTOP, for the test to resume
// with SIGCONT) or the lower-case name of the signal to send to this process without its SIG
// prefix (term, int, hup, quit, usr1, kill, xfsz, rtmin ...). The steps: staged (every file
// output written to its temporary file), between-commits (before each commit after the first),
// linked (--force: the new content has its hidden name), backed-up (--force: the replaced file
// has its hidden backup name), committed (every output in place, backups not yet removed),
// lock-busy (another process holds a directory's lock). PQKEM_TEST_NO_TMPFILE=1 makes the
// writer use named temporary files, as on a file system without O_TMPFILE.
#ifdef PQKEM_TEST_HOOKS
int hook_signal(std::string_view action) noexcept {
  static constexpr std::pair<std::string_view, int> kActions[] = {
      {"stop", SIGSTOP}, {"kill", SIGKILL},    {"term", SIGTERM}, {"int", SIGINT},   {"hup", SIGHUP},
      {"quit", SIGQUIT}, {"usr1", SIGUSR1},    {"usr2", SIGUSR2}, {"alrm", SIGALRM}, {"vtalrm", SIGVTALRM},
      {"prof", SIGPROF}, {"xcpu", SIGXCPU},    {"xfsz", SIGXFSZ}, {"pipe", SIGPIPE}, {"poll", SIGPOLL},
      {"pwr", SIGPWR},   {"stkflt", SIGSTKFLT}};
  for (const auto& [name, sig] : kActions)
    if (action == name) return sig;
  if (action == "rtmin") return SIGRTMIN;
  if (action == "rtmax") return SIGRTMAX;
  return 0;
}
#endif

void test_hook([[maybe_unused]] std::string_view step) noexcept {
#ifdef PQKEM_TEST_HOOKS
  const char* spec = std::getenv("PQKEM_TEST_HOOK");
  if (spec == nullptr) return;
  std::string_view rest(spec);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const auto colon = item.find(':');
    if (colon == std::string_view::npos || item.substr(0, colon) != step) continue;
    if (const int sig = hook_signal(item.substr(colon + 1)); sig != 0) ::kill(::getpid(), sig);
  }
#endif
}

/// True where O_TMPFILE may be used: its files get their name through /proc/self/fd (linkat
/// with AT_SYMLINK_FOLLOW). The test build can turn it off (PQKEM_TEST_NO_TMPFILE=1).
bool unnamed_files_usable() noexcept {
#ifdef PQKEM_TEST_HOOKS
  if (const char* off = std::getenv("PQKEM_TEST_NO_TMPFILE"); off != nullptr && std::string_view(off) == "1")
    return false;
#endif
  return ::access("/proc/self/fd", X_OK) == 0;
}

// --- Paths -------------------------------------------------------------------------------------

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

/// The directory part of a path ("." if none), where its temporary file is made.
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

/// Identity of a path for "are these the same file" checks: an existing file by its inode; a
/// name not yet taken by its directory's inode and the name in it (two outputs `ct` and `./ct`
/// would become one file); a name in a directory that cannot be reached (writing there fails
/// anyway) by its normalized absolute path. Found with stat(2) calls, not by resolving every
/// component of the path.
struct FileId {
  enum class Kind { file, name_in_dir, unreachable };
  Kind kind = Kind::unreachable;
  bool special = false;  ///< a file that is neither a regular file nor a directory
  dev_t dev = 0;         ///< of the file, or of its directory
  ino_t ino = 0;
  std::string name;  ///< name_in_dir: the name in the directory; unreachable: the absolute path
};

FileId identify(const std::string& path) {
  FileId id;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.kind = FileId::Kind::file;
    id.special = !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    id.dev = st.st_dev;
    id.ino = st.st_ino;
  } else if (::stat(parent_dir(path).c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    id.kind = FileId::Kind::name_in_dir;
    id.dev = st.st_dev;
    id.ino = st.st_ino;
    id.name = base_name(path);
  } else {
    std::error_code ec;
    const auto abs = std::filesystem::absolute(path, ec);
    id.name = ec ? path : abs.lexically_normal().string();
  }
  return id;
}

/// The identity of the file stdin reads: a regular file by its inode (`< k.sk`), anything else
/// (a pipe, a terminal) as a special file, which no output can overwrite.
FileId identify_stdin() {
  FileId id;
  struct stat st {};
  if (::fstat(STDIN_FILENO, &st) != 0 || !S_ISREG(st.st_mode)) {
    id.special = true;
    return id;
  }
  id.kind = FileId::Kind::file;
  id.dev = st.st_dev;
  id.ino = st.st_ino;
  return id;
}

/// True if both paths certainly name the same file. Special files (/dev/null, pipes) are never
/// "the same": writing twice to /dev/null is fine (two outputs on stdout are is_stdout's).
bool same_file(const FileId& a, const FileId& b) {
  if (a.special || b.special || a.kind != b.kind) return false;
  return a.dev == b.dev && a.ino == b.ino && a.name == b.name;
}

/// True if the character device at `path` is a terminal. Opening a tty with O_NOCTTY and
/// O_NONBLOCK neither makes it the controlling terminal nor waits for a carrier.
bool is_terminal_path(const std::string& path) {
  const Fd fd(::open(path.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
  return fd.get() >= 0 && ::isatty(fd.get()) == 1;
}

/// True if `link` (the lstat of a symbolic link in directory `dir`) is one that the kernel's
/// fs.protected_symlinks would refuse to follow: in a sticky, world-writable directory (/tmp),
/// owned neither by us nor by the directory's owner. Such a link is how another user redirects
/// a write into a file of ours; pqkem refuses it whatever the sysctl says.
bool foreign_link(const std::string& dir, const struct stat& link) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return false;
  const bool sticky_shared = (st.st_mode & S_ISVTX) != 0 && (st.st_mode & S_IWOTH) != 0;
  return sticky_shared && link.st_uid != ::geteuid() && link.st_uid != st.st_uid;
}

/// Pushes the components of `path` onto `pending`, last first (so that the first is popped
/// first); empty components (from "//" or a trailing "/") are left out.
void push_components(std::vector<std::string>& pending, std::string_view path) {
  std::size_t end = path.size();
  while (end > 0) {
    const auto slash = path.rfind('/', end - 1);
    const std::size_t begin = slash == std::string_view::npos ? 0 : slash + 1;
    if (end > begin) pending.emplace_back(path.substr(begin, end - begin));
    if (slash == std::string_view::npos) break;
    end = slash;
  }
}

/// True if resolving `path` follows a foreign_link anywhere: in the directories leading to it
/// and in its last component, through chains of links, as the kernel checks every link it
/// follows. The walk is the kernel's: each component is looked up (lstat) in the directory
/// reached so far, which never contains a link, so ".." is taken as the kernel takes it. It
/// stops, finding nothing, where a component does not exist (the open fails there, or creates
/// the last one) or after 40 links (the open fails with ELOOP).
bool crosses_foreign_link(const std::string& path) {
  std::vector<std::string> pending;
  push_components(pending, path);
  std::string dir = !path.empty() && path.front() == '/' ? "/" : ".";
  int links = 0;
  while (!pending.empty()) {
    const std::string name = std::move(pending.back());
    pending.pop_back();
    if (name == ".") continue;
    std::string next = dir;
    if (next != "/") next += '/';
    next += name;
    struct stat st {};
    if (::lstat(next.c_str(), &st) != 0) return false;
    if (!S_ISLNK(st.st_mode)) {
      dir = std::move(next);
      continue;
    }
    if (foreign_link(dir, st)) return true;
    std::array<char, PATH_MAX> target{};
    const ssize_t n = ::readlink(next.c_str(), target.data(), target.size());
    if (++links > 40 || n <= 0 || static_cast<std::size_t>(n) >= target.size()) return false;
    const std::string_view to(target.data(), static_cast<std::size_t>(n));
    if (to.front() == '/') dir.assign(1, '/');  // (not = "/": GCC 12 warns -Wrestrict on that)
    push_components(pending, to);
  }
  return false;
}

/// nullptr for the files an output may be: a regular file (replaced), or one written in place:
/// a character device (/dev/null), a FIFO (a pipe, a process substitution) or a socket. Else the
/// message refusing it: a block device holds a file system or a disk, which pqkem never writes.
const char* unwritable_kind(mode_t mode) noexcept {
  if (S_ISREG(mode) || S_ISCHR(mode) || S_ISFIFO(mode) || S_ISSOCK(mode)) return nullptr;
  if (S_ISBLK(mode))
    return "output is a block device; pqkem writes regular files, and in place only character devices, FIFOs "
           "and sockets";
  return "output is neither a regular file nor a character device, FIFO or socket";
}

constexpr const char* kForeignSymlink =
    "refusing to follow a symbolic link that another user owns in a shared sticky directory; remove the link or "
    "write elsewhere";

// --- Signals while temporary files exist and while outputs are committed --------------------

/// Calls f(sig) for every signal whose default action ends the process and that comes from
/// outside (kill(1), the terminal, the kernel's limits): SIGPIPE and SIGXFSZ are ignored by main
/// (their failures surface as write errors) but are listed all the same. Not the fault signals
/// (SEGV, BUS, FPE, ILL, TRAP, SYS, ABRT), which a bug raises and the sanitizers catch.
template <class F>
void for_each_external_signal(F&& f) {
  static constexpr int kNamed[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM,  SIGVTALRM,
                                   SIGPROF, SIGXCPU, SIGXFSZ, SIGPIPE, SIGPOLL, SIGPWR,  SIGSTKFLT};
  for (const int sig : kNamed) f(sig);
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; ++sig) f(sig);
}

// Named temporary files (only where O_TMPFILE is unavailable) to remove if a signal ends the
// process. The handler may only call async-signal-safe functions (unlink, signal, raise), so the
// paths live in fixed static buffers.
constexpr std::size_t kMaxCleanup = 16;
char g_cleanup_paths[kMaxCleanup][PATH_MAX];
volatile std::sig_atomic_t g_cleanup_count = 0;

extern "C" void cleanup_on_signal(int sig) {
  for (std::sig_atomic_t i = 0; i < g_cleanup_count; ++i) ::unlink(g_cleanup_paths[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

/// Holds back, for the lifetime of the object, every signal that can be held: one that arrives
/// meanwhile is delivered when the previous mask is restored. (SIGKILL and SIGSTOP cannot be
/// held; a fault in this code still ends the process at once, as the kernel forces it.)
class SignalBlock {
public:
  SignalBlock() {
    sigset_t all;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &m_old);
  }
  SignalBlock(const SignalBlock&) = delete;
  SignalBlock& operator=(const SignalBlock&) = delete;
  ~SignalBlock() { ::pthread_sigmask(SIG_SETMASK, &m_old, nullptr); }

private:
  sigset_t m_old{};
};

/// Removes the registered named temporary files when an external signal (for_each_external_signal)
/// ends the process. The handlers are installed with the first file (with O_TMPFILE there is
/// none, and no system call is spent), except for signals ignored on entry (nohup, `trap '' HUP`,
/// and main's SIGPIPE and SIGXFSZ): those stay ignored. Forgets the paths and restores the
/// previous handlers on destruction.
class SignalCleanup {
public:
  SignalCleanup() = default;
  SignalCleanup(const SignalCleanup&) = delete;
  SignalCleanup& operator=(const SignalCleanup&) = delete;
  ~SignalCleanup() {
    forget();
    for (const auto& [sig, old] : m_saved) ::sigaction(sig, &old, nullptr);
  }
  /// Registers `path`, with every signal held so that no signal finds it created but unknown.
  /// Call it with `path` not yet created: `create` makes it (returns false on failure, errno set)
  /// and may fill it in (mkstemp's template).
  template <class Create>
  bool add(const std::string& path, Create&& create) {
    const SignalBlock hold;
    if (!create()) return false;
    add_held(path);
    return true;
  }
  /// Registers a file created under a SignalBlock held by the caller.
  void add_held(const std::string& path) {
    install();
    if (g_cleanup_count < static_cast<std::sig_atomic_t>(kMaxCleanup) && path.size() < PATH_MAX) {
      std::memcpy(g_cleanup_paths[g_cleanup_count], path.c_str(), path.size() + 1);
      g_cleanup_count = g_cleanup_count + 1;
    }
  }
  static void forget() noexcept { g_cleanup_count = 0; }

private:
  void install() {
    if (m_done) return;
    m_done = true;
    struct sigaction sa {};
    sa.sa_handler = cleanup_on_signal;
    sigfillset(&sa.sa_mask);  // one cleanup at a time
    for_each_external_signal([&](int sig) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) return;
      if (::sigaction(sig, &sa, nullptr) == 0) m_saved.emplace_back(sig, old);
    });
  }

  bool m_done = false;
  std::vector<std::pair<int, struct sigaction>> m_saved;  ///< the handlers replaced, to restore
};

/// The directories of a commit, each open once (however many outputs it receives), locked for
/// the commit and synced after it. The locks are exclusive advisory locks (flock), taken in
/// (device, inode) order so that two processes with overlapping directories cannot deadlock.
/// Best effort: a directory that cannot be opened or locked (no read permission, some network
/// file systems) is committed without its lock.
class CommitDirectories {
public:
  explicit CommitDirectories(const std::vector<std::string>& dirs) {
    for (std::size_t i = 0; i < dirs.size(); ++i) {
      const auto& dir = dirs[i];
      if (std::find(dirs.begin(), dirs.begin() + static_cast<std::ptrdiff_t>(i), dir) !=
          dirs.begin() + static_cast<std::ptrdiff_t>(i))
        continue;  // the same name again: one open is enough (other names of it: by inode below)
      Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
      struct stat st {};
      if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0) continue;
      const bool seen = std::any_of(m_dirs.begin(), m_dirs.end(),
                                    [&](const Entry& e) { return e.dev == st.st_dev && e.ino == st.st_ino; });
      if (!seen) m_dirs.push_back({st.st_dev, st.st_ino, std::move(fd)});
    }
    std::sort(m_dirs.begin(), m_dirs.end(),
              [](const Entry& a, const Entry& b) { return std::tie(a.dev, a.ino) < std::tie(b.dev, b.ino); });
    for (const auto& e : m_dirs) {
      if (::flock(e.fd.get(), LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK) continue;
      test_hook("lock-busy");
      while (::flock(e.fd.get(), LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }

  /// fsync(2) on each directory once, so that the names the commit made survive a crash (best
  /// effort: a failure here loses nothing already written).
  void sync() const noexcept {
    for (const auto& e : m_dirs) ::fsync(e.fd.get());
  }

private:
  struct Entry {
    dev_t dev;
    ino_t ino;
    Fd fd;  ///< closing it releases the lock
  };
  std::vector<Entry> m_dirs;
};

/// The mkstemp template of a hidden file beside `target`: ".NAME.TAG-XXXXXX" in its directory,
/// the name cut so that it stays below NAME_MAX whatever the target's length.
std::string temp_template(const std::string& target, const char* tag) {
  std::string dir = parent_dir(target);
  if (dir != "/") dir += '/';
  return fmt::format("{}.{}.{}-XXXXXX", dir, base_name(target).substr(0, 200), tag);
}

/// "/proc/self/fd/N": the path through which linkat (AT_SYMLINK_FOLLOW) names an O_TMPFILE file.
std::string proc_fd_path(int fd) { return fmt::format("/proc/self/fd/{}", fd); }

/// Hard-links `from` (with `flags`, as linkat takes them) to a fresh hidden name beside `target`
/// and returns that name. mkstemp picks a name nothing uses, which is freed again for the link;
/// if another process takes it meanwhile, another name is tried. nullopt and errno on failure.
std::optional<std::string> link_beside(const std::string& from, int flags, const std::string& target, const char* tag) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    std::string name = temp_template(target, tag);
    const int fd = ::mkstemp(name.data());
    if (fd < 0) return std::nullopt;
    ::close(fd);
    ::unlink(name.c_str());
    if (::linkat(AT_FDCWD, from.c_str(), AT_FDCWD, name.c_str(), flags) == 0) return name;
    if (errno != EEXIST) return std::nullopt;
  }
  return std::nullopt;  // errno is EEXIST
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

/// Gives the unnamed (O_TMPFILE) file open as `fd` the name `to`; fails with EEXIST if `to`
/// exists. Returns 0 or an errno value.
int link_unnamed(int fd, const std::string& to) {
  return ::linkat(AT_FDCWD, proc_fd_path(fd).c_str(), AT_FDCWD, to.c_str(), AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
}

/// True if `path` currently names the inode (dev, ino).
bool names_inode(const std::string& path, dev_t dev, ino_t ino) noexcept {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

}  // namespace

bool is_stdout(const std::string& path) {
  if (path == "-") return true;
  struct stat out {};
  struct stat st {};
  if (::fstat(STDOUT_FILENO, &out) != 0 || ::stat(path.c_str(), &st) != 0) return false;
  if (st.st_dev != out.st_dev || st.st_ino != out.st_ino) return false;
  // A closed stdout stands on /dev/null (guard_standard_descriptors): /dev/stdout names it then.
  return !S_ISCHR(st.st_mode) || ::isatty(STDOUT_FILENO) == 1 || standard_stream_closed(STDOUT_FILENO);
}

void check_path_roles(const std::vector<PathArg>& inputs, const std::vector<PathArg>& outputs) {
  for (const auto* list : {&inputs, &outputs}) {
    for (const auto& p : *list)
      if (p.path.empty())
        throw_usage(fmt::format("{} needs a file name, or - for {}", p.option, list == &inputs ? "stdin" : "stdout"));
  }
  const PathArg* stdin_user = nullptr;
  for (const auto& in : inputs) {
    if (in.path != "-") continue;
    if (stdin_user != nullptr)
      throw_usage(fmt::format("{} and {} both read stdin (-); at most one input can come from stdin",
                              stdin_user->option, in.option));
    stdin_user = &in;
  }
  const PathArg* stdout_user = nullptr;
  for (const auto& out : outputs) {
    if (!is_stdout(out.path)) continue;
    if (stdout_user != nullptr) {
      const std::string how = out.path == "-" ? "" : fmt::format(" ({} names stdout's file)", out.option);
      throw_usage(fmt::format("{} and {} both write to stdout{}; at most one output can go to stdout",
                              stdout_user->option, out.option, how));
    }
    stdout_user = &out;
  }

  std::vector<FileId> out_ids;
  for (const auto& o : outputs) out_ids.push_back(o.path == "-" ? FileId{} : identify(o.path));
  std::vector<FileId> in_ids;
  for (const auto& in : inputs) in_ids.push_back(in.path == "-" ? identify_stdin() : identify(in.path));
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].path == "-") continue;
    for (std::size_t j = 0; j < i; ++j) {
      if (outputs[j].path != "-" && same_file(out_ids[j], out_ids[i]))
        throw_usage(fmt::format("{} and {} name the same file; give each output its own file", outputs[j].option,
                                outputs[i].option),
                    outputs[i].path);
    }
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      if (same_file(in_ids[k], out_ids[i]))
        throw_usage(fmt::format("output {} would overwrite input {}{}; write the output to another file",
                                outputs[i].option, inputs[k].option, inputs[k].path == "-" ? " (read from stdin)" : ""),
                    outputs[i].path);
    }
  }
}

void require_json_paths(const std::vector<PathArg>& inputs, const std::vector<PathArg>& outputs) {
  for (const auto& out : outputs) {
    if (is_stdout(out.path))
      throw_usage(fmt::format("--json prints its report to stdout, so {} cannot be stdout; give a file", out.option),
                  output_name(out.path));
  }
  for (const auto* list : {&inputs, &outputs}) {
    for (const auto& p : *list)
      if (!valid_utf8(p.path))
        throw_usage(fmt::format("the file name of {} is not UTF-8, which the JSON report cannot carry; rename the "
                                "file or leave out --json",
                                p.option),
                    p.path);
  }
}

void check_output(const PathArg& out, Format format, bool force) {
  const auto refuse_binary_on_terminal = [&](const std::string& file) {
    throw_usage(fmt::format("refusing to write binary {} to a terminal; use --format {}, or redirect to a file",
                            out.option, format == Format::der ? "pem" : "hex"),
                file);
  };
  if (is_stdout(out.path)) {
    if (standard_stream_closed(STDOUT_FILENO))
      throw_failure(fmt::format("stdout is closed, so {} cannot be written there; give a file name", out.option),
                    output_name(out.path));
    if (is_binary(format) && ::isatty(STDOUT_FILENO) == 1) refuse_binary_on_terminal(output_name(out.path));
    return;
  }
  if (crosses_foreign_link(out.path)) throw_failure(kForeignSymlink, out.path);
  struct stat lst {};
  const bool is_link = ::lstat(out.path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode);
  struct stat st {};
  if (::stat(out.path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw_failure("output is a directory; give a file name", out.path);
    if (const char* what = unwritable_kind(st.st_mode)) throw_failure(what, out.path);
    if (S_ISREG(st.st_mode) && !force) throw_failure("output file already exists; use --force to replace it", out.path);
    if (S_ISCHR(st.st_mode) && is_binary(format) && is_terminal_path(out.path)) refuse_binary_on_terminal(out.path);
    return;  // a regular file with --force, or a special file (/dev/null, a pipe) written in place
  }
  const int err = errno;
  if (err != ENOENT) throw_failure(fmt::format("cannot use output path: {}", errno_text(err)), out.path);
  if (is_link) throw_failure("output is a dangling symbolic link", out.path);
  const std::string dir = parent_dir(out.path);
  struct stat dst {};
  if (::stat(dir.c_str(), &dst) != 0) {
    const int derr = errno;
    if (derr == ENOENT)
      throw_failure(fmt::format("directory '{}' does not exist; create it first", printable(dir)), out.path);
    throw_failure(fmt::format("cannot use directory '{}': {}", printable(dir), errno_text(derr)), out.path);
  }
  if (!S_ISDIR(dst.st_mode)) throw_failure(fmt::format("'{}' is not a directory", printable(dir)), out.path);
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw_failure(fmt::format("cannot create a file in directory '{}': {}", printable(dir), errno_text(errno)),
                  out.path);
}

void check_paths(const std::vector<PathArg>& inputs, const std::vector<PathArg>& outputs, Format format, bool force,
                 bool json) {
  check_path_roles(inputs, outputs);
  if (json) require_json_paths(inputs, outputs);
  if (json && standard_stream_closed(STDOUT_FILENO))
    throw_failure("stdout is closed, so the --json report cannot be printed; leave out --json or open stdout");
  for (const auto& out : outputs) check_output(out, format, force);
}

void write_stdout(std::string_view text) {
  const ByteView bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  if (const int err = write_all(STDOUT_FILENO, bytes); err != 0)
    throw_failure(fmt::format("cannot write: {}", errno_text(err)), "stdout");
}

namespace {

/// The writing of a command's outputs as one transaction (the steps of output.hpp's
/// write_outputs): stage() each output, then write_in_place() what cannot be undone, then
/// commit(). Any failure rolls back what was done and throws; so does any other exception
/// (out of memory, say) that leaves the transaction before its commit is complete. A
/// transaction is used once.
class OutputTransaction {
public:
  explicit OutputTransaction(bool force)
      : m_force(force), m_public_mode(0666 & ~current_umask()), m_unnamed_ok(unnamed_files_usable()) {}
  OutputTransaction(const OutputTransaction&) = delete;
  OutputTransaction& operator=(const OutputTransaction&) = delete;
  ~OutputTransaction() {
    if (!m_done) rollback();
  }

  /// Step 1: a file output becomes complete, synced new content beside its target; an existing
  /// special file and stdout are only noted.
  void stage(const PendingOutput& out);
  /// Step 2: stdout, then special files.
  void write_in_place();
  /// Steps 3 and 4: every staged file into place, then the directories made durable.
  void commit();

  /// The streaming form, for one output: stage_stream() stages it with no content (stdout and a
  /// special file are opened to be written in place), append() adds bytes as they are made,
  /// finish_stream() syncs them, and commit() puts a staged file in place.
  void stage_stream(const PendingOutput& out);
  void append(ByteView bytes);
  void finish_stream();

private:
  /// One staged file output.
  struct Staged {
    const PendingOutput* out = nullptr;
    std::string target;   ///< the path replaced: a symbolic link to a regular file is followed
    bool direct = false;  ///< an existing special file, written in place
    Fd fd;                ///< the complete new content: unnamed (O_TMPFILE) unless `temp` is set
    std::string temp;     ///< the new content's name before it is renamed over `target`
    dev_t dev = 0;        ///< identity of the new content's inode
    ino_t ino = 0;
    std::string backup;     ///< hard link to the replaced file (--force), restored on failure
    bool replaced = false;  ///< the commit replaced an existing file (--force)
    bool committed = false;
  };

  void resolve_target(Staged& s);
  void create_content(Staged& s);
  void fill_content(Staged& s);
  void prepare_content(Staged& s);
  void commit_one(Staged& s);
  void commit_replacing(Staged& s);
  [[noreturn]] void fail(const std::string& what, const std::string& file);
  void rollback() noexcept;

  bool m_force;
  mode_t m_public_mode;
  bool m_unnamed_ok;
  std::vector<Staged> m_staged;
  const PendingOutput* m_stdout = nullptr;
  const PendingOutput* m_stream = nullptr;  ///< the output of stage_stream
  int m_stream_fd = -1;                     ///< where append() writes
  Fd m_direct;                              ///< a special file streamed in place
  bool m_done = false;                      ///< committed, or rolled back: nothing left to undo
  SignalCleanup m_signal_guard;
};

void OutputTransaction::stage(const PendingOutput& out) {
  if (is_stdout(out.target.path)) {
    m_stdout = &out;
    return;
  }
  Staged& s = m_staged.emplace_back();
  s.out = &out;
  s.target = out.target.path;
  resolve_target(s);
  if (s.direct) return;
  create_content(s);
  fill_content(s);
}

/// The file to replace (through a symbolic link to a regular file), and whether it is a
/// special file written in place.
void OutputTransaction::resolve_target(Staged& s) {
  const std::string& path = s.out->target.path;
  if (crosses_foreign_link(s.target)) fail(kForeignSymlink, path);
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
    if (const char* what = S_ISDIR(st.st_mode) ? nullptr : unwritable_kind(st.st_mode)) fail(what, path);
    s.direct = !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
  }
}

/// An unnamed file in the target's directory, or where the file system has no O_TMPFILE
/// (EOPNOTSUPP, EISDIR on old kernels) a named one, removed on signals.
void OutputTransaction::create_content(Staged& s) {
  if (m_unnamed_ok) s.fd = Fd(::open(parent_dir(s.target).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600));
  if (s.fd.get() >= 0) return;
  std::string tmpl = temp_template(s.target, "pqkem");
  if (!m_signal_guard.add(tmpl, [&] { return (s.fd = Fd(::mkstemp(tmpl.data()))).get() >= 0; }))
    fail(fmt::format("cannot create a temporary file beside the output: {}", errno_text(errno)), s.out->target.path);
  s.temp = tmpl;
}

/// The new content's mode, bytes and fsync; its inode is remembered for the rollback.
void OutputTransaction::fill_content(Staged& s) {
  prepare_content(s);
  int err = write_all(s.fd.get(), s.out->data.view());
  if (err == 0 && ::fsync(s.fd.get()) != 0) err = errno;
  if (err != 0) fail(fmt::format("cannot write output: {}", errno_text(err)), s.out->target.path);
}

/// The new content's mode; its inode is remembered for the rollback.
void OutputTransaction::prepare_content(Staged& s) {
  int err = 0;
  struct stat tst {};
  if (::fstat(s.fd.get(), &tst) != 0) err = errno;
  s.dev = tst.st_dev;
  s.ino = tst.st_ino;
  const mode_t mode = s.out->secret ? 0600 : m_public_mode;
  if (err == 0 && ::fchmod(s.fd.get(), mode) != 0) err = errno;
  if (err != 0) fail(fmt::format("cannot write output: {}", errno_text(err)), s.out->target.path);
}

void OutputTransaction::stage_stream(const PendingOutput& out) {
  m_stream = &out;
  if (is_stdout(out.target.path)) {
    m_stream_fd = STDOUT_FILENO;
    return;
  }
  Staged& s = m_staged.emplace_back();
  s.out = &out;
  s.target = out.target.path;
  resolve_target(s);
  if (s.direct) {
    m_direct = Fd(::open(s.target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY));
    if (m_direct.get() < 0) fail(fmt::format("cannot open output: {}", errno_text(errno)), out.target.path);
    m_stream_fd = m_direct.get();
    return;
  }
  create_content(s);
  prepare_content(s);
  m_stream_fd = s.fd.get();
}

void OutputTransaction::append(ByteView bytes) {
  if (const int err = write_all(m_stream_fd, bytes); err != 0)
    fail(fmt::format("cannot write output: {}", errno_text(err)),
         m_stream_fd == STDOUT_FILENO ? std::string("stdout") : m_stream->target.path);
}

void OutputTransaction::finish_stream() {
  for (auto& s : m_staged) {
    if (s.direct) continue;
    if (::fsync(s.fd.get()) != 0) fail(fmt::format("cannot write output: {}", errno_text(errno)), s.out->target.path);
  }
}

void OutputTransaction::write_in_place() {
  if (m_stdout != nullptr) {
    if (const int err = write_all(STDOUT_FILENO, m_stdout->data.view()); err != 0)
      fail(fmt::format("cannot write: {}", errno_text(err)), "stdout");
  }
  for (auto& s : m_staged) {
    if (!s.direct) continue;
    const Fd fd(::open(s.target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY));
    if (fd.get() < 0) fail(fmt::format("cannot open output: {}", errno_text(errno)), s.out->target.path);
    if (const int err = write_all(fd.get(), s.out->data.view()); err != 0)
      fail(fmt::format("cannot write output: {}", errno_text(err)), s.out->target.path);
  }
}

void OutputTransaction::commit() {
  // One process at a time per directory, signals held back until it is done.
  std::vector<std::string> dirs;
  for (const auto& s : m_staged)
    if (!s.direct) dirs.push_back(parent_dir(s.target));
  const CommitDirectories directories(dirs);
  const SignalBlock hold_signals;
  bool first = true;
  for (auto& s : m_staged) {
    if (s.direct) continue;
    if (!first) test_hook("between-commits");
    first = false;
    commit_one(s);
  }
  test_hook("committed");
  for (auto& s : m_staged) {
    if (!s.backup.empty()) ::unlink(s.backup.c_str());
  }
  m_done = true;
  SignalCleanup::forget();
  // Make the new names durable: one fsync per directory, however many files it received.
  directories.sync();
}

void OutputTransaction::commit_one(Staged& s) {
  if (m_force) {
    commit_replacing(s);
  } else {
    // Without --force nothing is ever replaced: linkat and RENAME_NOREPLACE fail on any name.
    const int err = s.temp.empty() ? link_unnamed(s.fd.get(), s.target) : rename_noreplace(s.temp, s.target);
    if (err == EEXIST) fail("output file appeared meanwhile; use --force to replace it", s.out->target.path);
    if (err != 0) fail(fmt::format("cannot replace output: {}", errno_text(err)), s.out->target.path);
  }
  s.committed = true;
  s.temp.clear();
}

/// --force: the new content gets a name beside the target, the file it replaces a hard link
/// (kept until every output is in place; nothing is copied), then the rename.
void OutputTransaction::commit_replacing(Staged& s) {
  if (s.temp.empty()) {
    const auto name = link_beside(proc_fd_path(s.fd.get()), AT_SYMLINK_FOLLOW, s.target, "pqkem");
    if (!name)
      fail(fmt::format("cannot create a temporary file beside the output: {}", errno_text(errno)), s.out->target.path);
    s.temp = *name;
    m_signal_guard.add_held(s.temp);
    test_hook("linked");
  }
  struct stat old {};
  s.replaced = ::lstat(s.target.c_str(), &old) == 0 && S_ISREG(old.st_mode);
  if (s.replaced) {
    if (const auto name = link_beside(s.target, 0, s.target, "pqkem-old")) {
      s.backup = *name;
      m_signal_guard.add_held(s.backup);
      test_hook("backed-up");
    }
  }
  if (::rename(s.temp.c_str(), s.target.c_str()) != 0)
    fail(fmt::format("cannot replace output: {}", errno_text(errno)), s.out->target.path);
}

void OutputTransaction::fail(const std::string& what, const std::string& file) {
  rollback();
  throw_failure(what, file);
}

// Undoes everything: removes temporary files, puts replaced files back from their backups,
// removes targets this transaction created. A target that no longer holds this process's file
// was replaced by someone else meanwhile and is left alone; so is a replaced file whose backup
// could not be made (removing the new content would lose both).
void OutputTransaction::rollback() noexcept {
  m_done = true;
  for (auto it = m_staged.rbegin(); it != m_staged.rend(); ++it) {
    if (it->committed && names_inode(it->target, it->dev, it->ino)) {
      if (!it->backup.empty()) {
        if (::rename(it->backup.c_str(), it->target.c_str()) == 0) it->backup.clear();
      } else if (!it->replaced) {
        ::unlink(it->target.c_str());
      }
    }
    if (!it->temp.empty() && !it->committed) ::unlink(it->temp.c_str());
    if (!it->backup.empty()) ::unlink(it->backup.c_str());
  }
  SignalCleanup::forget();
}

}  // namespace

void write_outputs(std::vector<PendingOutput>& outputs, bool force) {
  OutputTransaction transaction(force);
  for (const auto& out : outputs) transaction.stage(out);
  test_hook("staged");
  transaction.write_in_place();
  transaction.commit();
}

struct StreamOutput::Impl {
  Impl(PathArg target, bool secret, bool force) : out{std::move(target), {}, secret}, transaction(force) {}
  PendingOutput out;
  OutputTransaction transaction;
};

StreamOutput::StreamOutput(PathArg target, bool secret, bool force)
    : m(std::make_unique<Impl>(std::move(target), secret, force)) {
  m->transaction.stage_stream(m->out);
}

StreamOutput::~StreamOutput() = default;

void StreamOutput::write(ByteView bytes) { m->transaction.append(bytes); }

void StreamOutput::commit() {
  m->transaction.finish_stream();
  test_hook("staged");
  m->transaction.commit();
}

}  // namespace pqkem::cli
