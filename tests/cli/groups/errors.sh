# shellcheck shell=bash
# Sourced by cli_test.sh, whose groups usage and failures it defines: usage errors (exit 2) and
# failures on valid usage (exit 1), after which nothing is created or changed. Uses cli_lib.sh's
# assertions and cli_test.sh's PQ, VEC and key sizes.

# ---------------------------------------------------------------------------------------------
# Usage errors: exit 2, and nothing is created or changed.
group_usage() {
  local d=$T/usage
  mkdir -p "$d" && cd "$d" || return
  "$PQ" keygen -a ML-KEM-768 --pk pk --sk sk >/dev/null 2>&1 || fail "setup keygen"
  "$PQ" encaps --pk pk --ct ct --ss ss >/dev/null 2>&1 || fail "setup encaps"
  local before
  before=$(snapshot "$d")
  u() { run 2 "$@"; unchanged "$d" "$before" "$*"; }

  u "" "$PQ"
  u "" "$PQ" frobnicate
  u "" "$PQ" --frobnicate
  u "" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2 --bogus
  u "is required" "$PQ" keygen -a ML-KEM-768 --pk p2
  u "is required" "$PQ" keygen --pk p2 --sk s2
  u "is required" "$PQ" encaps --pk pk --ct c2
  u "is required" "$PQ" decaps --sk sk --ss s2
  u "unknown algorithm 'kyber768'" "$PQ" keygen -a kyber768 --pk p2 --sk s2
  u "unknown algorithm" "$PQ" keygen -a ML-KEM-769 --pk p2 --sk s2
  u "unknown algorithm" "$PQ" encaps -a nope --pk pk --ct c2 --ss s2
  u "unknown algorithm" "$PQ" decaps -a nope --sk sk --ct ct --ss s2
  u "" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2 --format base64
  u "received 2" "$PQ" keygen -a ML-KEM-512 -a ML-KEM-768 --pk p2 --sk s2
  u "received 2" "$PQ" keygen -a ML-KEM-768 --pk p2 --pk p3 --sk s2
  u "not expected: extra" "$PQ" kat -a ML-KEM-768 --count 1 extra
  u "unknown command 'frobnicate'" "$PQ" frobnicate
  # NTRU names and their aliases work like any other algorithm.
  run 0 "" "$PQ" keygen -a NTRU-HPS-2048-509 --pk ntru.pk --sk ntru.sk &&
    check "NTRU-HPS-2048-509 alias makes an ntruhps2048509 key" test "$(size_of ntru.pk)" = 699
  rm -f ntru.pk ntru.sk
  run 0 "" "$PQ" keygen -a ntru-hrss-701 --pk ntru.pk --sk ntru.sk &&
    check "ntru-hrss-701 alias makes an ntruhrss701 key" test "$(size_of ntru.sk)" = 1450
  rm -f ntru.pk ntru.sk
  u "unknown algorithm" "$PQ" keygen -a ntruhps2048510 --pk p2 --sk s2
  # Paths: one stdin input, one stdout output, no output twice, no output over an input.
  u "same file" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk p2
  u "same file" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk ./p2
  u "same file" "$PQ" keygen -a ML-KEM-768 --pk "$d/p2" --sk p2
  u "same file" "$PQ" encaps --pk pk --ct ss --ss ss --force
  u "stdout" "$PQ" keygen -a ML-KEM-768 --pk - --sk - --format hex
  u "stdout" "$PQ" encaps --pk pk --ct - --ss - --format hex
  u "stdin" "$PQ" decaps --sk - --ct - --ss s2 </dev/null
  u "stdin" "$PQ" encaps --pk - --ct c2 --ss s2 --coins @- </dev/null
  u "overwrite input" "$PQ" decaps --sk sk --ct ct --ss ct --force
  u "overwrite input" "$PQ" decaps --sk sk --ct ct --ss ./sk --force
  u "overwrite input" "$PQ" encaps --pk pk --ct pk --ss s2 --force
  ln -s ct ct.link
  before=$(snapshot "$d")
  u "overwrite input" "$PQ" decaps --sk sk --ct ct.link --ss ct --force
  u "needs a file name" "$PQ" keygen -a ML-KEM-768 --pk "" --sk s2
  # --coins given inline: bad hex, odd, wrong length -> usage error (never echoing the coins).
  u "--coins must be hex" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2 --coins xyz
  u "--coins must be hex" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2 --coins 0
  u "needs exactly 64 bytes" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2 --coins 00112233
  u "needs exactly 32 bytes" "$PQ" encaps --pk pk --ct c2 --ss s2 --coins "$(printf '%066d' 0)"
  check "coins not echoed" bash -c "! grep -q 00000000 '$ERR'"
  u "--coins @FILE needs a file name" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2 --coins @
  # A 64-byte seed does not reveal its parameter set.
  printf '%0128d\n' 0 >seed.hex
  before=$(snapshot "$d")
  u "give -a" "$PQ" decaps --sk seed.hex --ct ct --ss s2
}

# ---------------------------------------------------------------------------------------------
# Failures on valid usage: exit 1, and nothing is created or changed.
group_failures() {
  local d=$T/fail
  mkdir -p "$d" && cd "$d" || return
  local a=ML-KEM-768
  "$PQ" keygen -a $a --pk pk --sk sk >/dev/null 2>&1 || fail "setup keygen"
  "$PQ" keygen -a $a --pk pk.hex --sk sk.hex --format hex >/dev/null 2>&1 || fail "setup keygen hex"
  "$PQ" keygen -a ML-KEM-512 --pk pk512 --sk sk512 >/dev/null 2>&1 || fail "setup keygen 512"
  "$PQ" encaps --pk pk --ct ct --ss ss >/dev/null 2>&1 || fail "setup encaps"
  "$PQ" encaps --pk pk512 --ct ct512 --ss ss512 >/dev/null 2>&1 || fail "setup encaps 512"
  : >empty
  printf 'abc\n' >odd.hex
  printf '%0100d\n' 0 >short.hex
  head -c 1000 /dev/zero >short.bin  # raw (NUL is neither hex nor whitespace)
  head -c $((2 * 1024 * 1024)) /dev/zero >huge
  mkdir adir
  # Public key with a coefficient >= q (FIPS 203 modulus check): first 12-bit value = 0xfff.
  { printf 'ffff'; cut -c5- pk.hex; } >pk.badmod
  # Secret key whose stored H(ek) does not match (flip one nibble of H): offset sk_bytes - 64.
  local hoff=$((2 * (SK[$a] - 64)))
  local nib
  nib=$(cut -c$((hoff + 1)) sk.hex)
  local flip=0; [[ $nib == 0 ]] && flip=1
  { cut -c1-$hoff sk.hex | tr -d '\n'; printf '%s' "$flip"; cut -c$((hoff + 2))- sk.hex; } >sk.badhash
  # The same fault in an expanded-form PKCS#8 file (the dk ends the DER: H is 64 bytes from the end).
  "$PQ" convert --in sk --out sk.der --format der --sk-form expanded >/dev/null 2>&1 || fail "setup convert der"
  local dsz hbyte
  dsz=$(size_of sk.der)
  hbyte=$(od -An -tu1 -j $((dsz - 64)) -N1 sk.der | tr -d ' ')
  cp sk.der sk.badhash.der
  printf "$(printf '\\%03o' $((hbyte ^ 1)))" | dd of=sk.badhash.der bs=1 seek=$((dsz - 64)) conv=notrunc 2>/dev/null

  local before
  before=$(snapshot "$d")
  f() { run 1 "$@"; unchanged "$d" "$before" "$*"; }

  f "cannot open input: No such file or directory (missing)" "$PQ" encaps --pk missing --ct c2 --ss s2
  f "directory" "$PQ" encaps --pk adir --ct c2 --ss s2
  f "input is empty (empty)" "$PQ" encaps --pk empty --ct c2 --ss s2
  f "input is empty (stdin)" "$PQ" encaps --pk - --ct c2 --ss s2 </dev/null
  f "larger than" "$PQ" encaps --pk huge --ct c2 --ss s2
  f "larger than" "$PQ" encaps --pk /dev/zero --ct c2 --ss s2
  f "odd number of hex digits" "$PQ" encaps --pk odd.hex --ct c2 --ss s2
  f "public key has 50 bytes (read as hex); no algorithm" "$PQ" encaps --pk short.hex --ct c2 --ss s2
  f "public key has 1000 bytes (read as raw bytes)" "$PQ" encaps --pk short.bin --ct c2 --ss s2
  f "the size of a public key for ML-KEM-512" "$PQ" encaps -a ML-KEM-768 --pk pk512 --ct c2 --ss s2
  f "not a valid ML-KEM-768 public key" "$PQ" encaps --pk pk.badmod --ct c2 --ss s2
  f "not a valid ML-KEM-768 secret key: ML-KEM-768 decapsulation key is invalid: its stored H(ek) does not match its encapsulation key (FIPS 203 section 7.3) (sk.badhash)" "$PQ" decaps --sk sk.badhash --ct ct --ss s2
  f "not a valid private key file: ML-KEM-768 decapsulation key is invalid: its stored H(ek) does not match its encapsulation key (FIPS 203 section 7.3) (sk.badhash.der)" "$PQ" decaps --sk sk.badhash.der --ct ct --ss s2
  f "secret key has 50 bytes" "$PQ" decaps --sk short.hex --ct ct --ss s2
  f "the size of a secret key for ML-KEM-512" "$PQ" decaps -a ML-KEM-768 --sk sk512 --ct ct --ss s2
  f "the size of a ciphertext for ML-KEM-512" "$PQ" decaps --sk sk --ct ct512 --ss s2
  f "ciphertext has 50 bytes" "$PQ" decaps --sk sk --ct short.hex --ss s2
  f "odd number of hex digits" "$PQ" decaps --sk sk --ct odd.hex --ss s2
  f "input is empty (empty)" "$PQ" decaps --sk sk --ct empty --ss s2
  f "cannot open input" "$PQ" keygen -a $a --pk p2 --sk s2 --coins @missing
  f "coins have 50 bytes" "$PQ" keygen -a $a --pk p2 --sk s2 --coins @short.hex
  # Outputs: existing file without --force, missing directory, a directory as output.
  f "use --force to replace it (pk)" "$PQ" keygen -a $a --pk pk --sk s2
  f "use --force to replace it (ct)" "$PQ" encaps --pk pk --ct ct --ss s2
  f "use --force to replace it (ss)" "$PQ" encaps --pk pk --ct c2 --ss ss
  f "use --force to replace it (ss)" "$PQ" decaps --sk sk --ct ct --ss ss
  f "directory 'nodir' does not exist" "$PQ" keygen -a $a --pk nodir/pk --sk s2
  f "does not exist" "$PQ" encaps --pk pk --ct c2 --ss "$d/nodir/deeper/ss"
  f "output is a directory" "$PQ" decaps --sk sk --ct ct --ss adir
  f "Not a directory (pk/ss)" "$PQ" decaps --sk sk --ct ct --ss pk/ss
  # A stdout write failure: the file output must not be created either.
  RUN_STDOUT=/dev/full f "cannot write: No space left on device (stdout)" "$PQ" keygen -a $a --pk - --sk s2
  RUN_STDOUT=/dev/full f "cannot write: No space left on device (stdout)" "$PQ" encaps --pk pk --ct c2 --ss - --format hex
  RUN_STDOUT=/dev/full f "cannot write: No space left on device (stdout)" "$PQ" kat -a $a --count 1
  # Unwritable directory and unreadable input (permissions do not bind root).
  if [[ $(id -u) != 0 ]]; then
    mkdir ro && chmod 555 ro && cp sk noread && chmod 000 noread
    before=$(snapshot "$d")
    f "cannot create a file in directory" "$PQ" keygen -a $a --pk ro/pk --sk s2
    f "Permission denied (noread)" "$PQ" decaps --sk noread --ct ct --ss s2
  fi
  # An input of exactly the limit is read in full, from a file (its buffer sized by fstat) and
  # from a pipe (its buffer grown as it fills); one byte more is refused both ways.
  local pad=$((1024 * 1024 - $(wc -c <pk.hex)))
  { head -c "$pad" /dev/zero | tr '\0' ' '; cat pk.hex; } >pk.limit
  { printf ' '; cat pk.limit; } >pk.over
  run 0 "" "$PQ" encaps --pk pk.limit --ct c3 --ss s3
  run 0 "" "$PQ" encaps --pk - --ct c4 --ss s4 < <(cat pk.limit)
  check "a 1 MiB key from a pipe gives a ciphertext" test -s c4
  run 1 "the limit for any pqkem input (pk.over)" "$PQ" encaps --pk pk.over --ct c5 --ss s5
  run 1 "the limit for any pqkem input (stdin)" "$PQ" encaps --pk - --ct c5 --ss s5 < <(cat pk.over)
}
