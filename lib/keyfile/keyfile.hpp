// pqkem: interoperable key files for ML-KEM (RFC 9935), as OpenSSL 3.5+ reads and writes them,
// and for X-Wing (draft-connolly-cfrg-xwing-kem, section "Use in X.509 Public Key Infrastructure").
//
//   public key:  SubjectPublicKeyInfo (RFC 5280)  SEQUENCE { AlgorithmIdentifier, BIT STRING pk }
//   private key: OneAsymmetricKey / PKCS#8 (RFC 5958) SEQUENCE { INTEGER 0, AlgorithmIdentifier,
//                OCTET STRING privateKey }, where privateKey holds
//     ML-KEM: the ML-KEM-PrivateKey CHOICE of RFC 9935
//                  seed        [0] IMPLICIT OCTET STRING (SIZE (64))      d || z  (tag 0x80)
//                  expandedKey OCTET STRING (SIZE (dk bytes))                     (tag 0x04)
//                  both        SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } (0x30)
//     X-Wing: the raw 32-byte seed (the X-Wing decapsulation key), with no inner encoding;
//             version 0 and publicKey absent, as the draft requires.
//   AlgorithmIdentifier: SEQUENCE { OID } with no parameters: ML-KEM 2.16.840.1.101.3.4.4.1 / .2
//   / .3, X-Wing 1.3.6.1.4.1.62253.25722.
//   PEM (RFC 7468): "PUBLIC KEY" / "PRIVATE KEY", base64 in lines of 64 characters.
//
// The readers are strict (DER only, exact structure, no trailing data) and check the key
// material as well: the public key's modulus check, and for ML-KEM private keys that the seed and
// the expanded key agree ("both"), that the expanded key's H(ek) matches and that it passes
// a pairwise consistency check (encapsulate to its ek, decapsulate, compare). Failures throw
// pqkem::Error: bad_format for the encoding, invalid_encaps_key / invalid_decaps_key for the
// key material, bad_argument for misuse (a scheme without an OID). Their messages name the
// structure, the field and the rule that failed and never a value read from the input (a
// length, a tag, an OID): the bytes may be a secret key given in the wrong role or misread as
// DER.
//
// NTRU and X25519MLKEM768 have no OID anywhere, so their keys have no SPKI/PKCS#8 form: the
// encoders refuse them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pqkem.hpp"
#include "secret.hpp"

namespace pqkem::keyfile {

/// Which alternative of the RFC 9935 ML-KEM-PrivateKey CHOICE a private key file uses. X-Wing
/// private keys are always `seed`.
enum class PrivateKeyForm { seed, expanded, both };

/// "seed", "expanded", "both".
std::string_view form_name(PrivateKeyForm form) noexcept;
/// Parses "seed" / "expanded" / "both" (exactly, lower case).
std::optional<PrivateKeyForm> parse_form(std::string_view name) noexcept;

/// The OID of `s` in dotted form ("2.16.840.1.101.3.4.4.2", X-Wing "1.3.6.1.4.1.62253.25722");
/// nullopt for schemes without a standard OID (NTRU, X25519MLKEM768).
std::optional<std::string_view> oid_text(Scheme s) noexcept;
/// The document that defines the key files of `s`: "RFC 9935" (ML-KEM) or
/// "draft-connolly-cfrg-xwing-kem" (X-Wing); nullopt without an OID.
std::optional<std::string_view> oid_standard(Scheme s) noexcept;
/// True if `s` has SubjectPublicKeyInfo / PKCS#8 encodings (ML-KEM, X-Wing).
inline bool has_key_files(Scheme s) noexcept { return oid_text(s).has_value(); }
/// True if the private key files of `s` hold the seed only (X-Wing: no expanded or both form).
bool key_file_holds_seed_only(Scheme s) noexcept;

/// A private key with everything known about it.
struct PrivateKey {
  Scheme scheme{};
  PrivateKeyForm form = PrivateKeyForm::seed;  ///< the form it was read in (or made from)
  /// The private seed (ML-KEM d || z, 64 bytes; the hybrids' standard secret key, 32 or 96
  /// bytes); empty when only the expanded key is known.
  SecretBytes seed;
  SecretBytes dk;  ///< the expanded decapsulation key (sk_bytes), always present
  Bytes pk;        ///< the encapsulation key, always present
};

/// A key from its seed (keygen_derand: ML-KEM d || z, the hybrids' seed). form = seed.
PrivateKey private_key_from_seed(Scheme s, ByteView seed);
/// A key from its expanded form (exactly sk_bytes), fully checked: length, FIPS 203 hash check
/// (H(ek) stored in dk), modulus check of the embedded ek, and a pairwise consistency check (a
/// fresh encapsulation to ek must decapsulate to the same secret with dk). form = expanded. A
/// hybrid's expanded key starts with its seed, which is then known as well.
PrivateKey private_key_from_expanded(Scheme s, ByteView dk);

struct PublicKey {
  Scheme scheme{};
  Bytes pk;
};

/// SubjectPublicKeyInfo DER of `pk` (length- and modulus-checked). bad_argument for a scheme
/// without an OID.
Bytes encode_spki(Scheme s, ByteView pk);
/// PKCS#8 DER of `key` in `form`. bad_argument for a scheme without an OID, for seed/both when
/// the seed is not known, and for X-Wing in any form but seed.
SecretBytes encode_pkcs8(const PrivateKey& key, PrivateKeyForm form);

/// Strict SubjectPublicKeyInfo reader (the whole input must be one SPKI); checks ek.
PublicKey decode_spki(ByteView der);
/// Strict PKCS#8 reader (the whole input must be one OneAsymmetricKey: ML-KEM version 0, or
/// version 1 with a publicKey that must match, all three private-key forms, told apart by tag;
/// X-Wing version 0 without publicKey, the 32-byte seed); every check described at the top.
PrivateKey decode_pkcs8(ByteView der);

/// What a DER input is, judged from its outer structure only (one SEQUENCE spanning the
/// whole input whose first element is a SEQUENCE: SPKI, or an INTEGER: PKCS#8, unless
/// der_kind_by_prefix recognises the other). Nothing is checked beyond that; decode_* do the
/// real parsing.
enum class DerKind { spki, pkcs8 };
std::optional<DerKind> der_kind(ByteView der) noexcept;
/// Which ML-KEM or X-Wing key file the first bytes of `der` nearly match (at least 9 of the 12
/// bytes compared, at the offset of PKCS#8's AlgorithmIdentifier or SPKI's), whether or not the
/// whole is well-formed: a truncated or damaged key file is still recognised, so that its
/// error names the right structure. nullopt when neither matches, or both equally well.
std::optional<DerKind> der_kind_by_prefix(ByteView der) noexcept;
/// True if `bytes` starts like a DER SEQUENCE (0x30): worth trying as DER before raw bytes.
bool starts_like_der(ByteView bytes) noexcept;

// --- PEM (RFC 7468) -------------------------------------------------------------------------

inline constexpr std::string_view kPemPublicKey = "PUBLIC KEY";
inline constexpr std::string_view kPemPrivateKey = "PRIVATE KEY";

/// "-----BEGIN <label>-----\n", base64 of `der` in lines of 64 characters, "-----END
/// <label>-----\n" (what OpenSSL writes). A wiping buffer: private keys pass through here.
SecretBytes pem_encode(std::string_view label, ByteView der);

struct PemBlock {
  std::string label;
  SecretBytes der;
};

/// True if `text`, after leading whitespace, starts with "-----BEGIN ".
bool looks_like_pem(ByteView text) noexcept;
/// Exactly one PEM block, with only whitespace around it. Lines end in LF or CRLF; base64
/// lines of any length; strict base64 (padding only at the end, zero pad bits). Headers
/// ("Proc-Type:", as in encrypted keys) and mismatched BEGIN/END labels are rejected.
PemBlock pem_decode(ByteView text);

/// SHA-256 of `data` (pqkem's own, hash.hpp: no OpenSSL provider start-up for one
/// fingerprint): the fingerprint `pqkem info` and the `--json` outputs show for a public key
/// (the raw encapsulation key bytes, so every encoding of one key has the same fingerprint).
std::array<std::uint8_t, 32> sha256(ByteView data) noexcept;

}  // namespace pqkem::keyfile
