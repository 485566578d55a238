#!/usr/bin/env bash
# Interoperability of `pqkem seal --raw` / `pqkem open --raw` with hpke-js, both ways:
#
#   hpke_js_test.sh PQKEM_BINARY NODE_DIR
#
# Installs the hpke-js packages pinned in package-lock.json (beside this script) with `npm ci`
# into NODE_DIR (in the build tree; npm's cache goes there too), then runs hpke_js.mjs from a
# copy there. Without node it skips (exit 77), saying why, unless CI is set (not to 0 or false,
# as scripts/test.sh reads it), where it fails: CI installs node (scripts/deps.sh). A failed
# `npm ci` (npm missing, registry unreachable, integrity mismatch) always fails.
#
# Pinned: @hpke/core 1.9.0, @hpke/ml-kem 0.3.0, @hpke/hybridkem-x-wing 0.7.0,
# @hpke/chacha20poly1305 1.8.0 (with @hpke/common 1.10.1, @hpke/dhkem-x25519 1.8.0, mlkem 2.7.0).
#
# Covered: 36 suites, every one both implement: KEM ML-KEM-512, ML-KEM-768, ML-KEM-1024,
# X-Wing (MLKEM768-X25519, 0x647A) x KDF HKDF-SHA256, HKDF-SHA384, HKDF-SHA512 x AEAD
# AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305 (@hpke/core has no ChaCha20-Poly1305:
# @hpke/chacha20poly1305 brings it). Each suite both ways (pqkem seals and hpke-js opens;
# hpke-js seals and pqkem opens), each in base mode, base mode with info, and PSK mode with info
# (216 round trips; info as text, or in the first suite of each KEM and direction as @FILE
# holding every byte value; the PSK file raw one way, hex the other; plaintexts of 0 to 100003
# bytes). Per KEM and direction, 11 inputs both sides must reject (88 rejections): enc's first
# or last byte, ct's first byte or the tag's last flipped, the last byte cut off, another info,
# PSK, PSK id, no PSK, KDF or AEAD; the four KEMs' sealed messages between them use every KDF
# and every AEAD. The private key crosses as the drafts' serialization, the seed (64 bytes
# d || z for ML-KEM, 32 for X-Wing), and `pqkem pubkey` must derive hpke-js's public key from it.
#
# Not covered, and why:
# - the KDFs SHAKE128, SHAKE256, TurboSHAKE128, TurboSHAKE256 (0x0010-0x0013): hpke-js has none
#   (KdfId names them, no package implements them; hpke_js.mjs fails if @hpke/core ever exports
#   one, so that a new pin adds them here);
# - the export-only AEAD and Export(): `pqkem seal` and `open` have no exporter;
# - aad and multi-message contexts: --raw is RFC 9180's single-shot Seal/Open, empty aad; pqkem's
#   own sealed-file format (header and 64 KiB chunks) is pqkem's, hpke-js does not read it;
# - DeriveKeyPair: the CLI has none (the library's is checked against draft-ietf-hpke-pq's
#   vectors in tests/hpke); hpke-js 0.3.0 / 0.7.0 derive other keys than the draft's
#   SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "", Nsk) (the ML-KEM ikm taken as the seed,
#   X-Wing's as SHAKE256(ikm, 32)), so keys cross as seeds, never as ikm;
# - the Auth modes: draft-ietf-hpke-hpke removed them and the PQ KEMs have no AuthEncap.
set -u
PQ=${1:?usage: hpke_js_test.sh PQKEM_BINARY NODE_DIR}
NODE_DIR=${2:?missing NODE_DIR}
HERE=$(cd "${BASH_SOURCE[0]%/*}" && pwd)

ci=0
[[ -n ${CI:-} && ${CI} != 0 && ${CI} != false ]] && ci=1

[[ -x $PQ ]] || { echo "FATAL: pqkem binary '$PQ' is not executable" >&2; exit 1; }
if ! command -v node >/dev/null; then
  if ((ci)); then
    echo "FAIL: node is not installed (CI is set: scripts/deps.sh installs nodejs and npm)" >&2
    exit 1
  fi
  echo "skip: node is not installed: the hpke-js interop test needs Node.js (>= 18) and npm (Debian: apt-get install nodejs npm, or scripts/deps.sh)"
  exit 77
fi
echo "node $(node --version), npm $(npm --version 2>/dev/null || echo missing)"

# npm ci into the build tree, from the committed lock: exact versions, integrity checked, no
# install scripts. It empties NODE_DIR/node_modules first; the cache there makes reruns local.
mkdir -p "$NODE_DIR" || exit 1
cp "$HERE/package.json" "$HERE/package-lock.json" "$HERE/hpke_js.mjs" "$NODE_DIR/" || exit 1
start=$SECONDS
if ! (cd "$NODE_DIR" && npm ci --cache "$NODE_DIR/.npm-cache" --prefer-offline --ignore-scripts --no-audit \
        --no-fund --no-update-notifier --loglevel=error --fetch-timeout=60000 --fetch-retries=2); then
  echo "FAIL: npm ci of tests/interop/package-lock.json into $NODE_DIR failed (above)$( ((ci)) && echo ': CI must be able to install the pinned hpke-js packages')" >&2
  exit 1
fi
echo "npm ci took $((SECONDS - start)) s"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/pqkem-interop.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
(cd "$NODE_DIR" && node hpke_js.mjs "$PQ" "$WORK")
