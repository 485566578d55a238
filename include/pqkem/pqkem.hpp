// pqkem public API: post-quantum key encapsulation (ML-KEM, FIPS 203; NTRU, NIST PQC round 3:
// ntruhps2048509, ntruhps2048677, ntruhps4096821, ntruhrss701; the hybrids X-Wing and
// X25519MLKEM768, ML-KEM-768 with X25519).
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
  XWing,           ///< X-Wing (draft-connolly-cfrg-xwing-kem), alias MLKEM768-X25519
  X25519MlKem768,  ///< the TLS 1.3 hybrid key share (draft-ietf-tls-ecdhe-mlkem)
};

/// The family a scheme belongs to. Code asks SchemeInfo's capability fields what it needs to
/// know (is the secret key a seed, is there a NIST KAT, ...); the family is for display and
/// for what is truly one family's own.
enum class Family {
  MlKem,   ///< ML-KEM (FIPS 203)
  Ntru,    ///< NTRU (NIST PQC round 3)
  Hybrid,  ///< ML-KEM-768 with X25519
};

/// "ML-KEM", "NTRU" or "hybrid".
PQKEM_API std::string_view family_name(Family f) noexcept;

/// Static facts about a scheme.
struct SchemeInfo {
  Scheme scheme;
  std::string_view name;  ///< canonical name, e.g. "ML-KEM-768"
  Family family;
  std::string_view standard;  ///< e.g. "FIPS 203"
  std::size_t pk_bytes;       ///< encapsulation (public) key
  std::size_t sk_bytes;       ///< decapsulation (secret) key, expanded form
  std::size_t ct_bytes;       ///< ciphertext
  std::size_t ss_bytes;       ///< shared secret (32; X25519MLKEM768: 64)
  /// Compact private seed, 0 if none: ML-KEM d || z (64); X-Wing its 32-byte decapsulation
  /// key; X25519MLKEM768 d || z || X25519 private key (96). For the hybrids the seed is the
  /// standard secret key, and the expanded form (sk_bytes) starts with it.
  std::size_t seed_bytes;
  /// The coins of keygen_derand / encaps_derand, as the sizes of the successive RNG calls the
  /// reference code makes for them; the KAT generator replays them call by call (NIST's DRBG
  /// output depends on the call sizes). ML-KEM keygen: {64}, one call for d || z (as the
  /// reference code does; the published KAT hashes confirm it); encaps: {32} for m. NTRU
  /// keygen: {Sample_fg bytes, 32} (sampling seed, then PRF key), encaps: {Sample_rm bytes} (as
  /// the round-3 reference code draws them; keygen() and encaps() make them from a 32-byte
  /// draw instead, random_keygen_coins). Unused entries are 0.
  std::size_t keygen_draws[2];
  std::size_t encaps_draws[2];
  /// The standard secret key is the seed (the hybrids): a key file holds the seed_bytes seed,
  /// and the expanded form (sk_bytes) starts with it. Otherwise the secret key is sk_bytes.
  bool seed_is_secret_key;
  /// NIST's KAT procedure (PQCgenKAT_kem: a DRBG feeding keygen and encaps) applies and its
  /// published files exist: ML-KEM and NTRU. The hybrids' vectors come from their drafts.
  bool has_nist_kat;
  /// No other scheme has a public key or a ciphertext of this one's size, so the size alone
  /// names it (scheme_from_pk_size / _ct_size). False for the two hybrids, which share theirs.
  bool pk_ct_sizes_unique;
  /// check_public_key rejects all but a negligible fraction of byte strings of pk_bytes, so
  /// that a ciphertext of the same size fails it: ML-KEM's modulus check (every coefficient
  /// below q), also inside the hybrids. NTRU's check (the unused bits of the last byte are
  /// zero) accepts its own ciphertexts, which have the public key's size.
  bool pk_check_strong;

  [[nodiscard]] std::size_t keygen_coin_bytes() const noexcept { return keygen_draws[0] + keygen_draws[1]; }
  [[nodiscard]] std::size_t encaps_coin_bytes() const noexcept { return encaps_draws[0] + encaps_draws[1]; }
};

/// All schemes, in a stable order.
PQKEM_API std::span<const SchemeInfo> all_schemes() noexcept;
PQKEM_API const SchemeInfo& scheme_info(Scheme s) noexcept;

/// Parses a scheme name, case-insensitively, ignoring '-' and '_':
/// "ML-KEM-768", "mlkem768", "ml_kem_768", "Kyber768" is *not* accepted (Kyber != ML-KEM);
/// "ntruhps2048509", "NTRU-HPS-2048-509", "ntru_hrss_701", "NTRU-HRSS-701"; "X-Wing",
/// "xwing", "MLKEM768-X25519" (X-Wing); "X25519MLKEM768" (not the same scheme: ML-KEM first,
/// no combiner).
PQKEM_API std::optional<Scheme> parse_scheme(std::string_view name) noexcept;

/// The scheme whose key / ciphertext has this length, if exactly one does. (The two hybrids
/// share their public key and ciphertext sizes: 1216 and 1120 bytes give nullopt.)
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

/// Which implementation the operations run: "portable", or on x86-64 "avx2" or "avx512" (all
/// give the same bytes). By default the library picks the fastest this CPU is known to run well
/// (the tool's `auto`: AVX-512 on AMD Zen 4 and 5, else AVX2 where usable, else portable). The
/// library reads no environment variable for this: a program chooses (the pqkem tool: --impl
/// and PQKEM_IMPL). Selects `name` ("auto", or an implementation's name, in any case) for every
/// later operation of the process; throws Error(Errc::bad_argument) for an unknown name or an
/// implementation this build or CPU cannot run, saying which. Not meant to race with running
/// operations.
PQKEM_API void set_implementation(std::string_view name);
/// The implementation operations use now: "portable", "avx2" or "avx512".
PQKEM_API std::string_view implementation() noexcept;

/// The coins a randomized key generation / encapsulation uses, keygen_coin_bytes() /
/// encaps_coin_bytes() of them, from random_source() (Errc::rng_failure if it fails):
/// keygen(s) is keygen_derand(s, random_keygen_coins(s)), and encaps likewise. ML-KEM and the
/// hybrids draw their coins as they are (32 to 96 bytes). NTRU draws 32 bytes and expands them
/// with SHAKE256 into its 1.4 to 3.9 KB of sampling bytes (eight streams SHAKE256(seed || i);
/// lib/ntru/sample.hpp, expand_coins), the same bytes on every implementation.
PQKEM_API SecretBytes random_keygen_coins(Scheme s);
PQKEM_API SecretBytes random_encaps_coins(Scheme s);

/// Randomized key generation; coins from random_keygen_coins(s) (Errc::rng_failure if the
/// random source fails). Runs keygen_derand on them, refusals included (NTRU: probability at
/// most 2^-799).
PQKEM_API KeyPair keygen(Scheme s);
/// Deterministic key generation from exactly the bytes keygen would draw, concatenated
/// (ML-KEM: d || z, 64 bytes; this is also the ML-KEM private seed; NTRU: sampling seed ||
/// 32-byte PRF key; X-Wing: the 32-byte seed, its decapsulation key; X25519MLKEM768: d || z ||
/// X25519 private key, 96 bytes). Errc::bad_length otherwise. The returned sk is the expanded
/// form; for the hybrids its first seed_bytes bytes are the seed. NTRU refuses the sampling
/// seeds for which no key pair exists (Errc::bad_argument, nothing returned): those that sample
/// f = 0 or g = 0, e.g. a seed of bytes that are all 0 mod 3, for which the round-3 reference
/// code returns a key that fails the pairwise consistency check. Every NTRU key returned passes it.
PQKEM_API KeyPair keygen_derand(Scheme s, ByteView coins);

/// Randomized encapsulation, coins from random_encaps_coins(s). Checks the key first (length:
/// bad_length; ML-KEM modulus check, also on a hybrid's ML-KEM half, NTRU nonzero unused bits in
/// the last byte, an X25519MLKEM768 key whose X25519 part has small order: invalid_encaps_key).
PQKEM_API Encapsulation encaps(Scheme s, ByteView pk);
/// Deterministic encapsulation (ML-KEM: coins = m, 32 bytes; NTRU: the Sample_rm bytes;
/// the hybrids: m || X25519 ephemeral private key, 64 bytes, X-Wing's eseed). For testing only.
/// X25519MLKEM768 rejects a public key whose X25519 part has small order (invalid_encaps_key:
/// the X25519 secret would be all zero, RFC 8446 section 7.4.2); X-Wing does not check (its
/// draft has no such check: ct_X and pk_X enter its combiner).
PQKEM_API Encapsulation encaps_derand(Scheme s, ByteView pk, ByteView coins);

/// Decapsulation with implicit rejection: a well-formed but wrong ciphertext yields the
/// pseudo-random rejection secret, not an error. Errors: bad_length (sk or ct),
/// invalid_decaps_key (ML-KEM, and a hybrid's ML-KEM part: stored H(ek) does not match; NTRU: a
/// packed polynomial of the key is not a canonical encoding), invalid_ciphertext
/// (X25519MLKEM768 only: an X25519 share of small order). The hybrids also accept the seed
/// (seed_bytes) as sk and expand it first, as the X-Wing draft's Decapsulate does; keeping the
/// expanded key saves that work on every call. So decaps trusts an expanded hybrid key as the
/// cache of its seed that keygen made: it does not check that the key is its seed's expansion,
/// which would cost a key generation per call and undo the cache. check_secret_key does check
/// it: call it on an expanded key that did not come from this library's keygen (pqkem's files
/// hold only the seed, so the tool never reads one).
PQKEM_API SecretBytes decaps(Scheme s, ByteView sk, ByteView ct);

/// Input validation on its own (the checks encaps / decaps perform). Throw on failure.
/// check_secret_key and public_key_from_secret_key accept a hybrid's seed as well.
PQKEM_API void check_public_key(Scheme s, ByteView pk);
PQKEM_API void check_secret_key(Scheme s, ByteView sk);

/// The public key embedded in / derivable from a secret key (checks the key first).
/// ML-KEM stores ek in dk. An NTRU round-3 secret key does not store h but stores h^-1 mod
/// (q, Phi_n); h is recomputed from it (one inversion), byte-identical to keygen's pk.
PQKEM_API Bytes public_key_from_secret_key(Scheme s, ByteView sk);

/// Library version, "MAJOR.MINOR.PATCH".
PQKEM_API std::string_view version() noexcept;

}  // namespace pqkem
