#!/usr/bin/env bash
# The CLI's promises about files, tried as an adversary would. Each group backs promises of the
# README and docs/files.md (the list there names them):
#
#   fds      closed stdin, stdout or stderr: no output lands in another file's descriptor,
#            a "-" output or --json report on a closed stdout is an error (exit 1), no file
#   signals  every signal whose default action ends the process, sent at each step of the
#            commit: all outputs or none, no hidden copy of a secret left (the test-only hooks
#            of pqkem_test_hooks send them, not timing)
#   paths    symbolic links of other users anywhere on the path, block devices, an output that
#            is the file stdin reads
#   limits   a file-size limit (SIGXFSZ), --help and --version on a full or closed stdout,
#            decimal-only integer options, strict names and environment variables, NTRU
#            key-generation coins that make a broken key
#
#   adversary_test.sh PQKEM_BINARY GROUP     (PQKEM_TEST_HOOKS_BINARY: pqkem_test_hooks)
#
# Needs bash, coreutils and util-linux; the symbolic-link and block-device cases need root
# (to own a link as another user, to mknod) and are skipped, saying so, without it.
PQ=${1:?usage: adversary_test.sh PQKEM_BINARY GROUP}
GROUP=${2:?missing GROUP}

# shellcheck source=cli_lib.sh
source "${BASH_SOURCE[0]%/*}/cli_lib.sh"

PQH=${PQKEM_TEST_HOOKS_BINARY:-}
A=ML-KEM-768
PK_BYTES=1184
SK_BYTES=2400

# quiet CMD...: CMD in a subshell whose stderr is discarded (the shell's "Terminated" notices).
quiet() { ( "$@"; exit $? ) 2>/dev/null; }
# pair_matches PK SK: the public key derived from SK equals PK (both raw).
pair_matches() { "$PQ" pubkey --sk "$2" --pk - --format hex 2>/dev/null | cmp -s - <(to_hex "$1"; echo); }
# hidden DIR: the hidden temporary or backup files of pqkem in DIR, one a line.
hidden() { find "$1" -maxdepth 1 -name '.*pqkem*' -printf '%f\n'; }
# fresh NAME: an empty scratch directory $T/NAME, made the current one.
fresh() { rm -rf "${T:?}/$1" && mkdir -p "$T/$1" && cd "$T/$1"; }

# ---------------------------------------------------------------------------------------------
group_fds() {
  fresh fds || return
  run 0 "" "$PQ" keygen -a $A --pk k.pk --sk k.sk
  run 0 "" "$PQ" encaps --pk k.pk --ct k.ct --ss k.ss
  local before
  before=$(snapshot .)

  # A "-" output on a closed stdout: refused before any work, and nothing reaches a file that
  # would otherwise have been given descriptor 1.
  run 1 "stdout is closed, so --sk cannot be written there" \
    bash -c "exec >&-; exec '$PQ' keygen -a $A --pk pub.hex --sk - --format hex"
  run 1 "stdout is closed, so --ss cannot be written there" \
    bash -c "exec >&-; exec '$PQ' encaps --pk k.pk --ct c.ct --ss -"
  run 1 "stdout is closed, so --ss cannot be written there" \
    bash -c "exec >&-; exec '$PQ' decaps --sk k.sk --ct k.ct --ss /dev/stdout"
  run 1 "stdout is closed, so --pk cannot be written there" \
    bash -c "exec >&-; exec '$PQ' pubkey --sk k.sk --pk -"
  run 1 "stdout is closed, so --out cannot be written there" \
    bash -c "exec >&-; exec '$PQ' convert --in k.pk --out - --format hex"
  # --json prints to stdout: a closed one is an error, with stdin closed too.
  local cmd
  for cmd in "keygen -a $A --pk j.pk --sk j.sk" "encaps --pk k.pk --ct j.ct --ss j.ss" \
             "decaps --sk k.sk --ct k.ct --ss j.ss"; do
    run 1 "the --json report cannot be printed" bash -c "exec >&-; exec '$PQ' $cmd --json"
    run 1 "the --json report cannot be printed" bash -c "exec <&- >&-; exec '$PQ' $cmd --json"
  done
  unchanged . "$before" "closed stdout"

  # A closed stdin: "-" is refused with a message that says so, not read as empty.
  run 1 "stdin is closed" bash -c "exec <&-; exec '$PQ' decaps --sk - --ct k.ct --ss i.ss"
  run 1 "stdin is closed" bash -c "exec <&-; exec '$PQ' keygen -a $A --pk i.pk --sk i.sk --coins @-"
  unchanged . "$before" "closed stdin"

  # A closed stderr: the outputs are exactly the keys, and a failure's message lands nowhere.
  bash -c "exec 2>&-; exec '$PQ' keygen -a $A --pk e.pk --sk e.sk"
  check "closed stderr: keygen succeeds with the usual sizes" \
    test "$(size_of e.pk) $(size_of e.sk)" = "$PK_BYTES $SK_BYTES"
  check "closed stderr: the pair matches" pair_matches e.pk e.sk
  bash -c "exec 2>&-; exec '$PQ' decaps --sk e.sk --ct missing.ct --ss e.ss"
  check "closed stderr: a failure exits 1 and writes no file" test "$?" = 1 -a ! -e e.ss
  bash -c "exec 2>&- <&- >&-; exec '$PQ' keygen -a $A --pk f.pk --sk f.sk"
  check "all three closed: keygen writes a matching pair" pair_matches f.pk f.sk
  check "all three closed: the public key is only the key" test "$(size_of f.pk)" = "$PK_BYTES"

  # Commands that print to stdout fail when it is closed, as when it is full.
  run 1 "cannot write" bash -c "exec >&-; exec '$PQ' list"
  run 1 "cannot write" bash -c "exec >&-; exec '$PQ' info k.pk"
  run 1 "cannot write" bash -c "exec >&-; exec '$PQ' kat -a ML-KEM-512 --count 1"
  check "no temporary files left" test -z "$(hidden .)"
}

# ---------------------------------------------------------------------------------------------
# Every signal whose default action ends the process, by the name the hooks take and bash's
# name for it. PIPE and XFSZ are ignored (their failures are write errors): the run completes.
SIGNALS=(hup:HUP int:INT quit:QUIT term:TERM usr1:USR1 usr2:USR2 alrm:ALRM vtalrm:VTALRM prof:PROF
         xcpu:XCPU poll:IO pwr:PWR stkflt:STKFLT rtmin:RTMIN rtmax:RTMAX pipe:PIPE xfsz:XFSZ)
# A sanitizer build (PQKEM_TEST_SANITIZED) or a cross build under the emulator, where each run
# costs several times as much, sends one signal of each kind the handler tells apart: a plain
# one, one that dumps core by default, a real-time one, and the two it ignores. The normal build
# sends them all.
if [[ -n ${PQKEM_TEST_SANITIZED-} || -n ${PQKEM_TEST_EMULATOR-} ]]; then
  SIGNALS=(term:TERM quit:QUIT rtmin:RTMIN pipe:PIPE xfsz:XFSZ)
fi
# Steps of a --force commit over an existing pair (app/output.cpp): staged comes before the
# commit, the others inside it.
STEPS=(staged linked backed-up between-commits committed)

group_signals() {
  [[ -x $PQH ]] || { fail "PQKEM_TEST_HOOKS_BINARY (pqkem_test_hooks) is not set or not executable"; return; }
  fresh signals || return
  ulimit -c 0  # SIGQUIT and others dump core by default
  local fs
  fs=$(stat -f -c %T .)
  local entry hook name num step rc want tmpfile
  for tmpfile in 1 0; do
    # With O_TMPFILE (where the file system has it) and, through the test hook, with named
    # temporary files as on a file system without it.
    if [[ $tmpfile == 1 ]]; then
      case $fs in
        ext2/ext3 | ext4 | tmpfs | xfs | btrfs | f2fs) ;;
        *) echo "SKIP: signals with O_TMPFILE: this file system ($fs) may lack it" >&2; continue ;;
      esac
    fi
    for entry in "${SIGNALS[@]}"; do
      hook=${entry%%:*}
      name=${entry#*:}
      # qemu-user keeps real-time signals of the host for itself and maps the guest's onto others
      # (SIGRTMIN arrives as SIGRTMIN+2, SIGRTMAX not at all): not something pqkem can see.
      if [[ -n ${PQKEM_TEST_EMULATOR-} && ($name == RTMIN || $name == RTMAX) ]]; then
        [[ $tmpfile == 1 ]] && echo "SKIP: SIG$name under the emulator ($PQKEM_TEST_EMULATOR remaps real-time signals)"
        continue
      fi
      num=$(kill -l "$name") || { fail "bash knows no signal $name"; continue; }
      for step in "${STEPS[@]}"; do
        # Named temporary files are renamed over their targets: no "linked" step.
        [[ $tmpfile == 0 && $step == linked ]] && continue
        rm -f k.* && "$PQ" keygen -a $A --pk k.pk --sk k.sk || return
        cp k.pk old.pk && cp k.sk old.sk
        PQKEM_TEST_NO_TMPFILE=$((1 - tmpfile)) PQKEM_TEST_HOOK=$step:$hook quiet "$PQH" keygen -a $A \
          --pk k.pk --sk k.sk --force
        rc=$?
        local what="SIG$name at $step (O_TMPFILE $tmpfile)"
        if [[ $hook == pipe || $hook == xfsz ]]; then
          want=0
        else
          want=$((128 + num))
        fi
        check "$what: exit $want (got $rc)" test "$rc" = "$want"
        if [[ $step == staged && $want != 0 ]]; then
          check "$what: the old public key" cmp -s k.pk old.pk
          check "$what: the old secret key" cmp -s k.sk old.sk
        else
          check "$what: a new pair" bash -c '! cmp -s k.pk old.pk && ! cmp -s k.sk old.sk'
          check "$what: pk and sk match" pair_matches k.pk k.sk
        fi
        check "$what: no hidden copy left: $(hidden . | tr '\n' ' ')" test -z "$(hidden .)"
        check "$what: modes" test "$(mode_of k.pk) $(mode_of k.sk)" = "644 600"
      done
    done
  done

  # encaps: ct and ss are of one encapsulation, whatever signal comes between them.
  "$PQ" keygen -a $A --pk e.pk --sk e.sk || return
  for entry in quit:QUIT usr1:USR1 alrm:ALRM; do
    hook=${entry%%:*}
    num=$(kill -l "${entry#*:}")
    PQKEM_TEST_HOOK=between-commits:$hook quiet "$PQH" encaps --pk e.pk --ct e.ct --ss e.ss
    rc=$?
    check "encaps, SIG${entry#*:} between the renames: exit $((128 + num)) (got $rc)" test "$rc" = $((128 + num))
    "$PQ" decaps --sk e.sk --ct e.ct --ss e.check 2>/dev/null
    check "encaps, SIG${entry#*:}: ct and ss agree" cmp -s e.ss e.check
    rm -f e.ct e.ss e.check
  done
  check "no temporary files left" test -z "$(hidden .)"
}

# ---------------------------------------------------------------------------------------------
group_paths() {
  fresh paths || return
  run 0 "" "$PQ" keygen -a $A --pk k.pk --sk k.sk
  run 0 "" "$PQ" encaps --pk k.pk --ct k.ct --ss k.ss

  # An output that is the file stdin reads is refused like one that names an input (exit 2).
  cp k.sk keep.sk && cp k.ct keep.ct
  run 2 "would overwrite input --sk (read from stdin)" \
    bash -c "exec '$PQ' decaps --sk - --ct k.ct --ss k.sk --force < k.sk"
  check "stdin's file as output: the secret key is intact" cmp -s k.sk keep.sk
  run 2 "would overwrite input --ct (read from stdin)" \
    bash -c "exec '$PQ' decaps --sk k.sk --ct - --ss k.ct --force < k.ct"
  check "stdin's file as output: the ciphertext is intact" cmp -s k.ct keep.ct
  printf '%0128d' 7 >coins.hex
  cp coins.hex keep.coins
  run 2 "would overwrite input --coins (read from stdin)" \
    bash -c "exec '$PQ' keygen -a $A --pk c.pk --sk coins.hex --force --coins @- < coins.hex"
  check "stdin's file as output: the coins are intact" cmp -s coins.hex keep.coins
  # Through another name (a hard link) too; a pipe on stdin is no file to overwrite.
  ln k.sk link.sk
  run 2 "would overwrite input --sk (read from stdin)" \
    bash -c "exec '$PQ' decaps --sk - --ct k.ct --ss link.sk --force < k.sk"
  run 0 "" bash -c "cat k.sk | exec '$PQ' decaps --sk - --ct k.ct --ss piped.ss"
  check "stdin from a pipe: decapsulates" cmp -s piped.ss k.ss
  rm -f link.sk piped.ss c.pk

  if [[ $(id -u) -ne 0 ]]; then
    echo "SKIP: symbolic links of another user and block devices: need root (chown -h, mknod)" >&2
    check "no temporary files left" test -z "$(hidden .)"
    return
  fi
  # Another user's link anywhere on the path is refused, as fs.protected_symlinks would: in a
  # directory leading to the output, at the end of a chain of links, or as the last component.
  mkdir -m 1777 S && mkdir priv && echo precious >priv/victim.ss
  ln -s "$PWD/priv" S/d && chown -h nobody S/d
  ln -s "$PWD/priv/victim.ss" S/evil && chown -h nobody S/evil
  ln -s S/d via          # our own link, to the foreign one
  ln -s S/evil mine.ss   # our own link, to a foreign link to the victim
  local p
  for p in S/d/victim.ss S/d/new.ss via/victim.ss via/new.ss mine.ss S/evil ./S/../S/d/victim.ss; do
    run 1 "another user owns" "$PQ" encaps --pk k.pk --ct sym.ct --ss "$p" --force
    check "foreign link on the path $p: no ciphertext written" test ! -e sym.ct
  done
  run 1 "another user owns" "$PQ" keygen -a $A --pk sym.pk --sk S/d/victim.ss --force
  check "foreign links: the victim is unchanged" test "$(cat priv/victim.ss)" = precious
  check "foreign links: no file created in priv" test "$(ls -A priv)" = victim.ss
  check "foreign links: no public key written" test ! -e sym.pk
  # Our own links in the sticky directory, and a foreign-owned link whose owner owns the
  # directory, are followed as before.
  ln -s "$PWD/priv" S/ours
  run 0 "" "$PQ" encaps --pk k.pk --ct sym.ct --ss S/ours/ours.ss
  check "own link in a sticky directory: followed" test -s priv/ours.ss
  mkdir -m 1777 N && chown nobody N && ln -s "$PWD/priv" N/d && chown -h nobody N/d
  run 0 "" "$PQ" encaps --pk k.pk --ct sym2.ct --ss N/d/owner.ss
  check "link owned by the directory's owner: followed" test -s priv/owner.ss
  rm -rf S N via mine.ss sym.ct sym2.ct

  # A block device is never written, with or without --force: a loop device over a zeroed
  # file where losetup works (then its content is checked), else a node of an unassigned major.
  local blk="" loop=""
  if truncate -s 64K disk.img && loop=$(losetup -f --show disk.img 2>/dev/null) && [[ -b $loop ]]; then
    blk=$loop
  elif mknod blk b 240 0 2>/dev/null; then
    blk=$PWD/blk
  fi
  if [[ -n $blk ]]; then
    run 1 "output is a block device" "$PQ" encaps --pk k.pk --ct b.ct --ss "$blk"
    run 1 "output is a block device" "$PQ" encaps --pk k.pk --ct b.ct --ss "$blk" --force
    ln -s "$blk" blk.link
    run 1 "output is a block device" "$PQ" keygen -a $A --pk b.pk --sk blk.link --force
    check "block device: no other output written" test ! -e b.ct -a ! -e b.pk
    if [[ -n $loop ]]; then
      check "block device: its content is unchanged" cmp -s -n 65536 "$loop" /dev/zero
      losetup -d "$loop"
    fi
    rm -f blk blk.link
  else
    echo "SKIP: block device: neither losetup nor mknod is allowed here" >&2
  fi
  rm -f disk.img
  # Character devices and FIFOs are still written in place.
  mkfifo fifo
  timeout 30 cat fifo >from.fifo &  # bounded: a failed run would leave it waiting
  run 0 "" "$PQ" decaps --sk k.sk --ct k.ct --ss fifo
  wait
  check "FIFO: written in place" cmp -s from.fifo k.ss
  run 0 "" "$PQ" decaps --sk k.sk --ct k.ct --ss /dev/null
  check "no temporary files left" test -z "$(hidden .)"
}

# ---------------------------------------------------------------------------------------------
group_limits() {
  fresh limits || return
  # A file-size limit: a write error ("File too large", exit 1), not a core dump, and no file.
  local rc
  (ulimit -f 2; exec "$PQ" keygen -a $A --pk k.pk --sk k.sk) 2>"$ERR"
  rc=$?
  check "ulimit -f: exit 1 (got $rc)" test "$rc" = 1
  check "ulimit -f: says why" grep -q '^pqkem: cannot write output: File too large' "$ERR"
  check "ulimit -f: no file left" test -z "$(ls -A)"
  if [[ -x $PQH ]]; then
    (ulimit -f 2; PQKEM_TEST_NO_TMPFILE=1 exec "$PQH" keygen -a $A --pk k.pk --sk k.sk) 2>"$ERR"
    rc=$?
    check "ulimit -f, named temporary files: exit 1 (got $rc)" test "$rc" = 1
    check "ulimit -f, named temporary files: no file left, hidden or not" test -z "$(ls -A)"
  else
    fail "PQKEM_TEST_HOOKS_BINARY (pqkem_test_hooks) is not set or not executable"
  fi
  (ulimit -f 2; exec "$PQ" kat -a ML-KEM-768 --count 2 >kat.rsp) 2>"$ERR"
  rc=$?
  check "ulimit -f, kat to a file: exit 1 (got $rc)" test "$rc" = 1
  check "ulimit -f, kat: says why" grep -q 'File too large' "$ERR"
  rm -f kat.rsp

  # --help and --version report a failed write like every other output.
  local c
  for c in "" keygen encaps decaps pubkey info convert list kat bench; do
    run 1 "cannot write" bash -c "exec '$PQ' $c --help >/dev/full"
    run 1 "cannot write" bash -c "exec >&-; exec '$PQ' $c --help"
  done
  run 1 "cannot write" bash -c "exec '$PQ' --version >/dev/full"
  run 1 "cannot write" bash -c "exec >&-; exec '$PQ' --version"
  run 0 "" "$PQ" --version
  check "--version still prints" grep -q '^pqkem ' "$OUT"

  # Integer options are decimal: no octal, no hex, no sign, no spaces.
  run 0 "" "$PQ" kat -a ML-KEM-512 --count 010
  check "kat --count 010 is ten records" test "$(grep -c '^count = ' "$OUT")" = 10
  local v
  for v in 0x10 0X3 -1 +3 " 3" "3 " 1e1 3.0 "" 99999999999999; do
    run 2 "--count: must be between 1 and" "$PQ" kat -a ML-KEM-512 --count "$v"
    run 2 "--iterations: must be a decimal number from 1 to 10000000" \
      "$PQ" bench -a ML-KEM-512 --iterations "$v"
    run 2 "--rounds: must be a decimal number from 1 to 100" "$PQ" bench -a ML-KEM-512 --rounds "$v"
  done
  run 2 "--rounds: must be a decimal number from 1 to 100" "$PQ" bench -a ML-KEM-512 --rounds 0
  run 2 "--rounds: must be a decimal number from 1 to 100" "$PQ" bench -a ML-KEM-512 --rounds 101
  run 0 "" "$PQ" bench --kernels -a ML-KEM-512 --impl portable --iterations 011 --rounds 03 --json
  check "bench --iterations 011 --rounds 03: decimal 11 and 3 in every row" \
    test "$(grep -c 'rounds=3; iterations=11;' "$OUT")" = "$(grep -c '"name"' "$OUT")" -a -s "$OUT"

  # Names and the environment are read strictly wherever they are read: a trailing space is no
  # algorithm, and list and --version reject a PQKEM_IMPL or PQKEM_NTT_PLAN that keygen would.
  run 2 "unknown algorithm 'ML-KEM-768 '" "$PQ" keygen -a 'ML-KEM-768 ' --pk s.pk --sk s.sk
  run 2 "unknown algorithm ' ML-KEM-768'" "$PQ" kat -a ' ML-KEM-768' --count 1
  check "a name with a space writes nothing" test ! -e s.pk
  run 2 "PQKEM_IMPL must be auto, portable, avx2 or avx512, not 'bogus'" env PQKEM_IMPL=bogus "$PQ" list
  run 2 "PQKEM_IMPL must be auto, portable, avx2 or avx512, not 'bogus'" env PQKEM_IMPL=bogus "$PQ" --version
  run 2 "PQKEM_NTT_PLAN: unknown NTT plan '99'" env PQKEM_NTT_PLAN=99 "$PQ" list --json
  run 2 "PQKEM_NTT_PLAN: unknown NTT plan '99'" env PQKEM_NTT_PLAN=99 "$PQ" --version
  run 0 "" env PQKEM_IMPL=portable PQKEM_NTT_PLAN=3211 "$PQ" list

  # NTRU coins that make a key pqkem itself would reject (f = 0: every sampling byte a multiple
  # of 3) are refused, and no file is written; other constant coins make a valid pair.
  local set n
  # Key-generation coins (docs/files.md): HPS (n-1) + (30(n-1)+7)/8 + 32 bytes, HRSS 2(n-1) + 32.
  declare -A KEYGEN_COINS=([ntruhps2048509]=2445 [ntruhps2048677]=3243 [ntruhps4096821]=3927 [ntruhrss701]=1432)
  for set in "${!KEYGEN_COINS[@]}"; do
    n=${KEYGEN_COINS[$set]}
    head -c "$n" /dev/zero | tr '\0' '\3' >zero-f.coins
    run 1 "" "$PQ" keygen -a "$set" --pk n.pk --sk n.sk --coins @zero-f.coins
    check "$set: zero-f coins: no file written" test ! -e n.pk -a ! -e n.sk
    head -c "$n" /dev/zero | tr '\0' '\2' >two.coins
    run 0 "" "$PQ" keygen -a "$set" --pk n.pk --sk n.sk --coins @two.coins
    run 0 "" "$PQ" info n.sk
    rm -f n.pk n.sk zero-f.coins two.coins
  done
  check "no temporary files left" test -z "$(hidden .)"
}

case $GROUP in
  fds | signals | paths | limits) "group_$GROUP" ;;
  *) echo "unknown group '$GROUP'" >&2; exit 1 ;;
esac

finish "$GROUP"
