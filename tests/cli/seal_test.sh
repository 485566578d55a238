#!/usr/bin/env bash
# CLI tests for `pqkem seal` / `pqkem open` (HPKE; docs/files.md, "Sealed files"):
#
#   seal_test.sh PQKEM_BINARY GROUP
#
#   roundtrip  every KEM x KDF x AEAD, sizes around the chunk and the batch, key forms, PSK, stdin/stdout,
#              --raw, --json, and the exact layout of the header and the sizes
#   tamper     every byte of a small sealed file flipped (every 7th in a sanitizer or an emulated
#              build), cuts through each of its parts; at the chunk boundaries of a large one:
#              cut, dropped, repeated, swapped and appended chunks, changed header fields; what
#              --out - has written when a chunk fails; the same across the batches of a 145-chunk
#              file
#   errors     wrong keys and key kinds, NTRU and X25519MLKEM768, bad options, a closed stdin,
#              existing outputs, a huge declared chunk size, the --raw limit
#   memory     a 4 GiB stream through a pipe under `ulimit -v 262144`, sealed and opened
#
# Needs bash and coreutils only.
PQ=${1:?usage: seal_test.sh PQKEM_BINARY GROUP}
GROUP=${2:?missing GROUP}

# shellcheck source=cli_lib.sh
source "${BASH_SOURCE[0]%/*}/cli_lib.sh"

# Sizes from the standards, independent of the binary: enc (the KEM ciphertext) per KEM.
declare -A ENC=([ML-KEM-512]=768 [ML-KEM-768]=1088 [ML-KEM-1024]=1568 [X-Wing]=1120)
# HPKE ids (draft-ietf-hpke-pq, RFC 9180), as the header spells them in hex.
declare -A KEM_ID=([ML-KEM-512]=0040 [ML-KEM-768]=0041 [ML-KEM-1024]=0042 [X-Wing]=647a)
declare -A KDF_ID=([HKDF-SHA256]=0001 [HKDF-SHA384]=0002 [HKDF-SHA512]=0003 [SHAKE128]=0010 [SHAKE256]=0011
  [TurboSHAKE128]=0012 [TurboSHAKE256]=0013)
declare -A AEAD_ID=([AES-128-GCM]=0001 [AES-256-GCM]=0002 [ChaCha20-Poly1305]=0003)
KEMS=(ML-KEM-512 ML-KEM-768 ML-KEM-1024 X-Wing)
CHUNK=65536
TAG=16

# sealed_size KEM N: the size of a sealed file of N bytes (header 18 + enc, then one chunk of
# CHUNK + TAG per full chunk and a final one of N mod CHUNK + TAG).
sealed_size() { echo $((18 + ENC[$1] + ($2 / CHUNK) * (CHUNK + TAG) + ($2 % CHUNK) + TAG)); }

keys() {  # keys KEM DIR: a key pair in DIR (pk, sk expanded or seed as keygen writes it)
  mkdir -p "$2" && "$PQ" keygen -a "$1" --pk "$2/pk" --sk "$2/sk" --format bin >/dev/null
}

# ---------------------------------------------------------------------------------------------
group_roundtrip() {
  local d=$T/rt
  mkdir -p "$d" && cd "$d" || return
  head -c 200000 /dev/urandom >big
  head -c $((2 * CHUNK)) /dev/urandom >exact
  printf 'x' >one
  : >empty
  for k in "${KEMS[@]}"; do
    keys "$k" "$d/$k" || { fail "keygen $k"; continue; }
    for kdf in "${!KDF_ID[@]}"; do
      for aead in "${!AEAD_ID[@]}"; do
        run 0 "" "$PQ" seal --pk "$k/pk" --in one --out s --kdf "$kdf" --aead "$aead" --force || continue
        check "$k $kdf $aead: header names the suite" \
          test "$(head -c 18 s | to_hex /dev/stdin)" == "50515345414c0100${KEM_ID[$k]}${KDF_ID[$kdf]}${AEAD_ID[$aead]}00010000"
        run 0 "" "$PQ" open --sk "$k/sk" --in s --out o --force && check "$k $kdf $aead: round trip" cmp -s one o
      done
    done
    for f in big exact one empty; do
      run 0 "" "$PQ" seal --pk "$k/pk" --in $f --out $f.s || continue
      check "$k $f: sealed size" test "$(size_of $f.s)" -eq "$(sealed_size "$k" "$(size_of $f)")"
      run 0 "" "$PQ" open --sk "$k/sk" --in $f.s --out $f.o && check "$k $f: opens to the input" cmp -s $f $f.o
      check "$k $f: opened file has mode 600" test "$(mode_of $f.o)" = 600
      rm -f $f.s $f.o
    done
  done
  # Sizes around a batch (the tool seals 64 chunks, 4 MiB, at a time), each AEAD, through pipes:
  # libsodium's ciphers hand over to OpenSSL's part way (lib/hpke/aead.hpp).
  local batch=$((64 * CHUNK)) n aead
  for n in $((batch - 1)) $batch $((batch + 1)) $((2 * batch + CHUNK + 1)); do
    head -c $n /dev/urandom >b
    for aead in "${!AEAD_ID[@]}"; do
      run 0 "" bash -c "'$PQ' seal --pk ML-KEM-768/pk --aead $aead --in - --out - <b >b.s" || continue
      check "$n bytes, $aead: sealed size" test "$(size_of b.s)" -eq "$(sealed_size ML-KEM-768 $n)"
      run 0 "" bash -c "'$PQ' open --sk ML-KEM-768/sk --in - --out - <b.s >b.o" && check "$n bytes, $aead: round trip" cmp -s b b.o
    done
  done
  rm -f b b.s b.o
  # Default suite: HKDF-SHA256 and AES-256-GCM, whatever the machine.
  run 0 "" "$PQ" seal --pk ML-KEM-768/pk --in one --out dflt
  check "default suite is HKDF-SHA256, AES-256-GCM" test "$(head -c 18 dflt | to_hex /dev/stdin)" == "50515345414c010000410001000200010000"
  # Key forms: PEM, hex and the seed.
  "$PQ" keygen -a ML-KEM-768 --pk p.pem --sk s.pem --format pem >/dev/null
  "$PQ" convert --in s.pem --out s.seed --format bin --sk-form seed >/dev/null
  "$PQ" convert --in p.pem --out p.hex --format hex >/dev/null
  run 0 "" "$PQ" seal --pk p.hex --in big --out pem.s
  run 0 "" "$PQ" open --sk s.pem --in pem.s --out pem.o && check "PEM key: round trip" cmp -s big pem.o
  run 0 "" "$PQ" open -a ML-KEM-768 --sk s.seed --in pem.s --out seed.o && check "seed key: round trip" cmp -s big seed.o
  # stdin and stdout, info, PSK.
  head -c 40 /dev/urandom >psk
  run 0 "" bash -c "'$PQ' seal --pk X-Wing/pk --in - --out - --info 'ctx 1' --psk psk --psk-id alice <big >io.s"
  run 0 "" bash -c "'$PQ' open --sk X-Wing/sk --in - --out - --info 'ctx 1' --psk psk --psk-id alice <io.s >io.o"
  check "stdin/stdout with info and psk: round trip" cmp -s big io.o
  check "psk mode is in the header" test "$(head -c 8 io.s | to_hex /dev/stdin)" == "50515345414c0101"
  printf 'ctx 1' >info.txt
  run 0 "" "$PQ" open --sk X-Wing/sk --in io.s --out info.o --info @info.txt --psk psk --psk-id alice
  check "--info @FILE equals the text" cmp -s big info.o
  # --raw: enc || ct, ct = pt + tag.
  run 0 "" "$PQ" seal --pk ML-KEM-512/pk --in big --out raw.s --raw --aead ChaCha20-Poly1305 --kdf SHAKE256
  check "--raw size is enc + pt + tag" test "$(size_of raw.s)" -eq $((768 + 200000 + TAG))
  run 0 "" "$PQ" open --sk ML-KEM-512/sk --in raw.s --out raw.o --raw --aead ChaCha20-Poly1305 --kdf SHAKE256
  check "--raw round trip" cmp -s big raw.o
  run 1 "does not open" "$PQ" open --sk ML-KEM-512/sk --in raw.s --out raw2.o --raw
  check "--raw with another suite leaves no file" test ! -e raw2.o
  # --json: suite and sizes, never a secret.
  run 0 "" "$PQ" seal --pk ML-KEM-1024/pk --in big --out j.s --json
  check "seal --json names the suite" grep -q '"aead": "AES-256-GCM"' "$OUT"
  check "seal --json has the chunk count" grep -q '"chunks": 4' "$OUT"
  check "seal --json has the sealed size" grep -q "\"sealed_bytes\": $(size_of j.s)" "$OUT"
  check "seal --json has the SHA-256 of enc" grep -q "\"enc_sha256\": \"$(head -c $((18 + 1568)) j.s | tail -c 1568 | sha256sum | cut -c1-64)\"" "$OUT"
  run 0 "" "$PQ" open --sk ML-KEM-1024/sk --in j.s --out j.o --json
  check "open --json has the plaintext size" grep -q '"plaintext_bytes": 200000' "$OUT"
}

# ---------------------------------------------------------------------------------------------
# flip FILE OFFSET BYTE OUT: FILE, whose byte at OFFSET is BYTE (decimal), with that byte xor 0x01.
flip() {
  cp "$1" "$4" && printf "\\x$(printf %02x $(($3 ^ 1)))" | dd of="$4" bs=1 seek="$2" conv=notrunc status=none
}

group_tamper() {
  local d=$T/tamper
  keys ML-KEM-512 "$d" && cd "$d" || return
  head -c 100 /dev/urandom >small
  "$PQ" seal --pk pk --in small --out small.s >/dev/null
  local n before i bad=0 cut=0
  n=$(size_of small.s)
  mkdir out && before=$(snapshot out)
  local bytes
  read -r -a bytes < <(od -An -v -tu1 small.s | tr -s ' \n' '  ')
  check "od read every byte" test ${#bytes[@]} -eq "$n"
  # Every byte; a sanitizer build (PQKEM_TEST_SANITIZED) or a cross build under the emulator
  # (PQKEM_TEST_EMULATOR), where each process starts several times slower, flips every 7th: the
  # same code paths, under ASan and UBSan or on the other CPU.
  local stride=1
  [[ -n ${PQKEM_TEST_SANITIZED-} || -n ${PQKEM_TEST_EMULATOR-} ]] && stride=7
  for ((i = 0; i < n; i += stride)); do
    flip small.s $i "${bytes[i]}" t.s
    "$PQ" open --sk sk --in t.s --out out/o 2>/dev/null && bad=$((bad + 1))
    [[ -e out/o ]] && bad=$((bad + 1))
  done
  check "every ${stride}th of the $n bytes flipped: open fails, no output ($bad wrong)" test $bad -eq 0
  # Cuts: inside and at the end of every header field, through enc, and through the chunk and
  # its tag (every byte of the last 20).
  local cuts=(0 1 5 6 7 8 9 10 11 12 13 14 15 17 18 19)
  for ((i = 20; i < n - 20; i += 37)); do cuts+=("$i"); done
  for ((i = n - 20; i < n; i++)); do cuts+=("$i"); done
  for i in "${cuts[@]}"; do
    head -c "$i" small.s >t.s
    "$PQ" open --sk sk --in t.s --out out/o 2>/dev/null && cut=$((cut + 1))
  done
  check "each of ${#cuts[@]} truncations: open fails ($cut wrong)" test $cut -eq 0
  printf 'z' | cat small.s - >t.s && run 1 "does not open" "$PQ" open --sk sk --in t.s --out out/o
  unchanged out "$before" "tampered small file"

  # A large file: chunks 0..3 (three full, a short final one) after the header.
  head -c 200000 /dev/urandom >big
  "$PQ" seal --pk pk --in big --out big.s >/dev/null
  local H=$((18 + 768)) C=$((CHUNK + TAG))
  chunk() { tail -c +$((H + $1 * C + 1)) big.s | head -c "${2:-$C}"; }
  for i in 1 2 3; do
    head -c $((H + i * C)) big.s >t.s
    run 1 "truncated: the file ends after $i chunks" "$PQ" open --sk sk --in t.s --out out/o
  done
  head -c $H big.s >t.s && run 1 "truncated: the file ends after 0 chunks" "$PQ" open --sk sk --in t.s --out out/o
  { head -c $H big.s; chunk 0; chunk 2; chunk 3 $((200000 - 3 * CHUNK + TAG)); } >t.s
  run 1 "chunk 2 does not authenticate" "$PQ" open --sk sk --in t.s --out out/o
  { head -c $H big.s; chunk 0; chunk 0; chunk 1; chunk 2; chunk 3 1000000; } >t.s
  run 1 "chunk 2 does not authenticate" "$PQ" open --sk sk --in t.s --out out/o
  { head -c $H big.s; chunk 1; chunk 0; chunk 2; chunk 3 1000000; } >t.s
  run 1 "does not open" "$PQ" open --sk sk --in t.s --out out/o
  { head -c $H big.s; chunk 0; chunk 2; chunk 1; chunk 3 1000000; } >t.s
  run 1 "chunk 2 does not authenticate" "$PQ" open --sk sk --in t.s --out out/o
  cat big.s big.s >t.s && run 1 "chunk 4 does not authenticate" "$PQ" open --sk sk --in t.s --out out/o
  # The header: another valid KDF id, AEAD id, chunk size or mode changes the keys.
  for edit in "10:0003" "12:0003" "14:00008000" "7:01"; do
    local off=${edit%%:*} hex=${edit#*:}
    { head -c "$off" big.s; from_hex "$hex"; tail -c +$((off + ${#hex} / 2 + 1)) big.s; } >t.s
    [[ $(size_of t.s) -eq $(size_of big.s) ]] || { fail "header edit $edit changed the size"; continue; }
    "$PQ" open --sk sk --in t.s --out out/o 2>/dev/null && fail "header edit $edit opened" || ok
  done
  unchanged out "$before" "tampered large file"
  # --out -: the chunks before the damage are written, then exit 1.
  { head -c $H big.s; chunk 0; chunk 1; chunk 3 1000000; } >t.s
  RUN_STDOUT=part run 1 "chunk 3 does not authenticate" "$PQ" open --sk sk --in t.s --out -
  check "--out - wrote exactly the two authentic chunks" cmp -s part <(head -c $((2 * CHUNK)) big)

  # Several batches: the tool seals and opens 64 chunks (4 MiB) at a time, shared out between
  # two threads, and reads the next batch while it works on one. Chunks 0..143 are full, 144
  # is the final one. Damage in each half of a batch, at its edges, across two batches.
  head -c $((144 * CHUNK + 777)) /dev/urandom >huge
  "$PQ" seal --pk pk --in huge --out huge.s >/dev/null
  local huge_sealed=$((H + 144 * C + 777 + TAG))
  check "the 145-chunk file has its size" test "$(size_of huge.s)" -eq $huge_sealed
  run 0 "" "$PQ" open --sk sk --in huge.s --out huge.o && check "145 chunks open to the input" cmp -s huge huge.o
  rm -f huge.o
  hchunk() { tail -c +$((H + $1 * C + 1)) huge.s | head -c "$C"; }
  local k byte
  for k in 0 31 63 64 100 127 128 144; do
    byte=$(od -An -tu1 -j $((H + k * C + 5)) -N1 huge.s)
    flip huge.s $((H + k * C + 5)) "$byte" t.s
    local want="chunk $((k + 1)) does not authenticate"
    ((k == 0)) && want="does not open"
    RUN_STDOUT=part run 1 "$want" "$PQ" open --sk sk --in t.s --out -
    check "chunk $k flipped: --out - wrote exactly the $k chunks before it" cmp -s part <(head -c $((k * CHUNK)) huge)
  done
  for k in 64 128; do
    head -c $((H + k * C)) huge.s >t.s
    run 1 "truncated: the file ends after $k chunks, without its final chunk" "$PQ" open --sk sk --in t.s --out out/o
  done
  head -c $((H + 64 * C + 10)) huge.s >t.s
  run 1 "truncated: the file ends inside chunk 65" "$PQ" open --sk sk --in t.s --out out/o
  head -c $((H + 64 * C + 1000)) huge.s >t.s  # long enough to be taken for a short final chunk
  run 1 "chunk 65 does not authenticate" "$PQ" open --sk sk --in t.s --out out/o
  { head -c $((H + 63 * C)) huge.s; hchunk 64; hchunk 63; tail -c +$((H + 65 * C + 1)) huge.s; } >t.s
  run 1 "chunk 64 does not authenticate" "$PQ" open --sk sk --in t.s --out out/o
  unchanged out "$before" "tampered 145-chunk file"
}

# ---------------------------------------------------------------------------------------------
group_errors() {
  local d=$T/err
  keys ML-KEM-768 "$d/a" && keys ML-KEM-768 "$d/b" && keys ML-KEM-1024 "$d/c" && cd "$d" || return
  printf 'hello' >m
  mkdir out && local before
  before=$(snapshot out)
  "$PQ" seal --pk a/pk --in m --out m.s >/dev/null
  run 1 "does not open: wrong secret key" "$PQ" open --sk b/sk --in m.s --out out/o
  run 1 "sealed for ML-KEM-768, but the secret key is ML-KEM-1024" "$PQ" open --sk c/sk --in m.s --out out/o
  run 1 "does not open" "$PQ" open --sk a/sk --in m.s --out out/o --info other
  run 1 "sealed with a pre-shared key" bash -c "head -c 32 /dev/zero >psk; '$PQ' seal --pk a/pk --in m --out p.s --psk psk --psk-id i && '$PQ' open --sk a/sk --in p.s --out out/o"
  run 1 "not sealed with a pre-shared key" "$PQ" open --sk a/sk --in m.s --out out/o --psk psk --psk-id i
  run 1 "does not open" "$PQ" open --sk a/sk --in p.s --out out/o --psk psk --psk-id j
  run 1 "not a file pqkem sealed" "$PQ" open --sk a/sk --in m --out out/o
  run 1 "not a file pqkem sealed" "$PQ" open --sk a/sk --in a/pk --out out/o
  { head -c 14 m.s; from_hex 7fffffff; tail -c +19 m.s; } >huge.s
  run 1 "chunk size 2147483647 is outside" "$PQ" open --sk a/sk --in huge.s --out out/o
  { head -c 6 m.s; from_hex 02; tail -c +8 m.s; } >v2.s
  run 1 "version 2 is not supported" "$PQ" open --sk a/sk --in v2.s --out out/o
  { head -c 8 m.s; from_hex 0010; tail -c +11 m.s; } >dh.s
  run 1 "unknown HPKE suite: KEM 0x0010" "$PQ" open --sk a/sk --in dh.s --out out/o
  # Key kinds.
  run 1 "" "$PQ" seal --pk a/sk --in m --out out/o
  run 1 "" "$PQ" open --sk a/pk --in m.s --out out/o
  "$PQ" keygen -a ntruhps2048509 --pk n.pk --sk n.sk >/dev/null
  run 2 "ML-KEM-512, ML-KEM-768, ML-KEM-1024" "$PQ" seal --pk n.pk --in m --out out/o
  run 2 "ML-KEM-512, ML-KEM-768, ML-KEM-1024" "$PQ" open --sk n.sk -a ntruhps2048509 --in m.s --out out/o
  run 2 "X-Wing" "$PQ" seal -a X25519MLKEM768 --pk a/pk --in m --out out/o
  "$PQ" keygen -a X25519MLKEM768 --pk h.pk --sk h.sk >/dev/null
  run 2 "X-Wing" "$PQ" seal -a X25519MLKEM768 --pk h.pk --in m --out out/o
  # A public key that fails the FIPS 203 modulus check (first coefficient 4095).
  { printf '\xff\x0f'; tail -c +3 a/pk; } >bad.pk
  run 1 "not reduced modulo q" "$PQ" seal --pk bad.pk --in m --out out/o
  # Options.
  run 2 "--psk and --psk-id go together" "$PQ" seal --pk a/pk --in m --out out/o --psk psk
  run 2 "--psk and --psk-id go together" "$PQ" open --sk a/sk --in m.s --out out/o --psk-id x
  head -c 31 /dev/zero >short.psk
  run 1 "shorter than the 32 bytes" "$PQ" seal --pk a/pk --in m --out out/o --psk short.psk --psk-id i
  run 2 "unknown --kdf 'HKDF-MD5'" "$PQ" seal --pk a/pk --in m --out out/o --kdf HKDF-MD5
  run 2 "export-only cannot seal" "$PQ" seal --pk a/pk --in m --out out/o --aead export-only
  run 2 "--kdf and --aead go with --raw" "$PQ" open --sk a/sk --in m.s --out out/o --aead AES-128-GCM
  run 2 "" "$PQ" seal --pk a/pk --in m --out - --json
  run 2 "" "$PQ" seal --pk a/pk --in m --out m
  run 1 "stdin is closed" bash -c "exec <&-; exec '$PQ' seal --pk a/pk --in - --out out/o"
  run 1 "stdin is closed" bash -c "exec <&-; exec '$PQ' open --sk a/sk --in - --out out/o"
  unchanged out "$before" "failed seal/open"
  # An existing output is kept without --force, replaced with it.
  printf 'keep' >out/o
  run 1 "exists" "$PQ" open --sk a/sk --in m.s --out out/o
  check "existing output kept" test "$(cat out/o)" = keep
  run 0 "" "$PQ" open --sk a/sk --in m.s --out out/o --force && check "--force replaces it" cmp -s m out/o
  # --raw holds the message in memory: 16 MiB at most.
  head -c $((16 * 1024 * 1024 + 1)) /dev/zero >big
  run 1 "the limit for --raw" "$PQ" seal --pk a/pk --in big --out out/r --raw
  check "no --raw output" test ! -e out/r
}

# ---------------------------------------------------------------------------------------------
group_memory() {
  local d=$T/mem
  keys X-Wing "$d" && cd "$d" || return
  # cmp reads both streams to their ends: equal bytes and equal lengths; pipefail catches a
  # failed seal or open. A sanitizer build (PQKEM_TEST_SANITIZED, set by CMake) cannot run under
  # ulimit -v: ASan maps terabytes of shadow address space at start. It streams the 4 GiB
  # without the limit; the normal build checks the bound.
  local limit="ulimit -v 262144 &&"
  if [[ -n ${PQKEM_TEST_SANITIZED-} ]]; then
    limit=""
    echo "seal.memory: sanitizer build: 4 GiB streamed without ulimit -v (ASan's shadow memory needs the address space)"
  fi
  run 0 "" bash -c "set -o pipefail; head -c 4294967296 /dev/zero |
    ($limit exec '$PQ' seal --pk pk --in - --out -) |
    ($limit exec '$PQ' open --sk sk --in - --out -) | cmp - <(head -c 4294967296 /dev/zero)"
}

case $GROUP in
  roundtrip | tamper | errors | memory) "group_$GROUP" ;;
  *) echo "unknown group '$GROUP'" >&2; exit 1 ;;
esac
finish "seal.$GROUP"
