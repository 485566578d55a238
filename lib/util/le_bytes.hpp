// Little-endian loads and stores of N <= 8 bytes, the same on any host: memcpy on
// little-endian hosts (one unaligned load or store), byte shifts elsewhere. Used by the bit
// packers of both schemes (ML-KEM ByteEncode/ByteDecode, NTRU pack_Sq/pack_Rq0).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace pqkem {

/// The N <= 8 bytes at p as a little-endian integer (bytes above N are zero).
template <std::size_t N>
inline std::uint64_t load_le(const std::uint8_t* p) noexcept {
  static_assert(N >= 1 && N <= 8);
  std::uint64_t v = 0;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&v, p, N);
  } else {
    for (std::size_t i = 0; i < N; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  }
  return v;
}

/// Stores the low N <= 8 bytes of v at p, little-endian.
template <std::size_t N>
inline void store_le(std::uint8_t* p, std::uint64_t v) noexcept {
  static_assert(N >= 1 && N <= 8);
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(p, &v, N);
  } else {
    for (std::size_t i = 0; i < N; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
  }
}

}  // namespace pqkem
