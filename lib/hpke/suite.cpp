// HPKE's algorithm tables (draft-ietf-hpke-hpke section 7, draft-ietf-hpke-pq): the suite is
// data, three ids naming three table entries.
#include <algorithm>
#include <string>

#include "hpke.hpp"
#include "util/ascii.hpp"

namespace pqkem::hpke {
namespace {

// draft-ietf-hpke-pq, "Updated ML-KEM KEM Entries" and "PQ/T Hybrid KEM Entries". Nsk is the
// seed: 64 bytes d || z for ML-KEM, X-Wing's 32-byte decapsulation key.
constexpr KemInfo kKems[] = {
    {KemId::MlKem512, Scheme::MlKem512, "ML-KEM-512", 32, 768, 800, 64},
    {KemId::MlKem768, Scheme::MlKem768, "ML-KEM-768", 32, 1088, 1184, 64},
    {KemId::MlKem1024, Scheme::MlKem1024, "ML-KEM-1024", 32, 1568, 1568, 64},
    {KemId::XWing, Scheme::XWing, "MLKEM768-X25519", 32, 1120, 1216, 32},
};
// draft-ietf-hpke-hpke "KDF IDs"; draft-ietf-hpke-pq "Single-Stage KDF IDs".
constexpr KdfInfo kKdfs[] = {
    {KdfId::HkdfSha256, "HKDF-SHA256", 32, true},       {KdfId::HkdfSha384, "HKDF-SHA384", 48, true},
    {KdfId::HkdfSha512, "HKDF-SHA512", 64, true},       {KdfId::Shake128, "SHAKE128", 32, false},
    {KdfId::Shake256, "SHAKE256", 64, false},           {KdfId::TurboShake128, "TurboSHAKE128", 32, false},
    {KdfId::TurboShake256, "TurboSHAKE256", 64, false},
};
// draft-ietf-hpke-hpke "AEAD IDs"; P_MAX from RFC 5116 (AES-GCM) and RFC 8439 (ChaCha20-Poly1305).
constexpr AeadInfo kAeads[] = {
    {AeadId::Aes128Gcm, "AES-128-GCM", 16, 12, 16, (std::uint64_t{1} << 36) - 31},
    {AeadId::Aes256Gcm, "AES-256-GCM", 32, 12, 16, (std::uint64_t{1} << 36) - 31},
    {AeadId::ChaCha20Poly1305, "ChaCha20Poly1305", 32, 12, 16, (std::uint64_t{1} << 38) - 64},
    {AeadId::ExportOnly, "Export-only", 0, 0, 0, 0},
};

template <class Table, class Id>
const auto& find(const Table& table, Id id, const char* what) {
  const auto* it = std::find_if(std::begin(table), std::end(table), [&](const auto& e) { return e.id == id; });
  if (it == std::end(table)) {
    char hex[8];
    const auto v = static_cast<unsigned>(id);
    const char* digits = "0123456789abcdef";
    for (int i = 0; i < 4; ++i) hex[i] = digits[(v >> (12 - 4 * i)) & 15];
    throw Error(
        Errc::bad_argument,
        std::string("HPKE: unsupported ") + what + " id 0x" + std::string(hex, 4) + "; pqkem implements " + [&] {
          std::string names;
          for (const auto& e : table) names += (names.empty() ? "" : ", ") + std::string(e.name);
          return names;
        }());
  }
  return *it;
}

/// a == b ignoring ASCII case and every '-' and '_'.
bool same_name(std::string_view a, std::string_view b) noexcept {
  auto skip = [](std::string_view s, std::size_t i) {
    while (i < s.size() && (s[i] == '-' || s[i] == '_')) ++i;
    return i;
  };
  std::size_t i = skip(a, 0), j = skip(b, 0);
  for (; i < a.size() && j < b.size(); i = skip(a, i + 1), j = skip(b, j + 1))
    if (util::ascii_lower(a[i]) != util::ascii_lower(b[j])) return false;
  return i == a.size() && j == b.size();
}

template <class Table>
auto parse(const Table& table, std::string_view name) noexcept -> std::optional<decltype(table[0].id)> {
  for (const auto& e : table)
    if (same_name(name, e.name)) return e.id;
  return std::nullopt;
}

}  // namespace

std::span<const KemInfo> all_kems() noexcept { return kKems; }
std::span<const KdfInfo> all_kdfs() noexcept { return kKdfs; }
std::span<const AeadInfo> all_aeads() noexcept { return kAeads; }
const KemInfo& kem_info(KemId id) { return find(kKems, id, "KEM"); }
const KdfInfo& kdf_info(KdfId id) { return find(kKdfs, id, "KDF"); }
const AeadInfo& aead_info(AeadId id) { return find(kAeads, id, "AEAD"); }

KemId kem_for_scheme(Scheme s) {
  for (const KemInfo& k : kKems)
    if (k.scheme == s) return k.id;
  throw Error(Errc::bad_argument, std::string(scheme_info(s).name) +
                                      " has no HPKE KEM; HPKE works with ML-KEM-512, ML-KEM-768, ML-KEM-1024 and "
                                      "X-Wing (MLKEM768-X25519)");
}

std::optional<KemId> parse_kem(std::string_view name) noexcept {
  if (auto id = parse(kKems, name)) return id;
  const auto scheme = parse_scheme(name);
  if (!scheme) return std::nullopt;
  for (const KemInfo& k : kKems)
    if (k.scheme == *scheme) return k.id;
  return std::nullopt;
}
std::optional<KdfId> parse_kdf(std::string_view name) noexcept { return parse(kKdfs, name); }
std::optional<AeadId> parse_aead(std::string_view name) noexcept { return parse(kAeads, name); }

}  // namespace pqkem::hpke
