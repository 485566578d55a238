// pqkem's SHA-3 family and SHA-256 against known answers (FIPS 202; FIPS 180-4's examples)
// and against OpenSSL's EVP (the reference implementation) on random inputs of every length
// over several blocks, and incremental absorbing and squeezing.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <array>
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

// RFC 9861, section 5: TurboSHAKE's test vectors (but the two 17^6-byte messages), one-shot
// and read incrementally in pieces that cross the rate. ptn(n) repeats 00 01 .. FA, cut to n bytes.
Bytes ptn(std::size_t n) {
  Bytes m(n);
  for (std::size_t i = 0; i < n; ++i) m[i] = static_cast<std::uint8_t>(i % 251);
  return m;
}
Bytes ff(std::size_t n) { return Bytes(n, 0xFF); }

struct TurboShakeVector {
  int bits;
  const char* m_name;
  Bytes m;
  std::uint8_t d;
  std::size_t l;
  bool last_32;  // the RFC gives only the last 32 bytes
  const char* want;
};

TEST(Hash, TurboShakeMatchesRfc9861) {
  const TurboShakeVector vectors[] = {
      {128, "M=empty", Bytes{}, 0x1F, 32, false, "1e415f1c5983aff2169217277d17bb538cd945a397ddec541f1ce41af2c1b74c"},
      {128, "M=empty", Bytes{}, 0x1F, 64, false,
       "1e415f1c5983aff2169217277d17bb538cd945a397ddec541f1ce41af2c1b74c3e8ccae2a4dae56c84a04c2385c03c15e8193bdf5873736"
       "3321691c05462c8df"},
      {128, "M=empty", Bytes{}, 0x1F, 10032, true, "a3b9b0385900ce761f22aed548e754da10a5242d62e8c658e3f3a923a7555607"},
      {128, "M=ptn(1)", ptn(1), 0x1F, 32, false, "55cedd6f60af7bb29a4042ae832ef3f58db7299f893ebb9247247d856958daa9"},
      {128, "M=ptn(17)", ptn(17), 0x1F, 32, false, "9c97d036a3bac819db70ede0ca554ec6e4c2a1a4ffbfd9ec269ca6a111161233"},
      {128, "M=ptn(289)", ptn(289), 0x1F, 32, false,
       "96c77c279e0126f7fc07c9b07f5cdae1e0be60bdbe10620040e75d7223a624d2"},
      {128, "M=ptn(4913)", ptn(4913), 0x1F, 32, false,
       "d4976eb56bcf118520582b709f73e1d6853e001fdaf80e1b13e0d0599d5fb372"},
      {128, "M=ptn(83521)", ptn(83521), 0x1F, 32, false,
       "da67c7039e98bf530cf7a37830c6664e14cbab7f540f58403b1b82951318ee5c"},
      {128, "M=ptn(1419857)", ptn(1419857), 0x1F, 32, false,
       "b97a906fbf83ef7c812517abf3b2d0aea0c4f60318ce11cf103925127f59eecd"},
      {128, "M=FF x 3", ff(3), 0x01, 32, false, "bf323f940494e88ee1c540fe660be8a0c93f43d15ec006998462fa994eed5dab"},
      {128, "M=FF x 1", ff(1), 0x06, 32, false, "8ec9c66465ed0d4a6c35d13506718d687a25cb05c74cca1e42501abd83874a67"},
      {128, "M=FF x 3", ff(3), 0x07, 32, false, "b658576001cad9b1e5f399a9f77723bba05458042d68206f7252682dba3663ed"},
      {128, "M=FF x 7", ff(7), 0x0B, 32, false, "8deeaa1aec47ccee569f659c21dfa8e112db3cee37b18178b2acd805b799cc37"},
      {128, "M=FF x 1", ff(1), 0x30, 32, false, "553122e2135e363c3292bed2c6421fa232bab03daa07c7d6636603286506325b"},
      {128, "M=FF x 3", ff(3), 0x7F, 32, false, "16274cc656d44cefd422395d0f9053bda6d28e122aba15c765e5ad0e6eaf26f9"},
      {256, "M=empty", Bytes{}, 0x1F, 64, false,
       "367a329dafea871c7802ec67f905ae13c57695dc2c6663c61035f59a18f8e7db11edc0e12e91ea60eb6b32df06dd7f002fbafabb6e13ec1"
       "cc20d995547600db0"},
      {256, "M=empty", Bytes{}, 0x1F, 10032, true, "abefa11630c661269249742685ec082f207265dccf2f43534e9c61ba0c9d1d75"},
      {256, "M=ptn(1)", ptn(1), 0x1F, 64, false,
       "3e1712f928f8eaf1054632b2aa0a246ed8b0c378728f60bc970410155c28820e90cc90d8a3006aa2372c5c5ea176b0682bf22bae7467ac9"
       "4f74d43d39b0482e2"},
      {256, "M=ptn(17)", ptn(17), 0x1F, 64, false,
       "b3bab0300e6a191fbe6137939835923578794ea54843f5011090fa2f3780a9e5cb22c59d78b40a0fbff9e672c0fbe0970bd2c845091c604"
       "4d687054da5d8e9c7"},
      {256, "M=ptn(289)", ptn(289), 0x1F, 64, false,
       "66b810db8e90780424c0847372fdc95710882fde31c6df75beb9d4cd9305cfcae35e7b83e8b7e6eb4b78605880116316fe2c078a09b94ad"
       "7b8213c0a738b65c0"},
      {256, "M=ptn(4913)", ptn(4913), 0x1F, 64, false,
       "c74ebc919a5b3b0dd1228185ba02d29ef442d69d3d4276a93efe0bf9a16a7dc0cd4eabadab8cd7a5edd96695f5d360abe09e2c6511a3ec3"
       "97da3b76b9e1674fb"},
      {256, "M=ptn(83521)", ptn(83521), 0x1F, 64, false,
       "02cc3a8897e6f4f6ccb6fd46631b1f5207b66c6de9c7b55b2d1a23134a170afdac234eaba9a77cff88c1f020b73724618c5687b362c430b"
       "248cd38647f848a1d"},
      {256, "M=ptn(1419857)", ptn(1419857), 0x1F, 64, false,
       "add53b06543e584b5823f626996aee50fe45ed15f20243a7165485acb4aa76b4ffda75cedf6d8cdc95c332bd56f4b986b58bb17d1778bfc"
       "1b1a97545cdf4ec9f"},
      {256, "M=FF x 3", ff(3), 0x01, 64, false,
       "d21c6fbbf587fa2282f29aea620175fb0257413af78a0b1b2a87419ce031d933ae7a4d383327a8a17641a34f8a1d1003ad7da6b72dba84b"
       "b62fef28f62f12424"},
      {256, "M=FF x 1", ff(1), 0x06, 64, false,
       "738d7b4e37d18b7f22ad1b5313e357e3dd7d07056a26a303c433fa3533455280f4f5a7d4f700efb437fe6d281405e07be32a0a972e22e63"
       "adc1b090daefe004b"},
      {256, "M=FF x 3", ff(3), 0x07, 64, false,
       "18b3b5b7061c2e67c1753a00e6ad7ed7ba1c906cf93efb7092eaf27fbeebb755ae6e292493c110e48d260028492b8e09b5500612b8f2578"
       "985ded5357d00ec67"},
      {256, "M=FF x 7", ff(7), 0x0B, 64, false,
       "bb36764951ec97e9d85f7ee9a67a7718fc005cf42556be79ce12c0bde50e5736d6632b0d0dfb202d1bbb8ffe3dd74cb00834fa756cb0347"
       "1bab13a1e2c16b3c0"},
      {256, "M=FF x 1", ff(1), 0x30, 64, false,
       "f3fe12873d34bcbb2e608779d6b70e7f86bec7e90bf113cbd4fdd0c4e2f4625e148dd7ee1a52776cf77f240514d9ccfc3b5ddab8ee255e3"
       "9ee389072962c111a"},
      {256, "M=FF x 3", ff(3), 0x7F, 64, false,
       "abe569c1f77ec340f02705e7d37c9ab7e155516e4a6a150021d70b6fac0bb40c069f9a9828a0d575cd99f9bae435ab1acf7ed9110ba97ce"
       "0388d074bac768776"},
  };
  for (const auto& v : vectors) {
    SCOPED_TRACE(std::string("TurboSHAKE") + std::to_string(v.bits) + "(" + v.m_name + ", D=" + std::to_string(v.d) +
                 ", " + std::to_string(v.l) + ")");
    std::vector<std::uint8_t> out(v.l);
    if (v.bits == 128)
      turboshake128(out, {v.m}, v.d);
    else
      turboshake256(out, {v.m}, v.d);
    const std::size_t from = v.last_32 ? v.l - 32 : 0;
    EXPECT_EQ(hex({out.data() + from, v.l - from}), v.want);
    // Absorbed in two pieces and squeezed in pieces of 1, 167 and 3 bytes: the same stream.
    TurboShake xof(v.bits == 128 ? XofKind::shake128 : XofKind::shake256, v.d);
    xof.absorb(ByteView(v.m).first(v.m.size() / 3));
    xof.absorb(ByteView(v.m).subspan(v.m.size() / 3));
    std::vector<std::uint8_t> again(v.l);
    for (std::size_t i = 0, k = 0; i < v.l; ++k) {
      const std::size_t n = std::min<std::size_t>(k % 3 == 0 ? 1 : k % 3 == 1 ? 167 : 3, v.l - i);
      xof.squeeze({again.data() + i, n});
      i += n;
    }
    EXPECT_EQ(again, out);
  }
}

// The 12-round permutation is not the 24-round one: TurboSHAKE128 is not SHAKE128.
TEST(Hash, TurboShakeDiffersFromShake) {
  std::array<std::uint8_t, 32> a{}, b{};
  turboshake128(a, {}, 0x1F);
  shake128(b, {});
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace pqkem::hash
