// pqkem::ct: the only sanctioned way to make decisions on secret data.
//
// Every helper is branch-free. value_barrier() stops the compiler from proving a mask is
// 0/1 and turning a select back into a branch. With PQKEM_CT_TESTING, poison() marks memory
// as undefined for valgrind's memcheck, so any branch or memory index that depends on it is
// reported; declassify() marks a value public again (public key, ciphertext, final secret).
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(PQKEM_CT_TESTING)
#include <valgrind/memcheck.h>
#endif

namespace pqkem::ct {

template <class T>
inline T value_barrier(T x) noexcept {
  __asm__("" : "+r"(x) : :);
  return x;
}

/// 0xFF..FF if x == 0, else 0 (for unsigned 32-bit x).
inline std::uint32_t mask_is_zero(std::uint32_t x) noexcept {
  x = value_barrier(x);
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(x) - 1) >> 32);
}

/// All ones if lo <= c <= hi, else 0 (for c, lo, hi below 2^31). Branch-free: c - lo and
/// hi - c are both non-negative exactly in range, and a wrapped difference sets bit 31.
inline std::uint32_t in_range_mask(std::uint32_t c, std::uint32_t lo, std::uint32_t hi) noexcept {
  const std::uint32_t outside = ((c - lo) | (hi - c)) >> 31;
  return value_barrier(outside) - 1u;
}

/// 0xFF if the n bytes of a and b are equal, else 0x00. Reads every byte.
inline std::uint8_t equal_mask(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) noexcept {
  std::uint32_t diff = 0;
  for (std::size_t i = 0; i < n; ++i) diff |= static_cast<std::uint32_t>(a[i] ^ b[i]);
  return static_cast<std::uint8_t>(mask_is_zero(diff));
}

/// out[i] = mask ? a[i] : b[i], for mask in {0x00, 0xFF}.
inline void select(std::uint8_t* out, std::uint8_t mask, const std::uint8_t* a, const std::uint8_t* b,
                   std::size_t n) noexcept {
  mask = value_barrier(mask);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = static_cast<std::uint8_t>((a[i] & mask) | (b[i] & static_cast<std::uint8_t>(~mask)));
}

inline void poison([[maybe_unused]] const void* p, [[maybe_unused]] std::size_t n) noexcept {
#if defined(PQKEM_CT_TESTING)
  VALGRIND_MAKE_MEM_UNDEFINED(p, n);
#endif
}

inline void declassify([[maybe_unused]] const void* p, [[maybe_unused]] std::size_t n) noexcept {
#if defined(PQKEM_CT_TESTING)
  VALGRIND_MAKE_MEM_DEFINED(p, n);
#endif
}

}  // namespace pqkem::ct
