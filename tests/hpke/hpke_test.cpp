// The HPKE API (include/pqkem/hpke.hpp) beyond the vectors: round trips over every suite, PSK
// mode and its input checks, tampering, the sequence-number limit, empty messages, export-only
// contexts, buffers, sizes and the schemes HPKE has no KEM for.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "hpke.hpp"
#include "hpke/testing.hpp"
#include "hpke_test_util.hpp"

namespace pqkem::hpke {
namespace {

using test::bytes;
using test::throws_errc;
using test::unhex;

const Bytes kInfo = {'i', 'n', 'f', 'o'};
const Bytes kAad = {'a', 'a', 'd'};
const Bytes kPsk(32, 0x42);
const Bytes kPskId = {'i', 'd'};

Bytes message(std::size_t n) {
  Bytes m(n);
  for (std::size_t i = 0; i < n; ++i) m[i] = static_cast<std::uint8_t>(i * 7 + 1);
  return m;
}

Bytes plain(const SecretBytes& s) { return {s.view().begin(), s.view().end()}; }

// Every KEM x KDF x AEAD: a single-shot message, three in a context, and exports that agree.
TEST(Hpke, EverySuiteRoundTrips) {
  int suites = 0;
  for (const KemInfo& kem : all_kems()) {
    const KeyPair kp = generate_key_pair(kem.id);
    ASSERT_EQ(kp.pk.size(), kem.n_pk);
    ASSERT_EQ(kp.sk.size(), kem.n_sk);
    for (const KdfInfo& kdf : all_kdfs()) {
      for (const AeadInfo& aead : all_aeads()) {
        const Suite suite{kem.id, kdf.id, aead.id};
        SCOPED_TRACE(test::suite_name(suite));
        ++suites;
        SenderSetup s = setup_sender(suite, kp.pk, kInfo);
        ASSERT_EQ(s.enc.size(), kem.n_enc);
        RecipientContext r = setup_recipient(suite, s.enc, kp.sk, kInfo);
        const SecretBytes x1 = s.context.export_secret(bytes("ctx"), 77), x2 = r.export_secret(bytes("ctx"), 77);
        EXPECT_EQ(plain(x1), plain(x2));
        EXPECT_NE(plain(x1), plain(s.context.export_secret(bytes("other"), 77)));
        if (aead.id == AeadId::ExportOnly) continue;
        for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}}) {
          const Bytes pt = message(n);
          const Bytes ct = s.context.seal(kAad, pt);
          ASSERT_EQ(ct.size(), n + aead.n_t);
          EXPECT_EQ(r.open(kAad, ct), pt);
        }
        EXPECT_EQ(s.context.sequence(), 3u);
        EXPECT_EQ(r.sequence(), 3u);
        const Sealed one = seal(suite, kp.pk, kInfo, kAad, message(50));
        EXPECT_EQ(open(suite, one.enc, kp.sk, kInfo, kAad, one.ct), message(50));
      }
    }
  }
  EXPECT_EQ(suites, 4 * 7 * 4);
}

TEST(Hpke, ExportOnlyRefusesSealAndOpenButExports) {
  const Suite suite{KemId::MlKem768, KdfId::HkdfSha256, AeadId::ExportOnly};
  const KeyPair kp = generate_key_pair(suite.kem);
  const SentExport sent = send_export(suite, kp.pk, kInfo, bytes("label"), 32);
  EXPECT_EQ(plain(sent.secret), plain(receive_export(suite, sent.enc, kp.sk, kInfo, bytes("label"), 32)));
  SenderSetup s = setup_sender(suite, kp.pk, kInfo);
  EXPECT_TRUE(throws_errc([&] { (void)s.context.seal(kAad, message(3)); }, Errc::bad_argument));
  RecipientContext r = setup_recipient(suite, s.enc, kp.sk, kInfo);
  EXPECT_TRUE(throws_errc([&] { (void)r.open(kAad, Bytes(20)); }, Errc::bad_argument));
  EXPECT_TRUE(throws_errc([&] { (void)seal(suite, kp.pk, kInfo, kAad, message(3)); }, Errc::bad_argument));
}

TEST(Hpke, EmptyPlaintextAndAad) {
  const Suite suite{KemId::XWing, KdfId::Shake256, AeadId::ChaCha20Poly1305};
  const KeyPair kp = generate_key_pair(suite.kem);
  const Sealed sealed = seal(suite, kp.pk, {}, {}, {});
  ASSERT_EQ(sealed.ct.size(), 16u);
  EXPECT_TRUE(open(suite, sealed.enc, kp.sk, {}, {}, sealed.ct).empty());
  Bytes bad = sealed.ct;
  bad[0] ^= 1;
  EXPECT_TRUE(throws_errc([&] { (void)open(suite, sealed.enc, kp.sk, {}, {}, bad); }, Errc::open_failure));
}

// Every flipped byte of ct and aad, another info, another key, another enc, reordering, a
// truncated ct: open fails with open_failure, and the context can still open the right message.
TEST(Hpke, TamperingIsDetected) {
  for (const AeadInfo& aead : all_aeads()) {
    if (aead.id == AeadId::ExportOnly) continue;
    const Suite suite{KemId::MlKem512, KdfId::TurboShake128, aead.id};
    SCOPED_TRACE(test::suite_name(suite));
    const KeyPair kp = generate_key_pair(suite.kem), other = generate_key_pair(suite.kem);
    SenderSetup s = setup_sender(suite, kp.pk, kInfo);
    const Bytes pt = message(40);
    const Bytes ct0 = s.context.seal(kAad, pt), ct1 = s.context.seal(kAad, pt);
    RecipientContext r = setup_recipient(suite, s.enc, kp.sk, kInfo);
    for (std::size_t i = 0; i < ct0.size(); ++i) {
      Bytes bad = ct0;
      bad[i] ^= 0x01;
      ASSERT_TRUE(throws_errc([&] { (void)r.open(kAad, bad); }, Errc::open_failure)) << "ct byte " << i;
    }
    for (std::size_t i = 0; i < kAad.size(); ++i) {
      Bytes bad = kAad;
      bad[i] ^= 0x80;
      ASSERT_TRUE(throws_errc([&] { (void)r.open(bad, ct0); }, Errc::open_failure)) << "aad byte " << i;
    }
    EXPECT_TRUE(throws_errc([&] { (void)r.open({}, ct0); }, Errc::open_failure));
    EXPECT_TRUE(throws_errc([&] { (void)r.open(kAad, ct1); }, Errc::open_failure));  // out of order
    EXPECT_TRUE(throws_errc([&] { (void)r.open(kAad, Bytes(ct0.begin(), ct0.end() - 1)); }, Errc::open_failure));
    EXPECT_EQ(r.sequence(), 0u);  // failures do not advance it
    EXPECT_EQ(r.open(kAad, ct0), pt);
    EXPECT_EQ(r.open(kAad, ct1), pt);

    RecipientContext wrong_info = setup_recipient(suite, s.enc, kp.sk, bytes("infO"));
    EXPECT_TRUE(throws_errc([&] { (void)wrong_info.open(kAad, ct0); }, Errc::open_failure));
    RecipientContext wrong_key = setup_recipient(suite, s.enc, other.sk, kInfo);  // implicit rejection
    EXPECT_TRUE(throws_errc([&] { (void)wrong_key.open(kAad, ct0); }, Errc::open_failure));
    Bytes enc = s.enc;
    enc[enc.size() / 2] ^= 0x04;
    RecipientContext wrong_enc = setup_recipient(suite, enc, kp.sk, kInfo);
    EXPECT_TRUE(throws_errc([&] { (void)wrong_enc.open(kAad, ct0); }, Errc::open_failure));
  }
}

// Each byte of an X-Wing enc (its ML-KEM and its X25519 part) matters.
TEST(Hpke, EveryEncByteOfXWingMatters) {
  const Suite suite{KemId::XWing, KdfId::HkdfSha256, AeadId::ChaCha20Poly1305};
  const KeyPair kp = generate_key_pair(suite.kem);
  const Sealed sealed = seal(suite, kp.pk, kInfo, kAad, message(10));
  for (std::size_t i : {std::size_t{0}, std::size_t{1087}, std::size_t{1088}, std::size_t{1119}}) {
    Bytes enc = sealed.enc;
    enc[i] ^= 0x01;
    EXPECT_TRUE(throws_errc([&] { (void)open(suite, enc, kp.sk, kInfo, kAad, sealed.ct); }, Errc::open_failure)) << i;
  }
}

TEST(Hpke, PskModeRoundTripsAndBindsThePsk) {
  for (const KdfInfo& kdf : all_kdfs()) {
    const Suite suite{KemId::MlKem768, kdf.id, AeadId::Aes256Gcm};
    SCOPED_TRACE(test::suite_name(suite));
    const KeyPair kp = generate_key_pair(suite.kem);
    const Psk psk{kPsk, kPskId};
    const Sealed sealed = seal(suite, kp.pk, kInfo, kAad, message(33), psk);
    EXPECT_EQ(open(suite, sealed.enc, kp.sk, kInfo, kAad, sealed.ct, psk), message(33));
    Bytes other_psk = kPsk;
    other_psk[31] ^= 1;
    EXPECT_TRUE(throws_errc(
        [&] {
          (void)open(suite, sealed.enc, kp.sk, kInfo, kAad, sealed.ct, Psk{other_psk, kPskId});
        },
        Errc::open_failure));
    EXPECT_TRUE(throws_errc(
        [&] {
          (void)open(suite, sealed.enc, kp.sk, kInfo, kAad, sealed.ct, Psk{kPsk, bytes("iD")});
        },
        Errc::open_failure));
    EXPECT_TRUE(throws_errc([&] { (void)open(suite, sealed.enc, kp.sk, kInfo, kAad, sealed.ct); }, Errc::open_failure));
    // And base mode's message does not open in PSK mode.
    const Sealed base = seal(suite, kp.pk, kInfo, kAad, message(5));
    EXPECT_TRUE(
        throws_errc([&] { (void)open(suite, base.enc, kp.sk, kInfo, kAad, base.ct, psk); }, Errc::open_failure));
  }
}

// RFC 9180 (and draft-ietf-hpke-hpke), appendix A.1.2: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256,
// AES-128-GCM in PSK mode, from its shared_secret: the two-stage key schedule with a PSK.
TEST(Hpke, PskKeyScheduleMatchesRfc9180) {
  const Suite suite{static_cast<KemId>(0x0020), KdfId::HkdfSha256, AeadId::Aes128Gcm};
  const Bytes ss = unhex("727699f009ffe3c076315019c69648366b69171439bd7dd0807743bde76986cd");
  const Bytes info = unhex("4f6465206f6e2061204772656369616e2055726e");
  const Bytes psk = unhex("0247fd33b913760fa1fa51e1892d9f307fbe65eb171e8132c2af18555a738b82");
  const Bytes psk_id = unhex("456e6e796e20447572696e206172616e204d6f726961");
  SenderContext s = testing::sender_from_shared_secret(suite, testing::Mode::psk, ss, info, psk, psk_id);
  const testing::Secrets got = testing::secrets_of(s);
  EXPECT_EQ(got.key, unhex("15026dba546e3ae05836fc7de5a7bb26"));
  EXPECT_EQ(got.base_nonce, unhex("9518635eba129d5ce0914555"));
  EXPECT_EQ(got.exporter_secret, unhex("3d76025dbbedc49448ec3f9080a1abab6b06e91c0b11ad23c912f043a0ee7655"));
  EXPECT_EQ(s.seal(unhex("436f756e742d30"), unhex("4265617574792069732074727574682c20747275746820626561757479")),
            unhex("e52c6fed7f758d0cf7145689f21bc1be6ec9ea097fef4e959440012f4feb73fb611b946199e681f4cfc34db8ea"));
}

// VerifyPSKInputs, every branch, through the key schedule (which takes the mode) and the API.
TEST(Hpke, PskInputsAreVerified) {
  const Suite suite{KemId::MlKem768, KdfId::HkdfSha256, AeadId::ChaCha20Poly1305};
  const Bytes ss(32, 7);
  using testing::Mode;
  auto schedule = [&](Mode mode, ByteView psk, ByteView psk_id) {
    return [=, &ss, &suite] { (void)testing::sender_from_shared_secret(suite, mode, ss, kInfo, psk, psk_id); };
  };
  EXPECT_TRUE(throws_errc(schedule(Mode::psk, kPsk, {}), Errc::bad_argument));       // inconsistent
  EXPECT_TRUE(throws_errc(schedule(Mode::base, {}, kPskId), Errc::bad_argument));    // inconsistent
  EXPECT_TRUE(throws_errc(schedule(Mode::base, kPsk, kPskId), Errc::bad_argument));  // not needed
  EXPECT_TRUE(throws_errc(schedule(Mode::psk, {}, {}), Errc::bad_argument));         // missing
  const Bytes short_psk(31, 1);
  EXPECT_TRUE(throws_errc(schedule(Mode::psk, short_psk, kPskId), Errc::bad_argument));  // too short
  EXPECT_NO_THROW(schedule(Mode::psk, kPsk, kPskId)());
  EXPECT_NO_THROW(schedule(Mode::base, {}, {})());

  const KeyPair kp = generate_key_pair(suite.kem);
  EXPECT_TRUE(throws_errc([&] { (void)setup_sender(suite, kp.pk, kInfo, Psk{kPsk, {}}); }, Errc::bad_argument));
  EXPECT_TRUE(throws_errc([&] { (void)setup_sender(suite, kp.pk, kInfo, Psk{{}, kPskId}); }, Errc::bad_argument));
  EXPECT_TRUE(throws_errc([&] { (void)setup_sender(suite, kp.pk, kInfo, Psk{}); }, Errc::bad_argument));
  EXPECT_TRUE(throws_errc(
      [&] {
        (void)setup_recipient(suite, Bytes(1088), kp.sk, kInfo, Psk{{}, kPskId});
      },
      Errc::bad_argument));
}

// Single-stage KDFs length-prefix psk, psk_id and info with two bytes.
TEST(Hpke, SingleStageKdfRefusesInputsLongerThan65535) {
  const Bytes ss(32, 7), long_info(0x10000, 1);
  const Suite one{KemId::MlKem768, KdfId::Shake128, AeadId::Aes128Gcm};
  EXPECT_TRUE(
      throws_errc([&] { (void)testing::sender_from_shared_secret(one, testing::Mode::base, ss, long_info, {}, {}); },
                  Errc::bad_length));
  EXPECT_NO_THROW((void)testing::sender_from_shared_secret(one, testing::Mode::base, ss,
                                                           ByteView(long_info).first(0xFFFF), {}, {}));
  const Suite two{KemId::MlKem768, KdfId::HkdfSha256, AeadId::Aes128Gcm};
  EXPECT_NO_THROW((void)testing::sender_from_shared_secret(two, testing::Mode::base, ss, long_info, {}, {}));
}

TEST(Hpke, ExportLengthLimits) {
  const Bytes ss(32, 7);
  for (const KdfInfo& kdf : all_kdfs()) {
    SCOPED_TRACE(kdf.name);
    const Suite suite{KemId::MlKem768, kdf.id, AeadId::ExportOnly};
    SenderContext s = testing::sender_from_shared_secret(suite, testing::Mode::base, ss, kInfo, {}, {});
    const std::size_t max = kdf.two_stage ? 255 * kdf.n_h : 0xFFFF;
    EXPECT_EQ(s.export_secret({}, max).size(), max);
    EXPECT_EQ(s.export_secret({}, 0).size(), 0u);
    EXPECT_TRUE(throws_errc([&] { (void)s.export_secret({}, max + 1); }, Errc::bad_argument));
    // A longer export starts with the shorter one only for the XOFs (L is in their input too).
    const SecretBytes a = s.export_secret(bytes("c"), 32), b = s.export_secret(bytes("c"), 33);
    EXPECT_NE(plain(a), Bytes(b.view().begin(), b.view().begin() + 32));
  }
}

// The sequence number's last values: 2^64 - 2 is the last usable one (IncrementSeq fails at
// 2^64 - 1), and the nonce there still matches the recipient's.
TEST(Hpke, SequenceNumberExhaustionIsAnError) {
  const Suite suite{KemId::MlKem768, KdfId::HkdfSha256, AeadId::Aes128Gcm};
  const KeyPair kp = generate_key_pair(suite.kem);
  SenderSetup s = setup_sender(suite, kp.pk, kInfo);
  RecipientContext r = setup_recipient(suite, s.enc, kp.sk, kInfo);
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  testing::set_sequence(s.context, kMax - 1);
  testing::set_sequence(r, kMax - 1);
  const Bytes ct = s.context.seal(kAad, message(8));
  EXPECT_EQ(s.context.sequence(), kMax);
  Bytes out(ct.size() - 16, 0xEE), ct_out(24);
  EXPECT_TRUE(throws_errc([&] { (void)s.context.seal(kAad, message(8), ct_out); }, Errc::message_limit));
  EXPECT_EQ(s.context.sequence(), kMax);
  EXPECT_EQ(r.open(kAad, ct), message(8));
  EXPECT_TRUE(throws_errc([&] { (void)r.open(kAad, ct, out); }, Errc::message_limit));
  // A message sealed at another sequence number does not open there.
  testing::set_sequence(r, kMax - 2);
  EXPECT_TRUE(throws_errc([&] { (void)r.open(kAad, ct); }, Errc::open_failure));
}

// The span API: exact sizes, in place, and a failed open leaves zeros.
TEST(Hpke, CallerBuffersAndInPlace) {
  const Suite suite{KemId::MlKem1024, KdfId::HkdfSha512, AeadId::ChaCha20Poly1305};
  const KeyPair kp = generate_key_pair(suite.kem);
  SenderSetup s = setup_sender(suite, kp.pk, kInfo);
  RecipientContext r = setup_recipient(suite, s.enc, kp.sk, kInfo);
  const Bytes pt = message(100);
  Bytes buf(116);
  std::copy(pt.begin(), pt.end(), buf.begin());
  EXPECT_TRUE(
      throws_errc([&] { s.context.seal(kAad, pt, std::span<std::uint8_t>(buf).first(115)); }, Errc::bad_length));
  EXPECT_EQ(s.context.seal(kAad, ByteView(buf).first(100), buf), 116u);  // in place
  const Bytes ct = buf;
  EXPECT_TRUE(throws_errc([&] { r.open(kAad, ct, std::span<std::uint8_t>(buf).first(101)); }, Errc::bad_length));
  EXPECT_TRUE(throws_errc([&] { (void)r.open(kAad, Bytes(15)); }, Errc::bad_length));
  EXPECT_EQ(r.open(kAad, buf, std::span<std::uint8_t>(buf).first(100)), 100u);  // in place
  EXPECT_EQ(Bytes(buf.begin(), buf.begin() + 100), pt);

  const Bytes ct2 = s.context.seal(kAad, pt);
  Bytes bad = ct2, out(100, 0xAA);
  bad[3] ^= 1;
  EXPECT_TRUE(throws_errc([&] { r.open(kAad, bad, out); }, Errc::open_failure));
  EXPECT_EQ(out, Bytes(100, 0));
  EXPECT_EQ(r.open(kAad, ct2), pt);
}

TEST(Hpke, KeysAndEncOfTheWrongSizeOrInvalid) {
  const Suite suite{KemId::MlKem768, KdfId::HkdfSha256, AeadId::Aes128Gcm};
  const KeyPair kp = generate_key_pair(suite.kem);
  EXPECT_TRUE(throws_errc([&] { (void)setup_sender(suite, Bytes(1183), kInfo); }, Errc::bad_length));
  Bytes bad_pk = kp.pk;
  bad_pk[0] = 0xFF;  // the first coefficient becomes >= q
  bad_pk[1] |= 0x0F;
  EXPECT_TRUE(throws_errc([&] { (void)setup_sender(suite, bad_pk, kInfo); }, Errc::invalid_encaps_key));
  const SenderSetup s = setup_sender(suite, kp.pk, kInfo);
  EXPECT_TRUE(throws_errc([&] { (void)setup_recipient(suite, Bytes(1087), kp.sk, kInfo); }, Errc::bad_length));
  EXPECT_TRUE(throws_errc([&] { (void)setup_recipient(suite, s.enc, Bytes(63), kInfo); }, Errc::bad_length));
  // The expanded key with a wrong H(ek): FIPS 203's hash check.
  KeyPair expanded = keygen_derand(Scheme::MlKem768, kp.sk);
  expanded.sk[2400 - 64] ^= 1;
  EXPECT_TRUE(throws_errc([&] { (void)setup_recipient(suite, s.enc, expanded.sk, kInfo); }, Errc::invalid_decaps_key));
}

TEST(Hpke, DeriveKeyPairIsDeterministicAndKemBound) {
  const Bytes ikm(64, 9);
  const KeyPair a = derive_key_pair(KemId::MlKem768, ikm), b = derive_key_pair(KemId::MlKem768, ikm);
  EXPECT_EQ(a.pk, b.pk);
  EXPECT_EQ(plain(a.sk), plain(b.sk));
  // The suite_id differs per KEM: the seeds of ML-KEM-512 and -768 differ.
  EXPECT_NE(plain(derive_key_pair(KemId::MlKem512, ikm).sk), plain(a.sk));
  EXPECT_EQ(derive_key_pair(KemId::XWing, ikm).sk.size(), 32u);
}

TEST(Hpke, NtruAndX25519MlKem768HaveNoHpkeKem) {
  for (const SchemeInfo& info : all_schemes()) {
    const bool has = info.family == Family::MlKem || info.scheme == Scheme::XWing;
    if (has) {
      EXPECT_EQ(kem_info(kem_for_scheme(info.scheme)).scheme, info.scheme);
      continue;
    }
    try {
      (void)kem_for_scheme(info.scheme);
      ADD_FAILURE() << info.name << " got an HPKE KEM";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), Errc::bad_argument);
      const std::string what = e.what();
      EXPECT_NE(what.find(info.name), std::string::npos) << what;
      for (const char* works : {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024", "X-Wing"})
        EXPECT_NE(what.find(works), std::string::npos) << what;
    }
    EXPECT_FALSE(parse_kem(info.name)) << info.name;
  }
  const Suite dhkem{static_cast<KemId>(0x0020), KdfId::HkdfSha256, AeadId::Aes128Gcm};
  EXPECT_TRUE(throws_errc([&] { (void)generate_key_pair(dhkem.kem); }, Errc::bad_argument));
  EXPECT_TRUE(throws_errc([&] { (void)setup_sender(dhkem, Bytes(32), kInfo); }, Errc::bad_argument));
  EXPECT_TRUE(throws_errc([] { (void)kdf_info(static_cast<KdfId>(4)); }, Errc::bad_argument));
  EXPECT_TRUE(throws_errc([] { (void)aead_info(static_cast<AeadId>(4)); }, Errc::bad_argument));
}

TEST(Hpke, NamesParse) {
  for (const KemInfo& k : all_kems()) EXPECT_EQ(parse_kem(k.name), k.id);
  for (const KdfInfo& k : all_kdfs()) EXPECT_EQ(parse_kdf(k.name), k.id);
  for (const AeadInfo& a : all_aeads()) EXPECT_EQ(parse_aead(a.name), a.id);
  EXPECT_EQ(parse_kem("x-wing"), KemId::XWing);
  EXPECT_EQ(parse_kem("mlkem1024"), KemId::MlKem1024);
  EXPECT_EQ(parse_kdf("hkdf_sha384"), KdfId::HkdfSha384);
  EXPECT_EQ(parse_kdf("turboshake256"), KdfId::TurboShake256);
  EXPECT_EQ(parse_aead("chacha20-poly1305"), AeadId::ChaCha20Poly1305);
  EXPECT_EQ(parse_aead("EXPORT-ONLY"), AeadId::ExportOnly);
  EXPECT_FALSE(parse_kdf("hkdf-sha1"));
  EXPECT_FALSE(parse_aead("aes-192-gcm"));
  EXPECT_FALSE(parse_kdf("hkdf-sha2566"));
  EXPECT_FALSE(parse_kdf(""));
}

// Batches give the bytes of one seal() after another, on one thread and on two (130 chunk-sized
// messages, above kBatchParallelBytes), in place; open_batch opens them, and at a damaged
// message stops: the ones before it are opened and counted, its output and every later one's
// are zeros, and the context goes on from there.
TEST(Hpke, BatchesGiveTheBytesOfSingleMessages) {
  const Bytes ss(32, 0x5a);
  for (AeadId aead : {AeadId::Aes128Gcm, AeadId::Aes256Gcm, AeadId::ChaCha20Poly1305}) {
    const Suite suite{KemId::MlKem768, KdfId::HkdfSha256, aead};
    SCOPED_TRACE(test::suite_name(suite));
    const auto sender = [&] { return testing::sender_from_shared_secret(suite, testing::Mode::base, ss, kInfo, {}, {}); };
    const auto recipient = [&] {
      return testing::recipient_from_shared_secret(suite, testing::Mode::base, ss, kInfo, {}, {});
    };
    constexpr std::size_t kCount = 130, kChunk = 65536;
    ASSERT_GE((kCount - 1) * kChunk, kBatchParallelBytes);
    std::vector<Bytes> pts, aads, want, bufs;
    SenderContext one = sender();
    for (std::size_t i = 0; i < kCount; ++i) {
      pts.push_back(message(i + 1 == kCount ? 1000 : kChunk));
      pts.back()[0] = static_cast<std::uint8_t>(i);
      aads.push_back(Bytes{static_cast<std::uint8_t>(i + 1 == kCount)});
      want.push_back(one.seal(aads[i], pts[i]));
      bufs.push_back(pts[i]);
      bufs.back().resize(pts[i].size() + 16);
    }
    const auto batch = [&](std::vector<Bytes>& b, bool sealing) {
      std::vector<BatchMessage> m;
      for (std::size_t i = 0; i < b.size(); ++i) {
        const std::size_t n = sealing ? pts[i].size() : b[i].size();
        m.push_back({aads[i], ByteView(b[i]).first(n), std::span<std::uint8_t>(b[i]).first(sealing ? n + 16 : n - 16)});
      }
      return m;
    };
    for (unsigned threads : {1u, 2u}) {
      SCOPED_TRACE(threads);
      SenderContext s = sender();
      std::vector<Bytes> sealed = bufs;
      s.seal_batch(batch(sealed, true), threads);
      EXPECT_EQ(s.sequence(), kCount);
      EXPECT_TRUE(sealed == want);
      EXPECT_EQ(s.seal(kAad, message(10)), one.seal(kAad, message(10))) << "the next number follows the batch";
      one = sender();  // back in step for the next round
      for (std::size_t i = 0; i < kCount; ++i) (void)one.seal(aads[i], pts[i]);

      RecipientContext r = recipient();
      std::vector<Bytes> opened = want;
      r.open_batch(batch(opened, false), threads);
      EXPECT_EQ(r.sequence(), kCount);
      for (std::size_t i = 0; i < kCount; ++i) EXPECT_EQ(Bytes(opened[i].begin(), opened[i].end() - 16), pts[i]) << i;

      for (std::size_t bad : {std::size_t{0}, std::size_t{64}, std::size_t{100}, kCount - 1}) {
        RecipientContext rb = recipient();
        std::vector<Bytes> damaged = want;
        damaged[bad][7] ^= 1;
        const std::vector<BatchMessage> m = batch(damaged, false);
        EXPECT_TRUE(throws_errc([&] { rb.open_batch(m, threads); }, Errc::open_failure)) << bad;
        EXPECT_EQ(rb.sequence(), bad);
        for (std::size_t i = 0; i < kCount; ++i) {
          const Bytes got(damaged[i].begin(), damaged[i].end() - 16);
          if (i < bad)
            EXPECT_EQ(got, pts[i]) << i;
          else
            EXPECT_EQ(got, Bytes(got.size(), 0)) << i << " after a failure at " << bad;
        }
        EXPECT_EQ(rb.open(aads[bad], want[bad]), pts[bad]) << "goes on at the failed message";
      }
    }
  }
}

// A batch is checked whole before anything is sealed: sizes and the sequence numbers left.
TEST(Hpke, BatchesAreCheckedFirst) {
  const Suite suite{KemId::MlKem768, KdfId::HkdfSha256, AeadId::Aes256Gcm};
  const KeyPair kp = generate_key_pair(suite.kem);
  SenderSetup s = setup_sender(suite, kp.pk, kInfo);
  const Bytes pt = message(50);
  Bytes a(66), b(65);
  const std::vector<BatchMessage> wrong_size = {{kAad, pt, a}, {kAad, pt, b}};
  EXPECT_TRUE(throws_errc([&] { s.context.seal_batch(wrong_size); }, Errc::bad_length));
  EXPECT_EQ(s.context.sequence(), 0u);
  EXPECT_EQ(a, Bytes(66, 0)) << "nothing sealed";
  RecipientContext r = setup_recipient(suite, s.enc, kp.sk, kInfo);
  const std::vector<BatchMessage> short_ct = {{kAad, Bytes(15), std::span<std::uint8_t>()}};
  EXPECT_TRUE(throws_errc([&] { r.open_batch(short_ct); }, Errc::bad_length));

  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  testing::set_sequence(s.context, kMax - 2);
  Bytes c(66);
  const std::vector<BatchMessage> three = {{kAad, pt, a}, {kAad, pt, c}, {kAad, pt, c}};
  EXPECT_TRUE(throws_errc([&] { s.context.seal_batch(three); }, Errc::message_limit));
  EXPECT_EQ(s.context.sequence(), kMax - 2);
  s.context.seal_batch(std::span(three).first(2));
  EXPECT_EQ(s.context.sequence(), kMax);
  s.context.seal_batch({});
  EXPECT_EQ(s.context.sequence(), kMax);
}

}  // namespace
}  // namespace pqkem::hpke
