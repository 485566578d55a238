// The system random bytes (lib/rng.cpp): both sources fill whole buffers of any size, draw
// fresh bytes each time, and are chosen process-wide through the public API.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "pqkem.hpp"
#include "rng.hpp"

namespace pqkem {
namespace {

/// Selects `source` for one test and restores the previous one after it.
class SourceGuard {
public:
  explicit SourceGuard(RandomSource source) : m_saved(random_source()) { set_random_source(source); }
  ~SourceGuard() { set_random_source(m_saved); }
  SourceGuard(const SourceGuard&) = delete;
  SourceGuard& operator=(const SourceGuard&) = delete;

private:
  RandomSource m_saved;
};

bool all_zero(const std::uint8_t* p, std::size_t n) {
  return std::all_of(p, p + n, [](std::uint8_t b) { return b == 0; });
}

/// Fills buffers of awkward sizes (getrandom returns at most 256 bytes per call when a signal
/// arrives, and up to 32 MiB otherwise) and checks that every part of each was written, and
/// nothing past its end: zero-initialized, each 16-byte tail must change (a miss has odds
/// 2^-128), and a guard byte after the span must not.
void check_fills(RandomSource source) {
  const SourceGuard guard(source);
  for (const std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{31}, std::size_t{33}, std::size_t{255},
                              std::size_t{257}, std::size_t{4097}, std::size_t{(1u << 20) + 3}}) {
    std::vector<std::uint8_t> buf(n + 1, 0);
    random_bytes(std::span<std::uint8_t>(buf.data(), n));
    EXPECT_EQ(buf[n], 0) << "wrote past the end, size " << n;
    const std::size_t tail = std::min<std::size_t>(n, 16);
    if (n >= 16) {
      EXPECT_FALSE(all_zero(buf.data() + n - tail, tail)) << "tail not written, size " << n;
      EXPECT_FALSE(all_zero(buf.data(), 16)) << "head not written, size " << n;
    }
  }
  // 1 MiB: every byte value about equally often (4096 expected; the bounds are 16 sigma out).
  std::vector<std::uint8_t> big(std::size_t{1} << 20);
  random_bytes(big);
  std::vector<std::size_t> counts(256);
  for (const std::uint8_t b : big) ++counts[b];
  for (std::size_t v = 0; v < 256; ++v) {
    EXPECT_GT(counts[v], 3072u) << "byte " << v;
    EXPECT_LT(counts[v], 5120u) << "byte " << v;
  }
}

void check_fresh_and_empty(RandomSource source) {
  const SourceGuard guard(source);
  std::vector<std::uint8_t> a(64), b(64);
  random_bytes(a);
  random_bytes(b);
  EXPECT_NE(a, b);
  EXPECT_NO_THROW(random_bytes({}));  // 0 bytes: nothing to do, and no failure
  std::vector<std::uint8_t> none;
  EXPECT_NO_THROW(random_bytes(none));
}

TEST(RandomBytes, SystemFillsLargeAndOddSizedBuffers) { check_fills(RandomSource::system); }
TEST(RandomBytes, OpensslFillsLargeAndOddSizedBuffers) { check_fills(RandomSource::openssl); }
TEST(RandomBytes, SystemDrawsDifferAndZeroBytesWork) { check_fresh_and_empty(RandomSource::system); }
TEST(RandomBytes, OpensslDrawsDifferAndZeroBytesWork) { check_fresh_and_empty(RandomSource::openssl); }

TEST(RandomSource, DefaultIsSystemAndNamesRoundTrip) {
  EXPECT_EQ(random_source(), RandomSource::system);
  for (const RandomSource s : {RandomSource::system, RandomSource::openssl})
    EXPECT_EQ(parse_random_source(random_source_name(s)), s);
  EXPECT_EQ(random_source_name(RandomSource::system), "system");
  EXPECT_EQ(random_source_name(RandomSource::openssl), "openssl");
  EXPECT_EQ(random_source_description(RandomSource::system), "getrandom(2)");
  EXPECT_EQ(parse_random_source("OpenSSL"), RandomSource::openssl);
  EXPECT_EQ(parse_random_source("SYSTEM"), RandomSource::system);
  EXPECT_EQ(parse_random_source(""), std::nullopt);
  EXPECT_EQ(parse_random_source("getrandom"), std::nullopt);
}

TEST(RandomSource, KeygenAndEncapsRoundTripWithEitherSource) {
  for (const RandomSource source : {RandomSource::system, RandomSource::openssl}) {
    const SourceGuard guard(source);
    for (const Scheme s : {Scheme::MlKem768, Scheme::NtruHps2048509}) {
      const KeyPair kp = keygen(s);
      const Encapsulation e = encaps(s, kp.pk);
      const SecretBytes ss = decaps(s, kp.sk, e.ct);
      EXPECT_TRUE(std::equal(ss.view().begin(), ss.view().end(), e.ss.view().begin(), e.ss.view().end()))
          << random_source_name(source) << " " << scheme_info(s).name;
      EXPECT_NE(keygen(s).pk, kp.pk);
    }
  }
}

}  // namespace
}  // namespace pqkem
