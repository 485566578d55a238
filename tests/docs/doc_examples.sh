#!/usr/bin/env bash
# doc_examples.sh PQKEM_BINARY markdown FILE.md | man FILE.1 | help
#
# Runs the shell examples of one piece of documentation as a walkthrough, top to bottom, and
# fails if any command does not do what the text says. The documentation is the test.
#
#   markdown FILE.md  every fenced block whose info string is sh or bash (```sh, ```bash, also
#                     ~~~ fences and indented ones); ```console, ```text and the others are
#                     not run. One "file": README.md.
#   man FILE.1        the EXAMPLES section: each .nf ... .fi (or .EX ... .EE) region; roff
#                     escapes (\- \e \(aq \~ \& \fB ...) are undone, request lines (.xx) skipped.
#   help              the "Examples:" section at the end of `pqkem --help` and of
#                     `pqkem COMMAND --help` for every command that lists: each help text is
#                     its own "file" (e.g. "pqkem keygen --help"), run in its own directory, so
#                     each one's examples must stand alone.
#
# Conventions (whoever writes the examples must follow them):
#  - Each file runs in ONE fresh empty temporary directory, in ONE bash process, block after
#    block in document order: files, variables, functions and `cd` carry over from one block
#    to the next. The built pqkem's directory is first on PATH; HOME is a fresh empty
#    directory elsewhere; stdin is /dev/null.
#  - Blocks: a markdown fence; in the man page, each .nf/.fi region; in a help text and in a man
#    region, blank lines also separate blocks.
#  - A command is one line, or several joined by trailing backslashes, or as many lines as a
#    construct needs to be complete (if/for/while ... done, quotes, here-documents: lines are
#    added until `bash -n` accepts the text). Lines that are blank or only a comment are not
#    commands. Pipes, redirections, &&, ;, $(...) work as in bash; `set -o pipefail` is on, so
#    a failing command anywhere in a pipeline fails it (beware `| head`: SIGPIPE is a failure).
#  - Every command must exit 0, unless its (last) line ends with the comment `# exit N`: then it
#    must exit exactly N. A failure prints "FAIL FILE:LINE: COMMAND", the exit status and the
#    command's stderr; the run goes on with the next command and the test fails at the end.
#  - In markdown, a block right after the line `<!-- needs: WHAT -->` (several: `A, B` or
#    `A B`), which readers of the rendered page do not see, runs only when every need is met,
#    and is otherwise skipped with a printed message. A marker that readers would see, a line
#    `# needs: WHAT` inside a block (or in a help text or the man page, which cannot hide one),
#    is a failure. Needs:
#      openssl-X.Y  `openssl version` is X.Y or newer (e.g. openssl-3.5)
#      anything else (network, sudo, ...): met only when listed in $PQKEM_DOCS_HAVE
#      (space- or comma-separated, e.g. PQKEM_DOCS_HAVE=network).
#  - With PQKEM_TEST_EMULATOR set (the tests of a cross build, under qemu-user), commands that
#    start with `pqkem bench` are skipped, saying so, and so is a file that has no other.
#  - A file with no block that runs (none found, or all skipped or empty) fails: a walkthrough
#    that tests nothing must not pass.
#  - A command that leaves the shell (exit, exec) stops the walkthrough: that is a failure.
set -uo pipefail
export LC_ALL=C

pqkem=${1:?usage: doc_examples.sh PQKEM_BINARY markdown FILE | man FILE | help}
mode=${2:?missing mode: markdown, man or help}
[[ -x $pqkem ]] || { echo "doc_examples: FATAL: '$pqkem' is not an executable" >&2; exit 1; }
pqkem=$(cd "$(dirname "$pqkem")" && pwd)/$(basename "$pqkem")
bindir=$(dirname "$pqkem")

work=$(mktemp -d "${TMPDIR:-/tmp}/pqkem-doc-examples.XXXXXX") || exit 1
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT

# --- Extraction: each writes a listing of records "B<TAB>LINE" (a block starts), "L<TAB>LINE<TAB>TEXT"
# (a line of it), "E" (it ends), with LINE the line number in the source text.

extract_markdown() {  # FILE
  awk -v langs="sh bash" -f "$(dirname "${BASH_SOURCE[0]}")/md_blocks.awk" "$1"
}

# roff to text for the lines of an example.
unroff() {
  sed -e 's/\\(aq/'"'"'/g' -e 's/\\(dq/"/g' -e 's/\\(ga/`/g' -e 's/\\(ti/~/g' -e 's/\\(ha/^/g' \
      -e 's/\\f[BIRP]//g' -e 's/\\f(CW//g' -e 's/\\&//g' -e 's/\\~/ /g' -e 's/\\ / /g' \
      -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\\\/\\/g'
}

extract_man() {  # FILE
  # Number the lines first so that unroff cannot disturb the line numbers.
  awk '
    /^\.SH[ \t]/ { ex = ($0 ~ /^\.SH[ \t]+"?EXAMPLES?"?[ \t]*$/); if (innf && open) print "E"; innf = open = 0; next }
    !ex { next }
    /^\.(nf|EX)([ \t]|$)/ { innf = 1; next }
    /^\.(fi|EE)([ \t]|$)/ { if (open) print "E"; innf = open = 0; next }
    !innf { next }
    /^\.sp([ \t]|$)/ || /^[ \t]*$/ { if (open) print "E"; open = 0; next }
    /^[.'"'"']/ { next }
    { if (!open) { print "B\t" NR; open = 1 } print "L\t" NR "\t" $0 }
    END { if (open) print "E" }
  ' "$1" | while IFS= read -r rec; do
    if [[ $rec == L$'\t'* ]]; then
      local rest=${rec#L$'\t'} num
      num=${rest%%$'\t'*}
      printf 'L\t%s\t%s\n' "$num" "$(printf '%s\n' "${rest#*$'\t'}" | unroff)"
    else
      printf '%s\n' "$rec"
    fi
  done
}

extract_help() {  # reads a help text on stdin
  awk '
    /^Examples:[ \t]*$/ { ex = 1; next }
    !ex { next }
    /^[ \t]*$/ { if (open) print "E"; open = 0; next }
    /^  / { if (!open) { print "B\t" NR; open = 1 } print "L\t" NR "\t" substr($0, 3); next }
    { if (open) print "E"; ex = open = 0 }
    END { if (open) print "E" }
  '
}

# --- Needs -------------------------------------------------------------------------------------

openssl_version=$(openssl version 2>/dev/null | awk '{ print $2 }')
# version_at_least HAVE WANT: dotted numeric comparison (3.0.19 >= 3.5 is false).
version_at_least() {
  local IFS=. i
  local -a have want
  read -r -a have <<<"${1%%[!0-9.]*}"
  read -r -a want <<<"$2"
  for ((i = 0; i < ${#want[@]}; i++)); do
    ((10#${have[i]:-0} > 10#${want[i]})) && return 0
    ((10#${have[i]:-0} < 10#${want[i]})) && return 1
  done
  return 0
}
# unmet NEEDS...: prints the first need that is not met (with why), or nothing.
unmet() {
  local need listed=" ${PQKEM_DOCS_HAVE:-} "
  listed=${listed//,/ }
  for need in "$@"; do
    [[ $listed == *" $need "* ]] && continue
    if [[ $need =~ ^openssl-([0-9]+(\.[0-9]+)*)$ ]]; then
      if [[ -n $openssl_version ]] && version_at_least "$openssl_version" "${BASH_REMATCH[1]}"; then continue; fi
      echo "$need (this openssl is ${openssl_version:-not installed})"
    else
      echo "$need (not in PQKEM_DOCS_HAVE)"
    fi
    return
  done
}

# --- Building the walkthrough of one file -------------------------------------------------------

total_failed=0

# complete TEXT: bash can parse TEXT as it stands (no open quote, construct or here-document;
# bash -n only warns about an unterminated here-document, hence the check for silence).
complete() {
  local out
  out=$(bash -n -c "$1" 2>&1) && [[ -z $out ]]
}

# run_file NAME LISTING: turns the listing into a script and runs it in a fresh directory.
run_file() {
  local name=$1 listing=$2
  local n=$((++file_count))
  local dir=$work/run$n home=$work/home$n script=$work/walkthrough$n.sh status=$work/status$n
  mkdir -p "$dir" "$home"
  local -a lines=() nums=()
  local blocks=0 runnable=0 skipped=0 commands=0 marker_failed=0 block_needs="" block_needs_line="" emulator_skipped=0
  {
    cat <<'PRELUDE'
set -o pipefail
__doc_failed=0 __doc_ran=0
__doc_err=$(mktemp "${TMPDIR:-/tmp}/pqkem-doc-stderr.XXXXXX")
# __doc_check RC: compares the last command's status with the expected one and reports.
__doc_check() {
  local rc=$1
  if [[ $rc -ne $__doc_expect ]]; then
    __doc_failed=$((__doc_failed + 1))
    {
      printf 'FAIL %s:%s: %s\n' "$__doc_file" "$__doc_line" "$__doc_cmd"
      printf '  exit status %s, expected %s\n' "$rc" "$__doc_expect"
      if [[ -s $__doc_err ]]; then echo '  stderr:'; sed 's/^/  | /' "$__doc_err"; else echo '  stderr: (empty)'; fi
    } >&2
  elif [[ -s $__doc_err ]]; then
    sed 's/^/  stderr| /' "$__doc_err"
  fi
}
PRELUDE
    printf '__doc_file=%q __doc_last=%q\n' "$name" "$status.last"
  } >"$script"

  # flush_block: emits the commands of the block held in lines/nums.
  flush_block() {
    ((${#lines[@]} > 0)) || return 0
    blocks=$((blocks + 1))
    local i=0 needs j
    for ((j = 0; j < ${#lines[@]}; j++)); do
      if [[ ${lines[j]} =~ ^[[:space:]]*#[[:space:]]*needs: ]]; then
        echo "FAIL $name:${nums[j]}: a harness marker that readers see: ${lines[j]} (in markdown, put <!-- needs: ... --> on the line before the fence; help texts and the man page cannot hide one)" >&2
        marker_failed=$((marker_failed + 1))
      fi
    done
    if [[ -n $block_needs ]]; then
      needs=${block_needs//,/ }
      local why
      # shellcheck disable=SC2086  # one word per need
      why=$(unmet $needs)
      if [[ -n $why ]]; then
        echo "SKIP $name:$block_needs_line: block needs $why"
        skipped=$((skipped + 1))
        lines=() nums=() block_needs=""
        return 0
      fi
    fi
    local block_commands=0 cmd start last expect
    while ((i < ${#lines[@]})); do
      if [[ ${lines[i]} =~ ^[[:space:]]*(#.*)?$ ]]; then i=$((i + 1)); continue; fi
      cmd=${lines[i]} start=${nums[i]} last=${lines[i]}
      i=$((i + 1))
      # Trailing backslashes, then whatever keeps the text from parsing, pull in the next lines.
      while ((i < ${#lines[@]})); do
        if [[ $last =~ (^|[^\\])(\\\\)*\\$ ]] || ! complete "$cmd"; then
          last=${lines[i]}
          cmd+=$'\n'"$last"
          i=$((i + 1))
        else
          break
        fi
      done
      # Under an emulator (PQKEM_TEST_EMULATOR, a cross build) a bench example would time every
      # row for many minutes; cli.bench.emulated prints its tables once instead.
      if [[ -n ${PQKEM_TEST_EMULATOR-} && $cmd =~ ^[[:space:]]*pqkem[[:space:]]+bench([[:space:]]|$) ]]; then
        echo "SKIP $name:$start: pqkem bench under the emulator (cli.bench.emulated runs it)"
        emulator_skipped=$((emulator_skipped + 1))
        continue
      fi
      expect=0
      if [[ $last =~ (^|[[:space:]])#[[:space:]]*exit[[:space:]]+([0-9]{1,3})[[:space:]]*$ ]]; then
        expect=${BASH_REMATCH[2]}
      fi
      {
        printf '__doc_line=%s __doc_expect=%s __doc_cmd=%q\n' "$start" "$expect" "$cmd"
        # The command runs at top level (not in a function), so its variables are the shell's own.
        # shellcheck disable=SC2016,SC2028  # expanded by the walkthrough's shell
        echo 'echo "$__doc_line" >"$__doc_last"; printf "+ %s\n" "$__doc_cmd"; __doc_ran=$((__doc_ran + 1))'
        # shellcheck disable=SC2016
        echo 'eval "$__doc_cmd" 2>"$__doc_err" </dev/null'
        echo '__doc_check $?'
      } >>"$script"
      block_commands=$((block_commands + 1))
    done
    commands=$((commands + block_commands))
    ((block_commands > 0)) && runnable=$((runnable + 1))
    lines=() nums=() block_needs=""
  }

  local kind num text
  while IFS=$'\t' read -r kind num text; do
    case $kind in
      B) lines=() nums=() block_needs="" ;;
      N) block_needs=$text block_needs_line=$num ;;
      L) lines+=("$text") nums+=("$num") ;;
      E) flush_block ;;
    esac
  done <<<"$listing"
  # shellcheck disable=SC2016
  printf 'rm -f "$__doc_err"\necho "$__doc_ran $__doc_failed" >%q\n' "$status" >>"$script"

  echo "== $name: $blocks blocks, $runnable to run ($commands commands), $skipped skipped; in $dir"
  total_failed=$((total_failed + marker_failed))
  if ((runnable == 0 && emulator_skipped > 0)); then
    echo "SKIP $name: every command is a pqkem bench example, left out under the emulator"
    return
  fi
  if ((runnable == 0)); then
    echo "FAIL $name: no runnable shell block (found $blocks, skipped $skipped): nothing would be tested" >&2
    total_failed=$((total_failed + 1))
    return
  fi
  (cd "$dir" && env HOME="$home" PATH="$bindir:$PATH" bash --noprofile --norc "$script" </dev/null)
  if [[ ! -s $status ]]; then
    echo "FAIL $name: the walkthrough stopped at the command of line $(cat "$status.last" 2>/dev/null || echo '?') (it left the shell)" >&2
    total_failed=$((total_failed + 1))
    return
  fi
  local ran failed
  read -r ran failed <"$status"
  echo "== $name: $ran commands run, $failed failed"
  total_failed=$((total_failed + failed))
}

file_count=0
case $mode in
  markdown | man)
    src=${3:?missing FILE}
    [[ -r $src ]] || { echo "doc_examples: FATAL: cannot read $src" >&2; exit 1; }
    if [[ $mode == markdown ]]; then listing=$(extract_markdown "$src"); else listing=$(extract_man "$src"); fi
    run_file "$(basename "$src")" "$listing"
    ;;
  help)
    top=$("$pqkem" --help) || { echo "doc_examples: FATAL: pqkem --help failed" >&2; exit 1; }
    mapfile -t commands < <(printf '%s\n' "$top" | sed -n '/^Subcommands:/,/^$/p' | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')
    ((${#commands[@]} >= 9)) || { echo "doc_examples: FATAL: found only ${#commands[@]} commands in pqkem --help" >&2; exit 1; }
    run_file "pqkem --help" "$(printf '%s\n' "$top" | extract_help)"
    for c in "${commands[@]}"; do
      help=$("$pqkem" "$c" --help) || { echo "FAIL: pqkem $c --help failed" >&2; total_failed=$((total_failed + 1)); continue; }
      run_file "pqkem $c --help" "$(printf '%s\n' "$help" | extract_help)"
    done
    ;;
  *)
    echo "doc_examples: unknown mode '$mode' (markdown, man or help)" >&2
    exit 2
    ;;
esac

if ((total_failed > 0)); then
  echo "doc_examples: $total_failed failure(s)" >&2
  exit 1
fi
echo "doc_examples: ok"
