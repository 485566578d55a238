// The one hex codec of the library, the tool and the tests. Keys and seeds are printed and read
// as hex, so both directions are constant time: no table indexed by a nibble or a character, no
// branch on either (ct::in_range_mask); only lengths and the final verdict are public.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ct.hpp"

namespace pqkem::hex {

/// The digit of the nibble n (0..15): '0'..'9', then 'a'..'f' ('A'..'F' if `upper`).
inline char digit(std::uint32_t n, bool upper = false) noexcept {
  const std::uint32_t letters = static_cast<std::uint32_t>(upper ? 'A' : 'a') - '0' - 10;
  return static_cast<char>('0' + n + (ct::in_range_mask(n, 10, 15) & letters));
}

/// Writes the 2 * n digits of the n bytes at `in` to `out`, high nibble first.
template <class Char>
inline void encode(const std::uint8_t* in, std::size_t n, Char* out, bool upper = false) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = static_cast<Char>(digit(in[i] >> 4, upper));
    out[2 * i + 1] = static_cast<Char>(digit(in[i] & 15u, upper));
  }
}

/// All ones if c is a hex digit (either case), else 0.
inline std::uint32_t digit_mask(std::uint32_t c) noexcept {
  return ct::in_range_mask(c, '0', '9') | ct::in_range_mask(c, 'a', 'f') | ct::in_range_mask(c, 'A', 'F');
}

/// The value of the hex digit c (0..15); 0 if c is none.
inline std::uint32_t digit_value(std::uint32_t c) noexcept {
  return (ct::in_range_mask(c, '0', '9') & (c - '0')) | (ct::in_range_mask(c, 'a', 'f') & (c - 'a' + 10u)) |
         (ct::in_range_mask(c, 'A', 'F') & (c - 'A' + 10u));
}

/// Decodes exactly text.size() / 2 bytes into `out`. False if the length is odd or any
/// character is not a hex digit (every character is read either way; `out` is then garbage).
inline bool decode(std::string_view text, std::uint8_t* out) noexcept {
  if (text.size() % 2 != 0) return false;
  std::uint32_t ok = ~0u;
  for (std::size_t i = 0; i < text.size() / 2; ++i) {
    const auto hi = static_cast<unsigned char>(text[2 * i]);
    const auto lo = static_cast<unsigned char>(text[2 * i + 1]);
    ok &= digit_mask(hi) & digit_mask(lo);
    out[i] = static_cast<std::uint8_t>(digit_value(hi) << 4 | digit_value(lo));
  }
  return ok != 0;
}

}  // namespace pqkem::hex
