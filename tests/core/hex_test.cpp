// The hex codec (lib/util/hex.hpp) against the obvious table-driven definition.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "util/hex.hpp"

namespace pqkem::hex {
namespace {

TEST(Hex, DigitMatchesTheDigitStringsForEveryNibble) {
  static constexpr char kLower[] = "0123456789abcdef", kUpper[] = "0123456789ABCDEF";
  for (std::uint32_t n = 0; n < 16; ++n) {
    EXPECT_EQ(digit(n), kLower[n]) << n;
    EXPECT_EQ(digit(n, true), kUpper[n]) << n;
  }
}

TEST(Hex, DigitMaskAndValueForEveryByte) {
  static constexpr std::string_view kDigits = "0123456789abcdef";
  for (std::uint32_t c = 0; c < 256; ++c) {
    const auto lower = static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
    const auto at = kDigits.find(lower);
    EXPECT_EQ(digit_mask(c) != 0, at != std::string_view::npos) << c;
    if (at != std::string_view::npos) {
      EXPECT_EQ(digit_value(c), at) << c;
    }
  }
}

TEST(Hex, RoundTripEveryByteInBothCases) {
  std::vector<std::uint8_t> bytes(256);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i);
  for (const bool upper : {false, true}) {
    std::string text(2 * bytes.size(), '?');
    encode(bytes.data(), bytes.size(), text.data(), upper);
    EXPECT_EQ(text.substr(0, 8), "00010203");
    EXPECT_EQ(text.substr(text.size() - 4), upper ? "FEFF" : "feff");
    std::vector<std::uint8_t> back(bytes.size());
    ASSERT_TRUE(decode(text, back.data()));
    EXPECT_EQ(back, bytes);
  }
}

TEST(Hex, DecodeMixedCaseOddLengthAndBadDigits) {
  std::array<std::uint8_t, 4> out{};
  ASSERT_TRUE(decode("00ffAb7F", out.data()));
  EXPECT_EQ(out, (std::array<std::uint8_t, 4>{0x00, 0xff, 0xab, 0x7f}));
  EXPECT_TRUE(decode("", out.data()));
  EXPECT_FALSE(decode("abc", out.data()));   // odd length
  EXPECT_FALSE(decode("0g", out.data()));    // bad digit, low nibble
  EXPECT_FALSE(decode("g0", out.data()));    // bad digit, high nibble
  EXPECT_FALSE(decode("00 1", out.data()));  // whitespace is not a digit
  EXPECT_FALSE(decode("0x12", out.data()));
  EXPECT_FALSE(decode(std::string_view("0\0", 2), out.data()));
  EXPECT_FALSE(decode("\xc0\xb0", out.data()));  // bytes above 0x7f
}

}  // namespace
}  // namespace pqkem::hex
