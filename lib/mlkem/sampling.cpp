#include "mlkem/sampling.hpp"

#include "hash.hpp"
#include "secret.hpp"

namespace pqkem::mlkem {

NttPoly sample_ntt(std::span<const std::uint8_t, 32> rho, std::uint8_t x, std::uint8_t y) {
  constexpr std::size_t kRate = 168;  // SHAKE128 block: read whole blocks, as 3 | 168
  hash::Xof xof(hash::XofKind::shake128);
  const std::uint8_t idx[2] = {x, y};
  xof.absorb(rho);
  xof.absorb(idx);

  NttPoly a;
  int j = 0;
  std::uint8_t buf[kRate];
  while (j < kN) {
    xof.squeeze(buf);
    for (std::size_t p = 0; p + 3 <= kRate && j < kN; p += 3) {
      const int d1 = buf[p] | ((buf[p + 1] & 0x0f) << 8);
      const int d2 = (buf[p + 1] >> 4) | (buf[p + 2] << 4);
      if (d1 < kQ) a.c[j++] = static_cast<std::int16_t>(d1);
      if (d2 < kQ && j < kN) a.c[j++] = static_cast<std::int16_t>(d2);
    }
  }
  return a;
}

// Each coefficient is (sum of eta bits) - (sum of the next eta bits), taken from a
// little-endian bit stream: the bits are summed with masks and shifts, never branched on.
template <int Eta>
Poly sample_poly_cbd(std::span<const std::uint8_t, 64 * Eta> bytes) noexcept {
  Poly f;
  if constexpr (Eta == 2) {
    for (int i = 0; i < kN / 8; ++i) {  // 4 bytes -> 8 coefficients of 4 bits each
      std::uint32_t t = 0;
      for (int b = 0; b < 4; ++b) t |= static_cast<std::uint32_t>(bytes[4 * i + b]) << (8 * b);
      const std::uint32_t d = (t & 0x55555555u) + ((t >> 1) & 0x55555555u);
      for (int j = 0; j < 8; ++j) {
        const auto a = static_cast<std::int16_t>((d >> (4 * j)) & 3);
        const auto c = static_cast<std::int16_t>((d >> (4 * j + 2)) & 3);
        f.c[8 * i + j] = static_cast<std::int16_t>(a - c);
      }
    }
  } else {
    static_assert(Eta == 3, "ML-KEM uses eta in {2, 3}");
    for (int i = 0; i < kN / 4; ++i) {  // 3 bytes -> 4 coefficients of 6 bits each
      std::uint32_t t = 0;
      for (int b = 0; b < 3; ++b) t |= static_cast<std::uint32_t>(bytes[3 * i + b]) << (8 * b);
      const std::uint32_t d = (t & 0x00249249u) + ((t >> 1) & 0x00249249u) + ((t >> 2) & 0x00249249u);
      for (int j = 0; j < 4; ++j) {
        const auto a = static_cast<std::int16_t>((d >> (6 * j)) & 7);
        const auto c = static_cast<std::int16_t>((d >> (6 * j + 3)) & 7);
        f.c[4 * i + j] = static_cast<std::int16_t>(a - c);
      }
    }
  }
  return f;
}

template <int Eta>
Poly sample_noise(std::span<const std::uint8_t, 32> seed, std::uint8_t nonce) {
  Secret<64 * Eta> prf;
  const std::uint8_t n[1] = {nonce};
  hash::shake256(prf.span(), {seed, n});
  return sample_poly_cbd<Eta>(prf.view());
}

template Poly sample_poly_cbd<2>(std::span<const std::uint8_t, 128>) noexcept;
template Poly sample_poly_cbd<3>(std::span<const std::uint8_t, 192>) noexcept;
template Poly sample_noise<2>(std::span<const std::uint8_t, 32>, std::uint8_t);
template Poly sample_noise<3>(std::span<const std::uint8_t, 32>, std::uint8_t);

}  // namespace pqkem::mlkem
