// The public API: round trips, every input check with its error code, implicit rejection.
#include <gtest/gtest.h>

#include <algorithm>

#include "hash.hpp"
#include "kat.hpp"
#include "pqkem.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"

namespace pqkem {
namespace {

class Api : public ::testing::TestWithParam<Scheme> {};

Errc error_of(auto&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "no pqkem::Error thrown";
  return Errc::bad_argument;
}

TEST_P(Api, RandomizedRoundTripAgrees) {
  const Scheme s = GetParam();
  const SchemeInfo& info = scheme_info(s);
  for (int i = 0; i < 5; ++i) {
    const KeyPair kp = keygen(s);
    ASSERT_EQ(kp.pk.size(), info.pk_bytes);
    ASSERT_EQ(kp.sk.size(), info.sk_bytes);
    const Encapsulation enc = encaps(s, kp.pk);
    ASSERT_EQ(enc.ct.size(), info.ct_bytes);
    const SecretBytes ss = decaps(s, kp.sk, enc.ct);
    ASSERT_EQ(Bytes(ss.view().begin(), ss.view().end()), Bytes(enc.ss.view().begin(), enc.ss.view().end()));
    EXPECT_EQ(public_key_from_secret_key(s, kp.sk), kp.pk);
  }
}

TEST_P(Api, DerandomizedIsDeterministicAndSeedSensitive) {
  const Scheme s = GetParam();
  Bytes coins(64, 0x42);
  const KeyPair a = keygen_derand(s, coins), b = keygen_derand(s, coins);
  EXPECT_EQ(a.pk, b.pk);
  EXPECT_TRUE(std::equal(a.sk.view().begin(), a.sk.view().end(), b.sk.view().begin()));
  coins[63] ^= 1;  // z only changes the end of dk
  const KeyPair c = keygen_derand(s, coins);
  EXPECT_EQ(a.pk, c.pk);
  EXPECT_NE(a.sk[a.sk.size() - 1], c.sk[c.sk.size() - 1]);
  coins[0] ^= 1;  // d changes everything
  EXPECT_NE(keygen_derand(s, coins).pk, a.pk);
}

TEST_P(Api, ImplicitRejectionYieldsJOfZAndCiphertext) {
  const Scheme s = GetParam();
  const KeyPair kp = keygen_derand(s, Bytes(64, 7));
  Encapsulation enc = encaps_derand(s, kp.pk, Bytes(32, 9));
  for (std::size_t pos : {std::size_t{0}, enc.ct.size() / 2, enc.ct.size() - 1}) {
    Bytes bad = enc.ct;
    bad[pos] ^= 0x01;
    const SecretBytes k = decaps(s, kp.sk, bad);  // not an error
    std::array<std::uint8_t, 32> expect{};
    hash::shake256(expect, {kp.sk.view().last(32), bad});  // J(z || c), z = last 32 bytes of dk
    EXPECT_TRUE(std::equal(expect.begin(), expect.end(), k.view().begin())) << pos;
    EXPECT_FALSE(std::equal(k.view().begin(), k.view().end(), enc.ss.view().begin()));
  }
}

TEST_P(Api, LengthChecks) {
  const Scheme s = GetParam();
  const SchemeInfo& info = scheme_info(s);
  const KeyPair kp = keygen(s);
  const Encapsulation enc = encaps(s, kp.pk);
  Bytes pk_short(kp.pk.begin(), kp.pk.end() - 1), pk_long = kp.pk;
  pk_long.push_back(0);
  EXPECT_EQ(error_of([&] { encaps(s, pk_short); }), Errc::bad_length);
  EXPECT_EQ(error_of([&] { encaps(s, pk_long); }), Errc::bad_length);
  EXPECT_EQ(error_of([&] { check_public_key(s, Bytes{}); }), Errc::bad_length);
  Bytes sk(kp.sk.view().begin(), kp.sk.view().end());
  EXPECT_EQ(error_of([&] { decaps(s, ByteView(sk).first(sk.size() - 1), enc.ct); }), Errc::bad_length);
  EXPECT_EQ(error_of([&] { decaps(s, sk, ByteView(enc.ct).first(enc.ct.size() - 1)); }), Errc::bad_length);
  Bytes ct_long = enc.ct;
  ct_long.push_back(0);
  EXPECT_EQ(error_of([&] { decaps(s, sk, ct_long); }), Errc::bad_length);
  EXPECT_EQ(error_of([&] { keygen_derand(s, Bytes(info.keygen_coin_bytes() - 1)); }), Errc::bad_length);
  EXPECT_EQ(error_of([&] { encaps_derand(s, kp.pk, Bytes(33)); }), Errc::bad_length);
}

TEST_P(Api, ModulusCheckRejectsEveryPositionOfAnUnreducedCoefficient) {
  const Scheme s = GetParam();
  const KeyPair kp = keygen(s);
  for (std::size_t poly = 0; poly * 384 + 384 <= kp.pk.size() - 32; ++poly) {
    Bytes pk = kp.pk;
    pk[poly * 384 + 381] = 0x01;  // coefficient 254 of this polynomial := 0xD01 = q
    pk[poly * 384 + 382] = 0x0D;
    EXPECT_EQ(error_of([&] { check_public_key(s, pk); }), Errc::invalid_encaps_key);
    EXPECT_EQ(error_of([&] { encaps(s, pk); }), Errc::invalid_encaps_key);
  }
}

TEST_P(Api, DecapsulationKeyHashCheck) {
  const Scheme s = GetParam();
  const SchemeInfo& info = scheme_info(s);
  const KeyPair kp = keygen(s);
  const Encapsulation enc = encaps(s, kp.pk);
  Bytes sk(kp.sk.view().begin(), kp.sk.view().end());
  EXPECT_NO_THROW(check_secret_key(s, sk));
  Bytes bad_h = sk;
  bad_h[info.sk_bytes - 64] ^= 0x80;  // first byte of the stored H(ek)
  EXPECT_EQ(error_of([&] { decaps(s, bad_h, enc.ct); }), Errc::invalid_decaps_key);
  Bytes bad_ek = sk;
  bad_ek[info.sk_bytes - 64 - 1] ^= 0x01;  // last byte of the stored ek (rho)
  EXPECT_EQ(error_of([&] { check_secret_key(s, bad_ek); }), Errc::invalid_decaps_key);
  // decaps checks the hash itself (beside J(z || c)), under every implementation, and a bad key
  // is reported before a ciphertext of the wrong length, as check_secret_key would.
  for (const auto name : simd::usable_implementations()) {
    simd::set_impl(*simd::parse_impl(name));
    EXPECT_EQ(error_of([&] { decaps(s, bad_ek, enc.ct); }), Errc::invalid_decaps_key) << name;
    EXPECT_EQ(error_of([&] { decaps(s, bad_h, enc.ct); }), Errc::invalid_decaps_key) << name;
    const SecretBytes ss = decaps(s, sk, enc.ct);
    EXPECT_TRUE(std::equal(ss.view().begin(), ss.view().end(), enc.ss.view().begin(), enc.ss.view().end())) << name;
  }
  simd::set_impl_auto();
  const Bytes short_ct(enc.ct.begin(), enc.ct.end() - 1);
  EXPECT_EQ(error_of([&] { decaps(s, bad_h, short_ct); }), Errc::invalid_decaps_key);
  EXPECT_EQ(error_of([&] { decaps(s, sk, short_ct); }), Errc::bad_length);
}

INSTANTIATE_TEST_SUITE_P(AllMlKem, Api, ::testing::Values(Scheme::MlKem512, Scheme::MlKem768, Scheme::MlKem1024),
                         [](const auto& p) {
                           return std::string(scheme_info(p.param).name).replace(2, 1, "").replace(5, 1, "");
                         });

TEST(Schemes, NamesAndSizes) {
  EXPECT_EQ(parse_scheme("ML-KEM-768"), Scheme::MlKem768);
  EXPECT_EQ(parse_scheme("mlkem512"), Scheme::MlKem512);
  EXPECT_EQ(parse_scheme("ml_kem_1024"), Scheme::MlKem1024);
  EXPECT_EQ(parse_scheme("ML-KEM-769"), std::nullopt);
  EXPECT_EQ(parse_scheme("kyber768"), std::nullopt);
  // Only '-' and '_' separate: a stray space is a typo, not a name.
  EXPECT_EQ(parse_scheme("ML-KEM-768 "), std::nullopt);
  EXPECT_EQ(parse_scheme(" ML-KEM-768"), std::nullopt);
  EXPECT_EQ(parse_scheme("ML KEM 768"), std::nullopt);
  EXPECT_EQ(parse_scheme(""), std::nullopt);
  for (const SchemeInfo& i : all_schemes()) {
    EXPECT_EQ(parse_scheme(i.name), i.scheme);
    EXPECT_EQ(scheme_from_sk_size(i.sk_bytes), i.scheme);
    if (i.family == pqkem::Family::Hybrid) {
      // X-Wing and X25519MLKEM768 share both sizes: neither is named by them.
      EXPECT_EQ(scheme_from_pk_size(i.pk_bytes), std::nullopt);
      EXPECT_EQ(scheme_from_ct_size(i.ct_bytes), std::nullopt);
      EXPECT_EQ(i.ss_bytes, i.scheme == Scheme::X25519MlKem768 ? 64u : 32u);
    } else {
      EXPECT_EQ(scheme_from_pk_size(i.pk_bytes), i.scheme);
      EXPECT_EQ(scheme_from_ct_size(i.ct_bytes), i.scheme);
      EXPECT_EQ(i.ss_bytes, 32u);
    }
  }
  EXPECT_EQ(scheme_info(Scheme::MlKem768).pk_bytes, 1184u);
  EXPECT_EQ(scheme_from_pk_size(1000), std::nullopt);
}

// The public setter: every name the documentation gives, in any case; an unknown or unusable
// implementation is refused with bad_argument and leaves the choice as it was.
TEST(Implementation, SetImplementationSelectsAndRefuses) {
  const std::string before(implementation());
  for (const simd::Impl impl : {simd::Impl::portable, simd::Impl::avx2, simd::Impl::avx512}) {
    const std::string name(simd::impl_name(impl));
    if (simd::impl_usable(impl)) {
      set_implementation(name);
      EXPECT_EQ(implementation(), name);
      EXPECT_EQ(simd::active_impl(), impl);
    } else {
      try {
        set_implementation(name);
        ADD_FAILURE() << name << " accepted although not usable";
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), Errc::bad_argument);
        EXPECT_NE(std::string(e.what()).find(simd::impl_unusable_reason(impl)), std::string::npos) << e.what();
      }
    }
  }
  set_implementation("PORTABLE");
  EXPECT_EQ(implementation(), "portable");
  set_implementation("Auto");
  EXPECT_EQ(simd::active_impl(), simd::best_impl());
  for (const char* bad : {"", "avx", "sse2", "portable "}) {
    try {
      set_implementation(bad);
      ADD_FAILURE() << "'" << bad << "' accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), Errc::bad_argument);
    }
    EXPECT_EQ(simd::active_impl(), simd::best_impl()) << "a refused name changed the choice";
  }
  set_implementation(before);
}

// Each capability field of SchemeInfo states what the library then does: the fields are
// checked against that behaviour, not against a list of names.
TEST(Schemes, CapabilitiesStateWhatTheLibraryDoes) {
  EXPECT_EQ(family_name(Family::MlKem), "ML-KEM");
  EXPECT_EQ(family_name(Family::Ntru), "NTRU");
  EXPECT_EQ(family_name(Family::Hybrid), "hybrid");
  for (const SchemeInfo& i : all_schemes()) {
    SCOPED_TRACE(std::string(i.name));
    const Scheme s = i.scheme;
    // pk_ct_sizes_unique: the sizes alone name the scheme.
    EXPECT_EQ(scheme_from_pk_size(i.pk_bytes) == s, i.pk_ct_sizes_unique);
    EXPECT_EQ(scheme_from_ct_size(i.ct_bytes) == s, i.pk_ct_sizes_unique);
    // has_nist_kat: kat_rsp runs, or refuses with bad_argument.
    if (i.has_nist_kat) {
      EXPECT_NO_THROW((void)kat_rsp(s, 0));
    } else {
      EXPECT_THROW((void)kat_rsp(s, 0), Error);
    }
    const KeyPair kp = keygen(s);
    const Encapsulation enc = encaps(s, kp.pk);
    // seed_is_secret_key: the expanded key starts with the seed, and the seed alone decapsulates.
    if (i.seed_is_secret_key) {
      ASSERT_GT(i.seed_bytes, 0u);
      const ByteView seed = kp.sk.view().first(i.seed_bytes);
      EXPECT_EQ(public_key_from_secret_key(s, seed), kp.pk);
      EXPECT_TRUE(std::ranges::equal(decaps(s, seed, enc.ct).view(), enc.ss.view()));
    } else if (i.seed_bytes > 0) {
      EXPECT_THROW((void)decaps(s, kp.sk.view().first(i.seed_bytes), enc.ct), Error);
    }
    // pk_check_strong: a ciphertext, cut or repeated to a public key's size, is no public key.
    Bytes not_pk(i.pk_bytes);
    for (std::size_t k = 0; k < not_pk.size(); ++k) not_pk[k] = enc.ct[k % enc.ct.size()];
    if (i.pk_check_strong) {
      EXPECT_THROW(check_public_key(s, not_pk), Error);
    } else {
      EXPECT_NO_THROW(check_public_key(s, not_pk));
    }
  }
}

}  // namespace
}  // namespace pqkem
