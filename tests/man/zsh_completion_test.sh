#!/usr/bin/env bash
# zsh_completion_test.sh PQKEM COMPLETION_FILE
# Checks that the zsh completion (completions/_pqkem) knows everything `pqkem --help` shows:
# every command of the "Subcommands:" section is offered (_pqkem_commands), and every option
# (long and short) that `pqkem <command> --help` prints appears in that command's function
# _pqkem_<command> (shared specs, such as --impl/--ntt-plan in _pqkem_engine_specs, count for
# the commands whose function uses them). A command with positionals must complete one.
# Then, when zsh is installed, `zsh -n` must parse the file; without zsh that step is skipped
# (and the output says so), the option checks still run.
set -euo pipefail
export LC_ALL=C
pqkem=$1 comp=$2

fail=0
err() { echo "zsh_completion_test: $*" >&2; fail=1; }

[[ $(head -n1 "$comp") == "#compdef pqkem" ]] || err "the first line of $comp is not '#compdef pqkem'"

# The body of a function of the completion file: from 'NAME() {' to the next line that is '}'.
function_body() {
  awk -v name="$1" '$0 ~ "^" name "\\(\\) \\{" { on = 1; next } on && /^}/ { exit } on { print }' "$comp"
}
# A shared spec variable's definition (typeset -g[a] NAME=... up to the closing line of an array).
spec_body() {
  awk -v name="$1" '
    $0 ~ "^typeset -ga? " name "=\\(" { on = 1 }
    $0 ~ "^typeset -ga? " name "=[^(]" { print; exit }
    on { print; if ($0 ~ /\)$/) exit }' "$comp"
}
# The text that specifies a command: its function plus the shared specs it expands.
command_text() {
  local body var
  body=$(function_body "_pqkem_$1")
  printf '%s\n' "$body"
  for var in $(grep -o '\$_pqkem_[a-z_]*_specs\?' <<<"$body" | tr -d '$' | sort -u); do
    spec_body "$var"
  done
}
# has TEXT OPTION: the option occurs in the text as a whole word ("--ntt-plan" does not match
# "--ntt-plans"; "-a" matches "-a+" and "{-a+,").
has() {
  grep -qE -- "(^|[^a-zA-Z0-9-])$2([^a-zA-Z0-9-]|\$)" <<<"$1"
}
# Options of a help text: the option names that start an option line ("  -a,--algorithm ALG").
options_of() {
  sed -n "s/^  \(-[^ ]*\).*/\1/p" | tr "," "\n" | grep -E -- "^--?[a-zA-Z]" | sort -u
}

top_help=$("$pqkem" --help)
mapfile -t commands < <(printf '%s\n' "$top_help" | sed -n '/^Subcommands:/,/^$/p' | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')
((${#commands[@]} >= 9)) || { echo "zsh_completion_test: found only ${#commands[@]} commands in pqkem --help: ${commands[*]}" >&2; exit 1; }

checked=0
top_text=$(function_body _pqkem)
for opt in $(printf '%s\n' "$top_help" | options_of); do
  checked=$((checked + 1))
  has "$top_text" "$opt" || err "pqkem $opt is not completed (function _pqkem)"
done
commands_text=$(function_body _pqkem_commands)
for cmd in "${commands[@]}"; do
  checked=$((checked + 1))
  grep -qE "^ *'$cmd:" <<<"$commands_text" || err "command '$cmd' is not offered (_pqkem_commands)"
  text=$(command_text "$cmd")
  if [[ -z $text ]]; then
    err "no function _pqkem_$cmd for command '$cmd'"
    continue
  fi
  help=$("$pqkem" "$cmd" --help)
  for opt in $(printf '%s\n' "$help" | options_of); do
    checked=$((checked + 1))
    has "$text" "$opt" || err "pqkem $cmd $opt is not completed (function _pqkem_$cmd)"
  done
  if grep -q '^Positionals:' <<<"$help"; then
    checked=$((checked + 1))
    grep -qE "'1:" <<<"$text" || err "pqkem $cmd takes a positional argument, _pqkem_$cmd completes none"
  fi
done
# Every algorithm `pqkem list` shows is in the built-in fallback list too.
for alg in $("$pqkem" list | awk 'NR == 1 { next } /^\(/ || /^$/ { exit } { print $1 }'); do
  checked=$((checked + 1))
  has "$(function_body _pqkem_algorithms)" "$alg" || err "algorithm $alg missing from the fallback list in _pqkem_algorithms"
done

if command -v zsh >/dev/null; then
  zsh -n "$comp" || err "zsh -n $comp: syntax error"
  parse="zsh -n: ok"
else
  echo "zsh_completion_test: zsh is not installed: skipping the parse check (zsh -n); the option checks ran"
  parse="zsh -n: SKIPPED (no zsh)"
fi

((fail == 0)) && echo "zsh_completion_test: ok ($checked commands, options and algorithms checked; $parse)"
exit "$fail"
