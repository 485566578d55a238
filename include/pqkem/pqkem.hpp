// pqkem public API: post-quantum key encapsulation (ML-KEM, FIPS 203; NTRU, NIST PQC round 3:
// ntruhps2048509, ntruhps2048677, ntruhps4096821, ntruhrss701).
//
//   auto kp = pqkem::keygen(pqkem::Scheme::MlKem768);
//   auto [ct, ss_sender] = pqkem::encaps(pqkem::Scheme::MlKem768, kp.pk);
//   auto ss_receiver = pqkem::decaps(pqkem::Scheme::MlKem768, kp.sk, ct);
//
// Every function throws pqkem::Error on failure (see error.hpp); none returns an error code.
// Keys, ciphertexts and secrets are the standards' byte strings.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <pqkem/export.hpp>  // PQKEM_API: the symbols libpqkem.so exports

#include "error.hpp"
#include "secret.hpp"

namespace pqkem {

/// The parameter sets the library implements. Only this enum crosses the API boundary;
/// inside, parameter sets are compile-time structs.
enum class Scheme {
  MlKem512,
  MlKem768,
  MlKem1024,
  NtruHps2048509,
  NtruHps2048677,
  NtruHps4096821,
  NtruHrss701,
};

/// Static facts about a scheme.
struct SchemeInfo {
  Scheme scheme;
  std::string_view name;    ///< canonical name, e.g. "ML-KEM-768"
  std::string_view family;  ///< "ML-KEM" or "NTRU"
  std::string_view standard;  ///< e.g. "FIPS 203"
  std::size_t pk_bytes;     ///< encapsulation (public) key
  std::size_t sk_bytes;     ///< decapsulation (secret) key, expanded form
  std::size_t ct_bytes;     ///< ciphertext
  std::size_t ss_bytes;     ///< shared secret
  std::size_t seed_bytes;   ///< compact private seed (ML-KEM: d || z = 64), 0 if none
  /// Random bytes keygen / encaps draw, as the sizes of the successive RNG calls; the KAT
  /// generator replays them call by call (NIST's DRBG output depends on the call sizes).
  /// ML-KEM keygen: {64}, one call for d || z (as the reference code does; the published
  /// KAT hashes confirm it); encaps: {32} for m. NTRU keygen: {Sample_fg bytes, 32} (sampling
  /// seed, then PRF key), encaps: {Sample_rm bytes} (as the round-3 reference code draws them).
  /// Unused entries are 0.
  std::size_t keygen_draws[2];
  std::size_t encaps_draws[2];

  [[nodiscard]] std::size_t keygen_coin_bytes() const noexcept { return keygen_draws[0] + keygen_draws[1]; }
  [[nodiscard]] std::size_t encaps_coin_bytes() const noexcept { return encaps_draws[0] + encaps_draws[1]; }
};

/// All schemes, in a stable order.
PQKEM_API std::span<const SchemeInfo> all_schemes() noexcept;
PQKEM_API const SchemeInfo& scheme_info(Scheme s) noexcept;

/// Parses a scheme name, case-insensitively, ignoring '-' and '_':
/// "ML-KEM-768", "mlkem768", "ml_kem_768", "Kyber768" is *not* accepted (Kyber != ML-KEM);
/// "ntruhps2048509", "NTRU-HPS-2048-509", "ntru_hrss_701", "NTRU-HRSS-701".
PQKEM_API std::optional<Scheme> parse_scheme(std::string_view name) noexcept;

/// The scheme whose key / ciphertext has this length, if exactly one does.
PQKEM_API std::optional<Scheme> scheme_from_pk_size(std::size_t n) noexcept;
PQKEM_API std::optional<Scheme> scheme_from_sk_size(std::size_t n) noexcept;
PQKEM_API std::optional<Scheme> scheme_from_ct_size(std::size_t n) noexcept;

struct KeyPair {
  Bytes pk;        ///< encapsulation key
  SecretBytes sk;  ///< decapsulation key (expanded form)
};

struct Encapsulation {
  Bytes ct;        ///< ciphertext
  SecretBytes ss;  ///< shared secret
};

/// Where keygen() and encaps() draw their random bytes: the kernel's CSPRNG through
/// getrandom(2) (the default), or OpenSSL's DRBG through RAND_bytes. Both are cryptographically
/// secure; the system source spares a short-lived process OpenSSL's costly first draw. The
/// library reads no environment variable for this: a program chooses (the pqkem tool:
/// --rng and PQKEM_RNG).
enum class RandomSource { system, openssl };

/// Selects the source for the whole process (keygen() and encaps() read it once per draw).
PQKEM_API void set_random_source(RandomSource source) noexcept;
/// The source in use; RandomSource::system unless set_random_source() chose another.
PQKEM_API RandomSource random_source() noexcept;
/// "system" or "openssl", the names parse_random_source() accepts.
PQKEM_API std::string_view random_source_name(RandomSource source) noexcept;
/// What the source is: "getrandom(2)" or "OpenSSL RAND_bytes".
PQKEM_API std::string_view random_source_description(RandomSource source) noexcept;
/// "system" or "openssl" in any case; nullopt otherwise.
PQKEM_API std::optional<RandomSource> parse_random_source(std::string_view name) noexcept;

/// Randomized key generation; coins from random_source() (Errc::rng_failure if it fails).
PQKEM_API KeyPair keygen(Scheme s);
/// Deterministic key generation from exactly the bytes keygen would draw, concatenated
/// (ML-KEM: d || z, 64 bytes; this is also the ML-KEM private seed; NTRU: sampling seed ||
/// 32-byte PRF key). Errc::bad_length otherwise.
PQKEM_API KeyPair keygen_derand(Scheme s, ByteView coins);

/// Randomized encapsulation. Checks the key first (length: bad_length; ML-KEM modulus check,
/// NTRU nonzero unused bits in the last byte: invalid_encaps_key).
PQKEM_API Encapsulation encaps(Scheme s, ByteView pk);
/// Deterministic encapsulation (ML-KEM: coins = m, 32 bytes; NTRU: the Sample_rm bytes).
/// For testing only.
PQKEM_API Encapsulation encaps_derand(Scheme s, ByteView pk, ByteView coins);

/// Decapsulation with implicit rejection: a well-formed but wrong ciphertext yields the
/// pseudo-random rejection secret, not an error. Errors: bad_length (sk or ct),
/// invalid_decaps_key (ML-KEM: stored H(ek) does not match; NTRU: a packed polynomial of the
/// key is not a canonical encoding).
PQKEM_API SecretBytes decaps(Scheme s, ByteView sk, ByteView ct);

/// Input validation on its own (the checks encaps / decaps perform). Throw on failure.
PQKEM_API void check_public_key(Scheme s, ByteView pk);
PQKEM_API void check_secret_key(Scheme s, ByteView sk);

/// The public key embedded in / derivable from a secret key (checks the key first).
/// ML-KEM stores ek in dk. An NTRU round-3 secret key does not store h but stores h^-1 mod
/// (q, Phi_n); h is recomputed from it (one inversion), byte-identical to keygen's pk.
PQKEM_API Bytes public_key_from_secret_key(Scheme s, ByteView sk);

/// Library version, "MAJOR.MINOR.PATCH".
PQKEM_API std::string_view version() noexcept;

}  // namespace pqkem
