// NTRU's coin expansion (ntru::expand_coins, sample.hpp): the bytes a randomized keygen / encaps
// samples from, made from a 32-byte draw. Checked against the definition recomputed with
// OpenSSL's SHAKE256 (not pqkem's Keccak), on every sponge runner the build has, for lengths
// around the block and stream boundaries and the operations' own lengths; and through the public
// API: random_keygen_coins / random_encaps_coins have the sizes the derandomized entry points
// take, and the operations they feed round-trip.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backends/backends.hpp"
#include "hash.hpp"
#include "ntru/ntru.hpp"
#include "ntru/sample.hpp"
#include "pqkem.hpp"
#include "simd/dispatch.hpp"
#include "test_util.hpp"

namespace pqkem::ntru::test {
namespace {

/// SHAKE256(in), outlen bytes, from OpenSSL.
std::vector<std::uint8_t> evp_shake256(ByteView in, std::size_t outlen) {
  std::vector<std::uint8_t> out(outlen);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  const bool ok = ctx && EVP_DigestInit_ex(ctx.get(), EVP_shake256(), nullptr) == 1 &&
                  EVP_DigestUpdate(ctx.get(), in.data(), in.size()) == 1 &&
                  (outlen == 0 || EVP_DigestFinalXOF(ctx.get(), out.data(), outlen) == 1);
  EXPECT_TRUE(ok);
  return out;
}

/// The definition in sample.hpp, written out: B blocks of 136 bytes, stream i gives
/// floor(B/8) + [i < B mod 8] of them from SHAKE256(seed || i), concatenated, truncated.
std::vector<std::uint8_t> expected_coins(ByteView seed, std::size_t n) {
  const std::size_t blocks = (n + 135) / 136;
  std::vector<std::uint8_t> all;
  for (std::size_t i = 0; i < 8; ++i) {
    std::vector<std::uint8_t> in(seed.begin(), seed.end());
    in.push_back(static_cast<std::uint8_t>(i));
    const std::size_t b = blocks / 8 + (i < blocks % 8 ? 1 : 0);
    const auto stream = evp_shake256(in, 136 * b);
    all.insert(all.end(), stream.begin(), stream.end());
  }
  all.resize(n);
  return all;
}

/// The lengths: around one block, eight blocks (one per stream), sixteen; and what the
/// operations draw (Sample_fg || PRF key, Sample_rm) for every parameter set.
std::vector<std::size_t> lengths() {
  std::vector<std::size_t> n = {0, 1, 135, 136, 137, 271, 272, 273, 1087, 1088, 1089, 2175, 2176, 2177, 5000};
  const auto add = [&]<class P>() {
    n.push_back(Kem<P, RefBackend>::keygen_coin_bytes);
    n.push_back(Kem<P, RefBackend>::encaps_coin_bytes);
  };
  add.template operator()<NtruHps2048509>();
  add.template operator()<NtruHps2048677>();
  add.template operator()<NtruHps4096821>();
  add.template operator()<NtruHrss701>();
  return n;
}

void expect_matches_definition(KeccakJobsFn run, const std::string& runner) {
  std::mt19937_64 rng(0x636f696e73);
  for (const std::size_t n : lengths()) {
    for (int trial = 0; trial < 3; ++trial) {
      const auto seed = random_bytes(rng, kCoinSeedBytes);
      std::vector<std::uint8_t> out(n + 64, 0xA5);  // a canary past the end
      expand_coins(std::span<const std::uint8_t, kCoinSeedBytes>(seed.data(), kCoinSeedBytes),
                   std::span<std::uint8_t>(out.data(), n), run);
      const auto want = expected_coins(seed, n);
      ASSERT_TRUE(std::equal(want.begin(), want.end(), out.begin())) << runner << ", " << n << " bytes";
      ASSERT_TRUE(std::all_of(out.begin() + static_cast<std::ptrdiff_t>(n), out.end(),
                              [](std::uint8_t b) { return b == 0xA5; }))
          << runner << " wrote past " << n << " bytes";
    }
  }
}

TEST(NtruCoins, PortableExpansionMatchesDefinition) { expect_matches_definition(&hash::keccak_jobs_ref, "portable"); }

TEST(NtruCoins, Avx2ExpansionMatchesDefinition) {
#if PQKEM_HAVE_AVX2
  if (!simd::impl_usable(simd::Impl::avx2))
    GTEST_SKIP() << "AVX2 kernels not usable here: " << simd::impl_unusable_reason(simd::Impl::avx2);
  expect_matches_definition(&Avx2Backend::keccak_jobs, "avx2");
#else
  GTEST_SKIP() << "this build has no AVX2 kernels";
#endif
}

TEST(NtruCoins, Avx512ExpansionMatchesDefinition) {
#if PQKEM_HAVE_AVX512
  if (!simd::impl_usable(simd::Impl::avx512))
    GTEST_SKIP() << "AVX-512 kernels not usable here: " << simd::impl_unusable_reason(simd::Impl::avx512);
  expect_matches_definition(&Avx512Backend::keccak_jobs, "avx512");
#else
  GTEST_SKIP() << "this build has no AVX-512 kernels";
#endif
}

/// Different seeds give different coins, and the streams differ from one another (a runner that
/// fed every lane the same input would pass nothing above, but this says it plainly).
TEST(NtruCoins, StreamsAreDistinct) {
  std::array<std::uint8_t, kCoinSeedBytes> seed{};
  std::vector<std::uint8_t> out(8 * 136);
  expand_coins(seed, out, &hash::keccak_jobs_ref);
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = i + 1; j < 8; ++j)
      EXPECT_FALSE(std::equal(out.begin() + 136 * i, out.begin() + 136 * (i + 1), out.begin() + 136 * j))
          << "streams " << i << " and " << j;
}

class NtruRandomCoins : public ::testing::TestWithParam<Scheme> {};

INSTANTIATE_TEST_SUITE_P(All, NtruRandomCoins,
                         ::testing::Values(Scheme::NtruHps2048509, Scheme::NtruHps2048677, Scheme::NtruHps4096821,
                                           Scheme::NtruHrss701),
                         [](const auto& p) { return std::string(scheme_info(p.param).name); });

/// The public draws have the derandomized entry points' sizes, differ from draw to draw, and
/// feed a working key pair and encapsulation (on the implementation PQKEM_IMPL selects).
TEST_P(NtruRandomCoins, DrawsFeedTheDerandomizedOperations) {
  const Scheme s = GetParam();
  const SchemeInfo& info = scheme_info(s);
  const SecretBytes kc = random_keygen_coins(s), kc2 = random_keygen_coins(s);
  const SecretBytes ec = random_encaps_coins(s), ec2 = random_encaps_coins(s);
  ASSERT_EQ(kc.size(), info.keygen_coin_bytes());
  ASSERT_EQ(ec.size(), info.encaps_coin_bytes());
  EXPECT_FALSE(std::equal(kc.view().begin(), kc.view().end(), kc2.view().begin()));
  EXPECT_FALSE(std::equal(ec.view().begin(), ec.view().end(), ec2.view().begin()));
  const KeyPair kp = keygen_derand(s, kc);
  const Encapsulation e = encaps_derand(s, kp.pk, ec);
  const SecretBytes ss = decaps(s, kp.sk, e.ct);
  EXPECT_TRUE(std::equal(ss.view().begin(), ss.view().end(), e.ss.view().begin(), e.ss.view().end()));
}

}  // namespace
}  // namespace pqkem::ntru::test
