// HPKE (draft-ietf-hpke-hpke, the update of RFC 9180) with draft-ietf-hpke-pq's KEMs: the KEM
// glue on pqkem's public KEM API, the key schedule, the contexts and the single-shot calls.
#include "hpke.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <string>
#include <thread>

#include "ct.hpp"
#include "hpke/aead.hpp"
#include "hpke/kdf.hpp"
#include "hpke/testing.hpp"

namespace pqkem::hpke {

using testing::Mode;

struct Context::State {
  Suite suite{};
  const KdfInfo* kdf = nullptr;
  const AeadInfo* aead = nullptr;
  std::uint8_t suite_id[kMaxSuiteIdBytes] = {};
  std::uint8_t key[32] = {};  // kept for testing::secrets_of only; the cipher has its own copy
  std::uint8_t base_nonce[kNonceBytes] = {};
  std::uint8_t exporter_secret[64] = {};
  std::optional<AeadCipher> cipher;  // none for ExportOnly
  std::unique_ptr<AeadCipher> twin;  // the second thread's cipher in a batch, made by the first
  std::uint64_t seq = 0;

  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {
    secure_wipe(key, sizeof key);
    secure_wipe(base_nonce, sizeof base_nonce);
    secure_wipe(exporter_secret, sizeof exporter_secret);
  }

  [[nodiscard]] LabeledKdf labeled_kdf() const noexcept { return {kdf->id, {suite_id, sizeof suite_id}}; }

  /// ComputeNonce(seq): base_nonce xor I2OSP(seq, Nn). pqkem's sequence number has 64 bits, so
  /// only the last 8 bytes change (the draft allows a counter shorter than the nonce).
  void compute_nonce(std::span<std::uint8_t, kNonceBytes> nonce, std::uint64_t number) const noexcept {
    std::copy(base_nonce, base_nonce + kNonceBytes, nonce.begin());
    for (int i = 0; i < 8; ++i) nonce[kNonceBytes - 1 - i] ^= static_cast<std::uint8_t>(number >> (8 * i));
  }
  void compute_nonce(std::span<std::uint8_t, kNonceBytes> nonce) const noexcept { compute_nonce(nonce, seq); }

  /// The checks before a message: a cipher, the buffer size, P_MAX, the sequence number.
  void check_message(std::size_t pt_bytes, std::size_t out_bytes, std::size_t want_out, const char* what) const {
    if (!cipher)
      throw Error(Errc::bad_argument, std::string("HPKE: an export-only context cannot ") + what + " messages");
    if (out_bytes != want_out)
      throw Error(Errc::bad_length, std::string("HPKE: the output buffer must hold ") + std::to_string(want_out) +
                                        " bytes, got " + std::to_string(out_bytes));
    if (pt_bytes > aead->max_plaintext)
      throw Error(Errc::bad_length, "HPKE: a message longer than " + std::string(aead->name) + "'s limit of " +
                                        std::to_string(aead->max_plaintext) + " bytes");
    check_sequence(1);
  }

  /// The checks before opening a ciphertext of ct_bytes into out_bytes.
  void check_open(std::size_t ct_bytes, std::size_t out_bytes) const {
    if (ct_bytes < kTagBytes)
      throw Error(Errc::bad_length,
                  "HPKE: a ciphertext has at least the 16-byte tag, got " + std::to_string(ct_bytes) + " bytes");
    check_message(ct_bytes - kTagBytes, out_bytes, ct_bytes - kTagBytes, "open");
  }

  /// IncrementSeq fails at 2^64 - 1: the message with that number would leave no next one. So
  /// `count` more messages need seq + count <= 2^64 - 1.
  void check_sequence(std::uint64_t count) const {
    if (count > std::numeric_limits<std::uint64_t>::max() - seq)
      throw Error(Errc::message_limit,
                  "HPKE: this context has used all 2^64 - 1 sequence numbers (MessageLimitReachedError)");
  }

  /// Runs run(cipher, i) for each message i of a batch, on this thread or on two: then each
  /// thread takes the next message not yet taken (so a thread that the system holds back takes
  /// fewer), the second with the twin cipher. run returns false to stop: the result is the
  /// lowest i for which it did (n if none), and every message below it has run.
  template <class Run>
  std::size_t run_batch(std::span<const BatchMessage> messages, unsigned threads, Run run) {
    const std::size_t n = messages.size();
    std::size_t total = 0;
    for (const BatchMessage& m : messages) total += m.in.size();
    if (threads < 2 || n < 2 || total < kBatchParallelBytes) {
      for (std::size_t i = 0; i < n; ++i)
        if (!run(*cipher, i)) return i;
      return n;
    }
    cipher->bulk();
    if (!twin || twin->backend() != cipher->backend()) twin = cipher->twin();
    std::atomic<std::size_t> next{0}, stop{n};
    const auto work = [&](AeadCipher& c) {
      for (std::size_t i; (i = next.fetch_add(1)) < n && i < stop.load();) {
        if (run(c, i)) continue;
        for (std::size_t s = stop.load(); i < s && !stop.compare_exchange_weak(s, i);) {
        }
      }
    };
    std::exception_ptr failure;
    std::thread helper([&] {
      try {
        work(*twin);
      } catch (...) {
        failure = std::current_exception();
        next.store(n);
      }
    });
    try {
      work(*cipher);
    } catch (...) {
      next.store(n);
      helper.join();
      throw;
    }
    helper.join();
    if (failure) std::rethrow_exception(failure);
    return stop.load();
  }
};

/// The one place that builds contexts and reads their state (a friend of the three classes).
struct Access {
  static SenderContext sender(std::unique_ptr<Context::State> s) noexcept { return SenderContext(std::move(s)); }
  static RecipientContext recipient(std::unique_ptr<Context::State> s) noexcept {
    return RecipientContext(std::move(s));
  }
  static Context::State& state(Context& c) noexcept { return *c.m_state; }
  static const Context::State& state(const Context& c) noexcept { return *c.m_state; }
};

namespace {

/// VerifyPSKInputs (draft-ietf-hpke-hpke, section 5.1), and the PSK's minimum size: the draft
/// asks for at least 32 bytes of entropy, so fewer bytes cannot be right.
void verify_psk_inputs(Mode mode, ByteView psk, ByteView psk_id) {
  const bool got_psk = !psk.empty(), got_psk_id = !psk_id.empty();
  if (got_psk != got_psk_id)
    throw Error(Errc::bad_argument, "HPKE: inconsistent PSK inputs: the PSK and its id go together");
  if (got_psk && mode == Mode::base) throw Error(Errc::bad_argument, "HPKE: PSK input provided in base mode");
  if (!got_psk && mode == Mode::psk) throw Error(Errc::bad_argument, "HPKE: PSK mode needs a PSK and its id");
  if (got_psk && psk.size() < 32)
    throw Error(Errc::bad_argument, "HPKE: the PSK must have at least 32 bytes, got " + std::to_string(psk.size()));
}

/// lengthPrefixed(x) takes at most 65535 bytes (single-stage KDFs only).
void check_prefixable(ByteView v, const char* what) {
  if (v.size() > 0xFFFF)
    throw Error(Errc::bad_length, std::string("HPKE: with a single-stage KDF the ") + what +
                                      " must be at most 65535 bytes, got " + std::to_string(v.size()));
}

/// KeySchedule<ROLE> (section 5.1): CombineSecrets, then the context's state.
std::unique_ptr<Context::State> key_schedule(const Suite& suite, Mode mode, ByteView shared_secret, ByteView info,
                                             ByteView psk, ByteView psk_id) {
  verify_psk_inputs(mode, psk, psk_id);
  auto s = std::make_unique<Context::State>();
  s->suite = suite;
  s->kdf = &kdf_info(suite.kdf);
  s->aead = &aead_info(suite.aead);
  const auto kem = static_cast<std::uint16_t>(suite.kem), kdf = static_cast<std::uint16_t>(suite.kdf),
             aead = static_cast<std::uint16_t>(suite.aead);
  const std::uint8_t suite_id[kMaxSuiteIdBytes] = {'H',
                                                   'P',
                                                   'K',
                                                   'E',
                                                   static_cast<std::uint8_t>(kem >> 8),
                                                   static_cast<std::uint8_t>(kem),
                                                   static_cast<std::uint8_t>(kdf >> 8),
                                                   static_cast<std::uint8_t>(kdf),
                                                   static_cast<std::uint8_t>(aead >> 8),
                                                   static_cast<std::uint8_t>(aead)};
  std::copy(suite_id, suite_id + kMaxSuiteIdBytes, s->suite_id);
  const LabeledKdf k = s->labeled_kdf();
  const std::size_t n_k = s->aead->n_k, n_n = s->aead->n_n, n_h = s->kdf->n_h;
  const std::uint8_t mode_byte = static_cast<std::uint8_t>(mode);
  if (s->kdf->two_stage) {  // CombineSecrets_TwoStage
    Secret<64> psk_id_hash, info_hash, secret;
    k.labeled_extract(psk_id_hash.span(), {}, "psk_id_hash", psk_id);
    k.labeled_extract(info_hash.span(), {}, "info_hash", info);
    k.labeled_extract(secret.span(), shared_secret, "secret", psk);
    const ByteView prk(secret.bytes, n_h);
    const std::initializer_list<ByteView> context = {{&mode_byte, 1}, {psk_id_hash.bytes, n_h}, {info_hash.bytes, n_h}};
    // The export-only AEAD needs neither key nor base nonce (Nk = Nn = 0).
    if (n_k > 0) k.labeled_expand({s->key, n_k}, prk, "key", context);
    if (n_n > 0) k.labeled_expand({s->base_nonce, n_n}, prk, "base_nonce", context);
    k.labeled_expand({s->exporter_secret, n_h}, prk, "exp", context);
  } else {  // CombineSecrets_OneStage
    check_prefixable(psk, "PSK");
    check_prefixable(psk_id, "PSK id");
    check_prefixable(info, "info");
    check_prefixable(shared_secret, "shared secret");
    Secret<32 + kNonceBytes + 64> secret;
    const Be16 psk_len(psk.size()), ss_len(shared_secret.size()), psk_id_len(psk_id.size()), info_len(info.size());
    k.labeled_derive({secret.bytes, n_k + n_n + n_h}, {psk_len.view(), psk, ss_len.view(), shared_secret}, "secret",
                     {{&mode_byte, 1}, psk_id_len.view(), psk_id, info_len.view(), info});
    std::copy_n(secret.bytes, n_k, s->key);
    std::copy_n(secret.bytes + n_k, n_n, s->base_nonce);
    std::copy_n(secret.bytes + n_k + n_n, n_h, s->exporter_secret);
  }
  // The constant-time test (tests/ct) checks the key schedule on a poisoned shared secret and
  // PSK; the AEAD itself is libsodium's or OpenSSL's, outside it: its key and nonce become
  // public for memcheck as they enter (no effect outside PQKEM_CT_TESTING builds).
  ct::declassify(s->key, n_k);
  ct::declassify(s->base_nonce, n_n);
  if (suite.aead != AeadId::ExportOnly) s->cipher.emplace(suite.aead, ByteView(s->key, n_k));
  return s;
}

void expect_size(ByteView v, std::size_t n, const KemInfo& k, const char* what) {
  if (v.size() != n)
    throw Error(Errc::bad_length, "HPKE " + std::string(k.name) + " " + what + " must be " + std::to_string(n) +
                                      " bytes, got " + std::to_string(v.size()));
}

/// Encap(pkR): the KEM's encapsulation (its key check included: Error(invalid_encaps_key) is
/// HPKE's EncapError), randomized or, for the test vectors, on the given randomness.
Encapsulation encap(const KemInfo& k, ByteView pk_r, const ByteView* ikm_e) {
  expect_size(pk_r, k.n_pk, k, "public key");
  return ikm_e != nullptr ? encaps_derand(k.scheme, pk_r, *ikm_e) : encaps(k.scheme, pk_r);
}

/// Decap(enc, skR). An ML-KEM seed is expanded first (draft-ietf-hpke-pq's expandDecapsKey);
/// an expanded ML-KEM key and the X-Wing forms go to decaps as they are.
SecretBytes decap(const KemInfo& k, ByteView enc, ByteView sk_r) {
  expect_size(enc, k.n_enc, k, "encapsulated key (enc)");
  const SchemeInfo& info = scheme_info(k.scheme);
  if (sk_r.size() == k.n_sk && !info.seed_is_secret_key) {
    const KeyPair expanded = keygen_derand(k.scheme, sk_r);
    return decaps(k.scheme, expanded.sk, enc);
  }
  if (sk_r.size() != k.n_sk && sk_r.size() != info.sk_bytes)
    throw Error(Errc::bad_length, "HPKE " + std::string(k.name) + " private key must be the " + std::to_string(k.n_sk) +
                                      "-byte seed or the " + std::to_string(info.sk_bytes) +
                                      "-byte expanded key, got " + std::to_string(sk_r.size()) + " bytes");
  return decaps(k.scheme, sk_r, enc);
}

Mode mode_of(const std::optional<Psk>& psk) noexcept { return psk ? Mode::psk : Mode::base; }
ByteView psk_of(const std::optional<Psk>& psk) noexcept { return psk ? psk->psk : ByteView{}; }
ByteView psk_id_of(const std::optional<Psk>& psk) noexcept { return psk ? psk->psk_id : ByteView{}; }

/// The suite's three table entries exist, and the PSK inputs are consistent: checked before
/// any KEM work.
const KemInfo& check_setup(const Suite& suite, const std::optional<Psk>& psk) {
  const KemInfo& k = kem_info(suite.kem);
  (void)kdf_info(suite.kdf);
  (void)aead_info(suite.aead);
  verify_psk_inputs(mode_of(psk), psk_of(psk), psk_id_of(psk));
  return k;
}

SenderSetup setup_sender_with(const Suite& suite, ByteView pk_r, ByteView info, const std::optional<Psk>& psk,
                              const ByteView* ikm_e) {
  const KemInfo& k = check_setup(suite, psk);
  Encapsulation e = encap(k, pk_r, ikm_e);
  ct::poison(e.ss.data(), e.ss.size());  // the KEM made it public; the key schedule keeps it secret
  auto state = key_schedule(suite, mode_of(psk), e.ss, info, psk_of(psk), psk_id_of(psk));
  return {std::move(e.ct), Access::sender(std::move(state))};
}

}  // namespace

// ---- Context ----

Context::Context(std::unique_ptr<State> state) noexcept : m_state(std::move(state)) {}
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;
Context::~Context() = default;
SenderContext::SenderContext(std::unique_ptr<State> state) noexcept : Context(std::move(state)) {}
RecipientContext::RecipientContext(std::unique_ptr<State> state) noexcept : Context(std::move(state)) {}

const Suite& Context::suite() const noexcept { return m_state->suite; }
std::uint64_t Context::sequence() const noexcept { return m_state->seq; }
std::size_t Context::tag_bytes() const noexcept { return m_state->aead->n_t; }

SecretBytes Context::export_secret(ByteView exporter_context, std::size_t length) const {
  const State& s = *m_state;
  const std::size_t max = s.kdf->two_stage ? 255 * s.kdf->n_h : 0xFFFF;
  if (length > max)
    throw Error(Errc::bad_argument, "HPKE: " + std::string(s.kdf->name) + " exports at most " + std::to_string(max) +
                                        " bytes, asked for " + std::to_string(length));
  SecretBytes out(length);
  const LabeledKdf k = s.labeled_kdf();
  if (s.kdf->two_stage)  // Export_TwoStage
    k.labeled_expand(out.span(), {s.exporter_secret, s.kdf->n_h}, "sec", {exporter_context});
  else  // Export_OneStage
    k.labeled_derive(out.span(), {{s.exporter_secret, s.kdf->n_h}}, "sec", {exporter_context});
  return out;
}

std::size_t SenderContext::seal(ByteView aad, ByteView pt, std::span<std::uint8_t> ct_out) {
  State& s = *m_state;
  s.check_message(pt.size(), ct_out.size(), pt.size() + kTagBytes, "seal");
  Secret<kNonceBytes> nonce;
  s.compute_nonce(nonce.span());
  s.cipher->seal(nonce.view(), aad, pt, ct_out);
  ++s.seq;
  return ct_out.size();
}

void SenderContext::seal_batch(std::span<const BatchMessage> messages, unsigned threads) {
  State& s = *m_state;
  for (const BatchMessage& m : messages) s.check_message(m.in.size(), m.out.size(), m.in.size() + kTagBytes, "seal");
  s.check_sequence(messages.size());
  // The numbers are used up before any message is sealed: were a seal to fail part way, the
  // next call still could not reuse a nonce.
  const std::uint64_t first = s.seq;
  s.seq += messages.size();
  s.run_batch(messages, threads, [&s, first, messages](AeadCipher& cipher, std::size_t i) {
    Secret<kNonceBytes> nonce;
    s.compute_nonce(nonce.span(), first + i);
    cipher.seal(nonce.view(), messages[i].aad, messages[i].in, messages[i].out);
    return true;
  });
}

Bytes SenderContext::seal(ByteView aad, ByteView pt) {
  Bytes ct(pt.size() + kTagBytes);
  seal(aad, pt, ct);
  return ct;
}

std::size_t RecipientContext::open(ByteView aad, ByteView ct, std::span<std::uint8_t> pt_out) {
  State& s = *m_state;
  s.check_open(ct.size(), pt_out.size());
  const std::size_t n = ct.size() - kTagBytes;
  Secret<kNonceBytes> nonce;
  s.compute_nonce(nonce.span());
  if (!s.cipher->open(nonce.view(), aad, ct, pt_out))
    throw Error(Errc::open_failure,
                "HPKE: decryption failed: the ciphertext does not authenticate (wrong key, enc, info, aad or "
                "message order, or altered bytes)");
  ++s.seq;
  return n;
}

void RecipientContext::open_batch(std::span<const BatchMessage> messages, unsigned threads) {
  State& s = *m_state;
  for (const BatchMessage& m : messages) s.check_open(m.in.size(), m.out.size());
  s.check_sequence(messages.size());
  const std::size_t opened = s.run_batch(messages, threads, [&s, messages](AeadCipher& cipher, std::size_t i) {
    Secret<kNonceBytes> nonce;
    s.compute_nonce(nonce.span(), s.seq + i);
    return cipher.open(nonce.view(), messages[i].aad, messages[i].in, messages[i].out);
  });
  s.seq += opened;
  if (opened == messages.size()) return;
  // The second thread may have opened messages after the one that failed: none of them leaves.
  for (std::size_t i = opened + 1; i < messages.size(); ++i) secure_wipe(messages[i].out.data(), messages[i].out.size());
  throw Error(Errc::open_failure, "HPKE: decryption failed: message " + std::to_string(opened) +
                                      " of the batch does not authenticate (wrong key, enc, info, aad or message "
                                      "order, or altered bytes)");
}

Bytes RecipientContext::open(ByteView aad, ByteView ct) {
  Bytes pt(ct.size() < kTagBytes ? 0 : ct.size() - kTagBytes);
  open(aad, ct, pt);  // a failed open leaves pt zeroed
  return pt;
}

// ---- Keys ----

KeyPair generate_key_pair(KemId kem) {
  const KemInfo& k = kem_info(kem);
  // The seed is exactly the coins keygen draws (ML-KEM d || z, X-Wing's seed).
  SecretBytes seed = random_keygen_coins(k.scheme);
  KeyPair kp = keygen_derand(k.scheme, seed);
  return {std::move(kp.pk), std::move(seed)};
}

KeyPair derive_key_pair(KemId kem, ByteView ikm) {
  const KemInfo& k = kem_info(kem);
  // draft-ietf-hpke-pq: seed = SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "", Nsk) with the
  // KEM's suite_id, whatever the suite's KDF; then KeyGen_internal / the hybrid's key
  // generation from the seed.
  const KemSuiteId suite_id(static_cast<std::uint16_t>(kem));
  SecretBytes seed(k.n_sk);
  LabeledKdf(KdfId::Shake256, suite_id.view()).labeled_derive(seed.span(), {ikm}, "DeriveKeyPair", {});
  KeyPair kp = keygen_derand(k.scheme, seed);
  return {std::move(kp.pk), std::move(seed)};
}

// ---- Setup and single shot ----

SenderSetup setup_sender(const Suite& suite, ByteView pk_r, ByteView info, const std::optional<Psk>& psk) {
  return setup_sender_with(suite, pk_r, info, psk, nullptr);
}

RecipientContext setup_recipient(const Suite& suite, ByteView enc, ByteView sk_r, ByteView info,
                                 const std::optional<Psk>& psk) {
  const KemInfo& k = check_setup(suite, psk);
  const SecretBytes ss = decap(k, enc, sk_r);
  ct::poison(ss.data(), ss.size());  // as in setup_sender_with
  return Access::recipient(key_schedule(suite, mode_of(psk), ss, info, psk_of(psk), psk_id_of(psk)));
}

Sealed seal(const Suite& suite, ByteView pk_r, ByteView info, ByteView aad, ByteView pt,
            const std::optional<Psk>& psk) {
  SenderSetup setup = setup_sender(suite, pk_r, info, psk);
  Bytes ct = setup.context.seal(aad, pt);
  return {std::move(setup.enc), std::move(ct)};
}

Bytes open(const Suite& suite, ByteView enc, ByteView sk_r, ByteView info, ByteView aad, ByteView ct,
           const std::optional<Psk>& psk) {
  return setup_recipient(suite, enc, sk_r, info, psk).open(aad, ct);
}

SentExport send_export(const Suite& suite, ByteView pk_r, ByteView info, ByteView exporter_context, std::size_t length,
                       const std::optional<Psk>& psk) {
  SenderSetup setup = setup_sender(suite, pk_r, info, psk);
  SecretBytes secret = setup.context.export_secret(exporter_context, length);
  return {std::move(setup.enc), std::move(secret)};
}

SecretBytes receive_export(const Suite& suite, ByteView enc, ByteView sk_r, ByteView info, ByteView exporter_context,
                           std::size_t length, const std::optional<Psk>& psk) {
  return setup_recipient(suite, enc, sk_r, info, psk).export_secret(exporter_context, length);
}

// ---- Test-only entry points (testing.hpp) ----

namespace testing {

SenderSetup setup_sender_derand(const Suite& suite, ByteView pk_r, ByteView info, const std::optional<Psk>& psk,
                                ByteView ikm_e) {
  return setup_sender_with(suite, pk_r, info, psk, &ikm_e);
}

Encapsulation encap_derand(KemId kem, ByteView pk_r, ByteView ikm_e) { return encap(kem_info(kem), pk_r, &ikm_e); }
SecretBytes decap(KemId kem, ByteView enc, ByteView sk_r) { return hpke::decap(kem_info(kem), enc, sk_r); }

SenderContext sender_from_shared_secret(const Suite& suite, Mode mode, ByteView shared_secret, ByteView info,
                                        ByteView psk, ByteView psk_id) {
  return Access::sender(key_schedule(suite, mode, shared_secret, info, psk, psk_id));
}

RecipientContext recipient_from_shared_secret(const Suite& suite, Mode mode, ByteView shared_secret, ByteView info,
                                              ByteView psk, ByteView psk_id) {
  return Access::recipient(key_schedule(suite, mode, shared_secret, info, psk, psk_id));
}

Secrets secrets_of(const Context& ctx) {
  const Context::State& s = Access::state(ctx);
  return {Bytes(s.key, s.key + s.aead->n_k), Bytes(s.base_nonce, s.base_nonce + s.aead->n_n),
          Bytes(s.exporter_secret, s.exporter_secret + s.kdf->n_h)};
}

void set_sequence(Context& ctx, std::uint64_t seq) noexcept { Access::state(ctx).seq = seq; }

}  // namespace testing

}  // namespace pqkem::hpke
