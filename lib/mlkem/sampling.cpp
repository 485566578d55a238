#include "mlkem/sampling.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "hash.hpp"
#include "secret.hpp"

namespace pqkem::mlkem {
namespace {

/// The 8 bytes at p as a little-endian integer.
inline std::uint64_t load_le64(const std::uint8_t* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

}  // namespace

// The stream is read one SHAKE128 block (168 bytes = 28 groups of 6 bytes = 4 candidates) at a
// time. While at least 4 slots are left, groups are taken without a per-candidate branch: each
// candidate d is stored at a[j], and j advances by one exactly when d < q. Branching on the
// candidates would be allowed (public data), but the branch-free form avoids a misprediction
// on about one candidate in five. The last few coefficients (j > kN - 4) take a checked loop.
NttPoly sample_ntt_ref(std::span<const std::uint8_t, 32> rho, std::uint8_t x, std::uint8_t y) {
  constexpr std::size_t kRate = 168;
  hash::Xof xof(hash::XofKind::shake128);
  std::uint8_t seed[34];
  std::copy(rho.begin(), rho.end(), seed);
  seed[32] = x;
  seed[33] = y;
  xof.absorb(seed);

  NttPoly a;
  std::int16_t* const out = a.c.data();
  std::size_t j = 0;
  std::uint8_t buf[kRate + 2];  // + 2: the 8-byte load of the last group reads 2 bytes past
  buf[kRate] = buf[kRate + 1] = 0;
  while (j < kN) {
    xof.squeeze(std::span<std::uint8_t>(buf, kRate));
    std::size_t p = 0;
    // Each group adds at most 4 coefficients, so n groups fit while 4 n <= kN - j: no check
    // on j inside the inner loop.
    for (std::size_t n; (n = std::min((kRate - p) / 6, (kN - j) / 4)) > 0;) {
      for (const std::size_t end = p + 6 * n; p < end; p += 6) {
        const std::uint64_t w = load_le64(buf + p);
        for (int k = 0; k < 4; ++k) {
          const auto d = static_cast<std::uint32_t>(w >> (12 * k)) & 0xfff;
          out[j] = static_cast<std::int16_t>(d);
          j += (d - static_cast<std::uint32_t>(kQ)) >> 31;  // the borrow: 1 iff d < q
        }
      }
    }
    for (; p < kRate && j < kN; p += 3) {
      const unsigned d1 = buf[p] | ((buf[p + 1] & 0x0fu) << 8);
      const unsigned d2 = (buf[p + 1] >> 4) | (static_cast<unsigned>(buf[p + 2]) << 4);
      if (d1 < static_cast<unsigned>(kQ)) out[j++] = static_cast<std::int16_t>(d1);
      if (d2 < static_cast<unsigned>(kQ) && j < kN) out[j++] = static_cast<std::int16_t>(d2);
    }
  }
  return a;
}

// Each coefficient is (sum of eta bits) - (sum of the next eta bits), taken from a
// little-endian bit stream: the bits are summed with masks and shifts, never branched on.
template <int Eta>
Poly sample_poly_cbd_ref(std::span<const std::uint8_t, 64 * Eta> bytes) noexcept {
  Poly f;
  if constexpr (Eta == 2) {
    // One byte -> two coefficients of 4 bits each; a byte loop the compiler vectorizes.
    for (int i = 0; i < kN / 2; ++i) {
      const std::uint32_t b = bytes[i];
      const std::uint32_t d = (b & 0x55u) + ((b >> 1) & 0x55u);
      f.c[2 * i] = static_cast<std::int16_t>(static_cast<int>(d & 3) - static_cast<int>((d >> 2) & 3));
      f.c[2 * i + 1] = static_cast<std::int16_t>(static_cast<int>((d >> 4) & 3) - static_cast<int>(d >> 6));
    }
  } else {
    static_assert(Eta == 3, "ML-KEM uses eta in {2, 3}");
    for (int i = 0; i < kN / 8; ++i) {  // 6 bytes -> 8 coefficients of 6 bits each
      std::uint64_t t = 0;
      for (int b = 0; b < 6; ++b) t |= static_cast<std::uint64_t>(bytes[6 * i + b]) << (8 * b);
      constexpr std::uint64_t kM = 0x249249249249u;
      const std::uint64_t d = (t & kM) + ((t >> 1) & kM) + ((t >> 2) & kM);
      for (int j = 0; j < 8; ++j) {
        const auto a = static_cast<int>((d >> (6 * j)) & 7);
        const auto c = static_cast<int>((d >> (6 * j + 3)) & 7);
        f.c[8 * i + j] = static_cast<std::int16_t>(a - c);
      }
    }
  }
  return f;
}

template <int Eta>
Poly sample_noise_ref(std::span<const std::uint8_t, 32> seed, std::uint8_t nonce) {
  Secret<64 * Eta> prf;
  const std::uint8_t n[1] = {nonce};
  hash::shake256(prf.span(), {seed, n});
  return sample_poly_cbd_ref<Eta>(prf.view());
}

template Poly sample_poly_cbd_ref<2>(std::span<const std::uint8_t, 128>) noexcept;
template Poly sample_poly_cbd_ref<3>(std::span<const std::uint8_t, 192>) noexcept;
template Poly sample_noise_ref<2>(std::span<const std::uint8_t, 32>, std::uint8_t);
template Poly sample_noise_ref<3>(std::span<const std::uint8_t, 32>, std::uint8_t);

}  // namespace pqkem::mlkem
