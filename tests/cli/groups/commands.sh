# shellcheck shell=bash
# Sourced by cli_test.sh, whose groups help, roundtrip and stdio it defines: `--help`, `--version`
# and `list`; keygen, encaps and decaps round trips of every scheme in every format, with their file
# modes; standard input and output. Uses cli_lib.sh's assertions and cli_test.sh's PQ, VEC and key
# sizes.

# ---------------------------------------------------------------------------------------------
group_help() {
  run 0 "" "$PQ" --help && check "--help lists the commands" grep -q 'keygen' "$OUT"
  for cmd in keygen encaps decaps seal open pubkey info convert list kat; do
    run 0 "" "$PQ" "$cmd" --help && check "$cmd --help shows usage" grep -qi 'usage' "$OUT"
  done
  run 0 "" "$PQ" keygen --help && check "keygen --help says --coins is for testing" grep -q 'TESTING ONLY' "$OUT"
  run 0 "" "$PQ" --version
  check "--version names pqkem" grep -q '^pqkem [0-9]' "$OUT"
  check "--version names OpenSSL" grep -q '^OpenSSL: OpenSSL [0-9]' "$OUT"
  check "--version names the compiler" grep -q '^compiler: ' "$OUT"
  check "--version names the implementations" grep -q '^implementations usable on this CPU: .*portable' "$OUT"

  run 0 "" "$PQ" list
  for a in "${ALGS[@]}"; do
    check "list shows $a with its sizes" grep -Eq "^$a +FIPS 203 +${PK[$a]} +${SK[$a]} +${CT[$a]} +32 +64 " "$OUT"
  done
  check "list shows implementations" grep -q '^implementations usable on this CPU: .*portable' "$OUT"
  run 0 "" "$PQ" list --json
  for a in "${ALGS[@]}"; do
    check "list --json has $a" grep -q "\"name\": \"$a\", \"family\": \"ML-KEM\", \"standard\": \"FIPS 203\", \"public_key_bytes\": ${PK[$a]}, \"secret_key_bytes\": ${SK[$a]}, \"expanded_secret_key_bytes\": ${SK[$a]}, \"ciphertext_bytes\": ${CT[$a]}, \"shared_secret_bytes\": 32, \"seed_bytes\": 64, \"keygen_coin_bytes\": 64, \"encaps_coin_bytes\": 32" "$OUT"
  done
  check "list --json has implementations" grep -q '"implementations": \[.*"portable"\]' "$OUT"
  check "list --json starts and ends as an object" bash -c "head -c1 '$OUT' | grep -q '{' && tail -n1 '$OUT' | grep -qx '}'"
}

# ---------------------------------------------------------------------------------------------
group_roundtrip() {
  local d=$T/rt
  for a in "${ALGS[@]}" "${NTRU_ALGS[@]}"; do
    for f in bin hex; do
      mkdir -p "$d/$a-$f" && cd "$d/$a-$f" || return
      run 0 "" "$PQ" keygen -a "$a" --pk pk --sk sk --format "$f" || continue
      run 0 "" "$PQ" encaps --pk pk --ct ct --ss ss1 --format "$f" || continue
      run 0 "" "$PQ" decaps --sk sk --ct ct --ss ss2 --format "$f" || continue
      check "$a $f: both sides hold the same secret" cmp -s ss1 ss2
      check "$a $f: sk mode 0600" test "$(mode_of sk)" = 600
      check "$a $f: ss modes 0600" test "$(mode_of ss1)$(mode_of ss2)" = 600600
      check "$a $f: pk/ct mode 0644 (umask 022)" test "$(mode_of pk)$(mode_of ct)" = 644644
      if [[ $f == bin ]]; then
        check "$a bin: sizes" test "$(size_of pk) $(size_of sk) $(size_of ct) $(size_of ss1)" = "${PK[$a]} ${SK[$a]} ${CT[$a]} 32"
      else
        check "$a hex: sizes" test "$(size_of pk) $(size_of sk) $(size_of ct) $(size_of ss1)" = \
          "$((2 * PK[$a] + 1)) $((2 * SK[$a] + 1)) $((2 * CT[$a] + 1)) 65"
        check "$a hex: lower-case hex, one line" grep -Eqx '[0-9a-f]{64}' ss1
        check "$a hex: pk is one hex line" test "$(grep -Ec '^[0-9a-f]+$' pk) $(wc -l <pk)" = "1 1"
      fi
      # Explicit -a works too; an unrelated ciphertext of the right length is not an error
      # (implicit rejection) but gives another secret.
      run 0 "" "$PQ" decaps -a "$a" --sk sk --ct ct --ss ss3 --format "$f" && check "$a $f: -a gives same" cmp -s ss1 ss3
      head -c "${CT[$a]}" /dev/urandom >ct.bad
      run 0 "" "$PQ" decaps --sk sk --ct ct.bad --ss ss4 --format "$f" && check "$a $f: wrong ct -> other secret" bash -c '! cmp -s ss1 ss4'
      rm -f ss3 ss4
      # Two fresh encapsulations differ (the RNG is used).
      run 0 "" "$PQ" encaps --pk pk --ct ct2 --ss ss5 --format "$f" && check "$a $f: fresh ct differs" bash -c '! cmp -s ct ct2'
      check "$a $f: no stray files" test "$(ls -A | tr '\n' ' ')" = "ct ct.bad ct2 pk sk ss1 ss2 ss5 "
    done

    # Mixed formats: inputs are auto-detected (hex upper-case, with whitespace and line breaks).
    cd "$d/$a-bin" || return
    to_hex sk | tr 'a-f' 'A-F' | fold -w 60 | sed 's/^/  /' >sk.HEX
    { to_hex ct | cut -c1-100; echo; to_hex ct | cut -c101-; printf '\r\n\n'; } >ct.hex
    run 0 "" "$PQ" decaps --sk sk.HEX --ct ct.hex --ss ss.mixed && check "$a: upper-case, wrapped hex input" cmp -s ss1 ss.mixed
    run 0 "" "$PQ" decaps --sk sk --ct ct --ss ss.hex --format HEX && check "$a: --format HEX (any case)" test "$(cat ss.hex)" = "$(to_hex ss1)"
  done
}

# ---------------------------------------------------------------------------------------------
group_stdio() {
  local d=$T/stdio
  mkdir -p "$d" && cd "$d" || return
  for a in "${ALGS[@]}"; do
    # keygen: pk to stdout (piped), sk to a file
    run 0 "" "$PQ" keygen -a "$a" --pk - --sk sk.$a && cp "$OUT" pk.$a
    check "$a: pk to stdout has ${PK[$a]} bytes" test "$(size_of pk.$a)" = "${PK[$a]}"
    # encaps: pk from stdin, ct to stdout in hex
    run 0 "" "$PQ" encaps --pk - --ct - --ss ss.$a --format hex <pk.$a && cp "$OUT" ct.$a
    check "$a: hex ct to stdout" test "$(size_of ct.$a)" = "$((2 * CT[$a] + 1))"
    # decaps: ct from stdin, ss to stdout
    run 0 "" "$PQ" decaps --sk sk.$a --ct - --ss - --format hex <ct.$a
    check "$a: ss via stdin/stdout matches" test "$(cat "$OUT")" = "$(cat ss.$a)"
    # decaps: sk from stdin
    run 0 "" "$PQ" decaps --sk - --ct ct.$a --ss - --format hex <sk.$a
    check "$a: sk from stdin" test "$(cat "$OUT")" = "$(cat ss.$a)"
    # a pipeline of all three
    if "$PQ" keygen -a "$a" --pk - --sk p.sk --format hex | "$PQ" encaps --pk - --ct p.ct --ss p.ss1 &&
      "$PQ" decaps --sk p.sk --ct p.ct --ss - | cmp -s - p.ss1; then ok; else fail "$a: keygen | encaps pipeline"; fi
    rm -f p.sk p.ct p.ss1
  done
  # Binary to a terminal is refused (exit 2); hex to a terminal is fine. Needs a pty: script(1).
  if ! command -v script >/dev/null; then
    fail "script(1) (bsdutils) is needed for the terminal test"
  else
    script -qec "'$PQ' keygen -a ML-KEM-512 --pk - --sk tty.sk" /dev/null </dev/null >tty.out 2>&1
    local rc=$?
    check "binary to a terminal: exit 2 (got $rc)" test "$rc" = 2
    check "binary to a terminal: hint" grep -q 'format hex' tty.out
    check "binary to a terminal: no sk written" test ! -e tty.sk
    script -qec "'$PQ' keygen -a ML-KEM-512 --pk - --sk tty.sk --format hex" /dev/null </dev/null >tty.out 2>&1
    rc=$?
    check "hex to a terminal: exit 0 (got $rc)" test "$rc" = 0
    check "hex to a terminal: sk written" test -s tty.sk
  fi
  # Special files are written in place and need no --force.
  run 0 "" "$PQ" encaps --pk pk.ML-KEM-768 --ct ct.special --ss /dev/null
  check "--ss /dev/null: ct written" test "$(size_of ct.special)" = "${CT[ML-KEM-768]}"
  run 0 "" "$PQ" encaps --pk pk.ML-KEM-768 --ct /dev/null --ss /dev/null
  # Process substitution (a pipe) as output and as input.
  run 0 "" "$PQ" decaps --sk sk.ML-KEM-768 --ct ct.special --ss >(cat >ss.procsub) --format hex
  run 0 "" "$PQ" decaps --sk <(cat sk.ML-KEM-768) --ct ct.special --ss ss.file --format hex
  sleep 0.2
  check "process substitution output/input" test "$(cat ss.procsub)" = "$(cat ss.file)"
}
