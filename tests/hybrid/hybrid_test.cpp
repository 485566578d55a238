// The hybrid KEMs (lib/hybrid): X-Wing against every test vector of its draft, byte for byte,
// on every usable implementation; X25519MLKEM768 against its components (ML-KEM-768 and the
// library's X25519 on the same coins and scalars); the X25519 path against RFC 7748's vectors;
// and the error cases: wrong lengths, the modulus check, corrupted ciphertexts, small-order
// X25519 shares.
#include <gtest/gtest.h>

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "error.hpp"
#include "hash.hpp"
#include "hybrid/hybrid.hpp"
#include "hybrid/x25519.hpp"
#include "kat.hpp"
#include "pqkem.hpp"
#include "simd/dispatch.hpp"

#ifndef PQKEM_HYBRID_DATA_DIR
#error "PQKEM_HYBRID_DATA_DIR must name tests/hybrid/data"
#endif

namespace pqkem {
namespace {

Bytes unhex(std::string_view h) {
  if (h.size() % 2 != 0) throw std::runtime_error("odd hex length");
  Bytes out(h.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(std::stoi(std::string(h.substr(2 * i, 2)), nullptr, 16));
  return out;
}

Bytes cat(std::initializer_list<ByteView> parts) {
  Bytes out;
  for (const ByteView p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Bytes bytes_of(ByteView v) { return Bytes(v.begin(), v.end()); }

ByteView slice(ByteView v, std::size_t from, std::size_t n) { return v.subspan(from, n); }

template <class F>
bool throws(Errc want, F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code() == want;
  }
  return false;
}

/// Runs f once on every implementation this build and CPU can run, then restores the choice.
template <class F>
void on_every_impl(F&& f) {
  for (const simd::Impl impl : {simd::Impl::portable, simd::Impl::avx2, simd::Impl::avx512}) {
    if (!simd::impl_usable(impl)) continue;
    SCOPED_TRACE(std::string(simd::impl_name(impl)));
    simd::set_impl(impl);
    f();
  }
  simd::set_impl_auto();
}

Bytes x25519_base(ByteView sk) {
  Bytes pk(32);
  x25519::base(std::span<std::uint8_t, 32>(pk.data(), 32), std::span<const std::uint8_t, 32>(sk.data(), 32));
  return pk;
}

/// {result, nonzero}.
std::pair<Bytes, bool> x25519_shared(ByteView sk, ByteView u) {
  Bytes out(32, 0xAA);
  const bool ok =
      x25519::shared(std::span<std::uint8_t, 32>(out.data(), 32), std::span<const std::uint8_t, 32>(sk.data(), 32),
                     std::span<const std::uint8_t, 32>(u.data(), 32));
  return {out, ok};
}

Bytes xwing_combiner(ByteView ss_m, ByteView ss_x, ByteView ct_x, ByteView pk_x) {
  Bytes ss(32);
  // The label written out here, not taken from the library.
  const std::uint8_t label[6] = {'\\', '.', '/', '/', '^', '\\'};
  hash::sha3_256(std::span<std::uint8_t, 32>(ss.data(), 32), {ss_m, ss_x, ct_x, pk_x, ByteView(label, 6)});
  return ss;
}

// --- X25519 (RFC 7748) -----------------------------------------------------------------------

struct X25519Vector {
  const char* scalar;
  const char* u;
  const char* out;
};
// Section 5.2; the second u has its top bit set, which X25519 must ignore.
constexpr X25519Vector kRfc7748[] = {
    {"a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
     "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
     "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"},
    {"4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
     "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
     "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"},
};

void check_rfc7748() {
  for (const auto& v : kRfc7748) {
    const auto [out, ok] = x25519_shared(unhex(v.scalar), unhex(v.u));
    EXPECT_TRUE(ok);
    EXPECT_EQ(out, unhex(v.out)) << v.scalar;
  }
  // Section 5.2, iterated: k = u = 9; k, u = X25519(k, u), k.
  Bytes k(32, 0), u(32, 0);
  k[0] = u[0] = 9;
  for (int i = 1; i <= 1000; ++i) {
    auto [next, ok] = x25519_shared(k, u);
    ASSERT_TRUE(ok);
    u = k;
    k = next;
    if (i == 1) {
      EXPECT_EQ(k, unhex("422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079"));
    }
  }
  EXPECT_EQ(k, unhex("684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51"));
  // Section 6.1: the Diffie-Hellman example, through the base-point path as well.
  const Bytes a = unhex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
  const Bytes a_pub = unhex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
  const Bytes b = unhex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
  const Bytes b_pub = unhex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
  const Bytes k_ab = unhex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
  EXPECT_EQ(x25519_base(a), a_pub);
  EXPECT_EQ(x25519_base(b), b_pub);
  EXPECT_EQ(x25519_shared(a, b_pub).first, k_ab);
  EXPECT_EQ(x25519_shared(b, a_pub).first, k_ab);
}

/// Encodings of the points of small order (and their non-canonical twins): X25519 of any
/// clamped scalar with them is all zero.
const std::vector<Bytes>& small_order_points() {
  static const std::vector<Bytes> points = {
      unhex("0000000000000000000000000000000000000000000000000000000000000000"),  // 0
      unhex("0100000000000000000000000000000000000000000000000000000000000000"),  // 1
      unhex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),  // order 8
      unhex("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),  // order 8
      unhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),  // p - 1
      unhex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),  // p (= 0)
      unhex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),  // p + 1 (= 1)
  };
  return points;
}

void check_small_order() {
  const Bytes sk = unhex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
  for (const Bytes& u : small_order_points()) {
    const auto [out, ok] = x25519_shared(sk, u);
    EXPECT_FALSE(ok);
    EXPECT_EQ(out, Bytes(32, 0));
  }
}

// has_small_order is exactly "shared() gives zero": on the seven encodings, on them with the
// top bit set (which X25519 ignores), on their neighbours, and on ordinary points.
TEST(X25519, HasSmallOrderIsExactlyTheAllZeroResult) {
  const Bytes sk = unhex("4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d");
  std::vector<Bytes> inputs;
  for (const Bytes& u : small_order_points()) {
    inputs.push_back(u);
    Bytes high = u;
    high[31] |= 0x80;
    inputs.push_back(high);
    for (const std::size_t at : {std::size_t{0}, std::size_t{17}, std::size_t{31}}) {
      Bytes near = u;
      near[at] ^= 0x01;
      inputs.push_back(near);
    }
  }
  for (int i = 0; i < 20; ++i) {
    Bytes scalar(32, static_cast<std::uint8_t>(i + 1));
    inputs.push_back(x25519_base(scalar));
  }
  for (const Bytes& u : inputs) {
    const bool small = x25519::has_small_order(std::span<const std::uint8_t, 32>(u.data(), 32));
    EXPECT_EQ(small, !x25519_shared(sk, u).second);
  }
}

TEST(X25519, Rfc7748Vectors) { check_rfc7748(); }
TEST(X25519, SmallOrderPointsGiveTheAllZeroResult) { check_small_order(); }

// The library does not call sodium_init() (hybrid/x25519.hpp says why); a program that does
// switches libsodium to its other implementation. The same answers either way (ctest runs each
// test in a process of its own, so this one does not change the others).
TEST(X25519, SameAnswersAfterSodiumInit) {
  ASSERT_GE(sodium_init(), 0);
  check_rfc7748();
  check_small_order();
}

// --- X-Wing: the draft's vectors --------------------------------------------------------------

struct XWingVector {
  Bytes seed, eseed, ss, sk, pk, ct;
};

std::string read_data(const char* name) {
  const auto path = std::filesystem::path(PQKEM_HYBRID_DATA_DIR) / name;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<XWingVector> xwing_vectors() {
  const auto j = nlohmann::json::parse(read_data("xwing-test-vectors.json"));
  std::vector<XWingVector> out;
  for (const auto& v : j)
    out.push_back({unhex(v.at("seed").get<std::string>()), unhex(v.at("eseed").get<std::string>()),
                   unhex(v.at("ss").get<std::string>()), unhex(v.at("sk").get<std::string>()),
                   unhex(v.at("pk").get<std::string>()), unhex(v.at("ct").get<std::string>())});
  return out;
}

// The files are the draft repository's, unchanged (docs/test-data.md gives the commit).
TEST(XWing, DataFilesAreTheDraftsUnchanged) {
  const std::pair<const char*, const char*> files[] = {
      {"xwing-test-vectors.json", "409efe197550b22985b4a0419418a0c5f2c2b193426c55bd998399ec8d3e614d"},
      {"xwing.priv", "c55496d271b166a984ea6748180a2ec718c946c74cc7c5ac63d5a4f5759b771e"},
      {"xwing.pub", "327374bbb92ab6122ae5d5918dd21fa99b297447016557c211b419c9fd9389d3"},
  };
  for (const auto& [name, want] : files) {
    const std::string text = read_data(name);
    Bytes digest(32);
    hash::sha256(std::span<std::uint8_t, 32>(digest.data(), 32),
                 {ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())});
    EXPECT_EQ(digest, unhex(want)) << name;
  }
}

TEST(XWing, EveryDraftVectorByteForByte) {
  const auto vectors = xwing_vectors();
  ASSERT_EQ(vectors.size(), 3u);  // the draft's three
  on_every_impl([&] {
    for (std::size_t i = 0; i < vectors.size(); ++i) {
      SCOPED_TRACE("vector " + std::to_string(i));
      const auto& v = vectors[i];
      ASSERT_EQ(v.sk.size(), 32u);
      ASSERT_EQ(v.pk.size(), 1216u);
      ASSERT_EQ(v.ct.size(), 1120u);
      const KeyPair kp = keygen_derand(Scheme::XWing, v.seed);
      EXPECT_EQ(bytes_of(kp.pk), v.pk);
      EXPECT_EQ(bytes_of(slice(kp.sk, 0, 32)), v.sk);  // the expanded key starts with the draft's sk
      const Encapsulation e = encaps_derand(Scheme::XWing, v.pk, v.eseed);
      EXPECT_EQ(e.ct, v.ct);
      EXPECT_EQ(bytes_of(e.ss), v.ss);
      EXPECT_EQ(bytes_of(decaps(Scheme::XWing, kp.sk, v.ct)), v.ss);  // expanded key
      EXPECT_EQ(bytes_of(decaps(Scheme::XWing, v.sk, v.ct)), v.ss);   // the draft's 32-byte sk
      EXPECT_EQ(public_key_from_secret_key(Scheme::XWing, v.sk), v.pk);
      EXPECT_EQ(public_key_from_secret_key(Scheme::XWing, kp.sk), v.pk);
    }
  });
}

// The combiner's inputs, in the draft's order with the label last, recomputed here from the
// components: ML-KEM-768 on d || z = SHAKE256(sk)[0:64], X25519 on SHAKE256(sk)[64:96].
TEST(XWing, IsTheDraftsConstructionOverItsComponents) {
  const auto v = xwing_vectors().at(0);
  Bytes expanded(96);
  hash::shake256(expanded, {v.sk});
  const KeyPair m = keygen_derand(Scheme::MlKem768, slice(expanded, 0, 64));
  const Bytes pk_x = x25519_base(slice(expanded, 64, 32));
  EXPECT_EQ(v.pk, cat({m.pk, pk_x}));
  const Encapsulation em = encaps_derand(Scheme::MlKem768, m.pk, slice(v.eseed, 0, 32));
  const Bytes ct_x = x25519_base(slice(v.eseed, 32, 32));
  EXPECT_EQ(v.ct, cat({em.ct, ct_x}));
  const Bytes ss_x = x25519_shared(slice(v.eseed, 32, 32), pk_x).first;
  EXPECT_EQ(v.ss, xwing_combiner(em.ss, ss_x, ct_x, pk_x));
  // The label first (the construction of an older draft, and a known interoperability bug)
  // gives another secret.
  Bytes label_first(32);
  const std::uint8_t label[6] = {0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c};
  hash::sha3_256(std::span<std::uint8_t, 32>(label_first.data(), 32), {ByteView(label, 6), em.ss, ss_x, ct_x, pk_x});
  EXPECT_NE(v.ss, label_first);
}

// A corrupted ciphertext is not an error: ML-KEM's implicit rejection gives J(z || c') for the
// ML-KEM half, which then goes through the combiner like any secret.
TEST(XWing, CorruptedCiphertextGivesTheImplicitRejectionSecret) {
  const auto v = xwing_vectors().at(1);
  Bytes expanded(96);
  hash::shake256(expanded, {v.sk});
  const KeyPair m = keygen_derand(Scheme::MlKem768, slice(expanded, 0, 64));
  const KeyPair kp = keygen_derand(Scheme::XWing, v.sk);
  const Bytes pk_x = bytes_of(slice(v.pk, 1184, 32));
  on_every_impl([&] {
    for (const std::size_t at :
         {std::size_t{0}, std::size_t{700}, std::size_t{1087}, std::size_t{1088}, std::size_t{1119}}) {
      SCOPED_TRACE("byte " + std::to_string(at));
      Bytes ct = v.ct;
      ct[at] ^= 0x01;
      const SecretBytes got = decaps(Scheme::XWing, kp.sk, ct);
      EXPECT_NE(bytes_of(got), v.ss);
      const SecretBytes ss_m = decaps(Scheme::MlKem768, m.sk, slice(ct, 0, 1088));  // J(z || c') or the real ss_M
      const Bytes ct_x = bytes_of(slice(ct, 1088, 32));
      const Bytes ss_x = x25519_shared(slice(expanded, 64, 32), ct_x).first;
      EXPECT_EQ(bytes_of(got), xwing_combiner(ss_m, ss_x, ct_x, pk_x));
    }
  });
}

// --- both hybrids -----------------------------------------------------------------------------

class Hybrid : public ::testing::TestWithParam<Scheme> {};

TEST_P(Hybrid, RoundTripsOnEveryImplementation) {
  const Scheme s = GetParam();
  const auto& info = scheme_info(s);
  on_every_impl([&] {
    for (int i = 0; i < 4; ++i) {
      const KeyPair kp = keygen(s);
      ASSERT_EQ(kp.pk.size(), info.pk_bytes);
      ASSERT_EQ(kp.sk.size(), info.sk_bytes);
      const Encapsulation e = encaps(s, kp.pk);
      ASSERT_EQ(e.ct.size(), info.ct_bytes);
      ASSERT_EQ(e.ss.size(), info.ss_bytes);
      EXPECT_EQ(bytes_of(decaps(s, kp.sk, e.ct)), bytes_of(e.ss));
      // The seed alone (the standard secret key) decapsulates to the same secret.
      EXPECT_EQ(bytes_of(decaps(s, slice(kp.sk, 0, info.seed_bytes), e.ct)), bytes_of(e.ss));
      EXPECT_EQ(public_key_from_secret_key(s, kp.sk), kp.pk);
      EXPECT_NO_THROW(check_secret_key(s, kp.sk));
    }
  });
}

TEST_P(Hybrid, ImplementationsAgreeBitForBit) {
  const Scheme s = GetParam();
  const auto& info = scheme_info(s);
  Bytes seed(info.seed_bytes), coins(info.encaps_coin_bytes());
  for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::uint8_t>(3 * i + 1);
  for (std::size_t i = 0; i < coins.size(); ++i) coins[i] = static_cast<std::uint8_t>(7 * i + 5);
  simd::set_impl(simd::Impl::portable);
  const KeyPair ref = keygen_derand(s, seed);
  const Encapsulation ref_e = encaps_derand(s, ref.pk, coins);
  on_every_impl([&] {
    const KeyPair kp = keygen_derand(s, seed);
    EXPECT_EQ(kp.pk, ref.pk);
    EXPECT_EQ(bytes_of(kp.sk), bytes_of(ref.sk));
    const Encapsulation e = encaps_derand(s, kp.pk, coins);
    EXPECT_EQ(e.ct, ref_e.ct);
    EXPECT_EQ(bytes_of(e.ss), bytes_of(ref_e.ss));
    EXPECT_EQ(bytes_of(decaps(s, kp.sk, e.ct)), bytes_of(ref_e.ss));
  });
}

TEST_P(Hybrid, WrongLengthsAreErrors) {
  const Scheme s = GetParam();
  const auto& info = scheme_info(s);
  const KeyPair kp = keygen(s);
  const Encapsulation e = encaps(s, kp.pk);
  for (const std::size_t n : {info.pk_bytes - 1, info.pk_bytes + 1, std::size_t{1184}, std::size_t{0}})
    EXPECT_TRUE(throws(Errc::bad_length, [&] { (void)encaps(s, Bytes(n, 1)); })) << n;
  for (const std::size_t n : {info.ct_bytes - 1, info.ct_bytes + 1, std::size_t{1088}})
    EXPECT_TRUE(throws(Errc::bad_length, [&] { (void)decaps(s, kp.sk, Bytes(n, 1)); })) << n;
  for (const std::size_t n :
       {info.sk_bytes - 1, info.sk_bytes + 1, info.seed_bytes - 1, info.seed_bytes + 1, std::size_t{2400}})
    EXPECT_TRUE(throws(Errc::bad_length, [&] { (void)decaps(s, Bytes(n, 1), e.ct); })) << n;
  EXPECT_TRUE(throws(Errc::bad_length, [&] { (void)keygen_derand(s, Bytes(info.seed_bytes + 1, 1)); }));
  EXPECT_TRUE(throws(Errc::bad_length, [&] { (void)encaps_derand(s, kp.pk, Bytes(63, 1)); }));
}

// FIPS 203 section 7.2 on the ML-KEM half: a coefficient of 4095 >= q.
TEST_P(Hybrid, PublicKeyWhoseMlKemHalfFailsTheModulusCheckIsRejected) {
  const Scheme s = GetParam();
  const KeyPair kp = keygen(s);
  Bytes pk = kp.pk;
  pk[0] = 0xFF;
  pk[1] |= 0x0F;
  EXPECT_TRUE(throws(Errc::invalid_encaps_key, [&] { check_public_key(s, pk); }));
  EXPECT_TRUE(throws(Errc::invalid_encaps_key, [&] { (void)encaps(s, pk); }));
}

TEST_P(Hybrid, TamperedExpandedKeyIsRejected) {
  const Scheme s = GetParam();
  const auto& info = scheme_info(s);
  const KeyPair kp = keygen(s);
  const Encapsulation e = encaps(s, kp.pk);
  for (const std::size_t at : {std::size_t{0}, info.seed_bytes + 5, info.sk_bytes - 1}) {
    SCOPED_TRACE("byte " + std::to_string(at));
    Bytes sk = bytes_of(kp.sk);
    sk[at] ^= 0x40;
    EXPECT_TRUE(throws(Errc::invalid_decaps_key, [&] { check_secret_key(s, sk); }));
    EXPECT_TRUE(throws(Errc::invalid_decaps_key, [&] { (void)public_key_from_secret_key(s, sk); }));
  }
  // A changed H(ek) fails decapsulation's own check.
  Bytes sk = bytes_of(kp.sk);
  sk[info.seed_bytes + 1152 + 1184] ^= 1;
  EXPECT_TRUE(throws(Errc::invalid_decaps_key, [&] { (void)decaps(s, sk, e.ct); }));
}

INSTANTIATE_TEST_SUITE_P(Hybrids, Hybrid, ::testing::Values(Scheme::XWing, Scheme::X25519MlKem768), [](const auto& p) {
  return p.param == Scheme::XWing ? std::string("XWing") : std::string("X25519MlKem768");
});

// --- X25519MLKEM768: its halves are ML-KEM-768 and X25519 -------------------------------------

TEST(X25519MlKem768, HalvesEqualMlKem768AndX25519OnTheSameCoins) {
  Bytes seed(96), coins(64);
  for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::uint8_t>(11 * i + 2);
  for (std::size_t i = 0; i < coins.size(); ++i) coins[i] = static_cast<std::uint8_t>(13 * i + 9);
  on_every_impl([&] {
    const KeyPair kp = keygen_derand(Scheme::X25519MlKem768, seed);
    const KeyPair m = keygen_derand(Scheme::MlKem768, slice(seed, 0, 64));
    const Bytes pk_x = x25519_base(slice(seed, 64, 32));
    EXPECT_EQ(kp.pk, cat({m.pk, pk_x}));  // ML-KEM first
    EXPECT_EQ(bytes_of(slice(kp.sk, 0, 96)), seed);
    EXPECT_EQ(bytes_of(slice(kp.sk, 96, 2400)), bytes_of(m.sk));

    const Encapsulation e = encaps_derand(Scheme::X25519MlKem768, kp.pk, coins);
    const Encapsulation em = encaps_derand(Scheme::MlKem768, m.pk, slice(coins, 0, 32));
    const Bytes ct_x = x25519_base(slice(coins, 32, 32));
    const Bytes ss_x = x25519_shared(slice(coins, 32, 32), pk_x).first;
    EXPECT_EQ(e.ct, cat({em.ct, ct_x}));
    ASSERT_EQ(e.ss.size(), 64u);
    EXPECT_EQ(bytes_of(e.ss), cat({em.ss, ss_x}));
    // The receiver's X25519 half: X25519(sk_X, ct_X) is the same secret.
    EXPECT_EQ(x25519_shared(slice(seed, 64, 32), ct_x).first, ss_x);
    EXPECT_EQ(bytes_of(decaps(Scheme::X25519MlKem768, kp.sk, e.ct)), bytes_of(e.ss));
  });
}

TEST(X25519MlKem768, AllZeroX25519SecretIsAnError) {
  const KeyPair kp = keygen(Scheme::X25519MlKem768);
  const Encapsulation e = encaps(Scheme::X25519MlKem768, kp.pk);
  for (const Bytes& u : small_order_points()) {
    Bytes pk = kp.pk;
    std::copy(u.begin(), u.end(), pk.begin() + 1184);
    EXPECT_TRUE(throws(Errc::invalid_encaps_key, [&] { check_public_key(Scheme::X25519MlKem768, pk); }));
    EXPECT_TRUE(throws(Errc::invalid_encaps_key, [&] { (void)encaps(Scheme::X25519MlKem768, pk); }));
    EXPECT_NO_THROW(check_public_key(Scheme::XWing, pk));  // X-Wing has no such check
    Bytes ct = e.ct;
    std::copy(u.begin(), u.end(), ct.begin() + 1088);
    EXPECT_TRUE(throws(Errc::invalid_ciphertext, [&] { (void)decaps(Scheme::X25519MlKem768, kp.sk, ct); }));
  }
  // A corrupted ML-KEM half is not an error (implicit rejection): the X25519 half still agrees.
  Bytes ct = e.ct;
  ct[5] ^= 1;
  const SecretBytes ss = decaps(Scheme::X25519MlKem768, kp.sk, ct);
  EXPECT_NE(bytes_of(slice(ss, 0, 32)), bytes_of(slice(e.ss, 0, 32)));
  EXPECT_EQ(bytes_of(slice(ss, 32, 32)), bytes_of(slice(e.ss, 32, 32)));
}

// X-Wing has no all-zero check (the draft has none): a small-order pk_X gives ss_X = 0, which
// enters the combiner with ct_X and pk_X.
TEST(XWing, SmallOrderX25519ShareIsNotAnError) {
  const KeyPair kp = keygen(Scheme::XWing);
  Bytes coins(64, 0x33);
  for (const Bytes& u : small_order_points()) {
    Bytes pk = kp.pk;
    std::copy(u.begin(), u.end(), pk.begin() + 1184);
    const Encapsulation e = encaps_derand(Scheme::XWing, pk, coins);
    const Encapsulation em = encaps_derand(Scheme::MlKem768, slice(pk, 0, 1184), slice(coins, 0, 32));
    EXPECT_EQ(bytes_of(e.ss), xwing_combiner(em.ss, Bytes(32, 0), slice(e.ct, 1088, 32), u));
  }
}

// NIST's KAT procedure is for NIST submissions: the library refuses it for the hybrids (their
// "sk" there would be pqkem's in-memory expanded key).
TEST(HybridKat, NoNistKatProcedure) {
  for (const SchemeInfo& i : all_schemes()) {
    const bool hybrid = i.family == pqkem::Family::Hybrid;
    EXPECT_EQ(has_kat_procedure(i.scheme), !hybrid) << i.name;
    if (hybrid) {
      EXPECT_TRUE(throws(Errc::bad_argument, [&] { (void)kat_rsp(i.scheme, 1); })) << i.name;
    }
  }
  EXPECT_NE(kat_rsp(Scheme::MlKem512, 1).find("count = 0"), std::string::npos);
}

// --- names and sizes ---------------------------------------------------------------------------

TEST(HybridNames, ParseAndSizes) {
  EXPECT_EQ(parse_scheme("X-Wing"), Scheme::XWing);
  EXPECT_EQ(parse_scheme("xwing"), Scheme::XWing);
  EXPECT_EQ(parse_scheme("MLKEM768-X25519"), Scheme::XWing);
  EXPECT_EQ(parse_scheme("X25519MLKEM768"), Scheme::X25519MlKem768);
  EXPECT_EQ(parse_scheme("x25519_mlkem768"), Scheme::X25519MlKem768);
  EXPECT_EQ(parse_scheme("mlkem768x25519-sha256"), std::nullopt);  // OpenSSH's, another construction
  // The two hybrids share their public key and ciphertext sizes: those name neither.
  EXPECT_EQ(scheme_from_pk_size(1216), std::nullopt);
  EXPECT_EQ(scheme_from_ct_size(1120), std::nullopt);
  EXPECT_EQ(scheme_from_sk_size(2496), Scheme::XWing);
  EXPECT_EQ(scheme_from_sk_size(2528), Scheme::X25519MlKem768);
  const auto& x = scheme_info(Scheme::XWing);
  EXPECT_EQ(x.family, pqkem::Family::Hybrid);
  EXPECT_EQ(x.ss_bytes, 32u);
  EXPECT_EQ(x.seed_bytes, 32u);
  EXPECT_EQ(x.keygen_coin_bytes(), 32u);
  EXPECT_EQ(x.encaps_coin_bytes(), 64u);
  const auto& t = scheme_info(Scheme::X25519MlKem768);
  EXPECT_EQ(t.ss_bytes, 64u);
  EXPECT_EQ(t.seed_bytes, 96u);
  EXPECT_EQ(t.pk_bytes, 1216u);
  EXPECT_EQ(t.ct_bytes, 1120u);
}

}  // namespace
}  // namespace pqkem
