// Test-only entry points of the HPKE library: not part of the installed API (include/pqkem/
// hpke.hpp), for tests/hpke. Nothing in the library or the tool calls them.
#pragma once

#include <cstdint>
#include <optional>

#include "hpke.hpp"

namespace pqkem::hpke::testing {

/// HPKE's mode byte (draft-ietf-hpke-hpke, section 5).
enum class Mode : std::uint8_t { base = 0x00, psk = 0x01 };

/// setup_sender with the KEM's encapsulation randomness given: ikm_e is what draft-ietf-hpke-pq's
/// test vectors call ikmE (ML-KEM: m, 32 bytes; X-Wing: eseed, 64 bytes), so the vectors'
/// enc and shared_secret come out.
SenderSetup setup_sender_derand(const Suite& suite, ByteView pk_r, ByteView info, const std::optional<Psk>& psk,
                                ByteView ikm_e);

/// HPKE's Encap on the given randomness (as setup_sender_derand) and Decap, on their own: the
/// vectors give shared_secret.
Encapsulation encap_derand(KemId kem, ByteView pk_r, ByteView ikm_e);
SecretBytes decap(KemId kem, ByteView enc, ByteView sk_r);

/// The key schedule alone, on a given shared secret, with an explicit mode (so that every branch
/// of VerifyPSKInputs can be reached) and any suite, including KEM ids pqkem does not implement
/// (the key schedule only puts the id into suite_id): the vectors' DHKEM suites check the
/// single-stage KDFs that no PQ suite of theirs uses.
SenderContext sender_from_shared_secret(const Suite& suite, Mode mode, ByteView shared_secret, ByteView info,
                                        ByteView psk, ByteView psk_id);
RecipientContext recipient_from_shared_secret(const Suite& suite, Mode mode, ByteView shared_secret, ByteView info,
                                              ByteView psk, ByteView psk_id);

/// The key schedule's outputs, to compare with the vectors.
struct Secrets {
  Bytes key, base_nonce, exporter_secret;
};
Secrets secrets_of(const Context& ctx);

/// Sets the sequence number, to reach the limit without 2^64 messages.
void set_sequence(Context& ctx, std::uint64_t seq) noexcept;

}  // namespace pqkem::hpke::testing
