#!/usr/bin/env bash
# completion_test.sh PQKEM COMPLETION_SCRIPT
# Sources the bash completion and checks what it offers for a few command lines (COMP_WORDS /
# COMP_CWORD set as bash would, then COMPREPLY inspected), and that every long option of every
# command's --help is offered after `pqkem <command> --`.
set -euo pipefail
export LC_ALL=C
pqkem=$1 script=$2

# shellcheck source=/dev/null
source "$script"
fail=0

# complete_line WORD...: runs the completion with the cursor on the last word; prints COMPREPLY.
complete_line() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _pqkem pqkem "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  printf '%s\n' "${COMPREPLY[@]}" | sort
}

expect() {  # expect "EXPECTED (sorted, space-separated)" WORD...
  local want=$1
  shift
  local got
  got=$(complete_line "$@" | paste -sd' ')
  if [[ $got != "$want" ]]; then
    echo "completion_test: '$*': got '$got', want '$want'" >&2
    fail=1
  fi
}

expect_has() {  # expect_has WORD_EXPECTED WORD...
  local want=$1
  shift
  if ! complete_line "$@" | grep -qxF -- "$want"; then
    echo "completion_test: '$*': '$want' not offered (got: $(complete_line "$@" | paste -sd' '))" >&2
    fail=1
  fi
}

complete -p pqkem >/dev/null || { echo "completion_test: 'complete -F _pqkem pqkem' not registered" >&2; exit 1; }

# The completion asks this very binary for its algorithms.
words0=$pqkem
expect "decaps" "$words0" dec
expect "kat keygen" "$words0" k
expect "bench convert decaps encaps info kat keygen list open pubkey seal" "$words0" ""
expect "--help --version" "$words0" --
expect "ML-KEM-1024 ML-KEM-512 ML-KEM-768" "$words0" keygen -a ML
expect "ntruhps2048509 ntruhps2048677 ntruhps4096821 ntruhrss701" "$words0" encaps --algorithm ntru
expect "bin der hex pem" "$words0" keygen --format ""
expect "bin hex" "$words0" encaps --pk a.pk --format ""
expect "both expanded seed" "$words0" convert --sk-form ""
expect "auto avx2 avx512 portable" "$words0" decaps --impl ""
expect "all auto avx2 avx512 portable" "$words0" bench --impl ""
expect "--sk --sk-form" "$words0" keygen --pk a.pk --s
expect "--json" "$words0" list --j
expect "AES-128-GCM AES-256-GCM" "$words0" seal --aead AES
expect "--psk --psk-id" "$words0" open --ps

# The commands offered are exactly those of pqkem --help.
help_commands=$("$pqkem" --help | sed -n "/^Subcommands:/,/^$/p" | sed -n "s/^  \([a-z][a-z]*\) .*/\1/p" | sort | paste -sd" ")
[[ -n $help_commands ]] || { echo "completion_test: no commands found in pqkem --help" >&2; fail=1; }
expect "$help_commands" "$words0" ""

expect "X-Wing X25519MLKEM768" "$words0" encaps -a X

# Every algorithm `pqkem list` shows is offered, by this pqkem and by the built-in list the
# completion falls back on when it cannot run pqkem (the cache is reset in between).
while read -r alg; do
  expect_has "$alg" "$words0" kat -a ""
  unset _pqkem_algorithm_cache
  expect_has "$alg" /nonexistent/pqkem kat -a ""
  unset _pqkem_algorithm_cache
done < <("$pqkem" list | awk 'NR == 1 { next } /^\(/ || /^$/ { exit } { print $1 }')

# Every long option of every command's --help is offered.
for cmd in keygen encaps decaps seal open pubkey convert info list kat bench; do
  for opt in $("$pqkem" "$cmd" --help | sed -n "s/^  \(-[^ ]*\).*/\1/p" | tr "," "\n" | grep -E -- "^--[a-z]" | sort -u); do
    expect_has "$opt" "$words0" "$cmd" --
  done
done

# File names after --pk.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/alice.pk" "$tmp/alice.sk"
expect "$tmp/alice.pk" "$words0" encaps --pk "$tmp/alice.p"

((fail == 0)) && echo "completion_test: ok"
exit "$fail"
