#!/usr/bin/env bash
# expect_valgrind.sh error|clean MESSAGE VALGRIND-COMMAND...
# Runs a command under valgrind (the command line is given in full). `error`: passes only if
# valgrind fails (non-zero exit) and its report contains MESSAGE, i.e. the deliberate leak was
# caught for the right reason. `clean`: passes only if the command exits 0 with no error.
set -uo pipefail
expect="$1" message="$2"
shift 2
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
"$@" 2>"$log"
rc=$?
cat "$log" >&2
errors="$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -n 1)"
case "$expect" in
  error)
    if [[ $rc -ne 0 && "${errors:-0}" -gt 0 ]] && grep -q -- "$message" "$log"; then
      echo "ok: valgrind reported the deliberate leak (exit $rc, $errors errors, \"$message\")"
      exit 0
    fi
    echo "FAIL: expected valgrind to report \"$message\" (exit $rc, ${errors:-?} errors)"
    exit 1 ;;
  clean)
    if [[ $rc -eq 0 && "${errors:-1}" -eq 0 ]]; then
      echo "ok: no valgrind error on declassified data"
      exit 0
    fi
    echo "FAIL: expected a clean run (exit $rc, ${errors:-?} errors)"
    exit 1 ;;
  *) echo "usage: expect_valgrind.sh error|clean MESSAGE COMMAND..." >&2; exit 2 ;;
esac
