# shellcheck shell=bash
# Sourced by cli_test.sh, whose group hostile it defines: hostile use of the tool (needs
# PQKEM_TEST_HOOKS_BINARY). Uses cli_lib.sh's assertions and cli_test.sh's PQ, VEC and key sizes.

# ---------------------------------------------------------------------------------------------
# Hostile use: empty and odd arguments, names that are not text, outputs that are stdout or a
# terminal by another name, secrets in messages, signals and races during the commit. The race
# and signal cases use pqkem_test_hooks ($PQH), the test-only twin of the binary that stops or
# signals itself at a named step (PQKEM_TEST_HOOK=STEP:ACTION, see app/output.cpp).

# proc_state PID: the one-letter state of process PID (T stopped, Z exited), or X if gone.
proc_state() {
  local line
  line=$(cat "/proc/$1/stat" 2>/dev/null) || { echo X; return; }
  line=${line##*) }
  echo "${line%% *}"
}

# wait_state PID STATES: waits (up to 30 s) until PID's state is one of STATES ("T", "TZX").
wait_state() {
  local i st
  for i in $(seq 600); do
    st=$(proc_state "$1")
    [[ $2 == *"$st"* ]] && return 0
    sleep 0.05
  done
  return 1
}

# quiet CMD...: runs CMD in a subshell whose stderr is discarded, so that the shell's own notice
# of a child killed by a signal ("Terminated") does not clutter the log; returns CMD's status.
quiet() { ( "$@"; exit $? ) 2>/dev/null; }

# pair_matches PK SK: the public key derived from secret key SK equals PK (both raw).
pair_matches() {
  "$PQ" pubkey --sk "$2" --pk - --format hex 2>/dev/null | cmp -s - <(to_hex "$1"; echo)
}

group_hostile() {
  local d=$T/hostile
  mkdir -p "$d" && cd "$d" || return
  local PQH=${PQKEM_TEST_HOOKS_BINARY:-}
  [[ -x $PQH ]] || { fail "PQKEM_TEST_HOOKS_BINARY (pqkem_test_hooks) is not set or not executable"; return; }
  local a=ML-KEM-768 before rc pid pid2
  run 0 "" "$PQ" keygen -a $a --pk k.pk --sk k.sk
  run 0 "" "$PQ" encaps --pk k.pk --ct k.ct --ss k.ss

  # An empty name is not "no name": -a "" (an unset variable) is an unknown algorithm.
  before=$(snapshot "$d")
  run 2 "unknown algorithm ''" "$PQ" keygen -a "" --pk e.pk --sk e.sk
  run 2 "unknown algorithm ''" "$PQ" kat -a "" --count 1
  run 2 "unknown algorithm ''" "$PQ" bench -a "" --iterations 1
  run 2 "unknown algorithm ''" "$PQ" encaps -a "" --pk k.pk --ct e.ct --ss e.ss
  run 2 "unknown algorithm ''" "$PQ" decaps -a "" --sk k.sk --ct k.ct --ss e.ss
  run 2 "unknown algorithm ''" "$PQ" pubkey -a "" --sk k.sk --pk e.pk
  run 2 "unknown algorithm ''" "$PQ" convert -a "" --in k.sk --out e.sk --format hex
  run 2 "unknown algorithm ''" "$PQ" info -a "" k.pk
  run 2 "--coins is empty" "$PQ" keygen -a $a --pk e.pk --sk e.sk --coins ""
  run 2 "--coins is empty" "$PQ" encaps --pk k.pk --ct e.ct --ss e.ss --coins ""
  run 2 "--impl must be" "$PQ" encaps --pk k.pk --ct e.ct --ss e.ss --impl ""
  run 2 "unknown NTT plan ''" "$PQ" encaps --pk k.pk --ct e.ct --ss e.ss --ntt-plan ""
  unchanged "$d" "$before" "empty arguments"
  # Implementation names ignore case like algorithm names; info checks PQKEM_IMPL too.
  run 0 "" env PQKEM_IMPL=PORTABLE "$PQ" encaps --pk k.pk --ct e.ct --ss e.ss && rm -f e.ct e.ss
  run 0 "" "$PQ" encaps --pk k.pk --ct e.ct --ss e.ss --impl Portable && rm -f e.ct e.ss
  run 2 "PQKEM_IMPL must be" env PQKEM_IMPL=bogus "$PQ" info k.pk

  # bench --baseline reads at most the input limit, like every input.
  head -c $((2 * 1024 * 1024)) /dev/zero >big.json
  run 1 "larger than 1048576 bytes" "$PQ" bench --baseline big.json --iterations 1 -a ML-KEM-512
  run 1 "larger than 1048576 bytes" "$PQ" bench --baseline /dev/zero --iterations 1 -a ML-KEM-512
  run 1 "is a directory" "$PQ" bench --baseline . --iterations 1 -a ML-KEM-512
  rm -f big.json

  # Text that is not hex gets a message about text, not about DER or raw lengths.
  printf '0x%s\n' "$(to_hex k.pk)" >ox.pk
  run 1 "0x prefix" "$PQ" encaps --pk ox.pk --ct e.ct --ss e.ss
  printf '0123 not hex\n' >text.pk
  run 1 "text but not hex" "$PQ" encaps --pk text.pk --ct e.ct --ss e.ss
  # Hex coins are hex even when their raw length would fit: 64 hex digits are 32 bytes.
  printf '%064d' 5 >coins64
  run 1 "coins have 32 bytes (read as hex); ML-KEM-768 keygen needs exactly 64 bytes" \
    "$PQ" keygen -a $a --pk e.pk --sk e.sk --coins @coins64
  # convert of a ciphertext says what it is.
  run 1 "that is the ciphertext size of ML-KEM-768, and convert re-encodes keys" "$PQ" convert --in k.ct --out e.pem --format pem
  check "nothing written by the failures above" test -z "$(ls -A | grep -Ev '^(k\.(pk|sk|ct|ss)|ox\.pk|text\.pk|coins64)$')"

  # No message carries anything of a secret key's bytes: wrong-length raw keys that start like
  # DER (0x30, a long-form length) give the same message whatever their other bytes are.
  local msgs="" i
  for i in 1 2 3 4 5 6; do
    { printf '\x30\x83'; head -c 2397 /dev/urandom; } >bad.sk
    "$PQ" decaps --sk bad.sk --ct k.ct --ss e.ss 2>err.txt
    rc=$?
    check "wrong-length secret key: exit 1 (got $rc)" test "$rc" = 1
    msgs+=$(cat err.txt)$'\n'
    "$PQ" encaps --pk bad.sk --ct e.ct --ss e.ss 2>>err.txt
    msgs+=$(tail -n 1 err.txt)$'\n'
  done
  check "secret key messages do not depend on its bytes" test "$(sort -u <<<"$msgs" | grep -c .)" = 2
  check "secret key message names the length only" grep -q 'secret key has 2399 bytes' <<<"$msgs"
  rm -f bad.sk err.txt

  # File names in messages are quoted: a newline does not split the line, ESC does not pass.
  run 1 "" "$PQ" encaps --pk $'no\nsuch' --ct e.ct --ss e.ss
  check "newline in a name is escaped" grep -qF "\$'no\\nsuch'" "$ERR"
  run 1 "" "$PQ" encaps --pk $'no\e[31msuch' --ct e.ct --ss e.ss
  check "ESC in a name is escaped" grep -qF "\$'no\\x1b[31msuch'" "$ERR"
  check "no ESC byte on stderr" test -z "$(tr -d -c '\033' <"$ERR")"

  # --json: every report parses, so a file name that is not UTF-8 is refused up front.
  run 2 "not UTF-8" "$PQ" encaps --pk k.pk --ct e.ct --ss $'e\xff.ss' --json
  run 2 "not UTF-8" "$PQ" info --json $'k\xff.pk'
  check "no output for a refused --json" test ! -e e.ct

  # Outputs are judged by what they are, not by their name: /dev/stdout is stdout.
  run 2 "cannot be stdout" "$PQ" encaps --pk k.pk --ct e.ct --ss /dev/stdout --json
  RUN_STDOUT=$T/.pipe_out run 2 "both write to stdout" "$PQ" keygen -a $a --pk - --sk /dev/stdout --format hex
  run 2 "both write to stdout" bash -c "set -o pipefail; '$PQ' keygen -a $a --pk - --sk /dev/fd/1 --format hex | cat"
  check "nothing written for stdout aliases" test ! -e e.ct
  # /dev/stdout to a pipe is written like -, in full.
  "$PQ" encaps --pk k.pk --ct e.ct --ss /dev/stdout --format hex | cat >pipe.ss
  run 0 "" "$PQ" decaps --sk k.sk --ct e.ct --ss - --format hex
  check "/dev/stdout to a pipe: the shared secret, written like -" cmp -s pipe.ss "$OUT"
  rm -f e.ct pipe.ss
  if command -v script >/dev/null; then
    local tty_out=$T/.tty_out
    for p in /dev/tty /dev/stdout /dev/fd/1; do
      script -qec "'$PQ' keygen -a $a --pk tty.pk --sk $p" /dev/null </dev/null >"$tty_out" 2>&1
      rc=$?
      check "raw secret key to $p on a terminal: exit 2 (got $rc)" test "$rc" = 2
      check "raw secret key to $p: refused" grep -q 'refusing to write binary --sk to a terminal' "$tty_out"
      check "raw secret key to $p: no pk written" test ! -e tty.pk
    done
  else
    fail "script(1) (bsdutils) is needed for the terminal tests"
  fi

  # A signal between two renames: both outputs are the new ones, or (before) both the old.
  run 0 "" "$PQ" keygen -a $a --pk s.pk --sk s.sk
  cp s.pk s.pk.old; cp s.sk s.sk.old
  quiet env PQKEM_TEST_HOOK=between-commits:term "$PQH" keygen -a $a --pk s.pk --sk s.sk --force
  rc=$?
  check "SIGTERM between the renames: exit 143 once both are in place (got $rc)" test "$rc" = 143
  check "SIGTERM between the renames: a new pair" test "$(cmp -s s.pk s.pk.old; echo $?)" = 1
  check "SIGTERM between the renames: pk and sk match" pair_matches s.pk s.sk
  cp s.pk s.pk.old; cp s.sk s.sk.old
  quiet env PQKEM_TEST_HOOK=staged:int "$PQH" keygen -a $a --pk s.pk --sk s.sk --force
  rc=$?
  check "SIGINT while staged: exit 130 (got $rc)" test "$rc" = 130
  check "SIGINT while staged: the old pk" cmp -s s.pk s.pk.old
  check "SIGINT while staged: the old sk" cmp -s s.sk s.sk.old
  # encaps: ct and ss of one encapsulation, even with SIGHUP between them.
  quiet env PQKEM_TEST_HOOK=between-commits:hup "$PQH" encaps --pk s.pk --ct s.ct --ss s.ss
  rc=$?
  check "SIGHUP between the renames: exit 129 (got $rc)" test "$rc" = 129
  check "SIGHUP between the renames: ct and ss agree" \
    bash -c "'$PQ' decaps --sk s.sk --ct s.ct --ss - --format hex | cmp -s - <(od -An -v -tx1 s.ss | tr -d ' \n'; echo)"
  rm -f s.ct s.ss

  # A signal ignored on entry (nohup) stays ignored.
  (trap '' HUP; PQKEM_TEST_HOOK=staged:hup,between-commits:hup exec "$PQH" keygen -a $a --pk h.pk --sk h.sk)
  rc=$?
  check "ignored SIGHUP stays ignored: exit 0 (got $rc)" test "$rc" = 0
  check "ignored SIGHUP: both files, a matching pair" pair_matches h.pk h.sk

  # No secret is ever left under a name: a process killed while its outputs are staged leaves
  # no file behind (O_TMPFILE). Needs a file system with O_TMPFILE.
  local fs
  fs=$(stat -f -c %T .)
  case $fs in
    ext2/ext3 | ext4 | tmpfs | xfs | btrfs | f2fs)
      quiet env PQKEM_TEST_HOOK=staged:kill "$PQH" keygen -a $a --pk killed.pk --sk killed.sk
      rc=$?
      check "SIGKILL while staged: killed (got $rc)" test "$rc" = 137
      check "SIGKILL while staged: no file left, named or hidden" test -z "$(find . -maxdepth 1 -name '*killed*')"
      ;;
    *) echo "SKIP: SIGKILL while staged: this file system ($fs) may lack O_TMPFILE" >&2 ;;
  esac

  # A rollback removes only what this process created: another writer's file stays. (The other
  # writer is not pqkem, which would wait for the stopped run's lock on this directory.)
  PQKEM_TEST_HOOK=between-commits:stop "$PQH" keygen -a $a --pk r.pk --sk r.sk 2>"$T/.r_err" &
  pid=$!
  if wait_state "$pid" T; then
    cp k.pk other.pk.keep
    cp k.pk other.pk && mv -f other.pk r.pk && cp k.sk other.sk && mv other.sk r.sk
    kill -CONT "$pid"
  else
    fail "rollback: pqkem_test_hooks did not stop"; kill -KILL "$pid"
  fi
  wait "$pid"
  rc=$?
  check "rollback: exit 1 (got $rc)" test "$rc" = 1
  check "rollback: says why" grep -q 'appeared meanwhile' "$T/.r_err"
  check "rollback: the other writer's pk is still there" cmp -s r.pk other.pk.keep
  check "rollback: the other writer's sk is still there" cmp -s r.sk k.sk
  rm -f r.pk r.sk other.pk.keep

  # Concurrent --force runs to one pair commit one after the other: never a mixed pair.
  run 0 "" "$PQ" keygen -a $a --pk c.pk --sk c.sk
  PQKEM_TEST_HOOK=between-commits:stop "$PQH" keygen -a $a --pk c.pk --sk c.sk --force &
  pid=$!
  if wait_state "$pid" T; then
    PQKEM_TEST_HOOK=lock-busy:stop "$PQH" keygen -a $a --pk c.pk --sk c.sk --force &
    pid2=$!
    wait_state "$pid2" TZX || fail "concurrent --force: the second run neither stopped nor ended"
    kill -CONT "$pid2" 2>/dev/null
    kill -CONT "$pid"
    wait "$pid2"; rc=$?
    check "concurrent --force: the second run succeeds (got $rc)" test "$rc" = 0
  else
    fail "concurrent --force: pqkem_test_hooks did not stop"; kill -KILL "$pid"
  fi
  wait "$pid"; rc=$?
  check "concurrent --force: the first run succeeds (got $rc)" test "$rc" = 0
  check "concurrent --force: pk and sk are one pair" pair_matches c.pk c.sk

  # --force does not follow a symbolic link that another user planted in a sticky directory.
  if [[ $(id -u) -eq 0 ]]; then
    mkdir sticky && chmod 1777 sticky
    echo precious >victim
    ln -s "$d/victim" sticky/planted.ss && chown -h nobody sticky/planted.ss
    run 1 "another user owns" "$PQ" decaps --sk k.sk --ct k.ct --ss sticky/planted.ss --force
    check "planted symlink: the victim is unchanged" test "$(cat victim)" = precious
    # Our own link there is followed as before.
    ln -s "$d/mine.ss" sticky/mine.ss && echo old >mine.ss
    run 0 "" "$PQ" decaps --sk k.sk --ct k.ct --ss sticky/mine.ss --force
    check "own symlink: followed" cmp -s mine.ss k.ss
    rm -rf sticky victim mine.ss
  else
    echo "SKIP: planted symlink: needs root to create a link owned by another user" >&2
  fi
  check "no temporary files left" test -z "$(find "$d" -name '.*pqkem*')"
}
