// pqkem seal / open against hpke-js, both ways (run by hpke_js_test.sh, which installs the
// packages of package-lock.json next to a copy of this file; what is covered, and what is not
// and why, is in that script's header):
//
//   node hpke_js.mjs PQKEM_BINARY WORKDIR
//
// pqkem -> hpke-js: pqkem keygen writes the key pair (the private key as its seed, the drafts'
// serialization), `pqkem seal --raw` seals, hpke-js opens enc || ct with the imported seed.
// hpke-js -> pqkem: hpke-js generates the key pair and seals, the seed is written raw, and
// `pqkem open --raw -a KEM` opens. Every suite both implement, in base mode, base mode with
// info, and PSK mode with info; then per KEM and direction a tampered or mismatched input that
// both sides must reject. Plaintexts are compared byte for byte. Exit 0 when every check passed,
// 1 otherwise; each failure is printed.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as core from "@hpke/core";
import { Aes128Gcm, Aes256Gcm, CipherSuite, HkdfSha256, HkdfSha384, HkdfSha512, OpenError } from "@hpke/core";
import { Chacha20Poly1305 } from "@hpke/chacha20poly1305";
import { MlKem1024, MlKem512, MlKem768 } from "@hpke/ml-kem";
import { XWing } from "@hpke/hybridkem-x-wing";

const [PQ, WORK] = process.argv.slice(2);
if (!PQ || !WORK) {
  console.error("usage: node hpke_js.mjs PQKEM_BINARY WORKDIR");
  process.exit(2);
}

// The sizes are the drafts' (draft-ietf-hpke-pq's IANA tables), not read from either side.
const KEMS = [
  { name: "ML-KEM-512", make: () => new MlKem512(), nEnc: 768, nPk: 800, nSk: 64 },
  { name: "ML-KEM-768", make: () => new MlKem768(), nEnc: 1088, nPk: 1184, nSk: 64 },
  { name: "ML-KEM-1024", make: () => new MlKem1024(), nEnc: 1568, nPk: 1568, nSk: 64 },
  { name: "X-Wing", make: () => new XWing(), nEnc: 1120, nPk: 1216, nSk: 32 },
];
const KDFS = [
  { name: "HKDF-SHA256", make: () => new HkdfSha256() },
  { name: "HKDF-SHA384", make: () => new HkdfSha384() },
  { name: "HKDF-SHA512", make: () => new HkdfSha512() },
];
const AEADS = [
  { name: "AES-128-GCM", make: () => new Aes128Gcm() },
  { name: "AES-256-GCM", make: () => new Aes256Gcm() },
  { name: "ChaCha20-Poly1305", make: () => new Chacha20Poly1305() },
];
const TAG = 16;
// Plaintext sizes, taken in turn: empty, one byte, around the AEAD block and tag, around 64 KiB.
const SIZES = [0, 1, 15, 16, 17, 255, 4096, 65535, 65536, 65537, 100003];

let checks = 0;
const failures = [];
function check(ok, what) {
  checks++;
  if (!ok) {
    failures.push(what);
    console.error(`FAIL: ${what}`);
  }
  return ok;
}

const utf8 = (s) => new TextEncoder().encode(s);
const bytes = (buf) => new Uint8Array(buf);
const concat = (a, b) => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
};
const equal = (a, b) => Buffer.from(a).equals(Buffer.from(b));
const hexOf = (b) => Buffer.from(b).toString("hex");
// What differs between two byte strings, for a failure message.
function diff(got, want) {
  if (got.length !== want.length) return `${got.length} bytes, expected ${want.length}`;
  let i = 0;
  while (i < got.length && got[i] === want[i]) i++;
  return `first difference at byte ${i} of ${got.length}`;
}
// A copy of b whose byte i is flipped (xor 0x01); i < 0 counts from the end.
function flipped(b, i) {
  const out = Uint8Array.from(b);
  out[i < 0 ? b.length + i : i] ^= 0x01;
  return out;
}

// Runs pqkem; {status, stdout, stderr}.
function pqkem(args, input) {
  const r = spawnSync(PQ, args, { input, maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr.toString() };
}
// pqkem must succeed, silently on stderr (as the CLI tests require).
function pqkemOk(args, what) {
  const r = pqkem(args);
  return check(r.status === 0 && r.stderr === "", `${what}: pqkem ${args.join(" ")} -> exit ${r.status}${r.signal ? ` (${r.signal})` : ""}: ${r.stderr.trim()}`);
}
// pqkem must fail with exit 1, one "pqkem: " line on stderr, and no output file.
function pqkemRejects(args, out, what) {
  const r = pqkem(args);
  const oneLine = /^pqkem: [^\n]*\n$/.test(r.stderr);
  check(r.status === 1 && oneLine, `${what}: pqkem should fail with exit 1 and one 'pqkem: ' line, got exit ${r.status}: ${r.stderr.trim()}`);
  check(!existsSync(out), `${what}: pqkem left ${out} behind`);
}

// The HPKE parameters of a case, for both sides: info (bytes), psk {key, id} or undefined.
// pqkem reads --info as text or @FILE and --psk from a file, raw or hex.
let fileNo = 0;
function pqkemArgs(c) {
  const args = ["--kdf", c.kdf.name, "--aead", c.aead.name];
  if (c.info !== undefined) {
    if (c.infoText !== undefined) {
      args.push("--info", c.infoText);
    } else {
      const f = join(WORK, `info.${fileNo++}`);
      writeFileSync(f, c.info);
      args.push("--info", `@${f}`);
    }
  }
  if (c.psk !== undefined) {
    const f = join(WORK, `psk.${fileNo++}`);
    writeFileSync(f, c.pskHex ? hexOf(c.psk.key) + "\n" : c.psk.key);
    args.push("--psk", f, "--psk-id", c.pskIdText);
  }
  return args;
}
function hpkeParams(c) {
  const p = {};
  if (c.info !== undefined) p.info = c.info;
  if (c.psk !== undefined) p.psk = { key: c.psk.key, id: c.psk.id };
  return p;
}
const suiteOf = (kem, c) => new CipherSuite({ kem, kdf: c.kdf.make(), aead: c.aead.make() });
function describe(kemDef, c, mode) {
  return `${kemDef.name} ${c.kdf.name} ${c.aead.name} ${mode}, ${c.pt.length}-byte message`;
}

// A PSK of 32 to 64 bytes with a zero byte in it, so that pqkem reads the file as raw bytes,
// never as text; and its identifier, as text (UTF-8).
function newPsk(n) {
  const key = randomBytes(n);
  key[0] = 0;
  return key;
}
const PSK_ID = "psk-id \u00e9\u00e8 \u2194";
const INFO = "pqkem \u2194 hpke-js interop";
const INFO_BINARY = Uint8Array.from({ length: 256 }, (_, i) => 255 - i);  // via --info @FILE

// The cases of one KEM and direction: every KDF x AEAD in three modes, sizes in turn.
function cases(kemIndex, pskHex) {
  const out = [];
  let n = kemIndex;
  for (const kdf of KDFS) {
    for (const aead of AEADS) {
      for (const mode of ["base", "base+info", "psk+info"]) {
        const c = { kdf, aead, mode, pt: randomBytes(SIZES[n++ % SIZES.length]) };
        if (mode !== "base") {
          // --info as text, or in the first suite as @FILE holding every byte value.
          if (kdf === KDFS[0] && aead === AEADS[0]) c.info = INFO_BINARY;
          else {
            c.infoText = INFO;
            c.info = utf8(INFO);
          }
        }
        if (mode === "psk+info") {
          c.psk = { key: newPsk(32 + (n % 33)), id: utf8(PSK_ID) };
          c.pskIdText = PSK_ID;
          c.pskHex = pskHex;
        }
        out.push(c);
      }
    }
  }
  return out;
}

// The ways an input must fail to open, on either side: c is a PSK-mode case, sealed as enc || ct.
// Each: [description, enc, ct, the case as the recipient gives it].
function rejections(kemDef, c, enc, ct) {
  const other = (f) => ({ ...c, ...f });
  const otherKdf = KDFS[(KDFS.indexOf(c.kdf) + 1) % KDFS.length];
  const otherAead = AEADS[(AEADS.indexOf(c.aead) + 1) % AEADS.length];
  return [
    ["enc's first byte flipped", flipped(enc, 0), ct, c],
    ["enc's last byte flipped", flipped(enc, -1), ct, c],
    ["ct's first byte flipped", enc, flipped(ct, 0), c],
    ["the tag's last byte flipped", enc, flipped(ct, -1), c],
    ["the last byte cut off", enc, ct.subarray(0, ct.length - 1), c],
    ["another info", enc, ct, other({ info: utf8(INFO + "!"), infoText: INFO + "!" })],
    ["another PSK", enc, ct, other({ psk: { key: flipped(c.psk.key, -1), id: c.psk.id } })],
    ["another PSK id", enc, ct, other({ psk: { key: c.psk.key, id: utf8(PSK_ID + "2") }, pskIdText: PSK_ID + "2" })],
    ["base mode (no PSK)", enc, ct, other({ psk: undefined })],
    [`another KDF (${otherKdf.name})`, enc, ct, other({ kdf: otherKdf })],
    [`another AEAD (${otherAead.name})`, enc, ct, other({ aead: otherAead })],
  ];
}

// The PSK-mode case whose output the rejections alter: suite 0, 4, 8 and 3 of the nine for the
// four KEMs, so that between them they take every KDF and every AEAD.
function rejectionCase(pskCases, kemIndex) {
  return pskCases[(kemIndex * 4) % pskCases.length];
}

// hpke-js opens; the plaintext, or the error. The key is imported from a copy of its own:
// hpke-js's importKey("raw") keeps the Uint8Array and later serializes key.buffer, the whole
// ArrayBuffer behind it, so a view into a larger one (a Node Buffer from readFileSync sits in
// an 8 KiB pool) fails with "Invalid length of recipientKey".
async function jsOpen(kemDef, sk, c, enc, ct) {
  const kem = kemDef.make();
  const recipientKey = await kem.importKey("raw", Uint8Array.from(sk), false);
  return bytes(await suiteOf(kem, c).open({ recipientKey, enc, ...hpkeParams(c) }, ct));
}

// ---- pqkem seals, hpke-js opens ----
async function pqkemToJs(kemDef, kemIndex) {
  const dir = join(WORK, `pq-${kemDef.name}`);
  const pk = `${dir}.pk`;
  const sk = `${dir}.sk`;
  const keyArgs = kemDef.name === "X-Wing" ? [] : ["--sk-form", "seed"];
  if (!pqkemOk(["keygen", "-a", kemDef.name, "--pk", pk, "--sk", sk, "--format", "bin", ...keyArgs], `${kemDef.name} keygen`)) return;
  const seed = readFileSync(sk);
  const pub = readFileSync(pk);
  check(seed.length === kemDef.nSk, `${kemDef.name}: pqkem's private key is ${seed.length} bytes, the seed has ${kemDef.nSk}`);
  check(pub.length === kemDef.nPk, `${kemDef.name}: pqkem's public key is ${pub.length} bytes, expected ${kemDef.nPk}`);

  const pskCases = [];
  for (const c of cases(kemIndex, false)) {
    const what = `pqkem -> hpke-js ${describe(kemDef, c, c.mode)}`;
    const inFile = join(WORK, `pt.${fileNo++}`);
    const sealed = join(WORK, `sealed.${fileNo++}`);
    writeFileSync(inFile, c.pt);
    if (!pqkemOk(["seal", "--raw", "--pk", pk, "--in", inFile, "--out", sealed, ...pqkemArgs(c)], what)) continue;
    const out = readFileSync(sealed);
    if (!check(out.length === kemDef.nEnc + c.pt.length + TAG, `${what}: --raw output is ${out.length} bytes, expected enc ${kemDef.nEnc} + ${c.pt.length} + tag ${TAG}`)) continue;
    const enc = out.subarray(0, kemDef.nEnc);
    const ct = out.subarray(kemDef.nEnc);
    try {
      const pt = await jsOpen(kemDef, seed, c, enc, ct);
      check(equal(pt, c.pt), `${what}: hpke-js opened other bytes: ${diff(pt, c.pt)}`);
    } catch (e) {
      check(false, `${what}: hpke-js does not open it: ${e.name}: ${e.message}`);
    }
    if (c.psk) pskCases.push({ c, enc, ct });
  }

  // hpke-js must reject what was tampered with or is opened with other parameters.
  const { c, enc, ct } = rejectionCase(pskCases, kemIndex);
  for (const [how, e2, ct2, c2] of rejections(kemDef, c, enc, ct)) {
    const what = `pqkem -> hpke-js ${describe(kemDef, c, "psk+info")}, ${how}`;
    try {
      await jsOpen(kemDef, seed, c2, e2, ct2);
      check(false, `${what}: hpke-js opened it`);
    } catch (e) {
      check(e instanceof OpenError, `${what}: hpke-js should throw OpenError, threw ${e.name}: ${e.message}`);
    }
  }
}

// ---- hpke-js seals, pqkem opens ----
async function jsToPqkem(kemDef, kemIndex) {
  const kem = kemDef.make();
  const kp = await kem.generateKeyPair();
  const seed = bytes(await kem.serializePrivateKey(kp.privateKey));
  const pub = bytes(await kem.serializePublicKey(kp.publicKey));
  check(seed.length === kemDef.nSk, `${kemDef.name}: hpke-js's private key is ${seed.length} bytes, the seed has ${kemDef.nSk}`);
  const sk = join(WORK, `js-${kemDef.name}.seed`);
  writeFileSync(sk, seed);
  // The same seed gives the same public key on both sides.
  const pubFile = join(WORK, `js-${kemDef.name}.pk`);
  if (pqkemOk(["pubkey", "-a", kemDef.name, "--sk", sk, "--pk", pubFile, "--format", "bin"], `${kemDef.name} pubkey`)) {
    const pqPub = readFileSync(pubFile);
    check(equal(pqPub, pub), `${kemDef.name}: pqkem derives another public key from hpke-js's seed: ${diff(pqPub, pub)}`);
  }

  const pskCases = [];
  for (const c of cases(kemIndex, true)) {
    const what = `hpke-js -> pqkem ${describe(kemDef, c, c.mode)}`;
    const sender = kemDef.make();
    const recipientPublicKey = await sender.importKey("raw", pub, true);
    let enc, ct;
    try {
      ({ enc, ct } = await suiteOf(sender, c).seal({ recipientPublicKey, ...hpkeParams(c) }, c.pt));
    } catch (e) {
      check(false, `${what}: hpke-js does not seal: ${e.name}: ${e.message}`);
      continue;
    }
    enc = bytes(enc);
    ct = bytes(ct);
    check(enc.length === kemDef.nEnc && ct.length === c.pt.length + TAG, `${what}: hpke-js wrote enc ${enc.length} and ct ${ct.length} bytes`);
    const sealed = join(WORK, `sealed.${fileNo++}`);
    const opened = join(WORK, `opened.${fileNo++}`);
    writeFileSync(sealed, concat(enc, ct));
    if (pqkemOk(["open", "--raw", "-a", kemDef.name, "--sk", sk, "--in", sealed, "--out", opened, ...pqkemArgs(c)], what)) {
      const pt = readFileSync(opened);
      check(equal(pt, c.pt), `${what}: pqkem opened other bytes: ${diff(pt, c.pt)}`);
    }
    if (c.psk) pskCases.push({ c, enc, ct });
  }

  // pqkem must reject what was tampered with or is opened with other parameters.
  const { c, enc, ct } = rejectionCase(pskCases, kemIndex);
  for (const [how, e2, ct2, c2] of rejections(kemDef, c, enc, ct)) {
    const what = `hpke-js -> pqkem ${describe(kemDef, c, "psk+info")}, ${how}`;
    const sealed = join(WORK, `sealed.${fileNo++}`);
    const opened = join(WORK, `opened.${fileNo++}`);
    writeFileSync(sealed, concat(e2, ct2));
    pqkemRejects(["open", "--raw", "-a", kemDef.name, "--sk", sk, "--in", sealed, "--out", opened, ...pqkemArgs(c2)], opened, what);
  }
}

// The coverage above is hpke-js's as pinned: HKDF only, no SHAKE or TurboSHAKE KDF. Should a new
// pin bring one, this fails so that the suites (and the header of hpke_js_test.sh) are updated.
const newKdfs = Object.keys(core).filter((k) => /shake|sha3(?:224|256|384|512)/i.test(k));
check(newKdfs.length === 0, `@hpke/core now exports ${newKdfs.join(", ")}: cover it in the suites`);

// What npm ci installed, for the log.
const installed = ["@hpke/core", "@hpke/ml-kem", "@hpke/hybridkem-x-wing", "@hpke/chacha20poly1305", "@hpke/common", "mlkem"]
  .map((p) => `${p} ${JSON.parse(readFileSync(new URL(`./node_modules/${p}/package.json`, import.meta.url))).version}`);
console.log(`hpke-js: ${installed.join(", ")}`);

const started = Date.now();
for (const [i, kemDef] of KEMS.entries()) {
  await pqkemToJs(kemDef, i);
  await jsToPqkem(kemDef, i);
}
const suites = KEMS.length * KDFS.length * AEADS.length;
console.log(`hpke-js interop: ${suites} suites (${KEMS.length} KEMs x ${KDFS.length} KDFs x ${AEADS.length} AEADs), ` +
  `both directions, base, base+info and psk+info; ${checks} checks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${checks - failures.length} passed, ${failures.length} failed`);
process.exit(failures.length === 0 ? 0 : 1);
