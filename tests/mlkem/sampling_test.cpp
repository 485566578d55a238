#include <gtest/gtest.h>

#include <map>

#include "hash.hpp"
#include "mlkem/sampling.hpp"

namespace pqkem::mlkem {
namespace {

TEST(Sampling, SampleNttOutputsCanonicalCoefficientsAndMatchesAlgorithm7) {
  std::array<std::uint8_t, 32> rho{};
  for (std::size_t i = 0; i < rho.size(); ++i) rho[i] = static_cast<std::uint8_t>(3 * i + 1);
  const NttPoly a = sample_ntt_ref(rho, 1, 2);
  // Algorithm 7 written out directly on a long one-shot SHAKE128 output.
  std::vector<std::uint8_t> stream(168 * 8);
  const std::uint8_t idx[2] = {1, 2};
  hash::shake128(stream, {rho, idx});
  int j = 0;
  for (std::size_t p = 0; j < kN; p += 3) {
    const int d1 = stream[p] + 256 * (stream[p + 1] % 16);
    const int d2 = stream[p + 1] / 16 + 16 * stream[p + 2];
    if (d1 < kQ) {
      ASSERT_EQ(a.c[j], d1);
      ++j;
    }
    if (d2 < kQ && j < kN) {
      ASSERT_EQ(a.c[j], d2);
      ++j;
    }
  }
}

TEST(Sampling, SampleNttMatchesAlgorithm7OnManySeeds) {
  // Many seeds, so that every way a block can end (and the slow path near j = 256) is hit.
  std::vector<std::uint8_t> stream(168 * 8);
  for (int t = 0; t < 300; ++t) {
    std::array<std::uint8_t, 32> rho{};
    for (std::size_t i = 0; i < rho.size(); ++i) rho[i] = static_cast<std::uint8_t>(t * 131 + i * 7);
    const auto x = static_cast<std::uint8_t>(t % 4), y = static_cast<std::uint8_t>(t / 4);
    const NttPoly a = sample_ntt_ref(rho, x, y);
    const std::uint8_t idx[2] = {x, y};
    hash::shake128(stream, {rho, idx});
    int j = 0;
    for (std::size_t p = 0; j < kN; p += 3) {
      const int d1 = stream[p] + 256 * (stream[p + 1] % 16);
      const int d2 = stream[p + 1] / 16 + 16 * stream[p + 2];
      if (d1 < kQ) {
        ASSERT_EQ(a.c[j], d1) << t;
        ++j;
      }
      if (d2 < kQ && j < kN) {
        ASSERT_EQ(a.c[j], d2) << t;
        ++j;
      }
    }
  }
}

template <int Eta>
void check_cbd_against_definition() {
  for (int t = 0; t < 20; ++t) {  // all ones, all zeros, then varied bytes
    std::array<std::uint8_t, 64 * Eta> b{};
    for (std::size_t i = 0; i < b.size(); ++i)
      b[i] = static_cast<std::uint8_t>(t == 0 ? 0xFF : t == 1 ? 0x00 : i * 37 + 11 + t * (i * i + 3));
    const Poly f = sample_poly_cbd_ref<Eta>(b);
    for (int i = 0; i < kN; ++i) {
      int x = 0, y = 0;
      for (int j = 0; j < Eta; ++j) {
        const int bx = 2 * i * Eta + j, by = 2 * i * Eta + Eta + j;
        x += (b[bx / 8] >> (bx % 8)) & 1;
        y += (b[by / 8] >> (by % 8)) & 1;
      }
      ASSERT_EQ(f.c[i], x - y) << "eta=" << Eta << " i=" << i << " t=" << t;
    }
  }
}

TEST(Sampling, SamplePolyCbdMatchesAlgorithm8) {
  check_cbd_against_definition<2>();
  check_cbd_against_definition<3>();
}

TEST(Sampling, NoiseIsCenteredBinomial) {
  std::array<std::uint8_t, 32> seed{};
  std::map<int, int> hist;
  for (int n = 0; n < 64; ++n)
    for (auto c : sample_noise_ref<3>(seed, static_cast<std::uint8_t>(n)).c) ++hist[c];
  // 64 * 256 = 16384 samples of CBD_3: P(0) = 20/64, P(+-3) = 1/64 each.
  EXPECT_EQ(hist.size(), 7u);
  EXPECT_NEAR(hist[0], 16384 * 20 / 64, 300);
  EXPECT_NEAR(hist[3], 16384 / 64, 80);
  EXPECT_NEAR(hist[-3], 16384 / 64, 80);
}

}  // namespace
}  // namespace pqkem::mlkem
