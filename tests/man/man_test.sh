#!/usr/bin/env bash
# man_test.sh PQKEM MANPAGE
# Checks that man/pqkem.1 documents everything `pqkem --help` shows: every command listed there,
# and every long option printed by `pqkem --help` and by `pqkem <command> --help` for each
# command, appears in the man page (with its dashes written either as \- or as -). Also checks
# the page names every algorithm of `pqkem list`, both environment variables and all three exit
# codes, and that groff (when installed) formats it without warnings.
set -euo pipefail
export LC_ALL=C
pqkem=$1 page=$2

fail=0
# The man page with roff's escaped hyphens turned into plain ones, font escapes removed.
text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\~/ /g' "$page")

# Long options in a help text: the option names that start an option line
# ("  -a,--algorithm ALG", "  --pk PATH REQUIRED", "  -h,--help").
long_options() {
  sed -n "s/^  \(-[^ ]*\).*/\1/p" | tr "," "\n" | grep -E -- "^--[a-z]" | sort -u
}

# Commands: the lines of the "Subcommands:" section of pqkem --help.
top_help=$("$pqkem" --help)
mapfile -t commands < <(printf '%s\n' "$top_help" | sed -n '/^Subcommands:/,/^$/p' | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')
((${#commands[@]} >= 9)) || { echo "man_test: found only ${#commands[@]} commands in pqkem --help: ${commands[*]}" >&2; exit 1; }

has() {  # has WORD: the word occurs in the page, not as part of a longer option
  grep -qE -- "(^|[^a-z0-9-])$1([^a-z0-9-]|$)" <<<"$text"
}

checked=0
for opt in $(printf '%s\n' "$top_help" | long_options); do
  checked=$((checked + 1))
  has "$opt" || { echo "man_test: pqkem --help option $opt is not in $page" >&2; fail=1; }
done
for cmd in "${commands[@]}"; do
  # Each command has its own .TP entry under COMMANDS and appears in the SYNOPSIS.
  grep -qE "^\.B $cmd\$" "$page" || { echo "man_test: command '$cmd' has no entry in $page" >&2; fail=1; }
  grep -qE "^\.B pqkem $cmd\$" "$page" || { echo "man_test: command '$cmd' is not in the SYNOPSIS of $page" >&2; fail=1; }
  for opt in $("$pqkem" "$cmd" --help | long_options); do
    checked=$((checked + 1))
    has "$opt" || { echo "man_test: pqkem $cmd --help option $opt is not in $page" >&2; fail=1; }
  done
done
((checked >= 30)) || { echo "man_test: only $checked options found in the help texts; is the parser broken?" >&2; exit 1; }

# Every algorithm `pqkem list` shows is named in the page.
for alg in $("$pqkem" list | awk 'NR == 1 { next } /^\(/ || /^$/ { exit } { print $1 }'); do
  checked=$((checked + 1))
  has "$alg" || { echo "man_test: algorithm $alg (pqkem list) is not in $page" >&2; fail=1; }
done

for word in PQKEM_IMPL PQKEM_NTT_PLAN 'EXIT STATUS' ENVIRONMENT FORMATS; do
  grep -qF -- "$word" <<<"$text" || { echo "man_test: $page does not mention $word" >&2; fail=1; }
done
for code in 0 1 2; do
  sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$page" | grep -qx "\.B $code" \
    || { echo "man_test: exit code $code is not described under EXIT STATUS" >&2; fail=1; }
done
for fmt in bin hex pem der; do
  sed -n '/^\.SH FORMATS/,/^\.SH /p' "$page" | grep -qx "\.B $fmt" \
    || { echo "man_test: format $fmt is not described under FORMATS" >&2; fail=1; }
done

if command -v groff >/dev/null; then
  warnings=$(groff -man -ww -z "$page" 2>&1 || true)
  [[ -z $warnings ]] || { echo "man_test: groff warnings:" >&2; echo "$warnings" >&2; fail=1; }
fi

((fail == 0)) && echo "man_test: ok (${#commands[@]} commands, $checked options checked)"
exit "$fail"
