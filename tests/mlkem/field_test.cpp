// Exhaustive checks of the Z_q arithmetic over its whole documented input range.
#include <gtest/gtest.h>

#include <cstdint>

#include "mlkem/reduce.hpp"

namespace pqkem::mlkem {
namespace {

std::int64_t mod_q(std::int64_t a) { return ((a % kQ) + kQ) % kQ; }

TEST(Field, BarrettReduceAllInt16) {
  for (std::int32_t a = INT16_MIN; a <= INT16_MAX; ++a) {
    const std::int16_t r = barrett_reduce(static_cast<std::int16_t>(a));
    ASSERT_EQ(mod_q(r), mod_q(a)) << a;
    ASSERT_LE(r, (kQ - 1) / 2) << a;
    ASSERT_GE(r, -(kQ - 1) / 2) << a;
  }
}

TEST(Field, MontgomeryReduceWholeDocumentedRange) {
  // In: -q 2^15 <= a < q 2^15 (a = q 2^15 would give r = q). Out: r = a R^-1 mod q, |r| < q. R^-1 mod q = 169 (2^16 *
  // 169 = 1 mod q).
  ASSERT_EQ(mod_q(std::int64_t{kMontR} * 169), 1);
  const std::int32_t bound = std::int32_t{kQ} << 15;
  for (std::int32_t a = -bound; a < bound; ++a) {
    const std::int16_t r = montgomery_reduce(a);
    if (mod_q(r) != mod_q(std::int64_t{a} * 169) || r >= kQ || r <= -kQ) {
      FAIL() << "montgomery_reduce(" << a << ") = " << r;
    }
  }
}

TEST(Field, FqmulAllPairsOfCanonicalRange) {
  for (std::int32_t a = -kQ + 1; a < kQ; a += 7)
    for (std::int32_t b = -kQ + 1; b < kQ; ++b) {
      const std::int16_t r = fqmul(static_cast<std::int16_t>(a), static_cast<std::int16_t>(b));
      if (mod_q(r) != mod_q(std::int64_t{a} * b * 169) || r >= kQ || r <= -kQ) FAIL() << a << "*" << b;
    }
}

TEST(Field, CanonicalFormsAndConditionalSubtraction) {
  for (std::int32_t a = -kQ + 1; a < kQ; ++a) {
    const std::int16_t c = to_canonical(static_cast<std::int16_t>(a));
    ASSERT_EQ(c, mod_q(a));
  }
  for (std::int32_t a = 0; a < 2 * kQ; ++a) ASSERT_EQ(cond_sub_q(static_cast<std::int16_t>(a)), mod_q(a));
  EXPECT_EQ(mod_q(std::int64_t{kMontR} * kMontR), kMontR2);
}

}  // namespace
}  // namespace pqkem::mlkem
