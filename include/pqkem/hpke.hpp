// pqkem HPKE: Hybrid Public Key Encryption (RFC 9180 as updated by draft-ietf-hpke-hpke) with
// the post-quantum KEMs of draft-ietf-hpke-pq, on pqkem's ML-KEM and X-Wing.
//
//   using namespace pqkem::hpke;
//   const Suite suite{KemId::MlKem768, KdfId::HkdfSha256, AeadId::ChaCha20Poly1305};
//   auto kp = generate_key_pair(suite.kem);                       // kp.sk: the 64-byte seed
//   auto [enc, ct] = seal(suite, kp.pk, info, aad, plaintext);    // single shot
//   auto pt = open(suite, enc, kp.sk, info, aad, ct);             // throws Errc::open_failure
//
//   auto sender = setup_sender(suite, kp.pk, info);               // many messages, in order
//   auto ct0 = sender.context.seal(aad0, pt0);
//   auto ct1 = sender.context.seal(aad1, pt1);
//   auto recipient = setup_recipient(suite, sender.enc, kp.sk, info);
//   auto pt0_again = recipient.open(aad0, ct0);
//
// Modes: base and PSK (draft-ietf-hpke-hpke removed RFC 9180's Auth modes). The suite is data:
// three IANA ids, each naming one small table entry. Every function throws pqkem::Error.
// A context holds the key, base nonce and exporter secret, wiped when it is destroyed; no nonce
// is ever exposed. Keys are the drafts' serializations: an ML-KEM private key is the 64-byte
// seed d || z, an X-Wing private key its 32-byte seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include <pqkem/export.hpp>  // PQKEM_API: the symbols libpqkem.so exports

#include "error.hpp"
#include "pqkem.hpp"
#include "secret.hpp"

namespace pqkem::hpke {

/// HPKE KEM identifiers (draft-ietf-hpke-pq): the KEMs pqkem implements.
enum class KemId : std::uint16_t {
  MlKem512 = 0x0040,
  MlKem768 = 0x0041,
  MlKem1024 = 0x0042,
  XWing = 0x647A,  ///< MLKEM768-X25519
};

/// HPKE KDF identifiers: HKDF (two-stage, RFC 9180) and the SHA-3 XOFs (single-stage,
/// draft-ietf-hpke-hpke and draft-ietf-hpke-pq).
enum class KdfId : std::uint16_t {
  HkdfSha256 = 0x0001,
  HkdfSha384 = 0x0002,
  HkdfSha512 = 0x0003,
  Shake128 = 0x0010,
  Shake256 = 0x0011,
  TurboShake128 = 0x0012,
  TurboShake256 = 0x0013,
};

/// HPKE AEAD identifiers. ExportOnly has no cipher: its contexts only export secrets.
enum class AeadId : std::uint16_t {
  Aes128Gcm = 0x0001,
  Aes256Gcm = 0x0002,
  ChaCha20Poly1305 = 0x0003,
  ExportOnly = 0xFFFF,
};

struct Suite {
  KemId kem;
  KdfId kdf;
  AeadId aead;
};

/// The KEM constants (bytes): shared secret, encapsulation (enc), public key, private key (the
/// seed: what generate_key_pair returns and a key file stores).
struct KemInfo {
  KemId id;
  Scheme scheme;          ///< the pqkem scheme behind it
  std::string_view name;  ///< "ML-KEM-768", "MLKEM768-X25519" ...
  std::size_t n_secret, n_enc, n_pk, n_sk;
};
struct KdfInfo {
  KdfId id;
  std::string_view name;  ///< "HKDF-SHA256", "TurboSHAKE256" ...
  std::size_t n_h;        ///< security strength and, for HKDF, the Extract output size
  bool two_stage;         ///< Extract and Expand (HKDF), or one Derive (the XOFs)
};
struct AeadInfo {
  AeadId id;
  std::string_view name;        ///< "AES-128-GCM", "ChaCha20Poly1305", "Export-only"
  std::size_t n_k, n_n, n_t;    ///< key, nonce and tag sizes (0 for ExportOnly)
  std::uint64_t max_plaintext;  ///< P_MAX (RFC 5116): 2^36 - 31 for AES-GCM, 2^38 - 64 for ChaCha20Poly1305
};

/// The tables, in id order. The *_info functions throw Error(bad_argument) for a value outside
/// the enum (e.g. static_cast<KemId>(0x0010), a DHKEM pqkem does not implement).
PQKEM_API std::span<const KemInfo> all_kems() noexcept;
PQKEM_API std::span<const KdfInfo> all_kdfs() noexcept;
PQKEM_API std::span<const AeadInfo> all_aeads() noexcept;
PQKEM_API const KemInfo& kem_info(KemId id);
PQKEM_API const KdfInfo& kdf_info(KdfId id);
PQKEM_API const AeadInfo& aead_info(AeadId id);

/// The HPKE KEM of a pqkem scheme. NTRU and X25519MLKEM768 have no HPKE KEM id: for them this
/// throws Error(bad_argument) with a message naming the schemes that work.
PQKEM_API KemId kem_for_scheme(Scheme s);

/// Names, case-insensitive, '-' and '_' ignored: a KEM by its scheme's names (parse_scheme:
/// "ML-KEM-768", "X-Wing", "MLKEM768-X25519"); "HKDF-SHA256", "SHAKE256", "TurboSHAKE128" ...;
/// "AES-128-GCM", "AES-256-GCM", "ChaCha20-Poly1305" (or "ChaCha20Poly1305"), "export-only".
/// nullopt for anything else (a scheme without an HPKE KEM included).
PQKEM_API std::optional<KemId> parse_kem(std::string_view name) noexcept;
PQKEM_API std::optional<KdfId> parse_kdf(std::string_view name) noexcept;
PQKEM_API std::optional<AeadId> parse_aead(std::string_view name) noexcept;

/// GenerateKeyPair: pk and the private key's serialization (the seed), from the random source.
PQKEM_API KeyPair generate_key_pair(KemId kem);
/// DeriveKeyPair(ikm) (draft-ietf-hpke-pq): seed = SHAKE256 LabeledDerive(ikm, "DeriveKeyPair",
/// "", Nsk) with suite_id "KEM" || kem_id, then the KEM's key generation from that seed.
/// ikm (any length) should hold at least Nsk bytes of entropy.
PQKEM_API KeyPair derive_key_pair(KemId kem, ByteView ikm);

/// A pre-shared key and its identifier (PSK mode). Both must be non-empty (VerifyPSKInputs);
/// psk must have at least 32 bytes (draft-ietf-hpke-hpke: at least 32 bytes of entropy).
struct Psk {
  ByteView psk;
  ByteView psk_id;
};

/// One message of a batch (SenderContext::seal_batch, RecipientContext::open_batch): its aad,
/// its input (plaintext or ciphertext) and where its output goes, as for seal and open.
struct BatchMessage {
  ByteView aad;
  ByteView in;
  std::span<std::uint8_t> out;
};

/// A batch needs this many bytes of input in all to be split over two threads: below it, a
/// thread's start-up and OpenSSL's (the batch moves the cipher to its bulk code) cost more than
/// they save.
inline constexpr std::size_t kBatchParallelBytes = std::size_t{4} << 20;

/// What Context::seal and Context::open need from the suite, the keys and the sequence number.
class PQKEM_API Context {
public:
  Context(Context&&) noexcept;
  Context& operator=(Context&&) noexcept;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ~Context();  ///< wipes the key, base nonce and exporter secret

  [[nodiscard]] const Suite& suite() const noexcept;
  /// The number of messages sealed or opened so far (the next message's sequence number).
  [[nodiscard]] std::uint64_t sequence() const noexcept;
  /// Tag size Nt (16) of the suite's AEAD; ciphertexts are plaintexts plus this many bytes.
  [[nodiscard]] std::size_t tag_bytes() const noexcept;

  /// Export(exporter_context, L): L secret bytes bound to this context. L is at most 255 * Nh
  /// for HKDF and 65535 for the single-stage KDFs (Error(bad_argument) past that).
  [[nodiscard]] SecretBytes export_secret(ByteView exporter_context, std::size_t length) const;

  struct State;  ///< opaque: the suite, keys and sequence number (lib/hpke/hpke.cpp)

protected:
  explicit Context(std::unique_ptr<State> state) noexcept;
  std::unique_ptr<State> m_state;
  friend struct Access;  // lib/hpke/hpke.cpp and the test-only entry points (lib/hpke/testing.hpp)
};

/// The sender's context (ContextS): seals messages in sequence order.
class PQKEM_API SenderContext : public Context {
public:
  /// Seal(aad, pt) into ct_out, which must hold exactly pt.size() + tag_bytes() bytes (else
  /// Error(bad_length)) and may start at pt.data() (in place; no other overlap). Returns the
  /// bytes written. The nonce is base_nonce xor the sequence number, which then goes up by one.
  /// Errors: bad_argument for an ExportOnly suite; message_limit once 2^64 - 1 messages have
  /// been sealed (the sequence number would overflow: nothing is written); bad_length for a
  /// plaintext above P_MAX.
  std::size_t seal(ByteView aad, ByteView pt, std::span<std::uint8_t> ct_out);
  /// The same, into a new buffer.
  [[nodiscard]] Bytes seal(ByteView aad, ByteView pt);
  /// Seals the messages in order, as that many seal() calls would, with the same bytes. With
  /// threads > 1 and at least kBatchParallelBytes of input in all, the messages are shared out
  /// between this thread and one more, started for the call (`threads` counts this one: 2 are
  /// used at most). Every message is checked before any is sealed; errors as seal, except that
  /// a batch that fails part way (OpenSSL) still uses up its sequence numbers.
  void seal_batch(std::span<const BatchMessage> messages, unsigned threads = 1);

private:
  explicit SenderContext(std::unique_ptr<State> state) noexcept;
  friend struct Access;
};

/// The recipient's context (ContextR): opens messages in sequence order.
class PQKEM_API RecipientContext : public Context {
public:
  /// Open(aad, ct) into pt_out, which must hold exactly ct.size() - tag_bytes() bytes (else
  /// Error(bad_length); a ct shorter than the tag is bad_length too) and may start at ct.data().
  /// Returns the bytes written. A ciphertext that does not authenticate (wrong key, aad, info,
  /// sequence number, or altered bytes) throws Error(open_failure), leaves pt_out zeroed and
  /// the sequence number unchanged. Other errors as SenderContext::seal.
  std::size_t open(ByteView aad, ByteView ct, std::span<std::uint8_t> pt_out);
  /// The same, into a new buffer (wiped before the exception on failure).
  [[nodiscard]] Bytes open(ByteView aad, ByteView ct);
  /// Opens the messages in order, as that many open() calls would, on up to `threads` threads
  /// as in SenderContext::seal_batch. If a message does not authenticate, the ones before it are
  /// opened and counted in sequence(), it and every later one's output are zeroed, and
  /// Error(open_failure) is thrown: sequence() then says which message failed. Other errors as
  /// open, before any message is opened.
  void open_batch(std::span<const BatchMessage> messages, unsigned threads = 1);

private:
  explicit RecipientContext(std::unique_ptr<State> state) noexcept;
  friend struct Access;
};

struct SenderSetup {
  Bytes enc;  ///< the encapsulated key, for the recipient
  SenderContext context;
};

/// SetupBaseS / SetupPSKS (with psk): encapsulates to pk_r (Error(invalid_encaps_key) if it
/// fails the KEM's key check, bad_length if its size is not Npk) and runs the key schedule.
PQKEM_API SenderSetup setup_sender(const Suite& suite, ByteView pk_r, ByteView info,
                                   const std::optional<Psk>& psk = std::nullopt);
/// SetupBaseR / SetupPSKR. sk_r is the private key's serialization (the seed, Nsk bytes) or,
/// for ML-KEM, the expanded FIPS 203 decapsulation key (decaps checks its hash: Error(
/// invalid_decaps_key)); an X-Wing sk_r may also be pqkem's expanded form (pqkem.hpp, decaps).
/// An enc of the wrong size is bad_length; a wrong enc of the right size is not detected here
/// (ML-KEM's implicit rejection): open fails later.
PQKEM_API RecipientContext setup_recipient(const Suite& suite, ByteView enc, ByteView sk_r, ByteView info,
                                           const std::optional<Psk>& psk = std::nullopt);

/// Single-shot Seal<MODE> / Open<MODE> (draft-ietf-hpke-hpke, section 6.1).
struct Sealed {
  Bytes enc;
  Bytes ct;
};
PQKEM_API Sealed seal(const Suite& suite, ByteView pk_r, ByteView info, ByteView aad, ByteView pt,
                      const std::optional<Psk>& psk = std::nullopt);
PQKEM_API Bytes open(const Suite& suite, ByteView enc, ByteView sk_r, ByteView info, ByteView aad, ByteView ct,
                     const std::optional<Psk>& psk = std::nullopt);

/// Single-shot SendExport<MODE> / ReceiveExport<MODE> (section 6.2).
struct SentExport {
  Bytes enc;
  SecretBytes secret;
};
PQKEM_API SentExport send_export(const Suite& suite, ByteView pk_r, ByteView info, ByteView exporter_context,
                                 std::size_t length, const std::optional<Psk>& psk = std::nullopt);
PQKEM_API SecretBytes receive_export(const Suite& suite, ByteView enc, ByteView sk_r, ByteView info,
                                     ByteView exporter_context, std::size_t length,
                                     const std::optional<Psk>& psk = std::nullopt);

}  // namespace pqkem::hpke
