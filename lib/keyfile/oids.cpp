// The OIDs of the schemes that have key files, and the AlgorithmIdentifier that names them.
#include <openssl/crypto.h>

#include "error.hpp"
#include "keyfile/internal.hpp"

namespace pqkem::keyfile {
namespace detail {
namespace {

/// Algorithms whose keys are likely to be given by mistake, by the contents of their OIDs, so
/// that a message can say what a key is without printing the OID read from the input (a
/// secret key misread as DER would show its own bytes).
struct ForeignOid {
  std::string_view name;
  std::size_t size;
  std::array<std::uint8_t, 9> der;
  [[nodiscard]] ByteView view() const noexcept { return {der.data(), size}; }
};
constexpr ForeignOid kForeignOids[] = {
    {"RSA", 9, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01}},        // rsaEncryption 1.2.840.113549.1.1.1
    {"EC", 7, {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01}},                     // id-ecPublicKey 1.2.840.10045.2.1
    {"X25519", 3, {0x2b, 0x65, 0x6e}},                                         // 1.3.101.110 (RFC 8410)
    {"X448", 3, {0x2b, 0x65, 0x6f}},                                           // 1.3.101.111
    {"Ed25519", 3, {0x2b, 0x65, 0x70}},                                        // 1.3.101.112
    {"Ed448", 3, {0x2b, 0x65, 0x71}},                                          // 1.3.101.113
    {"ML-DSA-44", 9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11}},  // 2.16.840.1.101.3.4.3.17
    {"ML-DSA-65", 9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12}},  // .18
    {"ML-DSA-87", 9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x13}},  // .19
};

}  // namespace

const OidEntry* find_oid(Scheme s) noexcept {
  for (const auto& e : kOids)
    if (e.scheme == s) return &e;
  return nullptr;
}

const OidEntry& require_oid(Scheme s) {
  const OidEntry* e = find_oid(s);
  if (e == nullptr)
    throw Error(Errc::bad_argument, std::string(scheme_info(s).name) +
                                        " has no standard OID, so it has no SubjectPublicKeyInfo / PKCS#8 form");
  return *e;
}

std::string name_of(Scheme s) { return std::string(scheme_info(s).name); }

bool equal_ct(ByteView a, ByteView b) noexcept {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

const OidEntry& read_algorithm(der::Reader& outer, const std::string& what) {
  der::Reader alg(outer.expect(der::kSequence, "AlgorithmIdentifier"), what);
  const ByteView oid = alg.expect(der::kOid, "algorithm OID");
  const OidEntry* found = nullptr;
  for (const auto& e : kOids)
    if (equal_ct(oid, e.der())) found = &e;
  if (found == nullptr) {
    for (const auto& e : kForeignOids)
      if (equal_ct(oid, e.view())) alg.fail("this is an " + std::string(e.name) + " key, not ML-KEM or X-Wing");
    alg.fail(
        "the algorithm OID is not ML-KEM's or X-Wing's (RFC 9935: 2.16.840.1.101.3.4.4.1, .2 or .3 for "
        "ML-KEM-512, -768, -1024; draft-connolly-cfrg-xwing-kem: 1.3.6.1.4.1.62253.25722)");
  }
  if (!alg.empty())
    alg.fail("the AlgorithmIdentifier has parameters; " + std::string(found->standard) + " requires them to be absent");
  return *found;
}

std::size_t algorithm_bytes(const OidEntry& oid) noexcept { return der::tlv_size(der::tlv_size(oid.size)); }

void write_algorithm(der::Writer& w, const OidEntry& oid) {
  w.header(der::kSequence, der::tlv_size(oid.size));
  w.tlv(der::kOid, oid.der());
}

}  // namespace detail

using namespace detail;

std::optional<std::string_view> oid_text(Scheme s) noexcept {
  const OidEntry* e = find_oid(s);
  if (e == nullptr) return std::nullopt;
  return e->text;
}

std::optional<std::string_view> oid_standard(Scheme s) noexcept {
  const OidEntry* e = find_oid(s);
  if (e == nullptr) return std::nullopt;
  return e->standard;
}

bool key_file_holds_seed_only(Scheme s) noexcept {
  const OidEntry* e = find_oid(s);
  return e != nullptr && e->layout == PrivateKeyLayout::raw_seed;
}

}  // namespace pqkem::keyfile
