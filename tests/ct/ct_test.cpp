// pqkem constant-time test: keygen, encaps and decaps (valid and invalid ciphertexts) of one or
// every scheme on one implementation, meant to run under valgrind's memcheck.
//
// It links pqkemlib_ct, the library compiled with -DPQKEM_CT_TESTING: there, the public API
// (scheme.cpp) marks coins and secret keys undefined (ct::poison) on entry and defined again
// (ct::declassify) only where values become public: the public key, the ciphertext and the
// final shared secret. Any branch, memory index or system-call argument that depends on a
// secret is then a memcheck error ("Conditional jump or move depends on uninitialised
// value(s)", "Use of uninitialised value of size 8"), and `valgrind --error-exitcode=1` fails.
//
//   pqkem_ct_test --impl portable|avx2 [--scheme NAME]   every scheme, or one
//   pqkem_ct_test --selftest branch|index|clean          the method's own check (see below)
//
// Exit codes: 0 done (valgrind decides), 1 a functional failure (wrong shared secret),
// 2 usage, 77 the implementation is not usable on this CPU (ctest SKIP_RETURN_CODE).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "ct.hpp"
#include "hpke.hpp"
#include "pqkem.hpp"
#include "simd/dispatch.hpp"
#include "util/hex.hpp"

#if !defined(PQKEM_CT_TESTING)
#error "pqkem_ct_test must be compiled with PQKEM_CT_TESTING (it checks the poisoning build)"
#endif

namespace {

using pqkem::Bytes;
using pqkem::ByteView;
using pqkem::Scheme;
using pqkem::SchemeInfo;

int g_failures = 0;

void expect(bool ok, const SchemeInfo& info, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "FAIL %s: %s\n", std::string(info.name).c_str(), what);
  ++g_failures;
}

/// Deterministic, distinct coins per scheme and purpose (the values do not matter: they are
/// poisoned, so memcheck tracks every use whatever they are).
Bytes coins(std::size_t n, std::uint8_t tag) {
  Bytes b(n);
  std::uint32_t x = 0x9E3779B9u ^ tag;
  for (auto& v : b) {
    x = x * 1664525u + 1013904223u;
    v = static_cast<std::uint8_t>(x >> 24);
  }
  return b;
}

bool same(ByteView a, ByteView b) { return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0; }

void run_scheme(const SchemeInfo& info) {
  const Scheme s = info.scheme;
  const auto tag = static_cast<std::uint8_t>(static_cast<int>(s) * 16);

  // Key generation: deterministic (coins poisoned by the API) and randomized (random_bytes:
  // getrandom(2), whose output keygen poisons as it does given coins).
  const Bytes kg_coins = coins(info.keygen_coin_bytes(), tag);
  const pqkem::KeyPair kp = pqkem::keygen_derand(s, kg_coins);
  const pqkem::KeyPair kp2 = pqkem::keygen(s);

  // Encapsulation, deterministic and randomized.
  const Bytes enc_coins = coins(info.encaps_coin_bytes(), static_cast<std::uint8_t>(tag + 1));
  const pqkem::Encapsulation e = pqkem::encaps_derand(s, kp.pk, enc_coins);
  const pqkem::Encapsulation e2 = pqkem::encaps(s, kp.pk);

  // Decapsulation of valid ciphertexts: the shared secrets (declassified) must agree.
  const pqkem::SecretBytes ss = pqkem::decaps(s, kp.sk, e.ct);
  expect(same(ss, e.ss), info, "decaps(encaps_derand) shared secret differs");
  const pqkem::SecretBytes ss2 = pqkem::decaps(s, kp.sk, e2.ct);
  expect(same(ss2, e2.ss), info, "decaps(encaps) shared secret differs");

  // Invalid ciphertexts: implicit rejection must take the same code path (a flipped bit in
  // the first and in the last byte, and a ciphertext made for another key).
  for (const std::size_t pos : {std::size_t{0}, info.ct_bytes - 1}) {
    Bytes bad = e.ct;
    bad[pos] ^= (pos == 0) ? 0x01 : 0x10;  // NTRU: the last byte's high bits may be unused
    const pqkem::SecretBytes rej = pqkem::decaps(s, kp.sk, bad);
    expect(!same(rej, e.ss), info, "a modified ciphertext gave the original shared secret");
  }
  const pqkem::Encapsulation other = pqkem::encaps(s, kp2.pk);
  const pqkem::SecretBytes rej = pqkem::decaps(s, kp.sk, other.ct);
  expect(!same(rej, other.ss), info, "a ciphertext for another key gave its shared secret");

  // The secret-key check on a poisoned key (decaps runs it before the API poisons the key):
  // for NTRU it parses f and fp, which must be constant time; for ML-KEM it hashes the public
  // ek only, so dk_PKE and z are poisoned and must stay untouched; a hybrid re-expands its
  // seed and compares (everything but ML-KEM's ek || H(ek) poisoned: the seed and dk_PKE
  // before it, z, sk_X and pk_X after it).
  {
    pqkem::SecretBytes sk = kp.sk.clone();
    constexpr std::size_t kMlKem768DkPke = 1152, kMlKem768Ek = 1184;
    std::size_t prefix = sk.size(), suffix = 0;
    if (info.family == pqkem::Family::MlKem) {
      prefix = info.sk_bytes - info.pk_bytes - 64;
      suffix = 32;
    } else if (info.family == pqkem::Family::Hybrid) {
      prefix = info.seed_bytes + kMlKem768DkPke;
      suffix = info.sk_bytes - prefix - kMlKem768Ek - 32;
    }
    pqkem::ct::poison(sk.data(), prefix);
    pqkem::ct::poison(sk.data() + sk.size() - suffix, suffix);
    pqkem::check_secret_key(s, sk);
    pqkem::ct::declassify(sk.data(), sk.size());
  }

  // The public key recomputed from the secret key (NTRU inverts a secret-key polynomial).
  expect(same(pqkem::public_key_from_secret_key(s, kp.sk), kp.pk), info, "public_key_from_secret_key differs");

  // Secret keys are written and read as hex (the tool, the KAT files): both directions of the
  // codec on a poisoned key.
  {
    Bytes sk(kp.sk.data(), kp.sk.data() + kp.sk.size());
    std::string text(2 * sk.size(), '\0');
    Bytes back(sk.size());
    pqkem::ct::poison(sk.data(), sk.size());
    pqkem::hex::encode(sk.data(), sk.size(), text.data());
    bool ok = pqkem::hex::decode(text, back.data());
    pqkem::ct::declassify(&ok, sizeof ok);  // the verdict is public: the file is hex or it is not
    pqkem::ct::declassify(back.data(), back.size());
    pqkem::ct::declassify(sk.data(), sk.size());
    expect(ok && same(back, sk), info, "hex round trip of the secret key differs");
  }
}

/// HPKE (seal / open) over the scheme's KEM, for every KDF, base and PSK mode: DeriveKeyPair on
/// a poisoned ikm, the KEM on poisoned coins and keys (as above), and the key schedule on the
/// shared secret and PSK, which hpke.cpp poisons again after the KEM; the AEAD is libsodium's or
/// OpenSSL's and gets its key declassified (hpke.cpp). The export runs on the poisoned
/// exporter secret.
void run_hpke(const SchemeInfo& info, pqkem::hpke::KemId kem) {
  namespace hpke = pqkem::hpke;
  const auto tag = static_cast<std::uint8_t>(static_cast<int>(info.scheme) * 16 + 8);
  Bytes ikm = coins(64, tag);
  pqkem::ct::poison(ikm.data(), ikm.size());
  const pqkem::KeyPair kp = hpke::derive_key_pair(kem, ikm);
  pqkem::ct::declassify(ikm.data(), ikm.size());
  Bytes psk = coins(32, static_cast<std::uint8_t>(tag + 1));
  const Bytes psk_id = {'i', 'd'}, info_bytes = {'c', 't'}, aad = {'a'};
  Bytes pt = coins(100, static_cast<std::uint8_t>(tag + 2));
  for (const auto& kdf : hpke::all_kdfs()) {
    for (const bool with_psk : {false, true}) {
      const hpke::Suite suite{kem, kdf.id, hpke::AeadId::ChaCha20Poly1305};
      std::optional<hpke::Psk> p;
      if (with_psk) p = hpke::Psk{psk, psk_id};
      pqkem::ct::poison(psk.data(), psk.size());
      auto sender = hpke::setup_sender(suite, kp.pk, info_bytes, p);
      auto ct = sender.context.seal(aad, pt);
      auto recipient = hpke::setup_recipient(suite, sender.enc, kp.sk, info_bytes, p);
      pqkem::ct::declassify(psk.data(), psk.size());
      auto back = recipient.open(aad, ct);
      pqkem::SecretBytes x1 = sender.context.export_secret(info_bytes, 32);
      pqkem::SecretBytes x2 = recipient.export_secret(info_bytes, 32);
      pqkem::ct::declassify(x1.data(), x1.size());
      pqkem::ct::declassify(x2.data(), x2.size());
      expect(same(back, pt), info, "HPKE open(seal(pt)) differs");
      expect(same(x1, x2), info, "HPKE exports differ");
    }
  }
}

// ---- self-test: proves that poisoning plus memcheck catches secret-dependent code ----------

// Opaque sinks so the compiler cannot turn the branch below into a conditional move.
__attribute__((noinline)) void sink_odd() { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void sink_even() { __asm__ volatile("" ::: "memory"); }

/// Test-only, deliberately leaky: a branch on a secret bit.
__attribute__((noinline)) void leaky_branch(const std::uint8_t* secret) {
  if (secret[0] & 1)
    sink_odd();
  else
    sink_even();
}

/// Test-only, deliberately leaky: a table index derived from a secret (a cache-timing leak).
volatile std::uint8_t g_table[256];
__attribute__((noinline)) std::uint8_t leaky_index(const std::uint8_t* secret) { return g_table[secret[0]]; }

int selftest(std::string_view mode) {
  std::uint8_t secret[32];
  for (int i = 0; i < 32; ++i) secret[i] = static_cast<std::uint8_t>(i * 7 + 1);
  pqkem::ct::poison(secret, sizeof secret);
  if (mode == "clean") pqkem::ct::declassify(secret, sizeof secret);  // same code, public input
  if (mode == "branch" || mode == "clean") leaky_branch(secret);
  if (mode == "index" || mode == "clean") {
    volatile std::uint8_t v = leaky_index(secret);
    (void)v;
  }
  if (mode != "branch" && mode != "index" && mode != "clean") return 2;
  std::printf("selftest %s: done (memcheck %s report an error)\n", std::string(mode).c_str(),
              mode == "clean" ? "must not" : "must");
  return 0;
}

int usage() {
  std::fprintf(stderr,
               "usage: pqkem_ct_test --impl portable|avx2 [--scheme NAME]\n"
               "       pqkem_ct_test --selftest branch|index|clean\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string impl_name, scheme_name, self;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view opt = argv[i];
    if (opt == "--impl")
      impl_name = argv[i + 1];
    else if (opt == "--scheme")
      scheme_name = argv[i + 1];
    else if (opt == "--selftest")
      self = argv[i + 1];
    else
      return usage();
  }
  if (argc % 2 == 0) return usage();
  if (!self.empty()) return selftest(self);

  const auto impl = pqkem::simd::parse_impl(impl_name);
  if (!impl) return usage();
  if (!pqkem::simd::impl_usable(*impl)) {
    std::printf("skipped: %s is not usable here (%s)\n", impl_name.c_str(),
                std::string(pqkem::simd::impl_unusable_reason(*impl)).c_str());
    return 77;
  }
  pqkem::simd::set_impl(*impl);

  int ran = 0;
  try {
    for (const SchemeInfo& info : pqkem::all_schemes()) {
      if (!scheme_name.empty() && pqkem::parse_scheme(scheme_name) != info.scheme) continue;
      run_scheme(info);
      std::printf("%s on %s: keygen, encaps, decaps (valid, invalid) done\n", std::string(info.name).c_str(),
                  impl_name.c_str());
      for (const auto& kem : pqkem::hpke::all_kems()) {
        if (kem.scheme != info.scheme) continue;
        run_hpke(info, kem.id);
        std::printf("%s on %s: HPKE key pair, setup, seal, open, export (every KDF, base and PSK) done\n",
                    std::string(kem.name).c_str(), impl_name.c_str());
      }
      ++ran;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "FAIL: exception: %s\n", e.what());
    return 1;
  }
  if (ran == 0) return usage();
  return g_failures == 0 ? 0 : 1;
}
