# shellcheck shell=bash
# Sourced by cli_test.sh, whose group keyfile it defines: RFC 9935 key files through `pubkey`,
# `convert` and `info` (reads VECTORS_DIR). Uses cli_lib.sh's assertions and cli_test.sh's PQ, VEC
# and key sizes.

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
