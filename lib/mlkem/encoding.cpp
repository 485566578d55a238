#include "mlkem/encoding.hpp"

#include "secret.hpp"

namespace pqkem::mlkem {

void encode_ntt_poly(const NttPoly& f, std::span<std::uint8_t, kPolyBytes> out) noexcept {
  Coeffs c = f.c;
  for (auto& x : c) x = to_canonical(x);
  byte_encode<12>(c, out);
  secure_wipe(c.data(), sizeof c);  // f may be a secret key
}

NttPoly decode_ntt_poly(std::span<const std::uint8_t, kPolyBytes> in) noexcept {
  return NttPoly{byte_decode<12>(in)};
}

bool is_canonical_encoding(std::span<const std::uint8_t, kPolyBytes> in) noexcept {
  bool ok = true;
  for (std::size_t p = 0; p < kPolyBytes; p += 3) {
    const int d1 = in[p] | ((in[p + 1] & 0x0f) << 8);
    const int d2 = (in[p + 1] >> 4) | (in[p + 2] << 4);
    ok &= (d1 < kQ) & (d2 < kQ);
  }
  return ok;
}

}  // namespace pqkem::mlkem
