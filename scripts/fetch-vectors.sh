#!/usr/bin/env bash
# Fetches the third-party test vectors from their upstream repositories, each at a pinned commit,
# and checks every file against scripts/vectors.sha256 (docs/test-data.md says what each set is,
# where it comes from and under which licence).
#
#   scripts/fetch-vectors.sh [DIR]        fetch into DIR (default: ../shared/vectors beside the
#                                         repository root, the CMake default of PQKEM_VECTORS_DIR)
#   scripts/fetch-vectors.sh --verify DIR check an existing DIR against the manifest: every listed
#                                         file present with its SHA-256, and no unlisted file
#                                         (README.md, documentation only, is left out of both)
#   scripts/fetch-vectors.sh --check-manifest
#                                         check only that every manifest line has a source here
#                                         (or is an OpenSSL file) and every source a manifest line
#   scripts/fetch-vectors.sh --hpke [DIR] fetch draft-ietf-hpke-pq's HPKE vectors only, into DIR
#                                         (default: ../shared/hpke, the CMake default of
#                                         PQKEM_HPKE_VECTORS_DIR); without arguments the script
#                                         fetches both sets to their defaults
#   scripts/fetch-vectors.sh --verify-hpke DIR
#                                         check DIR's hpke-pq-test-vectors.json against its SHA-256
#
# A file whose download does not hash to the manifest's value is not written: the manifest, not
# the network, decides what a test reads. Needs curl or wget, and sha256sum.
#
# Files written by OpenSSL 3.5.3 (formats/openssl-3.5.3/) have no upstream. With an `openssl`
# of version 3.5 or later on PATH the script regenerates them from their seeds and keeps each
# one whose SHA-256 matches; otherwise (or on a mismatch) it lists them as provided only: copy
# them from an existing vectors directory.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MANIFEST="$ROOT/scripts/vectors.sha256"

# Pinned upstream commits (docs/test-data.md has the table).
ACVP=https://raw.githubusercontent.com/usnistgov/ACVP-Server/112690e8484dba7077709a05b1f3af58ddefdd5d/gen-val/json-files
CCTV=https://raw.githubusercontent.com/C2SP/CCTV/fa0aba29aa957a6fb40b02a3ff6da0352c0b278d/ML-KEM
WYCHEPROOF=https://raw.githubusercontent.com/C2SP/wycheproof/ee7b4f7e611928cbe163dc6f5e54527bfd166f34
NTRU_KAT=https://raw.githubusercontent.com/bcgit/bc-test-data/1f980d7d6a993ea48864384663cf303ab2052ada/pqc/crypto/ntru
RFC9935=https://raw.githubusercontent.com/lamps-wg/kyber-certificates/b013568cc0bc9ab3f7b7146d56168986f2e89cd9/example
# draft-ietf-hpke-pq's test vectors (tests/hpke): one file with its own directory and pinned
# SHA-256, outside the manifest (which checks the vectors directory file by file).
HPKE_PQ=https://raw.githubusercontent.com/hpkewg/hpke-pq/74dafaa65f79a5eaa210af7ba967e5425a21d05b/test-vectors.json
HPKE_FILE=hpke-pq-test-vectors.json
HPKE_SHA256=ba1f90672903e0df25610a1eef84b5f157e44d34849c0a72a2f9b164f3213888

# One line per file: local path, how the upstream bytes become the local file, upstream URL.
#   copy      the bytes as served
#   newline   the bytes plus a final newline if they lack one (ACVP-Server serves its JSON without
#             one; the copy in the vectors directory has it)
sources() {
  local d s
  for d in ML-KEM-keyGen-FIPS203 ML-KEM-encapDecap-FIPS203; do
    for s in prompt expectedResults; do
      echo "mlkem/acvp/$d/$s.json newline $ACVP/$d/$s.json"
    done
  done
  for s in 512 768 1024; do
    echo "mlkem/cctv/strcmp/ML-KEM-$s.txt copy $CCTV/strcmp/ML-KEM-$s.txt"
    echo "mlkem/cctv/modulus/ML-KEM-$s.txt.gz copy $CCTV/modulus/ML-KEM-$s.txt.gz"
    echo "mlkem/cctv/unluckysample/ML-KEM-$s.txt copy $CCTV/unluckysample/ML-KEM-$s.txt"
  done
  for s in test encaps_test keygen_seed_test semi_expanded_decaps_test; do
    echo "mlkem/wycheproof/mlkem_512_$s.json copy $WYCHEPROOF/testvectors_v1/mlkem_512_$s.json"
  done
  echo "mlkem/wycheproof/LICENSE copy $WYCHEPROOF/LICENSE"
  echo "ntru/PQCkemKAT_935.rsp copy $NTRU_KAT/ntruhps2048509/PQCkemKAT_935.rsp"
  for s in ML-KEM-512 ML-KEM-768; do
    for f in "$s-seed.priv" "$s-expanded.priv" "$s-both.priv" "$s.pub"; do
      echo "formats/rfc9935/$f copy $RFC9935/$f"
      echo "formats/rfc9935/$f.txt copy $RFC9935/$f.txt"
    done
  done
  echo "formats/rfc9935/bad-ML-KEM-512-1.priv copy $RFC9935/bad-ML-KEM-512-1.priv"
  echo "formats/rfc9935/bad-ML-KEM-512-2.priv copy $RFC9935/bad-ML-KEM-512-2.priv"
}

die() { echo "fetch-vectors: $*" >&2; exit 1; }

# expected_sha PATH: the manifest's SHA-256 of PATH (empty if unlisted).
expected_sha() { awk -v p="$1" '$2 == p { print $1 }' "$MANIFEST"; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }

verify() {
  local dir=$1 bad=0 sha path want
  [[ -d $dir ]] || die "no such directory: $dir"
  while read -r sha path; do
    if [[ ! -f $dir/$path ]]; then
      echo "MISSING  $path"; bad=1
    elif [[ $(sha_of "$dir/$path") != "$sha" ]]; then
      echo "CHANGED  $path"; bad=1
    fi
  done <"$MANIFEST"
  # Every file in the directory must be listed, so a file added to the shared vectors without
  # a manifest line (and so without a pinned source) is caught.
  while IFS= read -r -d '' path; do
    path=${path#"$dir"/}
    [[ $path == README.md ]] && continue
    want=$(expected_sha "$path")
    [[ -n $want ]] || { echo "UNLISTED $path"; bad=1; }
  done < <(find "$dir" -type f -print0)
  if ((bad)); then
    echo "fetch-vectors: $dir does not match $MANIFEST" >&2
    return 1
  fi
  echo "fetch-vectors: $dir matches all $(wc -l <"$MANIFEST") files of the manifest"
}

download() {  # download URL FILE
  if command -v curl >/dev/null; then
    curl -fsSL --retry 3 -o "$2" "$1"
  elif command -v wget >/dev/null; then
    wget -q -O "$2" "$1"
  else
    die "needs curl or wget"
  fi
}

# install_checked TMPFILE DIR PATH: moves TMPFILE to DIR/PATH if its SHA-256 is the manifest's.
install_checked() {
  local want got
  want=$(expected_sha "$3")
  [[ -n $want ]] || die "internal: $3 is not in $MANIFEST"
  got=$(sha_of "$1")
  if [[ $got != "$want" ]]; then
    echo "BAD      $3: SHA-256 $got, manifest $want" >&2
    rm -f "$1"
    return 1
  fi
  mkdir -p "$(dirname "$2/$3")"
  mv -f "$1" "$2/$3"
}

# The OpenSSL 3.5.3 files, from their seeds (the seeds are in the files themselves).
SEED512=b91fa81e63582520202d46b85059b4161eb24ae1d3d5c7062fa46818a842d1053025faef3512ac819f072bed48f08443cb0eb087f315e6d7648ecb3cea6070d6
SEED768=9fcc1d7d7569962795ce1aa450cd3ba194089bbe006cf119ddd4e4f0d8e35a0b680d804fe27efaf44d162d2fbf6f71beb90351f64f24f0794490f1ff6a8ea533
openssl_files() { grep -o ' formats/openssl-3\.5\.3/.*' "$MANIFEST" | tr -d ' '; }

regenerate_openssl() {  # regenerate_openssl TMPDIR DIR; returns 1 if any file is still missing
  local tmp=$1 dir=$2 out=$1/openssl-3.5.3 fmt f ok=1 v
  v=$(openssl version 2>/dev/null | awk '{print $2}') || v=
  if [[ -z $v ]] || ! printf '3.5\n%s\n' "${v%%-*}" | sort -V -C; then
    echo "fetch-vectors: no openssl >= 3.5 (found: ${v:-none}); provided only:" >&2
    openssl_files | sed 's/^/  /' >&2
    return 1
  fi
  mkdir -p "$out"
  # The private-key form OpenSSL writes is a provider setting (EVP_PKEY-ML-KEM(7),
  # "ml-kem.output_formats"), set through a configuration file.
  conf() {
    printf '%s\n' 'openssl_conf = init' '[init]' 'providers = prov' '[prov]' 'default = dflt' \
      '[dflt]' 'activate = 1' "ml-kem.output_formats = $1" >"$out/$1.cnf"
    echo "$out/$1.cnf"
  }
  (
    set -e
    cd "$out"
    openssl genpkey -algorithm ML-KEM-768 -pkeyopt "hexseed:$SEED768" -out mlkem768-both.pem
    openssl genpkey -algorithm ML-KEM-512 -pkeyopt "hexseed:$SEED512" -out mlkem512-both.pem
    for fmt in seed expanded both; do
      case $fmt in seed) f=seed-only ;; expanded) f=priv-only ;; both) f=seed-priv ;; esac
      OPENSSL_CONF=$(conf $f) openssl pkey -in mlkem768-both.pem -out "mlkem768-$fmt.pem"
      OPENSSL_CONF=$(conf $f) openssl pkey -in mlkem768-both.pem -outform DER -out "mlkem768-$fmt.der"
    done
    OPENSSL_CONF=$(conf seed-only) openssl pkey -in mlkem512-both.pem -outform DER -out mlkem512-seed.der
    openssl pkey -in mlkem768-both.pem -pubout -out mlkem768-pub.pem
    openssl pkey -in mlkem768-both.pem -pubout -outform DER -out mlkem768-pub.der
    openssl pkey -in mlkem512-both.pem -pubout -outform DER -out mlkem512-pub.der
    openssl pkey -in mlkem768-seed.pem -noout -text >mlkem768-seed.text.txt
    openssl pkey -in mlkem768-expanded.pem -noout -text >mlkem768-expanded.text.txt
    openssl pkey -pubin -in mlkem768-pub.pem -noout -text >mlkem768-pub.text.txt
  ) || { echo "fetch-vectors: openssl $v could not regenerate the OpenSSL files" >&2; return 1; }
  while read -r f; do
    if [[ -f $out/${f##*/} ]]; then
      install_checked "$out/${f##*/}" "$dir" "$f" || ok=0
    else
      ok=0
    fi
  done < <(openssl_files)
  ((ok)) || { echo "fetch-vectors: openssl $v does not write the OpenSSL 3.5.3 files byte for byte; copy them from an existing vectors directory" >&2; return 1; }
}

TMP=
fetch() {
  local dir=$1 path how url failed=0
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  TMP=$(mktemp -d "$dir/.fetch.XXXXXX")
  trap 'rm -rf "$TMP"' EXIT
  local tmp=$TMP
  while read -r path how url; do
    if [[ -f $dir/$path && $(sha_of "$dir/$path") == "$(expected_sha "$path")" ]]; then
      continue  # already there and correct
    fi
    echo "fetching $path"
    if ! download "$url" "$tmp/file"; then
      echo "FAILED   $path: $url" >&2; failed=1; continue
    fi
    if [[ $how == newline && -s $tmp/file && $(tail -c1 "$tmp/file" | od -An -c | tr -d ' ') != '\n' ]]; then
      printf '\n' >>"$tmp/file"
    fi
    install_checked "$tmp/file" "$dir" "$path" || failed=1
  done < <(sources)
  local missing_openssl=0 f
  while read -r f; do
    [[ -f $dir/$f && $(sha_of "$dir/$f") == "$(expected_sha "$f")" ]] || missing_openssl=1
  done < <(openssl_files)
  if ((missing_openssl)); then
    regenerate_openssl "$tmp" "$dir" || failed=1
  fi
  rm -rf "$tmp"
  ((failed == 0)) || die "some files could not be fetched (above); $dir is incomplete"
  # The marker the build and scripts/test.sh look for (documentation only: not in the manifest).
  [[ -f $dir/README.md ]] ||
    printf '%s\n' "# Test data for pqkem" "" \
      "Fetched by scripts/fetch-vectors.sh; docs/test-data.md in the pqkem repository says what" \
      "each file is, where it comes from (pinned upstream commits) and under which licence." \
      >"$dir/README.md"
  verify "$dir"
}

verify_hpke() {  # verify_hpke DIR
  local got
  [[ -f $1/$HPKE_FILE ]] || { echo "MISSING  $HPKE_FILE" >&2; return 1; }
  got=$(sha_of "$1/$HPKE_FILE")
  [[ $got == "$HPKE_SHA256" ]] || { echo "CHANGED  $HPKE_FILE: SHA-256 $got, pinned $HPKE_SHA256" >&2; return 1; }
  echo "fetch-vectors: $1/$HPKE_FILE is the pinned file"
}

fetch_hpke() {  # fetch_hpke DIR: download, check the SHA-256, then move into place
  local dir=$1 tmp got
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [[ -f $dir/$HPKE_FILE && $(sha_of "$dir/$HPKE_FILE") == "$HPKE_SHA256" ]]; then
    verify_hpke "$dir"
    return
  fi
  echo "fetching $HPKE_FILE"
  tmp=$(mktemp "$dir/.fetch.XXXXXX")
  download "$HPKE_PQ" "$tmp" || { rm -f "$tmp"; die "could not fetch $HPKE_PQ"; }
  got=$(sha_of "$tmp")
  if [[ $got != "$HPKE_SHA256" ]]; then
    rm -f "$tmp"
    die "$HPKE_FILE: SHA-256 $got, pinned $HPKE_SHA256; not written"
  fi
  mv -f "$tmp" "$dir/$HPKE_FILE"
  verify_hpke "$dir"
}

# Every manifest line has a source or is an OpenSSL file, and vice versa.
self_check() {
  diff <( (sources | awk '{print $1}'; openssl_files) | LC_ALL=C sort) \
       <(awk '{print $2}' "$MANIFEST" | LC_ALL=C sort) >&2 ||
    die "the source list and $MANIFEST disagree (diff above: < only in the script, > only in the manifest)"
}

case "${1:-}" in
  --verify)
    (($# == 2)) || die "usage: scripts/fetch-vectors.sh --verify DIR"
    self_check
    verify "$2" ;;
  --check-manifest)
    (($# == 1)) || die "usage: scripts/fetch-vectors.sh --check-manifest"
    self_check
    echo "fetch-vectors: every one of the $(wc -l <"$MANIFEST") manifest files has a source" ;;
  --hpke)
    (($# <= 2)) || die "usage: scripts/fetch-vectors.sh --hpke [DIR]"
    fetch_hpke "${2:-$ROOT/../shared/hpke}" ;;
  --verify-hpke)
    (($# == 2)) || die "usage: scripts/fetch-vectors.sh --verify-hpke DIR"
    verify_hpke "$2" ;;
  -h|--help)
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" ;;
  -*) die "unknown option $1 (usage: scripts/fetch-vectors.sh [--verify] [DIR])" ;;
  *)
    (($# <= 1)) || die "usage: scripts/fetch-vectors.sh [DIR]"
    self_check
    fetch "${1:-$ROOT/../shared/vectors}"
    # Without a DIR, the HPKE vectors too, to their default place.
    (($# == 1)) || fetch_hpke "$ROOT/../shared/hpke" ;;
esac
