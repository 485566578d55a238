// NTRU KEM behaviour through the public API (and the OW-CPA layer for crafted ciphertexts):
// round trips, determinism of the derandomized entry points, implicit rejection recomputed
// independently as SHA3-256(PRF key || c), length and encoding errors, pk from sk, names.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "error.hpp"
#include "ntru/backend.hpp"
#include "ntru/ntru.hpp"
#include "ntru/owcpa.hpp"
#include "ntru/pack.hpp"
#include "ntru/sample.hpp"
#include "pqkem.hpp"
#include "test_util.hpp"

namespace pqkem::ntru::test {
namespace {

template <class F>
void expect_errc(F&& f, Errc want) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), want) << e.what();
  }
}

bool same(ByteView a, ByteView b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }

/// The rejection secret as the specification defines it: SHA3-256(PRF key || c), the PRF key
/// being the last 32 bytes of the secret key.
std::vector<std::uint8_t> rejection_secret(ByteView sk, ByteView c) {
  return sha3_256({sk.subspan(sk.size() - 32), c});
}

class NtruKem : public ::testing::TestWithParam<Scheme> {};

std::string scheme_name(const ::testing::TestParamInfo<Scheme>& p) { return std::string(scheme_info(p.param).name); }

INSTANTIATE_TEST_SUITE_P(All, NtruKem,
                         ::testing::Values(Scheme::NtruHps2048509, Scheme::NtruHps2048677, Scheme::NtruHps4096821,
                                           Scheme::NtruHrss701),
                         scheme_name);

TEST_P(NtruKem, RoundTrip) {
  const Scheme s = GetParam();
  const SchemeInfo& info = scheme_info(s);
  for (int i = 0; i < 3; ++i) {
    const KeyPair kp = keygen(s);
    ASSERT_EQ(kp.pk.size(), info.pk_bytes);
    ASSERT_EQ(kp.sk.size(), info.sk_bytes);
    const Encapsulation enc = encaps(s, kp.pk);
    ASSERT_EQ(enc.ct.size(), info.ct_bytes);
    ASSERT_EQ(enc.ss.size(), 32u);
    const SecretBytes ss = decaps(s, kp.sk, enc.ct);
    EXPECT_TRUE(same(ss, enc.ss));
    EXPECT_FALSE(same(ss, rejection_secret(kp.sk, enc.ct)));
  }
}

TEST_P(NtruKem, DerandomizedEntryPointsAreDeterministic) {
  const Scheme s = GetParam();
  const SchemeInfo& info = scheme_info(s);
  std::mt19937_64 rng(100);
  const auto kc = random_bytes(rng, info.keygen_coin_bytes());
  const auto ec = random_bytes(rng, info.encaps_coin_bytes());
  const KeyPair a = keygen_derand(s, kc), b = keygen_derand(s, kc);
  EXPECT_TRUE(same(a.pk, b.pk));
  EXPECT_TRUE(same(a.sk, b.sk));
  // The PRF key is the second draw, stored verbatim at the end of sk.
  EXPECT_TRUE(same(ByteView(a.sk).subspan(info.sk_bytes - 32), ByteView(kc).subspan(info.keygen_draws[0])));
  const Encapsulation e1 = encaps_derand(s, a.pk, ec), e2 = encaps_derand(s, a.pk, ec);
  EXPECT_TRUE(same(e1.ct, e2.ct));
  EXPECT_TRUE(same(e1.ss, e2.ss));
  EXPECT_TRUE(same(decaps(s, a.sk, e1.ct), e1.ss));
}

TEST_P(NtruKem, CorruptedCiphertextGivesImplicitRejectionSecret) {
  const Scheme s = GetParam();
  const KeyPair kp = keygen(s);
  const Encapsulation enc = encaps(s, kp.pk);
  std::mt19937_64 rng(101);
  std::vector<Bytes> bad;
  // Flip bit 7 of a byte: a coefficient moves by at least 2^5 (mod q). A valid ciphertext moved
  // by delta stays valid only if delta = Lift(m') - Lift(m) (coefficients within [-4, 4]); small
  // perturbations of an HRSS ciphertext can be valid ciphertexts of another m, so a +-1 or +-2
  // change would not be a reliable corruption.
  for (std::size_t pos : {std::size_t{0}, enc.ct.size() / 2, enc.ct.size() - 2}) {
    Bytes c = enc.ct;
    c[pos] ^= 0x80;
    bad.push_back(c);
  }
  bad.push_back(random_bytes(rng, enc.ct.size()));
  bad.back().back() &= 0x0F;  // canonical padding, still invalid
  for (const Bytes& c : bad) {
    const SecretBytes ss = decaps(s, kp.sk, c);  // not an error
    EXPECT_TRUE(same(ss, rejection_secret(kp.sk, c))) << "case " << (&c - bad.data());
    EXPECT_FALSE(same(ss, enc.ss));
  }
  // The zero ciphertext: HPS rejects it (m = 0 is not of fixed type); in HRSS it is the valid
  // encryption of (r, m) = (0, 0), whose key is SHA3-256 of the all-zero packed rm.
  const Bytes zero(enc.ct.size(), 0);
  const SecretBytes ss = decaps(s, kp.sk, zero);
  if (s == Scheme::NtruHrss701) {
    const Bytes rm(2 * ((701 - 1 + 4) / 5), 0);
    EXPECT_TRUE(same(ss, sha3_256({rm})));
  } else {
    EXPECT_TRUE(same(ss, rejection_secret(kp.sk, zero)));
  }
}

TEST_P(NtruKem, NonzeroPaddingBitsInCiphertextAreRejectedImplicitly) {
  const Scheme s = GetParam();
  const KeyPair kp = keygen(s);
  const Encapsulation enc = encaps(s, kp.pk);
  if (s == Scheme::NtruHps4096821)
    GTEST_SUCCEED() << "12 * 820 bits fill the last byte: no padding";
  else {
    Bytes c = enc.ct;
    c.back() |= 0x80;  // an unused bit: the decoded polynomial is unchanged
    const SecretBytes ss = decaps(s, kp.sk, c);
    EXPECT_TRUE(same(ss, rejection_secret(kp.sk, c)));
  }
}

TEST_P(NtruKem, WrongLengthsAreBadLength) {
  const Scheme s = GetParam();
  const SchemeInfo& info = scheme_info(s);
  const KeyPair kp = keygen(s);
  const Encapsulation enc = encaps(s, kp.pk);
  for (long delta : {-1L, 1L, -static_cast<long>(info.pk_bytes)}) {
    const Bytes pk(info.pk_bytes + delta), sk(info.sk_bytes + delta), ct(info.ct_bytes + delta);
    expect_errc([&] { (void)encaps(s, pk); }, Errc::bad_length);
    expect_errc([&] { check_public_key(s, pk); }, Errc::bad_length);
    expect_errc([&] { (void)decaps(s, sk, enc.ct); }, Errc::bad_length);
    expect_errc([&] { check_secret_key(s, sk); }, Errc::bad_length);
    expect_errc([&] { (void)public_key_from_secret_key(s, sk); }, Errc::bad_length);
    expect_errc([&] { (void)decaps(s, kp.sk, ct); }, Errc::bad_length);
  }
  expect_errc([&] { (void)keygen_derand(s, Bytes(info.keygen_coin_bytes() - 1)); }, Errc::bad_length);
  expect_errc([&] { (void)keygen_derand(s, Bytes(info.keygen_draws[0])); }, Errc::bad_length);
  expect_errc([&] { (void)encaps_derand(s, kp.pk, Bytes(info.encaps_coin_bytes() + 1)); }, Errc::bad_length);
}

TEST_P(NtruKem, NonCanonicalKeysAreRejected) {
  const Scheme s = GetParam();
  const KeyPair kp = keygen(s);
  check_public_key(s, kp.pk);
  check_secret_key(s, kp.sk);
  if (s != Scheme::NtruHps4096821) {
    Bytes pk = kp.pk;
    pk.back() |= 0x80;
    expect_errc([&] { (void)encaps(s, pk); }, Errc::invalid_encaps_key);
  }
  SecretBytes sk = kp.sk.clone();
  sk[0] = 243;  // five trits never exceed 242
  expect_errc([&] { (void)decaps(s, sk, encaps(s, kp.pk).ct); }, Errc::invalid_decaps_key);
}

TEST_P(NtruKem, PublicKeyFromSecretKey) {
  const Scheme s = GetParam();
  for (int i = 0; i < 2; ++i) {
    const KeyPair kp = keygen(s);
    EXPECT_TRUE(same(public_key_from_secret_key(s, kp.sk), kp.pk));
  }
}

TEST_P(NtruKem, SchemeTable) {
  const Scheme s = GetParam();
  const SchemeInfo& info = scheme_info(s);
  EXPECT_EQ(info.family, pqkem::Family::Ntru);
  EXPECT_EQ(info.seed_bytes, 0u);
  EXPECT_EQ(info.ss_bytes, 32u);
  EXPECT_EQ(info.keygen_draws[1], 32u);
  EXPECT_EQ(info.encaps_draws[1], 0u);
  EXPECT_EQ(parse_scheme(info.name), s);
  EXPECT_EQ(scheme_from_pk_size(info.pk_bytes), s);
  EXPECT_EQ(scheme_from_sk_size(info.sk_bytes), s);
  EXPECT_EQ(scheme_from_ct_size(info.ct_bytes), s);
}

TEST(NtruNames, AliasesAndSizes) {
  EXPECT_EQ(parse_scheme("NTRU-HPS-2048-509"), Scheme::NtruHps2048509);
  EXPECT_EQ(parse_scheme("ntru-hps-2048-677"), Scheme::NtruHps2048677);
  EXPECT_EQ(parse_scheme("ntruhps4096821"), Scheme::NtruHps4096821);
  EXPECT_EQ(parse_scheme("NTRU-HRSS-701"), Scheme::NtruHrss701);
  EXPECT_EQ(parse_scheme("ntru_hrss_701"), Scheme::NtruHrss701);
  EXPECT_EQ(parse_scheme("ntruhps2048821"), std::nullopt);
  EXPECT_EQ(parse_scheme("ntru"), std::nullopt);
  EXPECT_EQ(parse_scheme("ML-KEM-768"), Scheme::MlKem768);  // unchanged
  const struct {
    Scheme s;
    std::size_t pk, sk, ct, fg;
  } sizes[] = {{Scheme::NtruHps2048509, 699, 935, 699, 508 + 1905},
               {Scheme::NtruHps2048677, 930, 1234, 930, 676 + 2535},
               {Scheme::NtruHps4096821, 1230, 1590, 1230, 820 + 3075},
               {Scheme::NtruHrss701, 1138, 1450, 1138, 1400}};
  for (const auto& z : sizes) {
    const SchemeInfo& i = scheme_info(z.s);
    EXPECT_EQ(i.pk_bytes, z.pk);
    EXPECT_EQ(i.sk_bytes, z.sk);
    EXPECT_EQ(i.ct_bytes, z.ct);
    EXPECT_EQ(i.keygen_draws[0], z.fg);
    EXPECT_EQ(i.encaps_draws[0], z.fg);  // Sample_rm uses as many bytes as Sample_fg
  }
}

// OW-CPA decryption checks, on ciphertexts built with owcpa_enc from messages outside the
// message space: the KEM must fall back to the rejection secret.
template <class P>
class NtruOwcpa : public ::testing::Test {};
TYPED_TEST_SUITE(NtruOwcpa, AllParams, ParamsName);

TYPED_TEST(NtruOwcpa, MessagesOutsideTheMessageSpaceAreRejected) {
  using P = TypeParam;
  std::mt19937_64 rng(102);
  using K = Kem<P, RefBackend>;
  const auto coins_kg = random_bytes(rng, K::keygen_coin_bytes);  // seed || PRF key
  std::vector<std::uint8_t> pk(P::pk_bytes), sk(P::sk_bytes);
  K::keygen_derand(std::span<const std::uint8_t, K::keygen_coin_bytes>(coins_kg.data(), coins_kg.size()),
                   std::span<std::uint8_t, P::pk_bytes>(pk), std::span<std::uint8_t, P::sk_bytes>(sk));
  const auto coins = random_bytes(rng, P::sample_rm_bytes);
  Poly<P> r, m;
  sample_rm<P, RefBackend>(r, m, std::span<const std::uint8_t, P::sample_rm_bytes>(coins.data(), coins.size()));

  auto decaps_of = [&](const Poly<P>& rr, const Poly<P>& mm, std::vector<std::uint8_t>& c) {
    c.assign(P::ct_bytes, 0);
    Poly<P> rq;
    poly_z3_to_zq_ref(rq, rr);
    owcpa_enc<P, RefBackend>(std::span<std::uint8_t, P::ct_bytes>(c), rq, mm,
                             std::span<const std::uint8_t, P::pk_bytes>(pk));
    std::vector<std::uint8_t> ss(32);
    K::decaps(std::span<const std::uint8_t, P::sk_bytes>(sk), std::span<const std::uint8_t, P::ct_bytes>(c),
              std::span<std::uint8_t, 32>(ss));
    return ss;
  };
  std::vector<std::uint8_t> c;
  {  // In the message space: decapsulates to SHA3-256(pack_S3(r) || pack_S3(m)).
    const auto ss = decaps_of(r, m, c);
    std::vector<std::uint8_t> rm(P::owcpa_msg_bytes);
    poly_s3_tobytes_ref<P>(std::span<std::uint8_t, P::pack_trinary_bytes>(rm.data(), P::pack_trinary_bytes), r);
    poly_s3_tobytes_ref<P>(
        std::span<std::uint8_t, P::pack_trinary_bytes>(rm.data() + P::pack_trinary_bytes, P::pack_trinary_bytes), m);
    EXPECT_EQ(ss, sha3_256({rm}));
  }
  if constexpr (P::hps) {  // m not of fixed type (one extra nonzero coefficient)
    Poly<P> m2 = m;
    for (std::size_t i = 0; i + 1 < P::n; ++i)
      if (m2.c[i] == 0) {
        m2.c[i] = 1;
        break;
      }
    const auto ss = decaps_of(r, m2, c);
    EXPECT_EQ(ss, rejection_secret(sk, c));
  }
  {  // r with a nonzero coefficient n - 1 (not in the message space)
    Poly<P> r2 = r;
    r2.c[P::n - 1] = 1;
    const auto ss = decaps_of(r2, m, c);
    EXPECT_EQ(ss, rejection_secret(sk, c));
  }
}

}  // namespace
}  // namespace pqkem::ntru::test
