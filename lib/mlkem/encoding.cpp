#include "mlkem/encoding.hpp"

#include "secret.hpp"

namespace pqkem::mlkem {

// ByteEncode_12 of the canonical representatives: the map to [0, q) is a separate loop, which
// the compiler vectorizes, and the packing then needs no mask (0 <= c_i < q < 2^12). The
// canonical copy may be a secret key (dk_pke): wiped.
void encode12_ref(const NttPoly& f, std::span<std::uint8_t, kPolyBytes> out) noexcept {
  Coeffs c;
  for (int i = 0; i < kN; ++i) c[i] = to_canonical(f.c[i]);
  for (int g = 0; g < kN / 8; ++g) {
    detail::encode_group<12>(out.data() + 12 * g, [&](int j) { return static_cast<std::uint16_t>(c[8 * g + j]); });
  }
  secure_wipe(c.data(), sizeof c);
}

NttPoly decode12_ref(std::span<const std::uint8_t, kPolyBytes> in) noexcept { return NttPoly{byte_decode<12>(in)}; }

// Public data (an encapsulation key), so a branch would be allowed; there is none, and every
// coefficient is read. The sign bit of (q - 1 - d) is set exactly when d >= q.
bool is_canonical12_ref(std::span<const std::uint8_t, kPolyBytes> in) noexcept {
  std::uint32_t bad = 0;
  for (int g = 0; g < kN / 8; ++g) {
    detail::decode_group<12>(in.data() + 12 * g, [&](int, std::uint32_t d) { bad |= (kQ - 1u) - d; });
  }
  return (bad >> 31) == 0;
}

}  // namespace pqkem::mlkem
