// What the sources of lib/keyfile share (not installed): the OIDs of the schemes that have key
// files, the AlgorithmIdentifier that carries them, and constant-time comparison (a key file
// may be a secret key given by mistake, so its bytes are compared without early exit).
#pragma once

#include <algorithm>
#include <array>
#include <iterator>
#include <string>
#include <string_view>

#include "keyfile/der.hpp"
#include "keyfile/keyfile.hpp"

namespace pqkem::keyfile::detail {

/// What the PKCS#8 privateKey OCTET STRING of a scheme holds.
enum class PrivateKeyLayout {
  rfc9935_choice,  ///< RFC 9935's ML-KEM-PrivateKey CHOICE: seed [0], expandedKey or both
  raw_seed,        ///< the seed itself, with no inner encoding (X-Wing)
};

/// The OID of each scheme that has key files, as the contents of a DER OBJECT IDENTIFIER.
struct OidEntry {
  Scheme scheme;
  std::array<std::uint8_t, 11> bytes;
  std::size_t size;
  std::string_view text;
  std::string_view standard;  ///< the document the messages cite for the encoding's rules
  PrivateKeyLayout layout;
  [[nodiscard]] ByteView der() const noexcept { return {bytes.data(), size}; }
};
inline constexpr std::string_view kRfc9935 = "RFC 9935";
inline constexpr std::string_view kXWingDraft = "draft-connolly-cfrg-xwing-kem";
inline constexpr OidEntry kOids[] = {
    // RFC 9935 section 3: id-alg-ml-kem-512/768/1024 ::= { nistAlgorithm kems(4) 1/2/3 }.
    {Scheme::MlKem512,
     {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x01},
     9,
     "2.16.840.1.101.3.4.4.1",
     kRfc9935,
     PrivateKeyLayout::rfc9935_choice},
    {Scheme::MlKem768,
     {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02},
     9,
     "2.16.840.1.101.3.4.4.2",
     kRfc9935,
     PrivateKeyLayout::rfc9935_choice},
    {Scheme::MlKem1024,
     {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x03},
     9,
     "2.16.840.1.101.3.4.4.3",
     kRfc9935,
     PrivateKeyLayout::rfc9935_choice},
    // The X-Wing draft, section "Use in X.509 Public Key Infrastructure": id-XWing.
    {Scheme::XWing,
     {0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xe6, 0x2d, 0x81, 0xc8, 0x7a},
     11,
     "1.3.6.1.4.1.62253.25722",
     kXWingDraft,
     PrivateKeyLayout::raw_seed},
};
// der_kind_by_prefix compares 8 bytes of each OID, after headers in DER's short form.
static_assert(std::all_of(std::begin(kOids), std::end(kOids),
                          [](const OidEntry& e) { return e.size >= 8 && e.size < 128; }));

/// The OID entry of `s`, or nullptr if it has no key files.
const OidEntry* find_oid(Scheme s) noexcept;
/// The OID entry of `s`; throws bad_argument if it has no key files.
const OidEntry& require_oid(Scheme s);

/// AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }, which RFC 9935
/// and the X-Wing draft require to be exactly { OID } with parameters absent. Any other OID is
/// named only if it is a known foreign one (RSA, EC, ML-DSA ...): never printed.
const OidEntry& read_algorithm(der::Reader& outer, const std::string& what);
/// Size of AlgorithmIdentifier { oid } (13 bytes for ML-KEM, 15 for X-Wing).
std::size_t algorithm_bytes(const OidEntry& oid) noexcept;
/// Writes AlgorithmIdentifier { oid }.
void write_algorithm(der::Writer& w, const OidEntry& oid);

/// Equal sizes and equal bytes, compared in constant time (CRYPTO_memcmp).
bool equal_ct(ByteView a, ByteView b) noexcept;
/// The scheme's canonical name, for messages.
std::string name_of(Scheme s);

}  // namespace pqkem::keyfile::detail
