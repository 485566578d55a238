# Shared by the CLI test scripts (cli_test.sh and its groups/*.sh, hybrid_test.sh,
# adversary_test.sh): a scratch directory, the assertions (check, run), directory snapshots for
# "nothing created or changed", and the final tally (finish). Source it after setting PQ, the
# pqkem binary under test.
#
# Needs bash and coreutils only (no python3, no jq).
set -u
umask 022
export LC_ALL=C

[[ -x $PQ ]] || { echo "FATAL: pqkem binary '$PQ' is not executable" >&2; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/pqkem-cli-test.XXXXXX") || exit 1
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT

FAILED=0
CHECKS=0
OUT=$T/.stdout
ERR=$T/.stderr

fail() {
  echo "FAIL: $*" >&2
  FAILED=$((FAILED + 1))
}

ok() { CHECKS=$((CHECKS + 1)); }

# check COND_DESC CMD...: a boolean assertion.
check() {
  local desc=$1
  shift
  if "$@"; then ok; else fail "$desc"; fi
}

# run CODE MSG CMD...: runs CMD (stdin inherited), expects exit CODE. On failure, stderr must be
# exactly one line "pqkem: ..." containing MSG (if MSG is non-empty). On success, stderr must
# be empty. Stdout is kept in $OUT, or goes to $RUN_STDOUT if set.
run() {
  local want=$1 msg=$2
  shift 2
  "$@" >"${RUN_STDOUT:-$OUT}" 2>"$ERR"
  local rc=$?
  if [[ $rc -ne $want ]]; then
    fail "exit $rc, expected $want: $* -- stderr: $(head -c 400 "$ERR")"
    return 1
  fi
  if [[ $want -eq 0 ]]; then
    if [[ -s $ERR ]]; then fail "unexpected stderr from: $* -- $(head -c 400 "$ERR")"; return 1; fi
  else
    local lines
    lines=$(wc -l <"$ERR")
    if [[ $lines -ne 1 ]] || ! grep -q '^pqkem: ' "$ERR"; then
      fail "stderr is not one 'pqkem: ' line: $* -- $(head -c 400 "$ERR")"
      return 1
    fi
    if [[ -n $msg ]] && ! grep -qF -- "$msg" "$ERR"; then
      fail "stderr lacks '$msg': $* -- $(cat "$ERR")"
      return 1
    fi
  fi
  ok
  return 0
}

# traced STRACE_ARGS... CMD...: CMD under strace -f -qq. LeakSanitizer cannot run in a traced
# process (it aborts), so a sanitizer build checks for leaks everywhere but here.
traced() { ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq "$@"; }

# snapshot DIR: names, sizes, modes and contents of everything in DIR (including dot files, so
# a stray temporary file shows up).
snapshot() {
  (cd "$1" && find . -mindepth 1 -printf '%p %y %s %m\n' | sort && find . -type f -exec sha256sum {} + 2>/dev/null | sort)
}

# unchanged DIR BEFORE DESC: DIR's snapshot still equals BEFORE.
unchanged() {
  local now
  now=$(snapshot "$1")
  if [[ $now == "$2" ]]; then ok; else fail "directory changed after failed command ($3):"$'\n'"$(diff <(echo "$2") <(echo "$now"))"; fi
}

# to_hex FILE: lower-case hex of FILE's bytes, one line, no newline.
to_hex() { od -An -v -tx1 "$1" | tr -d ' \n'; }
# from_hex HEX: the bytes HEX spells, on stdout (NUL bytes included).
from_hex() { printf '%b' "$(sed 's/../\\x&/g' <<<"$1")"; }
lower() { tr 'A-F' 'a-f'; }
mode_of() { stat -c %a "$1"; }
size_of() { stat -c %s "$1"; }

# finish GROUP: the tally; exit 1 if any check failed or none ran.
finish() {
  if [[ $FAILED -ne 0 ]]; then
    echo "$1: $FAILED failed, $CHECKS passed" >&2
    exit 1
  fi
  if [[ $CHECKS -eq 0 ]]; then
    echo "$1: no checks ran" >&2
    exit 1
  fi
  echo "$1: all $CHECKS checks passed"
}
