// The constant-time helpers against their obvious branching definitions, exhaustively.
#include <gtest/gtest.h>

#include <array>

#include "ct.hpp"

namespace pqkem::ct {
namespace {

TEST(CtHelpers, InRangeMaskMatchesComparisonsForEveryByte) {
  const std::array<std::pair<unsigned, unsigned>, 6> ranges = {
      {{'0', '9'}, {'a', 'f'}, {'A', 'Z'}, {'+', '+'}, {0, 0}, {0, 255}}};
  for (const auto& [lo, hi] : ranges)
    for (unsigned c = 0; c < 256; ++c)
      ASSERT_EQ(in_range_mask(c, lo, hi), (c >= lo && c <= hi) ? 0xFFFFFFFFu : 0u) << c << " in " << lo << ".." << hi;
}

TEST(CtHelpers, EqualMaskAndSelect) {
  std::array<std::uint8_t, 33> a{}, b{};
  EXPECT_EQ(equal_mask(a.data(), b.data(), a.size()), 0xFF);
  for (std::size_t i = 0; i < a.size(); ++i) {
    b = a;
    b[i] ^= 0x80;
    EXPECT_EQ(equal_mask(a.data(), b.data(), a.size()), 0x00) << i;
  }
  std::array<std::uint8_t, 4> x{1, 2, 3, 4}, y{5, 6, 7, 8}, out{};
  select(out.data(), 0xFF, x.data(), y.data(), 4);
  EXPECT_EQ(out, x);
  select(out.data(), 0x00, x.data(), y.data(), 4);
  EXPECT_EQ(out, y);
}

}  // namespace
}  // namespace pqkem::ct
