// NIST's AES-256 CTR_DRBG: the 100 per-record seeds of a published KAT file come from it.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "kat.hpp"

namespace pqkem {
namespace {

std::string fmt_byte(std::uint8_t b) {
  static const char* d = "0123456789ABCDEF";
  return {d[b >> 4], d[b & 15]};
}

TEST(KatDrbg, ReproducesTheSeedsOfThePublishedNtruKatFile) {
  const std::string path = std::string(PQKEM_VECTORS_DIR) + "/ntru/PQCkemKAT_935.rsp";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot open " << path << " (set -DPQKEM_VECTORS_DIR)";
  std::array<std::uint8_t, 48> entropy{};
  for (std::size_t i = 0; i < 48; ++i) entropy[i] = static_cast<std::uint8_t>(i);
  KatDrbg drbg(entropy);
  int seeds = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("seed = ", 0) != 0) continue;
    std::array<std::uint8_t, 48> seed{};
    drbg.generate(seed);
    std::string hex;
    for (auto b : seed) hex += fmt_byte(b);
    ASSERT_EQ(hex, line.substr(7)) << "record " << seeds;
    ++seeds;
  }
  EXPECT_EQ(seeds, 100);
}

}  // namespace
}  // namespace pqkem
