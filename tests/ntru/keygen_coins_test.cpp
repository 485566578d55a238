// NTRU key generation refuses the coins for which no key pair exists. Sample_fg's f and g are
// trinary with f_{n-1} = g_{n-1} = 0; when f = 0 or g = 0, f has no inverse mod (3, Phi_n) or
// g f none mod (2, Phi_n), and the key owcpa_keypair writes fails the pairwise consistency check
// (keyfile::private_key_from_expanded's and pqkem info's: encapsulate, decapsulate, compare).
//
// The oracle is that check itself, run on the keys keygen would write without its refusal
// (owcpa_keypair called directly): for the 256 constant-byte coins it must fail exactly for the
// bytes b = 0 mod 3 (Sample_iid maps a byte to b mod 3, so those give f = 0), and keygen_derand
// must refuse exactly those coins, on every backend this CPU runs, and accept the rest with keys
// that pass it. Crafted coins probe the edge (f = 0 or, for HRSS, g = 0 with the other random;
// f and g of weight one), and random coins must always be accepted. Under an emulator (a cross
// build) every fifth constant byte and an eighth of the random coins are tried (trials.hpp).
// ctest names these tests ntru.KeygenCoins.* (tests/ntru/CMakeLists.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "error.hpp"
#include "ntru/backend.hpp"
#include "ntru/owcpa.hpp"
#include "pqkem.hpp"
#include "simd/dispatch.hpp"
#include "test_util.hpp"
#include "trials.hpp"

namespace pqkem::ntru::test {
namespace {

template <class P>
Scheme scheme_of() {
  if constexpr (P::hrss) return Scheme::NtruHrss701;
  if constexpr (P::n == 509) return Scheme::NtruHps2048509;
  if constexpr (P::n == 677) return Scheme::NtruHps2048677;
  return Scheme::NtruHps4096821;
}

bool same(ByteView a, ByteView b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }

/// The backends this CPU runs, each selected in turn with simd::set_impl.
std::vector<simd::Impl> usable_impls() {
  std::vector<simd::Impl> out;
  for (simd::Impl i : {simd::Impl::portable, simd::Impl::avx2, simd::Impl::avx512})
    if (simd::impl_usable(i)) out.push_back(i);
  return out;
}

/// Restores the backend in use before (PQKEM_IMPL's choice, say) when a test ends, however it
/// ends, so that the tests run after it in this process keep it.
class RestoreImplOnExit {
public:
  RestoreImplOnExit() = default;
  RestoreImplOnExit(const RestoreImplOnExit&) = delete;
  RestoreImplOnExit& operator=(const RestoreImplOnExit&) = delete;
  ~RestoreImplOnExit() { simd::set_impl(m_impl); }

private:
  simd::Impl m_impl = simd::active_impl();
};

/// The pairwise consistency check of keyfile::private_key_from_expanded, on fixed coins: what
/// encapsulates to pk decapsulates with sk. A key the API refuses to use fails it too.
bool pairwise_ok(Scheme s, const KeyPair& kp, ByteView encaps_coins) {
  try {
    const Encapsulation e = encaps_derand(s, kp.pk, encaps_coins);
    return same(decaps(s, kp.sk, e.ct), e.ss);
  } catch (const Error&) {
    return false;
  }
}

/// The key pair keygen_derand(coins) would return if it refused nothing: owcpa_keypair's output
/// (portable kernels; the backends agree bit for bit, ntru_avx2_test.cpp) and the PRF key.
template <class P>
KeyPair unchecked_keypair(ByteView coins) {
  KeyPair kp{Bytes(P::pk_bytes), SecretBytes(P::sk_bytes)};
  const std::span<const std::uint8_t, P::sample_fg_bytes> seed(coins.data(), P::sample_fg_bytes);
  (void)owcpa_keypair<P, RefBackend>(std::span<std::uint8_t, P::owcpa_pk_bytes>(kp.pk.data(), P::owcpa_pk_bytes),
                                     std::span<std::uint8_t, P::owcpa_sk_bytes>(kp.sk.data(), P::owcpa_sk_bytes), seed);
  std::copy(coins.begin() + P::sample_fg_bytes, coins.end(), kp.sk.data() + P::owcpa_sk_bytes);
  return kp;
}

/// What keygen_derand did with the coins under the active backend.
enum class Outcome { accepted_consistent, accepted_inconsistent, refused, other_error };

Outcome keygen_outcome(Scheme s, ByteView coins, ByteView encaps_coins) {
  try {
    const KeyPair kp = keygen_derand(s, coins);
    return pairwise_ok(s, kp, encaps_coins) ? Outcome::accepted_consistent : Outcome::accepted_inconsistent;
  } catch (const Error& e) {
    return e.code() == Errc::bad_argument ? Outcome::refused : Outcome::other_error;
  }
}

std::string outcome_name(Outcome o) {
  switch (o) {
    case Outcome::accepted_consistent: return "accepted, passes the pairwise check";
    case Outcome::accepted_inconsistent: return "accepted, FAILS the pairwise check";
    case Outcome::refused: return "refused (bad_argument)";
    case Outcome::other_error: return "another error";
  }
  return "?";
}

/// Random coins for keygen_derand's uses: the keygen and encaps coin lengths of P.
template <class P>
Bytes random_coins(std::mt19937_64& rng, bool keygen) {
  return random_bytes(rng, keygen ? P::sample_fg_bytes + P::prf_key_bytes : P::sample_rm_bytes);
}

/// How many random coins RandomCoinsAreAccepted tries per backend: PQKEM_TEST_KEYGEN_COINS
/// (for a long run), else 256 (32 under an emulator, trials.hpp).
int random_trials() {
  const char* v = std::getenv("PQKEM_TEST_KEYGEN_COINS");
  return v != nullptr && std::atoi(v) > 0 ? std::atoi(v) : pqkem::test::trials(256);
}

/// The constant bytes ConstantCoinsAreRefused tries: all 256, or under an emulator every fifth
/// (0, 5, ..., 255: both kinds of byte mod 3, and the two ends).
constexpr int kConstantStep = pqkem::test::kEmulated ? 5 : 1;

template <class P>
class KeygenCoins : public ::testing::Test {};
TYPED_TEST_SUITE(KeygenCoins, AllParams, ParamsName);

TYPED_TEST(KeygenCoins, ConstantCoinsAreRefusedExactlyWhenTheKeyFailsThePairwiseCheck) {
  using P = TypeParam;
  const Scheme s = scheme_of<P>();
  std::mt19937_64 rng(300);
  const Bytes ec = random_coins<P>(rng, false);
  RestoreImplOnExit restore;

  // The oracle, on keys made without the refusal: which constant coins give no key.
  std::vector<bool> broken(256);
  int n_broken = 0, n_zero_mod_3 = 0;
  for (int b = 0; b < 256; b += kConstantStep) {
    const Bytes coins(P::sample_fg_bytes + P::prf_key_bytes, static_cast<std::uint8_t>(b));
    broken[b] = !pairwise_ok(s, unchecked_keypair<P>(coins), ec);
    n_broken += broken[b] ? 1 : 0;
    n_zero_mod_3 += b % 3 == 0 ? 1 : 0;
    EXPECT_EQ(broken[b], b % 3 == 0) << "byte " << b;
  }
  EXPECT_EQ(n_broken, n_zero_mod_3);
  if (kConstantStep == 1) {
    EXPECT_EQ(n_broken, 86);  // 0, 3, ..., 255
  }

  for (simd::Impl impl : usable_impls()) {
    simd::set_impl(impl);
    int refused = 0;
    std::string wrong;  // the bytes keygen_derand got wrong, with what it did
    for (int b = 0; b < 256; b += kConstantStep) {
      const Bytes coins(P::sample_fg_bytes + P::prf_key_bytes, static_cast<std::uint8_t>(b));
      const Outcome got = keygen_outcome(s, coins, ec);
      const Outcome want = broken[b] ? Outcome::refused : Outcome::accepted_consistent;
      if (got != want) {
        wrong += ' ';
        wrong += std::to_string(b);
        wrong += ": ";
        wrong += outcome_name(got);
        wrong += ';';
      }
      refused += got == Outcome::refused ? 1 : 0;
    }
    EXPECT_EQ(wrong, "") << simd::impl_name(impl) << ": the constant bytes keygen_derand handled wrongly";
    EXPECT_EQ(refused, n_broken) << simd::impl_name(impl);
  }
}

TYPED_TEST(KeygenCoins, ZeroFOrGIsRefusedAndWeightOneIsAccepted) {
  using P = TypeParam;
  const Scheme s = scheme_of<P>();
  std::mt19937_64 rng(301);
  const Bytes ec = random_coins<P>(rng, false);
  RestoreImplOnExit restore;
  constexpr std::size_t iid = P::sample_iid_bytes;
  // Bytes that Sample_iid maps to 0 (b = 0 mod 3), and to a nonzero trit.
  const auto zero_trit = [&] { return static_cast<std::uint8_t>(3 * (rng() % 86)); };
  const auto nonzero_trit = [&] { return static_cast<std::uint8_t>(3 * (rng() % 85) + 1 + rng() % 2); };

  struct Case {
    std::string what;
    Bytes coins;
    bool has_key;
  };
  std::vector<Case> cases;
  for (int i = 0; i < 4; ++i) {
    Bytes f_zero = random_coins<P>(rng, true);  // f's bytes first (Sample_fg)
    for (std::size_t j = 0; j < iid; ++j) f_zero[j] = zero_trit();
    Bytes f_one = f_zero;
    f_one[rng() % iid] = nonzero_trit();
    cases.push_back({"f = 0", f_zero, false});
    cases.push_back({"f of weight one", f_one, true});
    if constexpr (P::hrss) {  // g's bytes follow f's (HPS: g has fixed type, never 0)
      Bytes g_zero = random_coins<P>(rng, true);
      for (std::size_t j = iid; j < 2 * iid; ++j) g_zero[j] = zero_trit();
      Bytes g_one = g_zero;
      g_one[iid + rng() % iid] = nonzero_trit();
      Bytes both_one = g_one;
      for (std::size_t j = 0; j < iid; ++j) both_one[j] = f_one[j];
      cases.push_back({"g = 0", g_zero, false});
      cases.push_back({"g of weight one", g_one, true});
      cases.push_back({"f and g of weight one", both_one, true});
    }
  }
  for (const Case& c : cases) {
    ASSERT_EQ(pairwise_ok(s, unchecked_keypair<P>(c.coins), ec), c.has_key) << c.what << " (oracle)";
    for (simd::Impl impl : usable_impls()) {
      simd::set_impl(impl);
      const Outcome want = c.has_key ? Outcome::accepted_consistent : Outcome::refused;
      EXPECT_EQ(outcome_name(keygen_outcome(s, c.coins, ec)), outcome_name(want))
          << simd::impl_name(impl) << ", " << c.what;
    }
  }
}

TYPED_TEST(KeygenCoins, RandomCoinsAreAcceptedAndTheirKeysPassThePairwiseCheck) {
  using P = TypeParam;
  const Scheme s = scheme_of<P>();
  std::mt19937_64 rng(302);
  RestoreImplOnExit restore;
  const int trials = random_trials();
  for (simd::Impl impl : usable_impls()) {
    simd::set_impl(impl);
    int good = 0;
    for (int i = 0; i < trials; ++i) {
      const Bytes kc = random_coins<P>(rng, true), ec = random_coins<P>(rng, false);
      good += keygen_outcome(s, kc, ec) == Outcome::accepted_consistent ? 1 : 0;
    }
    EXPECT_EQ(good, trials) << simd::impl_name(impl);
    // keygen (coins from the random source, expanded) goes through the same refusal.
    const KeyPair kp = keygen(s);
    EXPECT_TRUE(pairwise_ok(s, kp, random_coins<P>(rng, false))) << simd::impl_name(impl);
  }
}

TYPED_TEST(KeygenCoins, TheRefusalNamesTheSchemeAndNothingOfTheCoins) {
  using P = TypeParam;
  const Scheme s = scheme_of<P>();
  std::vector<std::string> messages;
  for (const std::uint8_t b : {std::uint8_t{0}, std::uint8_t{3}, std::uint8_t{129}, std::uint8_t{255}}) {
    try {
      (void)keygen_derand(s, Bytes(P::sample_fg_bytes + P::prf_key_bytes, b));
      ADD_FAILURE() << "byte " << int{b} << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), Errc::bad_argument);
      messages.emplace_back(e.what());
    }
  }
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.front().rfind(std::string(scheme_info(s).name) + " ", 0), 0u) << messages.front();
  for (const std::string& m : messages) EXPECT_EQ(m, messages.front());  // the verdict only
}

}  // namespace
}  // namespace pqkem::ntru::test
