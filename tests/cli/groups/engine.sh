# shellcheck shell=bash
# Sourced by cli_test.sh, whose group engine it defines: `--impl`, `--ntt-plan` and their
# environment variables. Uses cli_lib.sh's assertions and cli_test.sh's PQ, VEC and key sizes.

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
  # failure (exit 1) that says why, and nothing is written. On another CPU architecture than
  # x86-64 ('list' says so) naming them is a usage error (exit 2) that names the architecture.
  local impl arch
  arch=$("$PQ" list | sed -n 's/^CPU: \([a-z0-9_-]*\) (AVX2 and AVX-512 are x86-64 instruction sets.*/\1/p')
  for impl in avx2 avx512; do
    if [[ -n $arch ]]; then
      local isa=AVX2
      [[ $impl == avx512 ]] && isa=AVX-512
      run 2 "--impl $impl: not usable here: $isa is an x86-64 instruction set; this CPU is $arch" \
        "$PQ" keygen -a ML-KEM-768 --pk pk.$impl --sk sk.$impl --impl $impl
      check "--impl $impl refused on $arch: no file" test ! -e pk.$impl -a ! -e sk.$impl
      continue
    fi
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
