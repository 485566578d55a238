// pqkem CLI: reading keys and ciphertexts (raw, hex, PEM, DER) with the checks and messages every
// command shares, and encoding keys for output (keys.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io.hpp"
#include "keyfile/keyfile.hpp"
#include "pqkem.hpp"

namespace pqkem::cli {

/// A key file's bytes after format detection (PEM, DER, hex or raw; see load_key_input).
struct KeyInput {
  SecretBytes bytes;            ///< DER (pem / der, or DER given as hex) or the raw key bytes
  Format format = Format::bin;  ///< how the file is encoded: bin, hex, pem or der
  bool der = false;             ///< `bytes` is a DER structure (SubjectPublicKeyInfo or PKCS#8)
  bool from_hex = false;        ///< the file was hex
  std::string pem_label;        ///< for pem
  std::string file;             ///< name for messages
  std::size_t file_bytes = 0;   ///< size of the file as read
  /// With `der`: which structure the DER is, or was meant to be when damaged (PEM: unset; the
  /// label says).
  std::optional<keyfile::DerKind> der_kind;
};

/// Reads `path` and detects its encoding: PEM (after optional whitespace, "-----BEGIN "), else
/// hex or raw bytes as decode_input decides, and then DER if the bytes have the outer shape of an
/// SPKI / PKCS#8 structure (keyfile::der_kind), or begin like an ML-KEM key file that has been
/// truncated or damaged (keyfile::der_kind_by_prefix; its decoder then says what is wrong).
/// Exit 1 for a malformed PEM block or text that is not hex.
KeyInput load_key_input(const std::string& path);

/// True if `in` holds a private key by its container (PEM label, DER structure); nullopt
/// for raw bytes.
std::optional<bool> container_is_private(const KeyInput& in);

/// A public key with how its file was encoded.
struct PublicKeyInput {
  Scheme scheme{};
  Bytes pk;
  Format format = Format::bin;
  bool der = false;
};

/// A secret key with how its file was encoded. `key.pk` is filled for PKCS#8, seeds and full
/// checks, not for a raw expanded key read without `full_check` (decaps does not need it, and
/// recomputing an NTRU public key costs an inversion).
struct SecretKeyInput {
  keyfile::PrivateKey key;
  Format format = Format::bin;
  bool der = false;
};

/// The public key in `in`; the scheme is `algorithm` or comes from the OID or the length.
/// Exit 1 for a private key, a wrong PEM label, malformed DER, a wrong length or an invalid key.
PublicKeyInput public_key_from_input(KeyInput in, std::optional<Scheme> algorithm);
/// The secret key in `in`: PKCS#8 in any form (fully checked), an expanded key (with
/// `full_check`: hash, modulus and pairwise checks; without it, for decaps, unchecked here,
/// since pqkem::decaps runs the hash check itself), or a raw seed (exit 2 without `algorithm`,
/// since a seed does not reveal its parameter set).
SecretKeyInput secret_key_from_input(KeyInput in, std::optional<Scheme> algorithm, bool full_check);

/// load_key_input + public_key_from_input, with the sizes of public keys.
PublicKeyInput load_public_key(const std::string& path, std::optional<Scheme> algorithm);
/// load_key_input + secret_key_from_input, with the sizes of secret keys and seeds.
SecretKeyInput load_secret_key(const std::string& path, std::optional<Scheme> algorithm, bool full_check);

/// A public key read from `path`; the scheme is `algorithm` or, if absent, inferred from
/// the key's OID or length. Exit 1 for a length no scheme (or not the given one) has.
std::pair<Scheme, Bytes> read_public_key(const std::string& path, std::optional<Scheme> algorithm);

/// A secret key read from `path` for decaps: the expanded key, or a private seed (expanded here;
/// exit 2 without `algorithm`, since a seed does not reveal its parameter set). An expanded key
/// is left for pqkem::decaps to check.
std::pair<Scheme, SecretBytes> read_secret_key(const std::string& path, std::optional<Scheme> algorithm);
/// "not a valid ML-KEM-768 secret key": what a failed check of a raw secret key of `s` says
/// before the library's reason, on loading or (decaps) in the decapsulation.
std::string secret_key_context(Scheme s);

/// "read as hex" or "read as raw bytes", for messages about an input's length.
const char* how_read(bool from_hex) noexcept;

/// The private seed size of `s` if its keys can be given as a seed that keygen_derand
/// expands (ML-KEM: 64, d || z; X-Wing 32, X25519MLKEM768 96); nullopt otherwise (NTRU).
std::optional<std::size_t> seed_size(Scheme s) noexcept;
/// The names of `schemes`: "X-Wing", "X-Wing or X25519MLKEM768", "ML-KEM-512, ML-KEM-768 and
/// ML-KEM-1024" (`last_sep` "and").
std::string scheme_names(const std::vector<Scheme>& schemes, const char* last_sep);
/// True if the standard secret key of `s` is its seed and pqkem's expanded form (sk_bytes) is
/// in memory only: the hybrids (hybrid/hybrid.hpp). Their key files always hold the seed; an
/// expanded key is neither written nor read, and --sk-form expanded or both is a usage error.
bool secret_key_is_seed(Scheme s) noexcept;
/// Exit 2 if raw input of `n` bytes fits the `what` ("public key", "ciphertext") of more than
/// one scheme (`fits`; the hybrids share their public key and ciphertext sizes): -a must say.
void require_unambiguous_size(const char* what, std::size_t n, bool from_hex, const std::vector<Scheme>& fits,
                              const std::string& file);

/// A ciphertext of scheme `s` read from `path`.
Bytes read_ciphertext(const std::string& path, Scheme s);

/// Exit 2 if `format` is pem or der and `s` has no standard OID (NTRU, X25519MLKEM768).
void require_key_format(Scheme s, Format format);
/// The private-key form to write for `--sk-form` (`given`, may be empty) and `format`:
/// default seed for pem/der when the seed is known (else expanded), expanded for bin/hex; the
/// hybrids always seed (secret_key_is_seed). Exit 2 for both with bin/hex, seed/both for a
/// scheme without a seed, or expanded/both for a hybrid; exit 1 (naming `file`) for seed/both
/// when only the expanded key is known.
keyfile::PrivateKeyForm resolve_sk_form(const std::string& given, Format format, Scheme s, bool seed_known,
                                        const std::string& file);
/// A public key encoded as `format` (pem/der: SubjectPublicKeyInfo).
SecretBytes encode_public_key(Scheme s, ByteView pk, Format format);
/// A secret key encoded as `format` in `form` (pem/der: PKCS#8; bin/hex: the raw seed or
/// expanded key).
SecretBytes encode_secret_key(const keyfile::PrivateKey& key, Format format, keyfile::PrivateKeyForm form);

}  // namespace pqkem::cli
