# shellcheck shell=bash
# Sourced by cli_test.sh, whose group outputs it defines: `--force`, file modes and all-or-nothing
# outputs. Uses cli_lib.sh's assertions and cli_test.sh's PQ, VEC and key sizes.

# ---------------------------------------------------------------------------------------------
# --force, modes, and all-or-nothing outputs.
group_outputs() {
  local d=$T/out
  mkdir -p "$d" && cd "$d" || return
  local a=ML-KEM-1024 m
  m=$(printf '%064d' 7)
  run 0 "" "$PQ" keygen -a $a --pk pk --sk sk
  run 0 "" "$PQ" encaps --pk pk --ct ct --ss ss --coins "$m"
  cp ct ct.orig; cp ss ss.orig

  # --force replaces, and resets the mode of a secret to 0600 whatever it was.
  echo old >new.ss; chmod 644 new.ss
  run 0 "" "$PQ" decaps --sk sk --ct ct --ss new.ss --force
  check "--force replaced ss" cmp -s new.ss ss
  check "--force: replaced secret has mode 0600" test "$(mode_of new.ss)" = 600
  # --force into a symlink replaces the target and keeps the link.
  echo old >target.ss; ln -s target.ss link.ss
  run 0 "" "$PQ" decaps --sk sk --ct ct --ss link.ss --force
  check "symlink kept" test -L link.ss
  check "symlink target replaced" cmp -s target.ss ss
  # Deterministic encaps with --force gives the same bytes again.
  run 0 "" "$PQ" encaps --pk pk --ct ct --ss ss --coins "$m" --force
  check "--force re-encaps identical ct" cmp -s ct ct.orig
  check "--force re-encaps identical ss" cmp -s ss ss.orig
  # Modes under a restrictive and a permissive umask.
  (umask 077 && "$PQ" keygen -a $a --pk pk.077 --sk sk.077) || fail "keygen umask 077"
  check "umask 077: pk 600" test "$(mode_of pk.077)" = 600
  (umask 000 && "$PQ" keygen -a $a --pk pk.000 --sk sk.000) || fail "keygen umask 000"
  check "umask 000: pk 666, sk still 600" test "$(mode_of pk.000)$(mode_of sk.000)" = 666600
  # Hex to stdout and one file: both.
  run 0 "" "$PQ" encaps --pk pk --ct ct.x --ss - --format hex --coins "$m"
  check "ss to stdout equals file ss" test "$(cat "$OUT")" = "$(to_hex ss)"
  check "ct.x written, in hex" test "$(cat ct.x)" = "$(to_hex ct)"
  # encaps writes both or neither: ct exists (no --force) -> ss not created, ct unchanged.
  local before
  before=$(snapshot "$d")
  run 1 "already exists" "$PQ" encaps --pk pk --ct ct --ss fresh.ss
  unchanged "$d" "$before" "encaps: existing ct, new ss"
  check "encaps both-or-neither: no fresh.ss" test ! -e fresh.ss
  run 1 "already exists" "$PQ" encaps --pk pk --ct fresh.ct --ss ss
  check "encaps both-or-neither: no fresh.ct" test ! -e fresh.ct
  run 1 "already exists" "$PQ" keygen -a $a --pk fresh.pk --sk sk
  check "keygen both-or-neither: no fresh.pk" test ! -e fresh.pk
  unchanged "$d" "$before" "existing outputs"
  # Durability costs one fsync per file and one per directory, not one per file and directory:
  # two outputs in one directory take three fsyncs, in two directories four (strace counts them).
  if command -v strace >/dev/null; then
    mkdir -p sync.sub
    traced -e trace=fsync -o sync.log "$PQ" keygen -a $a --pk sync.pk --sk sync.sk || fail "keygen under strace"
    check "one directory: 3 fsyncs ($(grep -c 'fsync(' sync.log))" test "$(grep -c 'fsync(' sync.log)" = 3
    traced -e trace=fsync -o sync.log "$PQ" keygen -a $a --pk sync.sub/pk --sk sync.sk2 || fail "keygen under strace"
    check "two directories: 4 fsyncs ($(grep -c 'fsync(' sync.log))" test "$(grep -c 'fsync(' sync.log)" = 4
    rm -rf sync.sub sync.pk sync.sk sync.sk2 sync.log
  else
    fail "strace is missing (scripts/deps.sh installs it): cannot count fsync calls"
  fi
  # Relative paths without a directory part, and paths with spaces.
  mkdir "with space"
  run 0 "" "$PQ" keygen -a $a --pk "with space/p k" --sk "with space/s k"
  check "path with spaces" test "$(ls -A "with space" | tr '\n' '|')" = "p k|s k|"
  # A signal while outputs are staged leaves no temporary file. A FIFO output with no reader
  # blocks the command after the secret key's temporary file is complete: an unnamed O_TMPFILE
  # file (shown in /proc/PID/fd as "DIR/#INODE (deleted)"), or where the file system lacks
  # O_TMPFILE a hidden named one that the signal handler removes.
  mkfifo fifo.ss
  "$PQ" keygen -a $a --pk fifo.ss --sk sig.sk 2>/dev/null &
  local pid=$! i rc staged=""
  for i in $(seq 200); do
    staged=$(find . -maxdepth 1 -name '.sig.sk.pqkem-*')
    [[ -z $staged ]] && staged=$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -F "$d/#" | grep -F '(deleted)')
    [[ -n $staged ]] && break
    sleep 0.05
  done
  check "signal: secret key staged while the FIFO blocks" test -n "$staged"
  kill -TERM "$pid"
  wait "$pid"
  rc=$?
  check "signal: killed by SIGTERM (exit $rc)" test "$rc" = 143
  check "signal: no temporary file left" test -z "$(find . -maxdepth 1 -name '.sig.sk.pqkem-*')"
  check "signal: no secret key" test ! -e sig.sk
  rm -f fifo.ss
  # No temporary file is left anywhere after all this.
  check "no temporary files left" test -z "$(find "$d" -name '.*pqkem*')"
}
