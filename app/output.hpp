// pqkem CLI: output files. Checks made before any work (roles, terminals, existing files), and
// the all-or-nothing commit of several outputs: unnamed temporary files, one lock per
// directory, signals held back while files are renamed into place, rollback of only what this
// process created.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io.hpp"
#include "text.hpp"

namespace pqkem::cli {

/// A path given on the command line, with the option that named it (for messages).
struct PathArg {
  std::string path;
  std::string option;  ///< e.g. "--pk"
};

/// True if output `path` is standard output: "-", or a name for the file stdout already is
/// (/dev/stdout, /dev/fd/1, the file or pipe stdout is redirected to). Such an output is written
/// to stdout, at its current offset. A character device that is not a terminal (/dev/null) is
/// never counted: writing to it twice is harmless.
bool is_stdout(const std::string& path);

/// Checks that can be made before any work, in this order (all exit 2):
/// no path is empty; at most one input is "-"; at most one output is standard output
/// (is_stdout); no two outputs name the same file; no output names a file that is also an input.
void check_path_roles(const std::vector<PathArg>& inputs, const std::vector<PathArg>& outputs);

/// With --json, stdout carries the JSON report, so no output may be standard output, and every
/// path the report names must be UTF-8 (JSON cannot carry other bytes): exit 2 otherwise.
void require_json_paths(const std::vector<PathArg>& inputs, const std::vector<PathArg>& outputs);

/// Checks that an output can be created, before any work: binary output (bin, der) to a terminal,
/// as stdout or by name (/dev/tty), is refused (exit 2); the directory must exist (exit 1); an
/// existing file needs `force` (exit 1); a directory cannot be replaced (exit 1); a dangling
/// symbolic link, or one owned by another user in a sticky world-writable directory (/tmp), is
/// refused (exit 1). Existing non-regular files (/dev/null, a FIFO, a process substitution) are
/// written in place and need no `force`.
void check_output(const PathArg& out, Format format, bool force);

/// check_path_roles, then (with `json`) require_json_paths, then check_output for every output:
/// everything that can be checked about the paths before any work.
void check_paths(const std::vector<PathArg>& inputs, const std::vector<PathArg>& outputs, Format format, bool force,
                 bool json);

/// One encoded output waiting to be written.
struct PendingOutput {
  PathArg target;
  SecretBytes data;     ///< already encoded (see encode_output)
  bool secret = false;  ///< created with mode 0600, whatever the umask
};

/// Writes every output or none of them.
/// 1. Each file output is written in full and fsync'ed to an unnamed temporary file in its own
///    directory (O_TMPFILE; where the file system lacks it, a named ".NAME.pqkem-XXXXXX" file
///    that a handler for SIGINT/SIGTERM/SIGHUP removes). A process killed here leaves no file.
/// 2. Standard output, then existing special files, are written: neither can be undone.
/// 3. Under an advisory lock (flock) on each output directory, so that concurrent pqkem runs
///    commit one after the other, and with SIGINT/SIGTERM/SIGHUP held back, each file is linked
///    into place: never replacing an existing file without `force`; with `force`, the replaced
///    file is kept as a backup until every output is in place. A signal that arrived meanwhile
///    takes effect once all outputs are written.
/// On any failure, every output this call put in place is removed (after checking it is still
/// this process's file) or its backup restored, and CliError (exit 1) names the file.
/// A signal that was ignored when pqkem started (nohup) stays ignored.
void write_outputs(std::vector<PendingOutput>& outputs, bool force);

/// One output written as a stream, as its bytes are made (seal, open): the same transaction as
/// write_outputs for a single output. A file is staged beside its target (step 1 above, with no
/// content yet), write() appends to it, and commit() syncs it and puts it in place (step 3).
/// Standard output and existing special files are written in place by write() itself: a reader
/// sees each piece as it is written. Destroyed without commit() (an exception, a failed
/// authentication), a staged file vanishes and nothing appears at the target. Errors exit 1,
/// naming the file.
class StreamOutput {
public:
  StreamOutput(PathArg target, bool secret, bool force);
  StreamOutput(const StreamOutput&) = delete;
  StreamOutput& operator=(const StreamOutput&) = delete;
  ~StreamOutput();

  void write(ByteView bytes);
  void commit();

private:
  struct Impl;
  std::unique_ptr<Impl> m;
};

/// Writes `text` to stdout in full (exit 1 on error, e.g. a closed pipe).
void write_stdout(std::string_view text);

}  // namespace pqkem::cli
