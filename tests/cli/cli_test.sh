#!/usr/bin/env bash
# CLI tests for pqkem: run the built binary and check exit codes, stderr, output bytes, files
# left behind (none on failure, not even temporary files) and file modes.
#
#   cli_test.sh PQKEM_BINARY VECTORS_DIR GROUP
#
# GROUP: help roundtrip stdio vectors kat usage failures outputs engine keyfile hostile (or "all").
# The hostile group also needs PQKEM_TEST_HOOKS_BINARY: the pqkem_test_hooks binary.
# Needs bash, coreutils, grep, sed, awk, find and (for the terminal test) script(1) from
# bsdutils, all present on Debian 12, and strace (scripts/deps.sh) to count fsync calls. No
# python3, no jq.
PQ=${1:?usage: cli_test.sh PQKEM_BINARY VECTORS_DIR GROUP}
VEC=${2:?missing VECTORS_DIR}
GROUP=${3:-all}

# shellcheck source=cli_lib.sh
source "${BASH_SOURCE[0]%/*}/cli_lib.sh"

# Sizes from FIPS 203 (independent of the binary under test).
declare -A PK=([ML-KEM-512]=800 [ML-KEM-768]=1184 [ML-KEM-1024]=1568)
declare -A SK=([ML-KEM-512]=1632 [ML-KEM-768]=2400 [ML-KEM-1024]=3168)
declare -A CT=([ML-KEM-512]=768 [ML-KEM-768]=1088 [ML-KEM-1024]=1568)
ALGS=(ML-KEM-512 ML-KEM-768 ML-KEM-1024)
# NTRU round 3 (sizes from the submission's api.h files).
PK+=([ntruhps2048509]=699 [ntruhps2048677]=930 [ntruhps4096821]=1230 [ntruhrss701]=1138)
SK+=([ntruhps2048509]=935 [ntruhps2048677]=1234 [ntruhps4096821]=1590 [ntruhrss701]=1450)
CT+=([ntruhps2048509]=699 [ntruhps2048677]=930 [ntruhps4096821]=1230 [ntruhrss701]=1138)
NTRU_ALGS=(ntruhps2048509 ntruhps2048677 ntruhps4096821 ntruhrss701)

# ---------------------------------------------------------------------------------------------
group_help() {
  run 0 "" "$PQ" --help && check "--help lists the commands" grep -q 'keygen' "$OUT"
  for cmd in keygen encaps decaps pubkey info convert list kat; do
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

# ---------------------------------------------------------------------------------------------
# acvp_first_tcid FILE PARAMETER_SET [FUNCTION]: tcId of the first test of that group.
acvp_first_tcid() {
  awk -v ps="$2" -v fn="${3:-}" '
    function val(s) { sub(/^[^:]*: *"/, "", s); sub(/".*$/, "", s); return s }
    /"parameterSet":/ { cur_ps = val($0); cur_fn = ""; next }
    /"function":/ { cur_fn = val($0); next }
    /"tcId":/ { if (cur_ps == ps && (fn == "" || cur_fn == fn)) { x = $0; gsub(/[^0-9]/, "", x); print x; exit } }
  ' "$1"
}

# acvp_field FILE TCID FIELD: the string value of FIELD in test TCID.
acvp_field() {
  awk -v t="$2" -v f="\"$3\":" '
    /"tcId":/ { x = $0; gsub(/[^0-9]/, "", x); tc = x; next }
    tc == t && index($0, f) { s = $0; sub(/^[^:]*: *"/, "", s); sub(/".*$/, "", s); print s; exit }
  ' "$1"
}

# need VALUE DESC: VALUE must be non-empty hex (else the vector files are not what we expect).
need() {
  if [[ ! $1 =~ ^[0-9A-Fa-f]+$ ]]; then
    fail "could not extract $2 from the ACVP files"
    return 1
  fi
}

group_vectors() {
  local kg=$VEC/mlkem/acvp/ML-KEM-keyGen-FIPS203 ed=$VEC/mlkem/acvp/ML-KEM-encapDecap-FIPS203
  local f
  for f in "$kg/prompt.json" "$kg/expectedResults.json" "$ed/prompt.json" "$ed/expectedResults.json"; do
    if [[ ! -r $f ]]; then
      echo "FATAL: test vector file $f is missing; set -DPQKEM_VECTORS_DIR=/path/to/shared/vectors" >&2
      exit 1
    fi
  done
  local d=$T/vec
  mkdir -p "$d" && cd "$d" || return
  local a id dd z ek dk m c k
  for a in "${ALGS[@]}"; do
    # keyGen: (d, z) -> (ek, dk), with --coins d||z, in both output formats.
    id=$(acvp_first_tcid "$kg/prompt.json" "$a")
    dd=$(acvp_field "$kg/prompt.json" "$id" d); z=$(acvp_field "$kg/prompt.json" "$id" z)
    ek=$(acvp_field "$kg/expectedResults.json" "$id" ek); dk=$(acvp_field "$kg/expectedResults.json" "$id" dk)
    need "$dd$z" "$a keyGen d,z (tcId $id)" && need "$ek" "$a keyGen ek" && need "$dk" "$a keyGen dk" || continue
    run 0 "" "$PQ" keygen -a "$a" --coins "$dd$z" --pk kg.pk --sk kg.sk --format hex
    check "$a keyGen tcId $id: ek (hex)" test "$(cat kg.pk)" = "$(echo "$ek" | lower)"
    check "$a keyGen tcId $id: dk (hex)" test "$(cat kg.sk)" = "$(echo "$dk" | lower)"
    echo "$dd$z" >coins.hex
    run 0 "" "$PQ" keygen -a "$a" --coins @coins.hex --pk kg.pk.bin --sk kg.sk.bin
    check "$a keyGen tcId $id: ek (bin, @FILE coins)" test "$(to_hex kg.pk.bin)" = "$(echo "$ek" | lower)"
    check "$a keyGen tcId $id: dk (bin, @FILE coins)" test "$(to_hex kg.sk.bin)" = "$(echo "$dk" | lower)"
    # The 64-byte seed d||z works as a secret key (with -a), and decapsulates like dk.
    run 0 "" "$PQ" encaps --pk kg.pk --ct kg.ct --ss kg.ss --format hex
    run 0 "" "$PQ" decaps -a "$a" --sk coins.hex --ct kg.ct --ss kg.ss.seed --format hex
    check "$a: seed d||z as secret key" cmp -s kg.ss kg.ss.seed
    rm -f kg.* coins.hex

    # encapsulation: (ek, m) -> (c, k), with --coins m.
    id=$(acvp_first_tcid "$ed/prompt.json" "$a" encapsulation)
    ek=$(acvp_field "$ed/prompt.json" "$id" ek); m=$(acvp_field "$ed/prompt.json" "$id" m)
    c=$(acvp_field "$ed/expectedResults.json" "$id" c); k=$(acvp_field "$ed/expectedResults.json" "$id" k)
    need "$ek" "$a encaps ek (tcId $id)" && need "$m" "$a encaps m" && need "$c" "$a encaps c" && need "$k" "$a encaps k" || continue
    echo "$ek" >ek.hex
    run 0 "" "$PQ" encaps --pk ek.hex --coins "$m" --ct c.hex --ss k.hex --format hex
    check "$a encaps tcId $id: c" test "$(cat c.hex)" = "$(echo "$c" | lower)"
    check "$a encaps tcId $id: k" test "$(cat k.hex)" = "$(echo "$k" | lower)"
    run 0 "" "$PQ" encaps -a "$a" --pk ek.hex --coins "$(echo "$m" | lower)" --ct c.bin --ss k.bin
    check "$a encaps tcId $id: c (bin, -a, lower-case coins)" test "$(to_hex c.bin)" = "$(echo "$c" | lower)"
    check "$a encaps tcId $id: k (bin)" test "$(to_hex k.bin)" = "$(echo "$k" | lower)"
    rm -f ek.hex c.hex k.hex c.bin k.bin

    # decapsulation: (dk, c) -> k (half of the group are modified ciphertexts: implicit rejection).
    id=$(acvp_first_tcid "$ed/prompt.json" "$a" decapsulation)
    local n
    for n in 0 1; do
      dk=$(acvp_field "$ed/prompt.json" $((id + n)) dk); c=$(acvp_field "$ed/prompt.json" $((id + n)) c)
      k=$(acvp_field "$ed/expectedResults.json" $((id + n)) k)
      need "$dk" "$a decaps dk (tcId $((id + n)))" && need "$c" "$a decaps c" && need "$k" "$a decaps k" || continue
      echo "$dk" >dk.hex; echo "$c" >c.hex
      run 0 "" "$PQ" decaps --sk dk.hex --ct c.hex --ss k.hex --format hex
      check "$a decaps tcId $((id + n)): k" test "$(cat k.hex)" = "$(echo "$k" | lower)"
      rm -f dk.hex c.hex k.hex
    done
  done
}

# ---------------------------------------------------------------------------------------------
group_kat() {
  declare -A H=(
    [ML-KEM-512]=c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782
    [ML-KEM-768]=5352539586b6c3df58be6158a6250aeff402bd73060b0a3de68850ac074c17c3
    [ML-KEM-1024]=f580d851e5fb27e6876e5e203fa18be4cdbfd49e05d48fec3d3992c8f43a13e6
  )
  local a got
  for a in "${ALGS[@]}"; do
    run 0 "" "$PQ" kat -a "$a" --count 1 || continue
    # The published hash covers the first record: from "count = 0" through the "ss = " line
    # and its newline (not the "# name" header, not the blank line after the record).
    check "$a kat: header line" test "$(head -n1 "$OUT")" = "# $a"
    check "$a kat: 9 lines (header, blank, 6 fields, blank)" test "$(wc -l <"$OUT")" = 9
    check "$a kat: line 2 and 9 blank" test -z "$(sed -n '2p;9p' "$OUT")"
    check "$a kat: fields in order" test "$(sed -n '3,8p' "$OUT" | cut -d' ' -f1 | tr '\n' ' ')" = "count seed pk sk ct ss "
    got=$(sed -n '3,8p' "$OUT" | sha256sum | cut -d' ' -f1)
    check "$a kat: SHA-256 of the first record ($got)" test "$got" = "${H[$a]}"
  done
  run 0 "" "$PQ" kat -a mlkem768
  check "kat default count is 100" test "$(grep -c '^count = ' "$OUT")" = 100
  check "kat last record is 99" grep -qx 'count = 99' "$OUT"
  got=$(sed -n '/^count = 0$/,/^ss = /p' "$OUT" | sha256sum | cut -d' ' -f1)
  check "kat default: first record hash" test "$got" = "${H[ML-KEM-768]}"
  # --count is 1..10000 (100 times NIST's 100 records); anything else is one usage error.
  local c
  for c in 0 -1 -3 10001 99999999999 abc; do
    run 2 "--count: must be between 1 and 10000 (NIST's files have 100)" "$PQ" kat -a ML-KEM-768 --count "$c"
  done
  run 0 "" "$PQ" kat -a ML-KEM-768 --count 2
  check "kat --count 2: two records" test "$(grep -c '^count = ' "$OUT")" = 2
  check "kat --count 2: the default file's first two records" \
    cmp -s "$OUT" <("$PQ" kat -a ML-KEM-768 | sed -n '1,/^count = 2$/p' | sed '$d')
  kat_streams "${H[ML-KEM-1024]}"
  run 2 "unknown algorithm" "$PQ" kat -a kyber768
  run 2 "" "$PQ" kat
}

# kat_streams: `pqkem kat --count 10000` (the largest count) runs in a small, fixed amount of
# memory, because each record is written as soon as it is computed: under a 64 MiB address-space
# limit it writes all 10000 ML-KEM-1024 records (128 MB of text, about a second in a Release
# build). Holding the text in memory first needs about 380 MB (the string's last doubling) and
# fails with "out of memory". $1: the SHA-256 of NIST's first ML-KEM-1024 record.
kat_streams() {
  local first_sha256=$1
  # ASan and UBSan builds reserve terabytes of address space at start-up: no limit fits them.
  if grep -qaF __asan_init "$PQ"; then
    echo "SKIP: kat streaming check under ulimit -v (sanitizer build: ASan reserves terabytes of address space)"
    return
  fi
  local a=ML-KEM-1024 n=10000 rc stats
  : >"$T/kat-first-record"
  stats=$( (ulimit -v 65536 && exec "$PQ" kat -a "$a" --count "$n" 2>"$ERR") |
    awk -v first="$T/kat-first-record" '
      { bytes += length($0) + 1 }
      /^count = / { records++; last = $0 }
      NR >= 3 && NR <= 8 { print > first }
      END { print bytes, records, last }'
    echo "rc=${PIPESTATUS[0]}")
  # Independent of the binary: "# name\n\n", then per record "count = i\n", a seed line of 96
  # hex digits, pk, sk, ct and ss lines of the FIPS 203 sizes, and a blank line.
  local fixed=$((7 + 96 + 1 + 4 * (5 + 1) + 2 * (PK[$a] + SK[$a] + CT[$a] + 32) + 1))
  # "count = i\n" is 9 bytes and the digits of i; 0..n-1 have 1 + sum(n - 10^k, 10^k <= n) digits.
  local digits=1 p
  for ((p = 1; p <= n; p *= 10)); do digits=$((digits + n - p)); done
  local want_bytes=$((${#a} + 4 + n * (9 + fixed) + digits))
  rc=${stats##*rc=}
  check "kat --count $n under ulimit -v 64 MiB: exit 0 ($rc), no stderr ($(head -c 200 "$ERR"))" \
    test "$rc" = 0 -a ! -s "$ERR"
  check "kat --count $n under ulimit -v: $want_bytes bytes, $n records, the last 'count = $((n - 1))' (got ${stats%%$'\n'*})" \
    test "${stats%%$'\n'*}" = "$want_bytes $n count = $((n - 1))"
  check "kat --count $n under ulimit -v: NIST's first record" \
    test "$(sha256sum <"$T/kat-first-record" | cut -d' ' -f1)" = "$first_sha256"
}

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

# ---------------------------------------------------------------------------------------------
# --impl, --ntt-plan and their environment variables.
group_engine() {
  local d=$T/engine
  mkdir -p "$d" && cd "$d" || return
  local coins
  coins=$(printf '%02x' $(seq 0 63) | tr -d '\n')
  run 0 "" "$PQ" keygen -a ML-KEM-768 --coins "$coins" --pk pk.default --sk sk.default || return
  # Every NTT plan gives the same bytes (a few shapes here; the unit tests cover all 44).
  for plan in 1111111 3211 331 133 2221 1123 11212/22111 331/1111111; do
    run 0 "" "$PQ" keygen -a ML-KEM-768 --coins "$coins" --pk "pk.${plan/\//-}" --sk "sk.${plan/\//-}" --ntt-plan "$plan" &&
      check "plan $plan: same key pair as the default" bash -c "cmp -s pk.default pk.${plan/\//-} && cmp -s sk.default sk.${plan/\//-}"
    run 0 "" env PQKEM_NTT_PLAN="$plan" "$PQ" encaps --pk pk.default --coins "${coins:0:64}" --ct "ct.${plan/\//-}" --ss "ss.${plan/\//-}"
  done
  for plan in 3211 331 133 2221 1123 11212-22111 331-1111111; do
    check "PQKEM_NTT_PLAN=$plan: same encapsulation" bash -c "cmp -s ct.1111111 ct.$plan && cmp -s ss.1111111 ss.$plan"
  done
  run 0 "" "$PQ" decaps --sk sk.default --ct ct.3211 --ss ss.dec --ntt-plan 3211 &&
    check "decaps under plan 3211 recovers the secret" cmp -s ss.dec ss.1111111
  run 0 "" "$PQ" kat -a ML-KEM-512 --count 1 --ntt-plan 2122 &&
    check "kat under plan 2122 keeps the published first record" \
      test "$(sed -n '3,8p' "$OUT" | sha256sum | cut -d' ' -f1)" = c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782

  local before
  before=$(snapshot "$d")
  run 2 "unknown NTT plan '44'; give a plan or FORWARD/INVERSE, the plans being: 1111111 " "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2 --ntt-plan 44
  run 2 "PQKEM_NTT_PLAN: unknown NTT plan 'fast'" env PQKEM_NTT_PLAN=fast "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2
  run 2 "unknown NTT plan '3211/'" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2 --ntt-plan 3211/
  run 2 "--impl must be auto, portable, avx2 or avx512, not 'sse4'" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2 --impl sse4
  run 2 "PQKEM_IMPL must be auto, portable, avx2 or avx512" env PQKEM_IMPL=neon "$PQ" decaps --sk sk.default --ct ct.3211 --ss s2
  unchanged "$d" "$before" "engine usage errors"
  # portable and auto always work and agree.
  run 0 "" "$PQ" keygen -a ML-KEM-768 --coins "$coins" --pk pk.portable --sk sk.portable --impl portable &&
    check "--impl portable: same key pair" cmp -s pk.default pk.portable
  run 0 "" env PQKEM_IMPL=auto "$PQ" keygen -a ML-KEM-768 --coins "$coins" --pk pk.auto --sk sk.auto &&
    check "PQKEM_IMPL=auto: same key pair" cmp -s pk.default pk.auto
  # avx2 and avx512: each works and agrees where 'pqkem list' says it is usable; otherwise a
  # failure (exit 1) that says why, and nothing is written.
  local impl
  for impl in avx2 avx512; do
    if "$PQ" list | grep -Eq "^implementations usable on this CPU: (.*, )?$impl(,|\$)"; then
      run 0 "" "$PQ" keygen -a ML-KEM-768 --coins "$coins" --pk pk.$impl --sk sk.$impl --impl $impl &&
        check "--impl $impl: same key pair" bash -c "cmp -s pk.default pk.$impl && cmp -s sk.default sk.$impl"
      run 0 "" "$PQ" decaps --sk sk.default --ct ct.3211 --ss ss.$impl --impl $impl &&
        check "--impl $impl: decaps recovers the secret" cmp -s ss.$impl ss.1111111
    else
      run 1 "--impl $impl: not usable here" "$PQ" keygen -a ML-KEM-768 --pk pk.$impl --sk sk.$impl --impl $impl
      check "--impl $impl refused: no file" test ! -e pk.$impl -a ! -e sk.$impl
    fi
  done

  # The random source: --rng, else PQKEM_RNG (empty counts as unset), else system; both sources
  # round-trip, and list and --version name the one in use.
  run 0 "" env PQKEM_RNG=openssl "$PQ" keygen -a ML-KEM-768 --pk pk.ossl --sk sk.ossl &&
    run 0 "" "$PQ" encaps --pk pk.ossl --ct ct.ossl --ss ss.ossl --rng openssl &&
    run 0 "" "$PQ" decaps --sk sk.ossl --ct ct.ossl --ss ss.ossl.dec &&
    check "openssl source: round trip" cmp -s ss.ossl ss.ossl.dec
  run 0 "" "$PQ" keygen -a ntruhps2048509 --pk pk.ntru --sk sk.ntru --rng OpenSSL &&
    run 0 "" env PQKEM_RNG=OPENSSL "$PQ" encaps --pk pk.ntru --ct ct.ntru --ss ss.ntru &&
    run 0 "" "$PQ" decaps --sk sk.ntru --ct ct.ntru --ss ss.ntru.dec &&
    check "openssl source: NTRU round trip" cmp -s ss.ntru ss.ntru.dec
  run 0 "" env PQKEM_RNG=bogus "$PQ" keygen -a ML-KEM-768 --pk pk.sys --sk sk.sys --rng system &&
    check "--rng wins over PQKEM_RNG; fresh keys differ" bash -c '! cmp -s pk.sys pk.ossl'
  run 0 "" env PQKEM_RNG= "$PQ" encaps --pk pk.sys --ct ct.sys --ss ss.sys &&
    run 0 "" env PQKEM_RNG=bogus "$PQ" decaps --sk sk.sys --ct ct.sys --ss ss.sys.dec &&
    check "empty PQKEM_RNG is unset; decaps ignores PQKEM_RNG" cmp -s ss.sys ss.sys.dec
  before=$(snapshot "$d")
  run 2 "--rng must be system or openssl, not 'bogus'" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2 --rng bogus
  run 2 "--rng must be system or openssl, not ''" "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2 --rng ""
  run 2 "PQKEM_RNG must be system or openssl, not 'bogus'" env PQKEM_RNG=bogus "$PQ" keygen -a ML-KEM-768 --pk p2 --sk s2
  run 2 "PQKEM_RNG must be system or openssl, not 'urandom'" env PQKEM_RNG=urandom "$PQ" encaps --pk pk.sys --ct c2 --ss s2
  run 2 "--rng must be system or openssl, not 'bogus'" "$PQ" encaps --pk pk.sys --ct c2 --ss s2 --rng bogus --coins "${coins:0:64}"
  run 2 "PQKEM_RNG must be system or openssl, not 'bogus'" env PQKEM_RNG=bogus "$PQ" list
  run 2 "PQKEM_RNG must be system or openssl, not 'bogus'" env PQKEM_RNG=bogus "$PQ" --version
  unchanged "$d" "$before" "random source usage errors"
  run 0 "" "$PQ" --version && check "--version names the default random source" grep -qx 'random bytes: getrandom(2) (system)' "$OUT"
  run 0 "" env PQKEM_RNG=openssl "$PQ" --version &&
    check "--version names PQKEM_RNG's source" grep -qx 'random bytes: OpenSSL RAND_bytes (openssl)' "$OUT"
  run 0 "" "$PQ" list && check "list names the default random source" grep -qx 'random bytes: getrandom(2) (system)' "$OUT"
  run 0 "" env PQKEM_RNG=openssl "$PQ" list &&
    check "list names PQKEM_RNG's source" grep -qx 'random bytes: OpenSSL RAND_bytes (openssl)' "$OUT"
  run 0 "" "$PQ" list --json &&
    check "list --json names the random source" grep -qF '"random_source": {"name": "system", "description": "getrandom(2)"}' "$OUT"
  run 0 "" env PQKEM_RNG=openssl "$PQ" list --json &&
    check "list --json names PQKEM_RNG's source" grep -qF '"random_source": {"name": "openssl", "description": "OpenSSL RAND_bytes"}' "$OUT"

  # Without --rng openssl no command of a key exchange initializes OpenSSL (its provider setup
  # cost about 7 M instructions per call). OpenSSL's initialization opens its configuration file,
  # so strace shows it: OPENSSL_CONF names a file that does not exist, whose name is unique.
  if command -v strace >/dev/null; then
    local cnf=$d/no-such-openssl.cnf fmt rc
    # no_openssl DESC CMD...: CMD exits 0 and never opens OpenSSL's configuration.
    no_openssl() {
      local desc=$1
      shift
      OPENSSL_CONF=$cnf traced -e trace=openat,open -o strace.log "$@" >/dev/null 2>&1
      rc=$?
      if [[ $rc -ne 0 ]]; then
        fail "$desc: exit $rc: $*"
      elif grep -qF "$cnf" strace.log; then
        fail "$desc initialized OpenSSL: $*"
      else
        ok
      fi
    }
    OPENSSL_CONF=$cnf traced -e trace=openat,open -o strace.log \
      "$PQ" keygen -a ML-KEM-768 --pk ctl.pk --sk ctl.sk --rng openssl >/dev/null 2>&1
    check "control: keygen --rng openssl reads OpenSSL's configuration" grep -qF "$cnf" strace.log
    for fmt in bin hex pem der; do
      no_openssl "keygen --format $fmt" "$PQ" keygen -a ML-KEM-768 --pk "c.$fmt.pk" --sk "c.$fmt.sk" --format $fmt
      no_openssl "encaps ($fmt key)" "$PQ" encaps --pk "c.$fmt.pk" --ct "c.$fmt.ct" --ss "c.$fmt.ss"
      no_openssl "decaps ($fmt key)" "$PQ" decaps --sk "c.$fmt.sk" --ct "c.$fmt.ct" --ss "c.$fmt.ss2"
      check "$fmt: round trip under strace" cmp -s "c.$fmt.ss" "c.$fmt.ss2"
      no_openssl "pubkey ($fmt key)" "$PQ" pubkey --sk "c.$fmt.sk" --pk "c.$fmt.pk2"
      no_openssl "convert ($fmt key)" "$PQ" convert --in "c.$fmt.sk" --out "c.$fmt.conv" --format hex
      no_openssl "info ($fmt public key)" "$PQ" info "c.$fmt.pk"
      no_openssl "info --json ($fmt secret key)" "$PQ" info --json "c.$fmt.sk"
      no_openssl "encaps --json ($fmt key)" "$PQ" encaps --pk "c.$fmt.pk" --ct "c.$fmt.ct3" --ss "c.$fmt.ss3" --json
    done
    no_openssl "NTRU keygen" "$PQ" keygen -a ntruhps2048509 --pk c.ntru.pk --sk c.ntru.sk
    no_openssl "NTRU encaps" "$PQ" encaps --pk c.ntru.pk --ct c.ntru.ct --ss c.ntru.ss
    no_openssl "NTRU decaps --json" "$PQ" decaps --sk c.ntru.sk --ct c.ntru.ct --ss c.ntru.ss2 --json
    rm -f strace.log
  else
    fail "strace is missing (scripts/deps.sh installs it): cannot check that OpenSSL stays uninitialized"
  fi
}

# ---------------------------------------------------------------------------------------------
# RFC 9935 key files (PEM/DER, OpenSSL 3.5 compatible), pubkey, convert and info.
group_keyfile() {
  local R=$VEC/formats/rfc9935 O=$VEC/formats/openssl-3.5.3 f
  for f in "$R/ML-KEM-512.pub" "$R/ML-KEM-768.pub" "$R/bad-ML-KEM-512-1.priv" "$R/bad-ML-KEM-512-2.priv" \
    "$O/mlkem768-pub.der" "$O/mlkem512-pub.der" "$O/mlkem512-seed.der"; do
    if [[ ! -r $f ]]; then
      echo "FATAL: test vector file $f is missing; set -DPQKEM_VECTORS_DIR=/path/to/shared/vectors" >&2
      exit 1
    fi
  done
  local d=$T/keyfile
  mkdir -p "$d" && cd "$d" || return
  local seed a form fmt
  seed=$(printf '%02x' $(seq 0 63) | tr -d '\n')
  # pem_body FILE: the DER inside a PEM file (coreutils base64).
  pem_body() { sed '1d;$d' "$1" | base64 -d; }

  # 1. The RFC 9935 examples, byte for byte: seed form (the default), expanded and both, PEM and DER.
  for a in ML-KEM-512 ML-KEM-768; do
    run 0 "" "$PQ" keygen -a $a --coins "$seed" --pk $a.pub --sk $a-seed.priv --format pem || continue
    check "$a: public key PEM equals the RFC file" cmp -s $a.pub "$R/$a.pub"
    check "$a: seed-form PEM (default) equals the RFC file" cmp -s $a-seed.priv "$R/$a-seed.priv"
    check "$a: PEM secret key mode 0600, public 0644" test "$(mode_of $a-seed.priv)$(mode_of $a.pub)" = 600644
    for form in seed expanded both; do
      run 0 "" "$PQ" keygen -a $a --coins "$seed" --pk p.pem --sk s.pem --format pem --sk-form $form --force &&
        check "$a: --sk-form $form equals the RFC file" cmp -s s.pem "$R/$a-$form.priv"
      run 0 "" "$PQ" keygen -a $a --coins "$seed" --pk p.der --sk s.der --format der --sk-form $form --force &&
        check "$a: --format der --sk-form $form is the RFC file's DER" cmp -s s.der <(pem_body "$R/$a-$form.priv")
      check "$a: public key DER" cmp -s p.der <(pem_body "$R/$a.pub")
      # Every form of the RFC files decapsulates like the raw key.
      run 0 "" "$PQ" encaps --pk "$R/$a.pub" --ct c.$form --ss ss.enc.$form &&
        run 0 "" "$PQ" decaps --sk "$R/$a-$form.priv" --ct c.$form --ss ss.dec.$form &&
        check "$a: RFC $form key decapsulates" cmp -s ss.enc.$form ss.dec.$form
    done
    rm -f p.pem s.pem p.der s.der c.* ss.*
  done

  # 2. Files written by OpenSSL 3.5.3: every form, PEM and DER, yields the right key.
  for form in seed expanded both; do
    for fmt in pem der; do
      run 0 "" "$PQ" pubkey --sk "$O/mlkem768-$form.$fmt" --pk pub.der --format der --force &&
        check "OpenSSL mlkem768-$form.$fmt: derived public key equals mlkem768-pub.der" cmp -s pub.der "$O/mlkem768-pub.der"
      run 0 "" "$PQ" pubkey --sk "$O/mlkem768-$form.$fmt" --pk pub.$fmt --force &&
        check "OpenSSL mlkem768-$form.$fmt: pubkey keeps the input format ($fmt)" cmp -s pub.$fmt "$O/mlkem768-pub.$fmt"
      run 0 "" "$PQ" convert --in "$O/mlkem768-$form.$fmt" --out conv.$fmt --format $fmt --sk-form $form --force &&
        check "OpenSSL mlkem768-$form.$fmt: pqkem re-writes it byte for byte" cmp -s conv.$fmt "$O/mlkem768-$form.$fmt"
    done
  done
  run 0 "" "$PQ" encaps --pk "$O/mlkem768-pub.pem" --ct o.ct --ss o.ss1
  for form in seed expanded both; do
    run 0 "" "$PQ" decaps --sk "$O/mlkem768-$form.der" --ct o.ct --ss o.ss.$form && check "OpenSSL $form key decapsulates" cmp -s o.ss1 o.ss.$form
  done
  run 0 "" "$PQ" pubkey --sk "$O/mlkem512-seed.der" --pk pub512.der && check "OpenSSL mlkem512-seed.der -> mlkem512-pub.der" cmp -s pub512.der "$O/mlkem512-pub.der"
  rm -f pub.* conv.* o.* pub512.der

  # 3. Round trips for every ML-KEM set: pem and der keys work with encaps/decaps; convert goes
  #    pem -> der -> hex -> bin -> pem and back to the same bytes.
  for a in "${ALGS[@]}"; do
    mkdir -p "$d/$a" && cd "$d/$a" || return
    for fmt in pem der; do
      run 0 "" "$PQ" keygen -a $a --pk pk.$fmt --sk sk.$fmt --format $fmt || continue
      run 0 "" "$PQ" encaps --pk pk.$fmt --ct ct.$fmt --ss ss1.$fmt
      run 0 "" "$PQ" decaps --sk sk.$fmt --ct ct.$fmt --ss ss2.$fmt && check "$a $fmt: same shared secret" cmp -s ss1.$fmt ss2.$fmt
      check "$a $fmt: secret key 0600" test "$(mode_of sk.$fmt)" = 600
    done
    check "$a pem: PEM armor" test "$(head -n1 sk.pem)|$(tail -n1 sk.pem)|$(head -n1 pk.pem)" = \
      "-----BEGIN PRIVATE KEY-----|-----END PRIVATE KEY-----|-----BEGIN PUBLIC KEY-----"
    check "$a pem: lines of 64 characters" test "$(sed '1d;$d' pk.pem | awk 'length != 64' | wc -l)" -le 1
    check "$a der: seed-form PKCS#8 is 86 bytes" test "$(size_of sk.der)" = 86
    run 0 "" "$PQ" convert --in sk.pem --out sk.c.der --format der
    run 0 "" "$PQ" convert --in sk.c.der --out sk.c.hex --format hex --sk-form seed
    check "$a: --sk-form seed as hex is the 64-byte seed" grep -Eqx '[0-9a-f]{128}' sk.c.hex
    run 0 "" "$PQ" convert -a $a --in sk.c.hex --out sk.c.bin --format bin --sk-form seed
    run 0 "" "$PQ" convert -a $a --in sk.c.bin --out sk.c.pem --format pem
    check "$a: secret key pem -> der -> hex -> bin -> pem is unchanged" cmp -s sk.pem sk.c.pem
    check "$a: converted secret keys are 0600" test "$(mode_of sk.c.der)$(mode_of sk.c.hex)$(mode_of sk.c.bin)$(mode_of sk.c.pem)" = 600600600600
    run 0 "" "$PQ" convert --in pk.pem --out pk.c.der --format der
    run 0 "" "$PQ" convert --in pk.c.der --out pk.c.hex --format hex
    run 0 "" "$PQ" convert --in pk.c.hex --out pk.c.bin --format bin
    run 0 "" "$PQ" convert --in pk.c.bin --out pk.c.pem --format pem
    check "$a: public key pem -> der -> hex -> bin -> pem is unchanged" cmp -s pk.pem pk.c.pem
    check "$a: public key bin has ${PK[$a]} bytes" test "$(size_of pk.c.bin)" = "${PK[$a]}"
    # Expanded raw key -> PKCS#8 (expanded form by default: the seed is unknown).
    run 0 "" "$PQ" convert --in sk.pem --out sk.exp.bin --format bin
    check "$a: default raw secret key is expanded (${SK[$a]} bytes)" test "$(size_of sk.exp.bin)" = "${SK[$a]}"
    run 0 "" "$PQ" convert --in sk.exp.bin --out sk.exp.pem --format pem
    run 0 "" "$PQ" info --json sk.exp.pem && check "$a: expanded raw -> pem keeps the expanded form" grep -q '"private_key_form": "expanded"' "$OUT"
    run 0 "" "$PQ" decaps --sk sk.exp.pem --ct ct.pem --ss ss3 && check "$a: expanded PEM decapsulates" cmp -s ss1.pem ss3
    # DER given as hex is read too.
    to_hex sk.der >sk.der.hex
    run 0 "" "$PQ" decaps --sk sk.der.hex --ct ct.der --ss ss4 && check "$a: hex-encoded DER secret key" cmp -s ss1.der ss4
    # Keys from stdin.
    run 0 "" "$PQ" encaps --pk - --ct ct5 --ss ss5 <pk.pem
    run 0 "" "$PQ" decaps --sk - --ct ct5 --ss ss6 <sk.pem && check "$a: PEM via stdin" cmp -s ss5 ss6
    # Raw seed written by keygen --sk-form seed (bin) needs -a to be read.
    run 0 "" "$PQ" keygen -a $a --pk pk.s --sk sk.s --sk-form seed
    check "$a: --sk-form seed --format bin writes 64 bytes" test "$(size_of sk.s)" = 64
    run 0 "" "$PQ" encaps --pk pk.s --ct ct.s --ss ss.s1
    run 0 "" "$PQ" decaps -a $a --sk sk.s --ct ct.s --ss ss.s2 && check "$a: raw seed secret key" cmp -s ss.s1 ss.s2
    cd "$d" || return
  done

  # 4. pubkey: from every kind of secret key; default format follows the input.
  run 0 "" "$PQ" keygen -a ML-KEM-768 --coins "$seed" --pk k.pk.hex --sk k.sk.hex --format hex
  run 0 "" "$PQ" pubkey --sk k.sk.hex --pk k.pk2.hex && check "pubkey from a hex expanded key keeps hex" cmp -s k.pk.hex k.pk2.hex
  run 0 "" "$PQ" pubkey --sk "$R/ML-KEM-768-both.priv" --pk k.pub.pem && check "pubkey of the RFC both key" cmp -s k.pub.pem "$R/ML-KEM-768.pub"
  echo "$seed" >seed.hex
  run 0 "" "$PQ" pubkey -a ML-KEM-768 --sk seed.hex --pk k.pk3 --format hex && check "pubkey from a raw seed with -a" cmp -s k.pk.hex k.pk3
  run 0 "" "$PQ" pubkey --sk "$R/ML-KEM-512-seed.priv" --pk - --format pem && check "pubkey to stdout" cmp -s "$OUT" "$R/ML-KEM-512.pub"
  run 0 "" "$PQ" keygen -a ntruhrss701 --pk n.pk --sk n.sk
  run 0 "" "$PQ" pubkey --sk n.sk --pk n.pk2 && check "pubkey of an NTRU key (raw)" cmp -s n.pk n.pk2
  # NTRU keys convert between bin and hex (they have no pem/der form).
  run 0 "" "$PQ" convert --in n.sk --out n.sk.hex --format hex
  run 0 "" "$PQ" convert --in n.sk.hex --out n.sk.bin --format bin && check "NTRU secret key bin -> hex -> bin" cmp -s n.sk n.sk.bin
  check "NTRU converted secret keys are 0600" test "$(mode_of n.sk.hex)$(mode_of n.sk.bin)" = 600600
  run 0 "" "$PQ" convert --in n.pk --out n.pk.hex --format hex
  run 0 "" "$PQ" convert --in n.pk.hex --out n.pk.bin --format bin && check "NTRU public key bin -> hex -> bin" cmp -s n.pk n.pk.bin
  check "pubkey output is a public file (0644)" test "$(mode_of k.pub.pem)" = 644

  # 5. info: kind, format, form, sizes, fingerprint; never secret material.
  run 0 "" "$PQ" info "$R/ML-KEM-768-seed.priv"
  check "info: algorithm" grep -Eq '^algorithm: +ML-KEM-768$' "$OUT"
  check "info: kind" grep -Eq '^kind: +secret key$' "$OUT"
  check "info: format" grep -Eq '^format: +pem$' "$OUT"
  check "info: form" grep -Eq '^private key form: +seed$' "$OUT"
  check "info: OID" grep -Eq '^OID: +2\.16\.840\.1\.101\.3\.4\.4\.2$' "$OUT"
  local fp
  fp=$(sed -n 's/^public key SHA-256: *//p' "$OUT")
  check "info: fingerprint is SHA-256 of the raw public key" test "$fp" = "$(tr -d '\n' <k.pk.hex | sed 's/../\\x&/g' | xargs -0 printf '%b' | sha256sum | cut -d' ' -f1)"
  check "info: no secret bytes (seed)" bash -c "! grep -qi '000102030405060708' '$OUT'"
  check "info: no secret bytes (dk)" bash -c "! grep -qi '$(head -c 40 k.sk.hex)' '$OUT'"
  for f in "$R/ML-KEM-768.pub" "$R/ML-KEM-768-expanded.priv" "$R/ML-KEM-768-both.priv" k.pk.hex k.sk.hex "$O/mlkem768-seed.der"; do
    run 0 "" "$PQ" info --json "$f"
    if [[ $f == "$O/"* ]]; then continue; fi
    check "info --json $f: same fingerprint for every encoding" grep -q "\"public_key_sha256\": \"$fp\"" "$OUT"
  done
  run 0 "" "$PQ" info --json "$O/mlkem768-both.der"
  check "info --json: der, pkcs8, both" grep -q '"format": "der"' "$OUT"
  check "info --json: encoding" grep -q '"encoding": "pkcs8"' "$OUT"
  check "info --json: form both" grep -q '"private_key_form": "both"' "$OUT"
  check "info --json: sizes" bash -c "grep -q '\"seed_bytes\": 64' '$OUT' && grep -q '\"secret_key_bytes\": 2400' '$OUT' && grep -q '\"public_key_bytes\": 1184' '$OUT' && grep -q '\"file_bytes\": 2498' '$OUT'"
  check "info --json: one object" bash -c "head -c1 '$OUT' | grep -q '{' && tail -n1 '$OUT' | grep -qx '}'"
  run 0 "" "$PQ" info --json k.pk.hex && check "info: hex public key" grep -q '"format": "hex"' "$OUT"
  run 0 "" "$PQ" encaps --pk k.pk.hex --ct k.ct --ss k.ss
  # Files of fixed content (a random one starts with 0x30, a DER SEQUENCE tag, once in 256 runs
  # and is then read as a malformed key file): 32 bytes, the size of a shared secret and of an
  # X-Wing seed, and 33 bytes, the size of nothing.
  head -c 32 /dev/zero | tr '\0' '\1' >ss32.bin
  head -c 33 /dev/zero | tr '\0' '\1' >odd33.bin
  # 32 bytes may be an X-Wing seed (or a shared secret): described as a seed, the algorithm unknown.
  run 0 "" "$PQ" info ss32.bin
  check "info: 32 bytes is a seed of unknown algorithm" bash -c "grep -Eq '^kind: +seed$' '$OUT' && grep -Eq '^algorithm: +unknown' '$OUT'"
  check "info: 32 bytes may be an X-Wing seed or a shared secret" \
    bash -c "grep -Eq '^seed of: +X-Wing$' '$OUT' && grep -Eq '^also the size of: +a shared secret$' '$OUT'"
  run 0 "" "$PQ" info --json k.ct && check "info: ciphertext" grep -q '"kind": "ciphertext"' "$OUT"
  run 0 "" "$PQ" info seed.hex && check "info: a seed without -a" grep -Eq '^kind: +seed$' "$OUT"
  check "info: seed algorithm unknown" grep -Eq '^algorithm: +unknown' "$OUT"
  check "info: seed not printed" bash -c "! grep -q '$seed' '$OUT'"
  run 0 "" "$PQ" info -a ML-KEM-768 seed.hex && check "info -a: seed as a secret key" grep -q "^public key SHA-256: *$fp" "$OUT"
  run 0 "" "$PQ" info - <"$R/ML-KEM-512.pub" && check "info from stdin" grep -Eq '^file: +stdin$' "$OUT"
  run 0 "" "$PQ" keygen -a ML-KEM-1024 --pk k1024.pk --sk k1024.sk
  run 0 "" "$PQ" encaps --pk k1024.pk --ct k1024.ct --ss k1024.ss
  run 0 "" "$PQ" info --json k1024.pk && check "info: ML-KEM-1024 public key (same size as a ciphertext)" grep -q '"kind": "public_key"' "$OUT"
  run 0 "" "$PQ" info --json k1024.ct && check "info: ML-KEM-1024 ciphertext" grep -q '"kind": "ciphertext"' "$OUT"
  run 0 "" "$PQ" info --json n.sk && check "info: NTRU secret key, no OID" bash -c "grep -q '\"kind\": \"secret_key\"' '$OUT' && grep -q '\"oid\": null' '$OUT'"
  run 0 "" "$PQ" info n.pk && check "info: NTRU public key or ciphertext" grep -Eq '^kind: +public key or ciphertext$' "$OUT"

  # 6. Failures (exit 1): nothing is created or changed.
  cp "$O/mlkem768-seed.der" good.der
  { cat good.der; printf '\0'; } >trailing.der
  head -c 80 good.der >truncated.der
  { head -c 17 good.der; printf '\011'; tail -c +19 good.der; } >wrongoid.der
  { printf '\060\200'; tail -c +3 good.der; printf '\0\0'; } >indefinite.der
  { printf '\060\201'; tail -c +2 good.der; } >longlen.der
  sed 's/PRIVATE KEY/EC PRIVATE KEY/' "$R/ML-KEM-512-seed.priv" >label.pem
  sed 's/END PRIVATE KEY/END PUBLIC KEY/' "$R/ML-KEM-512-seed.priv" >endlabel.pem
  sed 's/PRIVATE KEY/ENCRYPTED PRIVATE KEY/' "$R/ML-KEM-512-seed.priv" >encrypted.pem
  { cat "$R/ML-KEM-512-seed.priv"; echo junk; } >junk.pem
  sed '$d' "$R/ML-KEM-512-seed.priv" >noend.pem
  sed '2s/^M/!/' "$R/ML-KEM-512-seed.priv" >badchar.pem
  local before
  before=$(snapshot "$d")
  f1() { run 1 "$@"; unchanged "$d" "$before" "$*"; }
  f1 "the seed and the expanded key disagree" "$PQ" decaps --sk "$R/bad-ML-KEM-512-1.priv" --ct k.ct --ss out.ss
  f1 "pairwise consistency" "$PQ" decaps --sk "$R/bad-ML-KEM-512-2.priv" --ct k.ct --ss out.ss
  f1 "the seed and the expanded key disagree" "$PQ" pubkey --sk "$R/bad-ML-KEM-512-1.priv" --pk out.pk
  f1 "pairwise consistency" "$PQ" pubkey --sk "$R/bad-ML-KEM-512-2.priv" --pk out.pk
  f1 "pairwise consistency" "$PQ" info "$R/bad-ML-KEM-512-2.priv"
  f1 "disagree" "$PQ" convert --in "$R/bad-ML-KEM-512-1.priv" --out out.der --format der
  # Raw bytes are read as DER with the outer shape of a whole SPKI / PKCS#8 structure, or when
  # they begin like an ML-KEM key file: a damaged DER file is reported as the key file it was,
  # with the DER reader's structural message (never a value read from the bytes), as from PEM.
  f1 "not a valid private key file: PKCS#8 private key: trailing data after the PKCS#8 structure (trailing.der)" \
    "$PQ" pubkey --sk trailing.der --pk out.pk
  f1 "not a valid private key file: PKCS#8 private key: truncated: an element is longer than the data that remains (truncated.der)" \
    "$PQ" pubkey --sk truncated.der --pk out.pk
  f1 "the algorithm OID is not ML-KEM's" "$PQ" pubkey --sk wrongoid.der --pk out.pk
  f1 "not a valid private key file: PKCS#8 private key: indefinite length (BER, not DER) (indefinite.der)" \
    "$PQ" pubkey --sk indefinite.der --pk out.pk
  f1 "not a valid private key file: PKCS#8 private key: non-minimal DER length" "$PQ" pubkey --sk longlen.der --pk out.pk
  # Damaged key files given to info and convert, which take either kind: a PKCS#8 is reported
  # as a private key file, an SPKI as a public key file, raw or as hex, with the exact message.
  # Each file is named by its damage; the messages hold structure names only.
  local spki_der=$O/mlkem768-pub.der
  { head -c 2 good.der; printf '\060'; tail -c +4 good.der; } >sk-version-tag.der  # INTEGER -> SEQUENCE tag
  { printf '\060\125'; tail -c +3 good.der; } >sk-outer-length.der                  # 0x54 -> 0x55: one bit
  pem_body "$R/ML-KEM-512-expanded.priv" | head -c 1000 >sk-rfc-truncated.der
  pem_body "$R/ML-KEM-512-both.priv" | head -c 500 | od -An -v -tx1 | tr -d ' \n' >sk-rfc-truncated.hex
  { head -c 4 "$spki_der"; printf '\061'; tail -c +6 "$spki_der"; } >pk-algid-tag.der    # 0x30 -> 0x31: one bit
  head -c 1000 "$spki_der" >pk-truncated.der
  head -c 100 "$spki_der" | od -An -v -tx1 | tr -d ' \n' >pk-truncated.hex
  local -A damaged=(
    [sk-version-tag.der]="not a valid private key file: PKCS#8 private key: version: expected an INTEGER"
    [sk-outer-length.der]="not a valid private key file: PKCS#8 private key: truncated: an element is longer than the data that remains"
    [sk-rfc-truncated.der]="not a valid private key file: PKCS#8 private key: truncated: an element is longer than the data that remains"
    [sk-rfc-truncated.hex]="not a valid private key file: PKCS#8 private key: truncated: an element is longer than the data that remains"
    [pk-algid-tag.der]="not a valid public key file: SubjectPublicKeyInfo: AlgorithmIdentifier: expected a SEQUENCE"
    [pk-truncated.der]="not a valid public key file: SubjectPublicKeyInfo: truncated: an element is longer than the data that remains"
    [pk-truncated.hex]="not a valid public key file: SubjectPublicKeyInfo: truncated: an element is longer than the data that remains"
  )
  before=$(snapshot "$d")
  for f in "${!damaged[@]}"; do
    for cmd in "info $f" "info --json $f" "convert --in $f --out out.pem --format pem"; do
      # shellcheck disable=SC2086  # $cmd is split into words on purpose
      f1 "" "$PQ" $cmd
      check "pqkem $cmd: exactly '${damaged[$f]} ($f)'" test "$(cat "$ERR")" = "pqkem: ${damaged[$f]} ($f)"
    done
  done
  for f in trailing truncated indefinite longlen; do
    { echo '-----BEGIN PRIVATE KEY-----'; base64 -w 64 "$f.der"; echo '-----END PRIVATE KEY-----'; } >"$f.pem"
  done
  before=$(snapshot "$d")
  f1 "trailing data after the PKCS#8 structure (trailing.pem)" "$PQ" pubkey --sk trailing.pem --pk out.pk
  f1 "an element is longer than the data that remains (truncated.pem)" "$PQ" pubkey --sk truncated.pem --pk out.pk
  f1 "indefinite length" "$PQ" pubkey --sk indefinite.pem --pk out.pk
  f1 "non-minimal DER length" "$PQ" pubkey --sk longlen.pem --pk out.pk
  f1 "PEM label 'EC PRIVATE KEY' is not a key pqkem reads" "$PQ" decaps --sk label.pem --ct k.ct --ss out.ss
  f1 "END line does not match" "$PQ" decaps --sk endlabel.pem --ct k.ct --ss out.ss
  f1 "encrypted private keys are not supported" "$PQ" pubkey --sk encrypted.pem --pk out.pk
  f1 "data after the END line" "$PQ" pubkey --sk junk.pem --pk out.pk
  f1 "no '-----END PRIVATE KEY-----' line" "$PQ" pubkey --sk noend.pem --pk out.pk
  f1 "invalid character" "$PQ" pubkey --sk badchar.pem --pk out.pk
  f1 "this is a private key (PKCS#8), not a public key" "$PQ" encaps --pk "$R/ML-KEM-512-seed.priv" --ct out.ct --ss out.ss
  f1 "this is a private key (PKCS#8), not a public key" "$PQ" encaps --pk good.der --ct out.ct --ss out.ss
  f1 "this is a public key (SubjectPublicKeyInfo), not a secret key" "$PQ" decaps --sk "$R/ML-KEM-512.pub" --ct k.ct --ss out.ss
  f1 "this is a public key (SubjectPublicKeyInfo), not a secret key" "$PQ" pubkey --sk "$O/mlkem768-pub.der" --pk out.pk
  f1 "the public key is ML-KEM-512 (by its OID), but -a says ML-KEM-768" "$PQ" encaps -a ML-KEM-768 --pk "$R/ML-KEM-512.pub" --ct out.ct --ss out.ss
  f1 "the private key is ML-KEM-768 (by its OID), but -a says ML-KEM-512" "$PQ" decaps -a ML-KEM-512 --sk good.der --ct k.ct --ss out.ss
  f1 "the size of a ciphertext for ML-KEM-768" "$PQ" decaps --sk "$R/ML-KEM-512-seed.priv" --ct k.ct --ss out.ss
  f1 "cannot be recovered from an expanded key" "$PQ" convert --in "$R/ML-KEM-768-expanded.priv" --out out.pem --format pem --sk-form seed
  f1 "cannot be recovered from an expanded key" "$PQ" convert --in k.sk.hex --out out.der --format der --sk-form both
  f1 "33 bytes (read as raw bytes) is not the size of any key, seed or ciphertext (odd33.bin)" "$PQ" info odd33.bin
  f1 "use --force to replace it" "$PQ" pubkey --sk k.sk.hex --pk k.pk.hex
  f1 "use --force to replace it" "$PQ" keygen -a ML-KEM-512 --pk fresh.pk --sk k.sk.hex --format pem

  # 7. Usage errors (exit 2): nothing is created or changed.
  u2() { run 2 "$@"; unchanged "$d" "$before" "$*"; }
  u2 "--format pem is for key files" "$PQ" encaps --pk k.pk.hex --ct out.ct --ss out.ss --format pem
  u2 "--format der is for key files" "$PQ" decaps --sk k.sk.hex --ct k.ct --ss out.ss --format der
  u2 "ntruhps2048509 has no standard OID, so its keys have no PEM or DER form" "$PQ" keygen -a ntruhps2048509 --pk out.pk --sk out.sk --format pem
  u2 "ntruhrss701 has no standard OID" "$PQ" pubkey --sk n.sk --pk out.pk --format der
  u2 "ntruhrss701 has no standard OID" "$PQ" convert --in n.pk --out out.pk --format pem
  u2 "--sk-form both needs --format pem or der" "$PQ" keygen -a ML-KEM-768 --pk out.pk --sk out.sk --sk-form both
  u2 "--sk-form seed: ntruhps2048677 keys have no private seed form" "$PQ" keygen -a ntruhps2048677 --pk out.pk --sk out.sk --sk-form seed
  u2 "--sk-form" "$PQ" keygen -a ML-KEM-768 --pk out.pk --sk out.sk --format pem --sk-form compact
  u2 "must be bin, hex, pem or der" "$PQ" keygen -a ML-KEM-768 --pk out.pk --sk out.sk --format base64
  u2 "--sk-form applies to secret keys" "$PQ" convert --in k.pk.hex --out out.pem --format pem --sk-form seed
  u2 "secret key has 64 bytes: a seed of ML-KEM-512, ML-KEM-768 or ML-KEM-1024, which does not reveal its parameter set (give -a ALG), or a shared secret, which is not a key; pqkem cannot tell them apart (seed.hex)" "$PQ" pubkey --sk seed.hex --pk out.pk
  u2 "is required" "$PQ" convert --in k.pk.hex --out out.pem
  u2 "" "$PQ" info
  u2 "would overwrite input --in" "$PQ" convert --in k.pk.hex --out k.pk.hex --format pem --force
  if command -v script >/dev/null; then
    script -qec "'$PQ' keygen -a ML-KEM-512 --pk - --sk tty.sk --format der" /dev/null </dev/null >tty.out 2>&1
    local rc=$?
    check "DER to a terminal: exit 2 (got $rc)" test "$rc" = 2
    check "DER to a terminal: hint" grep -q 'format pem' tty.out
    check "DER to a terminal: no sk written" test ! -e tty.sk
    rm -f tty.out
  else
    fail "script(1) (bsdutils) is needed for the terminal test"
  fi
  check "no temporary files left" test -z "$(find "$d" -name '.*pqkem*')"
}

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

case $GROUP in
  all) for g in help roundtrip stdio vectors kat usage failures outputs engine keyfile hostile; do "group_$g"; done ;;
  help | roundtrip | stdio | vectors | kat | usage | failures | outputs | engine | keyfile | hostile) "group_$GROUP" ;;
  *) echo "unknown group '$GROUP'" >&2; exit 1 ;;
esac

finish "$GROUP"
