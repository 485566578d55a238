#!/usr/bin/env bash
# CLI tests for the hybrid KEMs X-Wing (draft-connolly-cfrg-xwing-kem) and X25519MLKEM768
# (draft-ietf-tls-ecdhe-mlkem): every X-Wing draft vector through the tool byte for byte, the
# draft's PEM examples read and written byte for byte, round trips in every format, and every
# error with its exit code (README: 0 success, 1 failure, 2 usage error) and no file left behind.
#
#   hybrid_test.sh PQKEM_BINARY HYBRID_DATA_DIR GROUP
#
# GROUP: vectors roundtrip errors (or "all"). HYBRID_DATA_DIR is tests/hybrid/data: the draft's
# xwing-test-vectors.json (read with grep and sed: no python3, no jq), xwing.priv and xwing.pub.
PQ=${1:?usage: hybrid_test.sh PQKEM_BINARY HYBRID_DATA_DIR GROUP}
DATA=${2:?missing HYBRID_DATA_DIR}
GROUP=${3:-all}

# shellcheck source=cli_lib.sh
source "${BASH_SOURCE[0]%/*}/cli_lib.sh"

for f in "$DATA/xwing-test-vectors.json" "$DATA/xwing.priv" "$DATA/xwing.pub"; do
  [[ -r $f ]] || { echo "FATAL: test data file $f is missing" >&2; exit 1; }
done

# Sizes from the drafts (independent of the binary under test): public key, standard secret key
# (the seed), ciphertext, shared secret; encapsulation coins (m || X25519 ephemeral key).
HYBRIDS=(X-Wing X25519MLKEM768)
declare -A PK=([X-Wing]=1216 [X25519MLKEM768]=1216)
declare -A SEED=([X-Wing]=32 [X25519MLKEM768]=96)
declare -A CT=([X-Wing]=1120 [X25519MLKEM768]=1120)
declare -A SS=([X-Wing]=32 [X25519MLKEM768]=64)
ENCAPS_COINS=64
XWING_OID=1.3.6.1.4.1.62253.25722
AMBIGUOUS="give -a X-Wing or -a X25519MLKEM768"

# json_values FIELD: every value of FIELD in the vector file, in order, one per line.
json_values() { grep -o "\"$1\": *\"[0-9a-fA-F]*\"" "$DATA/xwing-test-vectors.json" | sed 's/.*"\([0-9a-fA-F]*\)"$/\1/' | lower; }
# pem_body FILE: the DER inside a PEM file (coreutils base64).
pem_body() { sed '1d;$d' "$1" | base64 -d; }
# hex_seed N: the bytes 00 01 .. N-1 in hex (the seed of the draft's PEM examples for N = 32).
hex_seed() { printf '%02x' $(seq 0 $(($1 - 1))); }
# flip FILE OFFSET: FILE with the byte at OFFSET (0-based) inverted, on stdout.
flip() {
  local n
  n=$(size_of "$1")
  head -c "$2" "$1"
  printf '%b' "\\x$(printf '%02x' $((0x$(od -An -tx1 -j "$2" -N1 "$1" | tr -d ' ') ^ 0xff)))"
  tail -c $((n - $2 - 1)) "$1"
}

# ---------------------------------------------------------------------------------------------
# The draft's test vectors and PEM examples.
group_vectors() {
  local d=$T/vectors
  mkdir -p "$d" && cd "$d" || return
  local -a seeds eseeds sss sks pks cts
  mapfile -t seeds < <(json_values seed)
  mapfile -t eseeds < <(json_values eseed)
  mapfile -t sss < <(json_values ss)
  mapfile -t sks < <(json_values sk)
  mapfile -t pks < <(json_values pk)
  mapfile -t cts < <(json_values ct)
  check "the vector file holds the draft's 3 vectors (${#seeds[@]} seeds, ${#cts[@]} ciphertexts)" \
    test "${#seeds[@]} ${#eseeds[@]} ${#sss[@]} ${#sks[@]} ${#pks[@]} ${#cts[@]}" = "3 3 3 3 3 3"
  check "vector lengths: seed 32, eseed 64, ss 32, sk 32, pk 1216, ct 1120 bytes" \
    test "${#seeds[0]} ${#eseeds[0]} ${#sss[0]} ${#sks[0]} ${#pks[0]} ${#cts[0]}" = "64 128 64 64 2432 2240"

  local i
  for i in "${!seeds[@]}"; do
    local v="X-Wing vector $i"
    # keygen --coins SEED: the draft's pk, and its sk (the seed itself) as the secret key file.
    run 0 "" "$PQ" keygen -a X-Wing --coins "${seeds[$i]}" --pk kg.pk.hex --sk kg.sk.hex --format hex
    check "$v: keygen pk (hex)" test "$(cat kg.pk.hex)" = "${pks[$i]}"
    check "$v: keygen sk is the draft's 32-byte sk (hex)" test "$(cat kg.sk.hex)" = "${sks[$i]}"
    run 0 "" "$PQ" keygen -a X-Wing --coins "${seeds[$i]}" --pk kg.pk --sk kg.sk
    check "$v: keygen pk (bin)" test "$(to_hex kg.pk)" = "${pks[$i]}"
    check "$v: keygen sk (bin, 32 bytes)" test "$(size_of kg.sk) $(to_hex kg.sk)" = "32 ${sks[$i]}"
    # encaps --coins ESEED to the draft's pk: its ct and ss.
    echo "${pks[$i]}" >pk.hex
    run 0 "" "$PQ" encaps -a X-Wing --pk pk.hex --coins "${eseeds[$i]}" --ct ct.hex --ss ss.hex --format hex
    check "$v: encaps ct" test "$(cat ct.hex)" = "${cts[$i]}"
    check "$v: encaps ss" test "$(cat ss.hex)" = "${sss[$i]}"
    from_hex "${pks[$i]}" >pk.bin
    echo "${eseeds[$i]}" >eseed.hex
    run 0 "" "$PQ" encaps -a X-Wing --pk pk.bin --coins @eseed.hex --ct ct.bin --ss ss.bin
    check "$v: encaps (bin, --coins @FILE) ct and ss" test "$(to_hex ct.bin) $(to_hex ss.bin)" = "${cts[$i]} ${sss[$i]}"
    # decaps with the draft's 32-byte sk, raw and hex, on the draft's ct.
    from_hex "${sks[$i]}" >sk.bin
    echo "${sks[$i]}" >sk.hex
    echo "${cts[$i]}" >ct.in.hex
    run 0 "" "$PQ" decaps -a X-Wing --sk sk.bin --ct ct.in.hex --ss dec.bin
    check "$v: decaps (32-byte raw sk)" test "$(size_of dec.bin) $(to_hex dec.bin)" = "32 ${sss[$i]}"
    run 0 "" "$PQ" decaps -a xwing --sk sk.hex --ct ct.bin --ss dec.hex --format hex
    check "$v: decaps (hex sk, alias xwing)" test "$(cat dec.hex)" = "${sss[$i]}"
    # The same key as PEM needs no -a: its OID names X-Wing.
    run 0 "" "$PQ" keygen -a MLKEM768-X25519 --coins "${seeds[$i]}" --pk kg.pub.pem --sk kg.pem --format pem
    run 0 "" "$PQ" decaps --sk kg.pem --ct ct.bin --ss dec.pem.bin
    check "$v: decaps (PEM sk, no -a; alias MLKEM768-X25519)" test "$(to_hex dec.pem.bin)" = "${sss[$i]}"
    run 0 "" "$PQ" encaps --pk kg.pub.pem --coins "${eseeds[$i]}" --ct ct.pem.bin --ss ss.pem.bin
    check "$v: encaps (PEM pk, no -a)" test "$(to_hex ct.pem.bin) $(to_hex ss.pem.bin)" = "${cts[$i]} ${sss[$i]}"
    rm -f kg.* pk.* ct.* ss.* sk.* dec.* eseed.hex
  done

  # Every implementation this CPU can run gives the draft's bytes.
  local impl impls
  impls=$("$PQ" list | sed -n 's/^implementations usable on this CPU: //p' | tr -d ',')
  check "list names the usable implementations ($impls)" test -n "$impls"
  for impl in $impls; do
    run 0 "" "$PQ" keygen -a X-Wing --impl "$impl" --coins "${seeds[1]}" --pk i.pk --sk i.sk --format hex --force
    run 0 "" "$PQ" encaps -a X-Wing --impl "$impl" --pk i.pk --coins "${eseeds[1]}" --ct i.ct --ss i.ss --format hex --force
    run 0 "" "$PQ" decaps -a X-Wing --impl "$impl" --sk i.sk --ct i.ct --ss i.dec --format hex --force
    check "--impl $impl: vector 1 pk, ct, ss and decaps" \
      test "$(cat i.pk) $(cat i.ct) $(cat i.ss) $(cat i.dec)" = "${pks[1]} ${cts[1]} ${sss[1]} ${sss[1]}"
  done
  rm -f i.*

  # The draft's PEM examples (key seed 00 01 .. 1f): read, and written byte for byte.
  local priv=$DATA/xwing.priv pub=$DATA/xwing.pub seed32
  seed32=$(hex_seed 32)
  run 0 "" "$PQ" keygen -a X-Wing --coins "$seed32" --pk x.pub --sk x.priv --format pem
  check "keygen --format pem writes the draft's xwing.pub byte for byte" cmp -s x.pub "$pub"
  check "keygen --format pem writes the draft's xwing.priv byte for byte" cmp -s x.priv "$priv"
  check "PEM secret key mode 0600, public key 0644" test "$(mode_of x.priv)$(mode_of x.pub)" = 600644
  run 0 "" "$PQ" keygen -a X-Wing --coins "$seed32" --pk x.pub.der --sk x.der --format der
  check "keygen --format der: the DER of xwing.pub" cmp -s x.pub.der <(pem_body "$pub")
  check "keygen --format der: the DER of xwing.priv (54 bytes)" \
    bash -c "cmp -s x.der <(sed '1d;\$d' '$priv' | base64 -d) && test \$(stat -c %s x.der) = 54"
  run 0 "" "$PQ" pubkey --sk "$priv" --pk p.pem
  check "pubkey of xwing.priv equals xwing.pub" cmp -s p.pem "$pub"
  run 0 "" "$PQ" pubkey --sk "$priv" --pk p.bin --format bin
  check "pubkey of xwing.priv (bin) is the key inside xwing.pub" cmp -s p.bin <(pem_body "$pub" | tail -c 1216)
  run 0 "" "$PQ" convert --in "$priv" --out seed.bin --format bin
  check "xwing.priv holds the seed 00 .. 1f" test "$(to_hex seed.bin)" = "$seed32"
  run 0 "" "$PQ" convert -a X-Wing --in seed.bin --out again.pem --format pem
  check "seed -> pem: xwing.priv again" cmp -s again.pem "$priv"
  run 0 "" "$PQ" convert --in "$pub" --out again.pub.der --format der
  run 0 "" "$PQ" convert --in again.pub.der --out again.pub.pem --format pem
  check "xwing.pub -> der -> pem: unchanged" cmp -s again.pub.pem "$pub"
  run 0 "" "$PQ" info "$priv"
  check "info xwing.priv: X-Wing secret key, its OID, seed form, PKCS#8, 32-byte seed" bash -c "
    grep -Eq '^algorithm: +X-Wing$' '$OUT' && grep -Eq '^OID: +$XWING_OID$' '$OUT' &&
    grep -Eq '^kind: +secret key$' '$OUT' && grep -Eq '^private key form: +seed$' '$OUT' &&
    grep -Eq '^encoding: +PKCS#8 \\(RFC 5958, draft-connolly-cfrg-xwing-kem\\)$' '$OUT' &&
    grep -Eq '^seed bytes: +32$' '$OUT' && grep -Eq '^components: +ML-KEM-768, X25519' '$OUT'"
  check "info xwing.priv: no expanded-key line (the expanded form is in memory only)" \
    bash -c "! grep -q 'expanded' '$OUT'"
  local fp
  fp=$(pem_body "$pub" | tail -c 1216 | sha256sum | cut -d' ' -f1)
  check "info xwing.priv: SHA-256 of xwing.pub's key" grep -Eq "^public key SHA-256: +$fp$" "$OUT"
  check "info xwing.priv: the seed is not printed" bash -c "! grep -q '000102030405' '$OUT'"
  run 0 "" "$PQ" info --json "$pub"
  check "info --json xwing.pub" bash -c "grep -q '\"algorithm\": \"X-Wing\"' '$OUT' && grep -q '\"oid\": \"$XWING_OID\"' '$OUT' &&
    grep -q '\"kind\": \"public_key\"' '$OUT' && grep -q '\"encoding\": \"spki\"' '$OUT' &&
    grep -q '\"public_key_sha256\": \"$fp\"' '$OUT' && grep -q '\"components\": \\[\"ML-KEM-768\", \"X25519\"\\]' '$OUT'"
  run 0 "" "$PQ" encaps --pk "$pub" --ct e.ct --ss e.ss
  run 0 "" "$PQ" decaps --sk "$priv" --ct e.ct --ss d.ss
  check "the draft's PEM key pair: same shared secret" cmp -s e.ss d.ss
}

# ---------------------------------------------------------------------------------------------
# Round trips for both hybrids in bin and hex, and pem/der for X-Wing; pubkey, convert, info, list.
group_roundtrip() {
  local d=$T/roundtrip a f
  for a in "${HYBRIDS[@]}"; do
    for f in bin hex; do
      mkdir -p "$d/$a-$f" && cd "$d/$a-$f" || return
      run 0 "" "$PQ" keygen -a "$a" --pk pk --sk sk --format "$f" || continue
      # A raw hybrid key does not say which hybrid it is: encaps and decaps need -a.
      run 0 "" "$PQ" encaps -a "$a" --pk pk --ct ct --ss ss1 --format "$f"
      run 0 "" "$PQ" decaps -a "$a" --sk sk --ct ct --ss ss2 --format "$f"
      check "$a $f: both sides hold the same secret" cmp -s ss1 ss2
      if [[ $f == bin ]]; then
        check "$a bin: sizes pk ${PK[$a]}, sk ${SEED[$a]} (the seed), ct ${CT[$a]}, ss ${SS[$a]}" \
          test "$(size_of pk) $(size_of sk) $(size_of ct) $(size_of ss1)" = "${PK[$a]} ${SEED[$a]} ${CT[$a]} ${SS[$a]}"
      else
        check "$a hex: sizes" test "$(size_of pk) $(size_of sk) $(size_of ct) $(size_of ss1)" = \
          "$((2 * PK[$a] + 1)) $((2 * SEED[$a] + 1)) $((2 * CT[$a] + 1)) $((2 * SS[$a] + 1))"
        check "$a hex: lower-case hex, one line" grep -Eqx "[0-9a-f]{$((2 * SEED[$a]))}" sk
      fi
      check "$a $f: modes sk/ss 0600, pk/ct 0644" test "$(mode_of sk)$(mode_of ss1)$(mode_of pk)$(mode_of ct)" = 600600644644
      # pubkey from the seed gives the key keygen wrote, in the input's format.
      run 0 "" "$PQ" pubkey -a "$a" --sk sk --pk pk2 && check "$a $f: pubkey from the seed" cmp -s pk pk2
      # convert the seed and the public key to the other raw format and back.
      local g=hex
      [[ $f == hex ]] && g=bin
      run 0 "" "$PQ" convert -a "$a" --in sk --out sk.$g --format $g
      run 0 "" "$PQ" convert -a "$a" --in sk.$g --out sk.back --format $f
      check "$a: secret key $f -> $g -> $f unchanged, 0600" test "$(cmp -s sk sk.back && echo same) $(mode_of sk.$g)" = "same 600"
      run 0 "" "$PQ" convert -a "$a" --in pk --out pk.$g --format $g
      run 0 "" "$PQ" convert -a "$a" --in pk.$g --out pk.back --format $f
      check "$a: public key $f -> $g -> $f unchanged" cmp -s pk pk.back
      # Two fresh encapsulations differ; the seed is the key (keygen draws a new one each time).
      run 0 "" "$PQ" encaps -a "$a" --pk pk --ct ct2 --ss ss3 --format "$f"
      check "$a $f: a fresh ciphertext differs" bash -c '! cmp -s ct ct2'
      check "$a $f: no stray files" test "$(ls -A | tr '\n' ' ')" = \
        "$(printf '%s\n' ct ct2 pk pk.$g pk.back pk2 sk sk.$g sk.back ss1 ss2 ss3 | sort | tr '\n' ' ')"
    done

    # A pipeline: keygen's public key through stdin.
    cd "$d/$a-bin" || return
    if "$PQ" keygen -a "$a" --pk - --sk p.sk --format hex | "$PQ" encaps -a "$a" --pk - --ct p.ct --ss p.ss1 &&
      "$PQ" decaps -a "$a" --sk p.sk --ct p.ct --ss - | cmp -s - p.ss1; then ok; else fail "$a: keygen | encaps pipeline"; fi
    # keygen --json: the secret key is the seed.
    run 0 "" "$PQ" keygen -a "$a" --pk j.pk --sk j.sk --json
    check "$a keygen --json: seed form, ${SEED[$a]}-byte secret key" bash -c "
      grep -q '\"secret_key_form\": \"seed\"' '$OUT' && grep -q '\"secret_key_bytes\": ${SEED[$a]}' '$OUT' &&
      grep -q '\"option\": \"--sk\", \"path\": \"j.sk\", \"kind\": \"secret_key\", \"bytes\": ${SEED[$a]}' '$OUT'"
    # --coins: exactly the seed, and the encapsulation coins.
    run 0 "" "$PQ" keygen -a "$a" --coins "$(hex_seed "${SEED[$a]}")" --pk c.pk --sk c.sk
    check "$a: keygen --coins writes the coins as the secret key" test "$(to_hex c.sk)" = "$(hex_seed "${SEED[$a]}")"
    run 0 "" "$PQ" encaps -a "$a" --pk c.pk --coins "$(hex_seed $ENCAPS_COINS)" --ct c.ct1 --ss c.ss1
    run 0 "" "$PQ" encaps -a "$a" --pk c.pk --coins "$(hex_seed $ENCAPS_COINS)" --ct c.ct2 --ss c.ss2
    check "$a: encaps --coins is deterministic" bash -c 'cmp -s c.ct1 c.ct2 && cmp -s c.ss1 c.ss2'
    # info with -a: the algorithm, its components, the kind and sizes.
    run 0 "" "$PQ" info -a "$a" c.sk
    check "$a info -a: seed as a secret key, components" bash -c "grep -Eq '^algorithm: +$a$' '$OUT' &&
      grep -Eq '^kind: +secret key$' '$OUT' && grep -Eq '^private key form: +seed$' '$OUT' &&
      grep -Eq '^seed bytes: +${SEED[$a]}$' '$OUT' && grep -Eq '^components: +ML-KEM-768, X25519' '$OUT'"
    check "$a info -a: SHA-256 of the public key" grep -Eq "^public key SHA-256: +$(sha256sum <c.pk | cut -d' ' -f1)$" "$OUT"
    run 0 "" "$PQ" info --json -a "$a" c.ct1
    check "$a info -a: ciphertext" bash -c "grep -q '\"kind\": \"ciphertext\"' '$OUT' && grep -q '\"ciphertext_bytes\": ${CT[$a]}' '$OUT'"
    run 0 "" "$PQ" info --json -a "$a" c.pk
    check "$a info -a: public key" grep -q '"kind": "public_key"' "$OUT"
    run 0 "" "$PQ" info --json c.sk
    check "$a info without -a: a seed, of $a" bash -c "grep -q '\"kind\": \"seed\"' '$OUT' && grep -q '\"algorithm\": null' '$OUT' &&
      grep -q '\"seed_of\": \\[\"$a\"\\]' '$OUT'"
  done

  # X-Wing in pem and der: no -a needed anywhere; convert pem -> der -> hex -> bin -> pem.
  local x=$d/X-Wing-files
  mkdir -p "$x" && cd "$x" || return
  for f in pem der; do
    run 0 "" "$PQ" keygen -a X-Wing --pk pk.$f --sk sk.$f --format $f || continue
    run 0 "" "$PQ" encaps --pk pk.$f --ct ct.$f --ss ss1.$f
    run 0 "" "$PQ" decaps --sk sk.$f --ct ct.$f --ss ss2.$f && check "X-Wing $f: same shared secret" cmp -s ss1.$f ss2.$f
    check "X-Wing $f: secret key 0600" test "$(mode_of sk.$f)" = 600
  done
  check "X-Wing der: PKCS#8 of 54 bytes, SPKI of 1240" test "$(size_of sk.der) $(size_of pk.der)" = "54 1240"
  check "X-Wing pem: PEM armor" test "$(head -n1 sk.pem)|$(tail -n1 sk.pem)|$(head -n1 pk.pem)" = \
    "-----BEGIN PRIVATE KEY-----|-----END PRIVATE KEY-----|-----BEGIN PUBLIC KEY-----"
  run 0 "" "$PQ" convert --in sk.pem --out sk.c.der --format der
  run 0 "" "$PQ" convert --in sk.c.der --out sk.c.hex --format hex
  check "X-Wing: a secret key written as hex is the 32-byte seed" grep -Eqx '[0-9a-f]{64}' sk.c.hex
  run 0 "" "$PQ" convert -a X-Wing --in sk.c.hex --out sk.c.bin --format bin
  run 0 "" "$PQ" convert -a X-Wing --in sk.c.bin --out sk.c.pem --format pem
  check "X-Wing: secret key pem -> der -> hex -> bin -> pem unchanged" cmp -s sk.pem sk.c.pem
  check "X-Wing: converted secret keys are 0600" test "$(mode_of sk.c.der)$(mode_of sk.c.hex)$(mode_of sk.c.bin)$(mode_of sk.c.pem)" = 600600600600
  run 0 "" "$PQ" convert --in pk.pem --out pk.c.der --format der
  run 0 "" "$PQ" convert --in pk.c.der --out pk.c.hex --format hex
  run 0 "" "$PQ" convert -a X-Wing --in pk.c.hex --out pk.c.bin --format bin
  run 0 "" "$PQ" convert -a X-Wing --in pk.c.bin --out pk.c.pem --format pem
  check "X-Wing: public key pem -> der -> hex -> bin -> pem unchanged" cmp -s pk.pem pk.c.pem
  run 0 "" "$PQ" pubkey --sk sk.der --pk pk.again && check "X-Wing: pubkey keeps the DER format" cmp -s pk.again pk.der
  to_hex sk.der >sk.der.hex
  run 0 "" "$PQ" decaps --sk sk.der.hex --ct ct.der --ss ss3 && check "X-Wing: hex-encoded DER secret key" cmp -s ss1.der ss3
  run 0 "" "$PQ" decaps --sk - --ct ct.pem --ss ss4 <sk.pem && check "X-Wing: PEM via stdin" cmp -s ss1.pem ss4
  run 0 "" "$PQ" decaps -a X-Wing --sk sk.c.bin --ct ct.pem --ss ss5 && check "X-Wing: raw seed and PEM agree" cmp -s ss1.pem ss5

  # list: both hybrids with their sizes (pk, sk as keygen writes it: the seed, ct, ss, seed,
  # coins), and the in-memory expanded size in the note below the table and in the JSON.
  run 0 "" "$PQ" list
  check "list: X-Wing" grep -Eq '^X-Wing +draft-connolly-cfrg-xwing-kem +1216 +32 +1120 +32 +32 +32/64$' "$OUT"
  check "list: X25519MLKEM768" grep -Eq '^X25519MLKEM768 +draft-ietf-tls-ecdhe-mlkem +1216 +96 +1120 +64 +96 +96/64$' "$OUT"
  check "list: the in-memory expanded sizes" bash -c "tr '\n' ' ' <'$OUT' | grep -Eq 'X-Wing and X25519MLKEM768 the seed \(expanded in memory only, to +2496 and 2528 bytes\)'"
  run 0 "" "$PQ" list --json
  check "list --json: X-Wing's sizes" grep -q '"name": "X-Wing", .*"secret_key_bytes": 32, "expanded_secret_key_bytes": 2496,' "$OUT"
  check "list --json: the hybrids' family" test "$(grep -c '"family": "hybrid"' "$OUT")" = 2
}

# ---------------------------------------------------------------------------------------------
# Errors: exit 1 (failure) or 2 (usage), one line on stderr, nothing created or changed.
group_errors() {
  local d=$T/errors
  mkdir -p "$d" && cd "$d" || return
  local y=X25519MLKEM768
  "$PQ" keygen -a X-Wing --pk x.pk --sk x.sk >/dev/null 2>&1 || fail "setup keygen X-Wing"
  "$PQ" keygen -a X-Wing --pk x.pub.pem --sk x.pem --format pem >/dev/null 2>&1 || fail "setup keygen X-Wing pem"
  "$PQ" keygen -a $y --pk y.pk --sk y.sk >/dev/null 2>&1 || fail "setup keygen $y"
  "$PQ" encaps -a X-Wing --pk x.pk --ct x.ct --ss x.ss >/dev/null 2>&1 || fail "setup encaps X-Wing"
  "$PQ" encaps -a $y --pk y.pk --ct y.ct --ss y.ss >/dev/null 2>&1 || fail "setup encaps $y"
  to_hex x.pk >x.pk.hex
  to_hex x.ct >x.ct.hex
  # Wrong lengths, one byte off; the in-memory expanded forms (2496, 2528 bytes) as files.
  head -c 1215 x.pk >short.pk
  head -c 1119 x.ct >short.ct
  head -c 31 x.sk >short.sk
  { cat y.sk; printf '\1'; } >long.sk
  head -c 2496 /dev/zero | tr '\0' '\7' >expanded.xwing
  head -c 2528 /dev/zero | tr '\0' '\7' >expanded.$y
  # X25519MLKEM768 with an all-zero X25519 part (a point of small order): pk and ct.
  { head -c 1184 y.pk; head -c 32 /dev/zero; } >y-zero.pk
  { head -c 1088 y.ct; head -c 32 /dev/zero; } >y-zero.ct
  { head -c 1184 x.pk; head -c 32 /dev/zero; } >x-zero.pk
  # The draft's PKCS#8 example, damaged: trailing data, version 1, a publicKey, a 31-byte seed,
  # parameters in the AlgorithmIdentifier.
  local der oid="060b2b0601040183e62d81c87a" seed
  seed=$(hex_seed 32)
  der=$(pem_body "$DATA/xwing.priv" | od -An -v -tx1 | tr -d ' \n')
  check "xwing.priv's DER is the draft's structure" test "$der" = "3034020100300d${oid}0420$seed"
  { from_hex "$der"; printf '\0'; } >trailing.der
  from_hex "3034020101300d${oid}0420$seed" >version1.der
  from_hex "3039020101300d${oid}0420${seed}8103000102" >publickey.der
  from_hex "3033020100300d${oid}041f${seed:2}" >seed31.der
  from_hex "3036020100300f${oid}05000420$seed" >params.der
  local before
  before=$(snapshot "$d")
  u() { run 2 "$@"; unchanged "$d" "$before" "$*"; }
  f() { run 1 "$@"; unchanged "$d" "$before" "$*"; }

  # The two hybrids share their public key and ciphertext sizes: raw ones need -a (exit 2).
  u "public key has 1216 bytes (read as raw bytes): X-Wing and X25519MLKEM768 public keys both have that size, so it does not tell which; $AMBIGUOUS (x.pk)" \
    "$PQ" encaps --pk x.pk --ct out.ct --ss out.ss
  u "public key has 1216 bytes (read as hex)" "$PQ" encaps --pk x.pk.hex --ct out.ct --ss out.ss
  u "$AMBIGUOUS" "$PQ" info x.pk
  u "ciphertext has 1120 bytes (read as raw bytes): X-Wing and X25519MLKEM768 ciphertexts both have that size, so it does not tell which; $AMBIGUOUS (x.ct)" \
    "$PQ" info x.ct
  u "ciphertext has 1120 bytes (read as hex)" "$PQ" info x.ct.hex
  u "$AMBIGUOUS" "$PQ" convert --in x.pk --out out.pem --format pem
  # A raw seed does not say which algorithm it is for (exit 2), whatever its size.
  u "secret key has 32 bytes: a seed of X-Wing, which does not reveal its parameter set (give -a ALG), or a shared secret, which is not a key; pqkem cannot tell them apart (x.sk)" \
    "$PQ" decaps --sk x.sk --ct x.ct --ss out.ss
  # A shared secret has a seed's size: convert and pubkey refuse it without -a, and print nothing.
  "$PQ" encaps -a X-Wing --pk x.pk --ct ss-test.ct --ss ss-test.ss >/dev/null 2>&1
  before=$(snapshot "$d")
  u "or a shared secret, which is not a key; pqkem cannot tell them apart (ss-test.ss)" \
    "$PQ" convert --in ss-test.ss --out - --format hex
  check "convert of a shared secret prints nothing" test ! -s "$OUT"
  u "or a shared secret, which is not a key" "$PQ" pubkey --sk ss-test.ss --pk out.pk
  u "secret key is a 96-byte seed, which does not reveal its parameter set; give -a ALG (96-byte seeds: $y) (y.sk)" \
    "$PQ" pubkey --sk y.sk --pk out.pk
  u "give -a ALG" "$PQ" convert --in y.sk --out out.hex --format hex
  # Secret key files hold the seed: the expanded forms are refused (exit 2).
  local a form fmt
  for a in X-Wing $y; do
    for form in expanded both; do
      for fmt in bin pem; do
        [[ $a == "$y" && $fmt == pem ]] && continue
        u "--sk-form $form: $a secret keys are written only as their ${SEED[$a]}-byte seed, the standard form; pqkem's expanded $a key exists in memory only (the X-Wing draft: an expanded key MUST NOT be transmitted between implementations)" \
          "$PQ" keygen -a $a --pk out.pk --sk out.sk --format $fmt --sk-form $form
      done
    done
  done
  u "--sk-form expanded: X-Wing secret keys are written only as their 32-byte seed" "$PQ" convert --in x.pem --out out.bin --format bin --sk-form expanded
  u "--sk-form both: X-Wing" "$PQ" convert --in x.pem --out out.der --format der --sk-form both
  u "--sk-form expanded: $y secret keys" "$PQ" convert -a $y --in y.sk --out out.hex --format hex --sk-form expanded
  # X25519MLKEM768 has no standard OID (exit 2); neither has NTRU.
  local no_oid="$y has no standard OID, so its keys have no PEM or DER form (no standard encoding exists yet for $y: draft-ietf-tls-ecdhe-mlkem defines only its wire format); use --format bin or hex"
  u "$no_oid" "$PQ" keygen -a $y --pk out.pk --sk out.sk --format pem
  u "$no_oid" "$PQ" keygen -a $y --pk out.pk --sk out.sk --format der
  u "$no_oid" "$PQ" pubkey -a $y --sk y.sk --pk out.pem --format pem
  u "$no_oid" "$PQ" convert -a $y --in y.pk --out out.der --format der
  u "$no_oid" "$PQ" convert -a $y --in y.sk --out out.pem --format pem
  u "ntruhps2048509 has no standard OID, so its keys have no PEM or DER form (standard OIDs exist only for ML-KEM-512, ML-KEM-768 and ML-KEM-1024 (RFC 9935) and X-Wing (draft-connolly-cfrg-xwing-kem)); use --format bin or hex" \
    "$PQ" keygen -a ntruhps2048509 --pk out.pk --sk out.sk --format pem
  # kat: NIST's procedure does not cover the hybrids (exit 2); the message names their vectors.
  u "X-Wing has no NIST known-answer-test procedure (draft-connolly-cfrg-xwing-kem is not a NIST PQC submission, which PQCgenKAT_kem is for); its reference vectors are the test vectors of draft-connolly-cfrg-xwing-kem" \
    "$PQ" kat -a X-Wing
  u "$y has no NIST known-answer-test procedure" "$PQ" kat -a $y --count 1
  # Coins of the wrong length (exit 2): keygen's are the seed, encaps' are m || X25519 key.
  u "--coins has 31 bytes; X-Wing keygen needs exactly 32 bytes (64 hex digits)" "$PQ" keygen -a X-Wing --pk out.pk --sk out.sk --coins "$(hex_seed 31)"
  u "--coins has 64 bytes; $y keygen needs exactly 96 bytes" "$PQ" keygen -a $y --pk out.pk --sk out.sk --coins "$(hex_seed 64)"
  u "--coins has 32 bytes; X-Wing encaps needs exactly 64 bytes" "$PQ" encaps -a X-Wing --pk x.pk --ct out.ct --ss out.ss --coins "$(hex_seed 32)"
  u "--coins has 65 bytes; $y encaps needs exactly 64 bytes" "$PQ" encaps -a $y --pk y.pk --ct out.ct --ss out.ss --coins "$(hex_seed 65)"
  u "unknown algorithm 'X-Wing-2'" "$PQ" keygen -a X-Wing-2 --pk out.pk --sk out.sk

  # Wrong lengths (exit 1).
  f "public key has 1215 bytes (read as raw bytes); X-Wing needs 1216 bytes; nor is it a whole DER key structure (short.pk)" \
    "$PQ" encaps -a X-Wing --pk short.pk --ct out.ct --ss out.ss
  f "ciphertext has 1119 bytes (read as raw bytes); X-Wing needs 1120 bytes (short.ct)" "$PQ" decaps -a X-Wing --sk x.sk --ct short.ct --ss out.ss
  f "ciphertext has 1119 bytes (read as raw bytes); X-Wing needs 1120 bytes (short.ct)" "$PQ" decaps --sk x.pem --ct short.ct --ss out.ss
  f "secret key has 31 bytes (read as raw bytes); X-Wing's secret key is its 32-byte seed; nor is it a whole DER key structure (short.sk)" \
    "$PQ" decaps -a X-Wing --sk short.sk --ct x.ct --ss out.ss
  f "secret key has 97 bytes (read as raw bytes); $y's secret key is its 96-byte seed" "$PQ" pubkey -a $y --sk long.sk --pk out.pk
  f "no algorithm has a secret key of that size (expected 935, 1234, 1450, 1590, 1632, 2400 or 3168 bytes, or a 32-byte, 64-byte or 96-byte seed with -a)" \
    "$PQ" decaps --sk short.sk --ct x.ct --ss out.ss
  f "public key has 1216 bytes (read as raw bytes), the size of a public key for X-Wing or $y; ML-KEM-768 needs 1184 bytes" \
    "$PQ" encaps -a ML-KEM-768 --pk x.pk --ct out.ct --ss out.ss
  f "the size of a ciphertext for ML-KEM-768; X-Wing needs 1120 bytes" "$PQ" decaps --sk x.pem --ct <(head -c 1088 /dev/zero) --ss out.ss
  # The expanded forms are pqkem's in-memory cache, never a key file (exit 1).
  f "secret key has 2496 bytes (read as raw bytes), the size of pqkem's in-memory expanded X-Wing key, which key files never hold (the X-Wing draft: an expanded key MUST NOT be transmitted between implementations); give the 32-byte seed, the X-Wing secret key (expanded.xwing)" \
    "$PQ" decaps --sk expanded.xwing --ct x.ct --ss out.ss
  f "the size of pqkem's in-memory expanded X-Wing key" "$PQ" decaps -a X-Wing --sk expanded.xwing --ct x.ct --ss out.ss
  f "the size of pqkem's in-memory expanded $y key, which key files never hold" "$PQ" pubkey --sk expanded.$y --pk out.pk
  f "give the 96-byte seed, the $y secret key" "$PQ" info expanded.$y
  f "in-memory expanded X-Wing key" "$PQ" convert --in expanded.xwing --out out.pem --format pem
  # A key file's OID names its algorithm; -a must agree.
  f "the public key is X-Wing (by its OID), but -a says $y" "$PQ" encaps -a $y --pk x.pub.pem --ct out.ct --ss out.ss
  f "the private key is X-Wing (by its OID), but -a says ML-KEM-768" "$PQ" decaps -a ML-KEM-768 --sk x.pem --ct x.ct --ss out.ss
  # The PKCS#8 reader is strict, as for ML-KEM; messages never echo the input.
  f "not a valid private key file: PKCS#8 private key: trailing data after the PKCS#8 structure (trailing.der)" "$PQ" pubkey --sk trailing.der --pk out.pk
  f "not a valid private key file: PKCS#8 private key: unsupported version (draft-connolly-cfrg-xwing-kem requires 0) (version1.der)" \
    "$PQ" pubkey --sk version1.der --pk out.pk
  f "not a valid private key file: PKCS#8 private key: X-Wing private keys have no publicKey field (draft-connolly-cfrg-xwing-kem: it MUST be absent) (publickey.der)" \
    "$PQ" info publickey.der
  f "not a valid private key file: PKCS#8 private key: X-Wing privateKey (the seed) has the wrong length; draft-connolly-cfrg-xwing-kem requires 32 bytes (seed31.der)" \
    "$PQ" decaps --sk seed31.der --ct x.ct --ss out.ss
  f "not a valid private key file: PKCS#8 private key: the AlgorithmIdentifier has parameters; draft-connolly-cfrg-xwing-kem requires them to be absent (params.der)" \
    "$PQ" convert --in params.der --out out.bin --format bin
  # X25519MLKEM768 refuses an X25519 part of small order (all-zero X25519 secret; exit 1).
  f "not a valid $y public key: $y encapsulation key is invalid: its X25519 part is a point of small order" \
    "$PQ" encaps -a $y --pk y-zero.pk --ct out.ct --ss out.ss
  f "not a valid $y public key: $y encapsulation key is invalid: its X25519 part is a point of small order" \
    "$PQ" info -a $y y-zero.pk
  f "decapsulation failed: $y ciphertext is invalid: its X25519 share is a point of small order" \
    "$PQ" decaps -a $y --sk y.sk --ct y-zero.ct --ss out.ss
  # Existing outputs are not replaced without --force.
  f "use --force to replace it" "$PQ" keygen -a X-Wing --pk fresh.pk --sk x.sk
  check "no temporary files left" test -z "$(find "$d" -name '.*pqkem*')"

  # X-Wing does not check the X25519 part (its draft has no such check): exit 0.
  run 0 "" "$PQ" encaps -a X-Wing --pk x-zero.pk --ct xz.ct --ss xz.ss
  check "X-Wing encaps to an all-zero X25519 part: ct and ss written" test "$(size_of xz.ct) $(size_of xz.ss)" = "1120 32"
  # A corrupted X-Wing ciphertext decapsulates (exit 0) to another secret: ML-KEM's implicit
  # rejection for the ML-KEM part, the combiner's hash for the X25519 part.
  local at
  for at in 0 1087 1088 1119; do
    flip x.ct $at >bad.ct
    run 0 "" "$PQ" decaps -a X-Wing --sk x.sk --ct bad.ct --ss bad.ss --force
    check "X-Wing ciphertext with byte $at changed: exit 0, a different 32-byte secret" \
      test "$(size_of bad.ss) $(cmp -s bad.ss x.ss && echo same || echo differs)" = "32 differs"
  done
  # The same for X25519MLKEM768's ML-KEM part (implicit rejection; its X25519 part is not all zero).
  flip y.ct 5 >bad.ct
  run 0 "" "$PQ" decaps -a $y --sk y.sk --ct bad.ct --ss bad.ss --force
  check "$y ciphertext with byte 5 changed: exit 0, a different 64-byte secret" \
    test "$(size_of bad.ss) $(cmp -s bad.ss y.ss && echo same || echo differs)" = "64 differs"
  check "$y: the X25519 half of the secret is unchanged by an ML-KEM-part change" \
    test "$(tail -c 32 bad.ss | od -An -tx1)" = "$(tail -c 32 y.ss | od -An -tx1)"
}

case $GROUP in
  all) for g in vectors roundtrip errors; do "group_$g"; done ;;
  vectors | roundtrip | errors) "group_$GROUP" ;;
  *) echo "unknown group '$GROUP'" >&2; exit 1 ;;
esac

finish "hybrid $GROUP"
