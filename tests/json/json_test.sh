#!/usr/bin/env bash
# json_test.sh PQKEM
# `--json` on keygen, encaps and decaps: one JSON object on stdout naming the algorithm, the files
# written and their sizes, and SHA-256 fingerprints that agree with the files and with
# `pqkem info`; never secret material; `-` as an output is a usage error (exit 2) and writes
# nothing. Plain bash and coreutils (no jq, no python).
set -euo pipefail
pqkem=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail=0
bad() { echo "json_test: FAIL: $*" >&2; fail=1; }

# field NAME FILE: the value of "NAME": ... on its own line (strings unquoted).
field() { sed -n "s/^  \"$1\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}\$/\1/p" "$2"; }
# A crude but strict-enough shape check: starts with {, ends with }, balanced brackets and
# braces, every line a field, an array element or a closer.
shape_ok() {
  local f=$1
  [[ $(head -c1 "$f") == "{" && $(tail -n1 "$f") == "}" ]] || return 1
  [[ $(tr -cd '{' <"$f" | wc -c) == $(tr -cd '}' <"$f" | wc -c) ]] || return 1
  [[ $(tr -cd '[' <"$f" | wc -c) == $(tr -cd ']' <"$f" | wc -c) ]] || return 1
  ! grep -vqE '^(\{|\}|  "[a-z_0-9]+": .*|    \{"option": .*\},?|  \],?)$' "$f"
}
hex_of() { od -An -v -tx1 "$1" | tr -d ' \n'; }

for alg in ML-KEM-768 ntruhps2048509; do
  "$pqkem" keygen -a "$alg" --pk a.pk --sk a.sk --json --force >keygen.json || bad "$alg keygen --json failed"
  shape_ok keygen.json || { bad "$alg keygen --json: not the expected JSON shape"; cat keygen.json >&2; }
  [[ $(field command keygen.json) == keygen ]] || bad "$alg keygen: command"
  [[ $(field algorithm keygen.json) == "$alg" ]] || bad "$alg keygen: algorithm"
  [[ $(field public_key_bytes keygen.json) == "$(stat -c %s a.pk)" ]] || bad "$alg keygen: public_key_bytes"
  [[ $(field public_key_sha256 keygen.json) == "$(sha256sum <a.pk | cut -d' ' -f1)" ]] || bad "$alg keygen: public_key_sha256"
  grep -qF "{\"option\": \"--sk\", \"path\": \"a.sk\", \"kind\": \"secret_key\", \"bytes\": $(stat -c %s a.sk)}" keygen.json \
    || bad "$alg keygen: --sk file entry"
  if [[ $alg == ML-KEM-768 ]]; then
    [[ $(field public_key_sha256 keygen.json) == "$("$pqkem" info --json a.pk | sed -n 's/^  "public_key_sha256": "\(.*\)",\{0,1\}$/\1/p')" ]] \
      || bad "keygen and info disagree on the fingerprint"
  fi

  "$pqkem" encaps --pk a.pk --ct b.ct --ss b.ss --json --force >encaps.json || bad "$alg encaps --json failed"
  shape_ok encaps.json || { bad "$alg encaps --json: shape"; cat encaps.json >&2; }
  [[ $(field ciphertext_sha256 encaps.json) == "$(sha256sum <b.ct | cut -d' ' -f1)" ]] || bad "$alg encaps: ciphertext_sha256"
  [[ $(field public_key_sha256 encaps.json) == "$(sha256sum <a.pk | cut -d' ' -f1)" ]] || bad "$alg encaps: public_key_sha256"
  [[ $(field shared_secret_bytes encaps.json) == 32 ]] || bad "$alg encaps: shared_secret_bytes"
  [[ $(field ciphertext_bytes encaps.json) == "$(stat -c %s b.ct)" ]] || bad "$alg encaps: ciphertext_bytes"

  "$pqkem" decaps --sk a.sk --ct b.ct --ss a.ss --json --force >decaps.json || bad "$alg decaps --json failed"
  shape_ok decaps.json || { bad "$alg decaps --json: shape"; cat decaps.json >&2; }
  cmp -s a.ss b.ss || bad "$alg: shared secrets differ"
  [[ $(field ciphertext_sha256 decaps.json) == "$(sha256sum <b.ct | cut -d' ' -f1)" ]] || bad "$alg decaps: ciphertext_sha256"
  [[ $(field public_key_sha256 decaps.json) == "$(sha256sum <a.pk | cut -d' ' -f1)" ]] || bad "$alg decaps: public_key_sha256"

  # Never secret material: neither the secret key, nor the shared secret, nor their hex.
  ss_hex=$(hex_of a.ss)
  for f in keygen.json encaps.json decaps.json; do
    grep -qi "$ss_hex" "$f" && bad "$alg $f contains the shared secret"
    grep -qi "$(hex_of a.sk | head -c 64)" "$f" && bad "$alg $f contains secret key bytes"
  done
done

# Hex outputs: bytes are the file sizes (hex digits and newline).
"$pqkem" keygen -a ML-KEM-512 --pk h.pk --sk h.sk --format hex --json >h.json
[[ $(field format h.json) == hex ]] || bad "keygen --format hex --json: format"
grep -qF "\"path\": \"h.pk\", \"kind\": \"public_key\", \"bytes\": 1601}" h.json || bad "hex public key file bytes"

# '-' as an output with --json: usage error, nothing written.
rm -f x.pk x.sk x.ct x.ss
set +e
"$pqkem" keygen -a ML-KEM-768 --pk - --sk x.sk --format hex --json >out 2>err; rc=$?
set -e
[[ $rc == 2 ]] || bad "keygen --pk - --json: exit $rc, want 2"
[[ ! -e x.sk && ! -s out ]] || bad "keygen --pk - --json wrote something"
grep -q -- '--json' err || bad "keygen --pk - --json: message does not mention --json: $(cat err)"
set +e
"$pqkem" encaps --pk a.pk --ct x.ct --ss - --format hex --json >out 2>err; rc1=$?
"$pqkem" decaps --sk a.sk --ct b.ct --ss - --format hex --json >out2 2>err; rc2=$?
set -e
[[ $rc1 == 2 && $rc2 == 2 ]] || bad "encaps/decaps --ss - --json: exit $rc1/$rc2, want 2"
[[ ! -e x.ct && ! -s out && ! -s out2 ]] || bad "encaps/decaps with --ss - --json wrote something"

# A failing command prints no JSON.
set +e
"$pqkem" encaps --pk a.sk --ct y.ct --ss y.ss --json >out 2>err; rc=$?
set -e
[[ $rc == 1 && ! -s out && ! -e y.ct ]] || bad "failing encaps --json: exit $rc, stdout '$(cat out)'"

((fail == 0)) && echo "json_test: ok"
exit "$fail"
