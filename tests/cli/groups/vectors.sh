# shellcheck shell=bash
# Sourced by cli_test.sh, whose groups vectors and kat it defines: NIST ACVP vectors through the
# tool, and `pqkem kat` against the hashes of NIST's KAT files (these read VECTORS_DIR). Uses
# cli_lib.sh's assertions and cli_test.sh's PQ, VEC and key sizes.

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
    [ntruhps2048509]=fc314366fbe795e2db6d29abb9f5b2ff43f0f608d0bd66161f9450364f0d271b
    [ntruhps2048677]=33e2cad6c2a2f17991517050d7a1b745908c84b8283a4e0f07dbe6f62d166507
    [ntruhps4096821]=1a8382ae0c801a43cf461c98d22743f5b2d8a1ffed1b1df0dd767de2c2874597
    [ntruhrss701]=501e000c3eb374ffbfb81b0f16673a6282116465936608d7d164b05635e769e8
  )
  # All 100 records of NIST's NTRU files, without the "# name" line, the blank line after it and
  # the final blank line (the vectors' README; liboqs's kats.json for the three files that the
  # vectors directory does not hold; tests/ntru/kat_test.cpp checks the library against them).
  declare -A FULL=(
    [ntruhps2048509]=d204a151fd8d10e0f6fe484d55362d779fbcb468ac5ae2cd18409b1fd76b4641
    [ntruhps2048677]=3489450d349454bf4914f7947a33ebc6bc5e16d15d19da6820a8168e125a1084
    [ntruhps4096821]=143f43534b9705f6485b4a3f1cefda3283f12550e88e294c743b72a9f7d3fcba
    [ntruhrss701]=684d7e77641399b136fbb4b9261bdca6e83887453a0565e2aef3540821138ada
  )
  local a got
  for a in "${ALGS[@]}" "${NTRU_ALGS[@]}"; do
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
  for a in "${NTRU_ALGS[@]}"; do
    run 0 "" "$PQ" kat -a "$a" || continue
    got=$(sed '1,2d;$d' "$OUT" | sha256sum | cut -d' ' -f1)
    check "$a kat: SHA-256 of all 100 records ($got)" test "$got" = "${FULL[$a]}"
    [[ $a == ntruhps2048509 ]] &&
      check "$a kat: NIST's PQCkemKAT_935.rsp byte for byte" cmp -s "$VEC/ntru/PQCkemKAT_935.rsp" "$OUT"
  done
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
  # Under qemu-user the limit would bound the emulator's own 128 MiB code buffer, not pqkem.
  if [[ -n ${PQKEM_TEST_EMULATOR-} ]]; then
    echo "SKIP: kat streaming check under ulimit -v (run under the emulator $PQKEM_TEST_EMULATOR, whose code buffer alone is 128 MiB)"
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
