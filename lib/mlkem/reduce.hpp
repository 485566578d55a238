// Arithmetic in Z_q, q = 3329, on signed 16-bit representatives. All branch-free.
#pragma once

#include <cstdint>

#include "mlkem/params.hpp"

namespace pqkem::mlkem {

/// Montgomery reduction. In: -q 2^15 <= a < q 2^15. Out: r == a * R^-1 (mod q), |r| < q, and
/// |r| <= (|a| + q 2^15) / 2^16. Every bound in this file holds for every input of its contract
/// (tests/proof/mlkem_scalar_proof.cpp checks them all).
constexpr std::int16_t montgomery_reduce(std::int32_t a) noexcept {
  const auto t = static_cast<std::int16_t>(static_cast<std::int16_t>(a) * kQInv);
  return static_cast<std::int16_t>((a - static_cast<std::int32_t>(t) * kQ) >> 16);
}

/// Montgomery product. In: -q 2^15 <= a b < q 2^15. Out: a * b * R^-1 (mod q), |r| < q.
constexpr std::int16_t fqmul(std::int16_t a, std::int16_t b) noexcept {
  return montgomery_reduce(static_cast<std::int32_t>(a) * b);
}

/// Barrett reduction. In: any int16. Out: r == a (mod q), -(q-1)/2 <= r <= (q-1)/2.
/// t = round(a v / 2^26) is computed as (hi16(a v) + 2^9) >> 10, which is the same integer
/// (the dropped low 16 bits are a fraction below one unit of the 2^10 step) and maps to
/// 16-bit vector instructions (multiply-high, add, shift) when the compiler vectorizes.
constexpr std::int16_t barrett_reduce(std::int16_t a) noexcept {
  const auto hi = static_cast<std::int16_t>((static_cast<std::int32_t>(a) * kBarrettV) >> 16);
  const auto t = static_cast<std::int16_t>((hi + (1 << 9)) >> 10);
  return static_cast<std::int16_t>(a - t * kQ);
}

/// Maps a representative in (-q, q) to the canonical one in [0, q).
constexpr std::int16_t to_canonical(std::int16_t a) noexcept { return static_cast<std::int16_t>(a + ((a >> 15) & kQ)); }

/// Subtracts q if a >= q. In: 0 <= a < 2q. Out: 0 <= r < q.
constexpr std::int16_t cond_sub_q(std::int16_t a) noexcept {
  const auto r = static_cast<std::int16_t>(a - kQ);
  return static_cast<std::int16_t>(r + ((r >> 15) & kQ));
}

}  // namespace pqkem::mlkem
