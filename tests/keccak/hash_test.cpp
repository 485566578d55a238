// pqkem's SHA-3 family and SHA-256 against known answers (FIPS 202; FIPS 180-4's examples)
// and against OpenSSL's EVP (the reference implementation) on random inputs of every length
// over several blocks, and incremental absorbing and squeezing.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <memory>

#include <random>
#include <string>

#include "hash.hpp"

namespace pqkem::hash {
namespace {

std::string hex(std::span<const std::uint8_t> b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto c : b) {
    s += d[c >> 4];
    s += d[c & 15];
  }
  return s;
}

TEST(Hash, KnownAnswersForEmptyInput) {
  std::array<std::uint8_t, 32> h256{};
  sha3_256(h256, {});
  EXPECT_EQ(hex(h256), "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
  std::array<std::uint8_t, 64> h512{};
  sha3_512(h512, {});
  EXPECT_EQ(hex(h512),
            "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
            "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26");
  std::array<std::uint8_t, 16> s128{};
  shake128(s128, {});
  EXPECT_EQ(hex(s128), "7f9c2ba4e88f827d616045507605853e");
  std::array<std::uint8_t, 16> s256{};
  shake256(s256, {});
  EXPECT_EQ(hex(s256), "46b9dd2b0ba88d13233b3feb743eeb24");
}

// OpenSSL's answer for the named SHA-3 function on `in`, `outlen` bytes.
std::vector<std::uint8_t> openssl_digest(const char* name, ByteView in, std::size_t outlen) {
  std::unique_ptr<EVP_MD, decltype(&EVP_MD_free)> md(EVP_MD_fetch(nullptr, name, nullptr), &EVP_MD_free);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  std::vector<std::uint8_t> out(outlen);
  EXPECT_TRUE(md && ctx && EVP_DigestInit_ex2(ctx.get(), md.get(), nullptr) == 1 &&
              EVP_DigestUpdate(ctx.get(), in.data(), in.size()) == 1);
  const bool xof = (EVP_MD_get_flags(md.get()) & EVP_MD_FLAG_XOF) != 0;
  unsigned len = 0;
  EXPECT_EQ(xof ? EVP_DigestFinalXOF(ctx.get(), out.data(), outlen) : EVP_DigestFinal_ex(ctx.get(), out.data(), &len),
            1);
  return out;
}

TEST(Hash, AgreesWithOpenSslOnEveryInputLengthOverSeveralBlocks) {
  std::mt19937 rng(11);
  std::vector<std::uint8_t> in(3 * 168 + 9);
  for (auto& c : in) c = static_cast<std::uint8_t>(rng());
  for (std::size_t len = 0; len <= in.size(); ++len) {
    const ByteView m(in.data(), len);
    std::array<std::uint8_t, 32> h256{};
    sha3_256(h256, {m});
    ASSERT_EQ(std::vector<std::uint8_t>(h256.begin(), h256.end()), openssl_digest("SHA3-256", m, 32)) << len;
    std::array<std::uint8_t, 64> h512{};
    sha3_512(h512, {m});
    ASSERT_EQ(std::vector<std::uint8_t>(h512.begin(), h512.end()), openssl_digest("SHA3-512", m, 64)) << len;
    // Output lengths that end inside a lane, at a block boundary and several blocks in.
    const std::size_t outlen = (len * 37) % 700;
    std::vector<std::uint8_t> s128(outlen), s256(outlen);
    shake128(s128, {m});
    ASSERT_EQ(s128, openssl_digest("SHAKE128", m, outlen)) << len;
    shake256(s256, {m});
    ASSERT_EQ(s256, openssl_digest("SHAKE256", m, outlen)) << len;
  }
}

std::string sha256_hex(std::initializer_list<ByteView> in) {
  std::array<std::uint8_t, 32> h{};
  sha256(h, in);
  return hex(h);
}

ByteView view_of(std::string_view s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

// The examples of FIPS 180-4 (NIST's "SHA256.pdf"): one block, the empty message, the
// 448-bit message whose padding spills into a second block, and one million 'a' bytes.
TEST(Sha256, KnownAnswersFromFips180Examples) {
  EXPECT_EQ(sha256_hex({view_of("abc")}), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex({}), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex({view_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")}),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const std::string million(1000000, 'a');
  EXPECT_EQ(sha256_hex({view_of(million)}), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  EXPECT_EQ(sha256_hex({view_of(million).first(333333), {}, view_of(million).subspan(333333)}),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Every length 0..300 (the padding branch at 55/56 bytes mod 64, block boundaries) and some
// multi-block ones (key and ciphertext sizes among them), each split into two pieces at every
// point and into four pieces (one empty) at a second point.
TEST(Sha256, AgreesWithOpenSslOnEveryLengthAndEverySplit) {
  std::mt19937 rng(13);
  std::vector<std::size_t> lengths;
  for (std::size_t len = 0; len <= 300; ++len) lengths.push_back(len);
  for (std::size_t len : {511, 512, 513, 800, 1088, 1184, 1568, 3168, 4151}) lengths.push_back(len);
  for (const std::size_t len : lengths) {
    std::vector<std::uint8_t> in(len);
    for (auto& c : in) c = static_cast<std::uint8_t>(rng());
    const ByteView m(in);
    const auto want = openssl_digest("SHA256", m, 32);
    std::array<std::uint8_t, 32> got{};
    sha256(got, {m});
    ASSERT_EQ(std::vector<std::uint8_t>(got.begin(), got.end()), want) << len;
    for (std::size_t i = 0; i <= len; ++i) {
      sha256(got, {m.first(i), m.subspan(i)});
      ASSERT_EQ(std::vector<std::uint8_t>(got.begin(), got.end()), want) << len << " split at " << i;
      const std::size_t j = i + (len - i) * 2 / 3;
      sha256(got, {m.first(i), {}, m.subspan(i, j - i), m.subspan(j)});
      ASSERT_EQ(std::vector<std::uint8_t>(got.begin(), got.end()), want) << len << " split at " << i << ", " << j;
    }
  }
}

TEST(Hash, KeccakPermutationOfTheZeroStateMatchesOpenSsl) {
  // The first output block of SHAKE128("") is Keccak-f applied once to the padded block.
  std::uint64_t s[25] = {};
  s[0] ^= 0x1F;
  s[20] ^= std::uint64_t{0x80} << 56;  // byte 167 of the 168-byte rate
  keccak_f1600(s);
  const auto want = openssl_digest("SHAKE128", {}, 168);
  for (std::size_t i = 0; i < 168; ++i) ASSERT_EQ(static_cast<std::uint8_t>(s[i / 8] >> (8 * (i % 8))), want[i]) << i;
}

TEST(Hash, PiecesAreConcatenated) {
  const std::uint8_t a[3] = {'a', 'b', 'c'}, b1[1] = {'a'}, b2[2] = {'b', 'c'};
  std::array<std::uint8_t, 32> x{}, y{};
  sha3_256(x, {a});
  sha3_256(y, {b1, {}, b2});
  EXPECT_EQ(x, y);
  EXPECT_EQ(hex(x), "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
}

TEST(Hash, IncrementalAbsorbAndSqueezeEqualOneShotForEveryChunking) {
  std::mt19937 rng(3);
  for (XofKind kind : {XofKind::shake128, XofKind::shake256}) {
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<std::uint8_t> in(rng() % 700);
      for (auto& c : in) c = static_cast<std::uint8_t>(rng());
      const std::size_t total = 1 + rng() % 3000;
      std::vector<std::uint8_t> expect(total);
      if (kind == XofKind::shake128)
        shake128(expect, {in});
      else
        shake256(expect, {in});

      Xof xof(kind);
      for (std::size_t pos = 0; pos < in.size();) {  // absorb in random pieces, empty ones too
        const std::size_t n = std::min<std::size_t>(in.size() - pos, rng() % 50);
        xof.absorb(std::span(in).subspan(pos, n));
        pos += n;
      }
      std::vector<std::uint8_t> got(total);
      for (std::size_t pos = 0; pos < total;) {
        const std::size_t n = std::min<std::size_t>(total - pos, rng() % 300);
        xof.squeeze(std::span(got).subspan(pos, n));
        pos += n;
      }
      ASSERT_EQ(got, expect) << "trial " << trial;
    }
  }
}

}  // namespace
}  // namespace pqkem::hash
