// ML-KEM under each implementation: which SIMD backend is usable and chosen on this CPU, the
// upper vector state every operation leaves clean, and the whole KEM once per implementation,
// byte for byte. The kernels themselves are compared with their portable twins in
// simd_ntt_test.cpp, simd_encoding_test.cpp and simd_sampling_test.cpp, the Keccak ones in
// tests/keccak/keccak_simd_test.cpp.
//
// On a CPU with AVX2, BMI1, BMI2, POPCNT and PCLMULQDQ the AVX2 kernels must be compiled in, usable and
// selected: anything else FAILS (never skips). On a CPU without them the tests check that
// dispatch falls back to the portable code. The AVX-512 tests skip, saying so, on a CPU without
// the AVX-512 features the backend needs (F, VL, BW, DQ, VBMI, VBMI2).
#include <gtest/gtest.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "pqkem.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"
#include "simd_fixture.hpp"

namespace pqkem::mlkem {
namespace {

TEST(MlKemAvx2, UsableWheneverTheCpuHasAvx2) {
  if (cpu_has_avx2()) {
    EXPECT_TRUE(PQKEM_HAVE_AVX2) << "the CPU has AVX2 but this build has no ML-KEM AVX2 kernels";
    EXPECT_TRUE(simd::impl_usable(simd::Impl::avx2)) << simd::impl_unusable_reason(simd::Impl::avx2);
    EXPECT_NE(simd::best_impl(), simd::Impl::portable);
  } else {
    EXPECT_FALSE(simd::impl_usable(simd::Impl::avx2));
    EXPECT_EQ(simd::best_impl(), simd::Impl::portable);
    EXPECT_EQ(simd::active_impl(), simd::Impl::portable);
  }
}

// A build may leave the AVX-512 kernels out (PQKEM_ENABLE_AVX512=OFF): then the backend is never
// usable, whatever the CPU. Otherwise it is usable exactly where the CPU has what it needs.
TEST(MlKemAvx512, UsableExactlyWhenTheCpuHasTheFeatures) {
  if (!PQKEM_X86_64) {  // another architecture: the reason names it
    for (const auto impl : {simd::Impl::avx2, simd::Impl::avx512}) {
      EXPECT_FALSE(simd::impl_usable(impl));
      const std::string why(simd::impl_unusable_reason(impl));
      EXPECT_NE(why.find("is an x86-64 instruction set; this CPU is " + std::string(simd::cpu_architecture())),
                std::string::npos)
          << why;
      EXPECT_THROW(simd::set_impl(impl), Error);
    }
    EXPECT_NE(simd::cpu_architecture(), "unknown");
  } else if (!PQKEM_HAVE_AVX512) {
    EXPECT_FALSE(simd::impl_usable(simd::Impl::avx512));
    EXPECT_EQ(simd::impl_unusable_reason(simd::Impl::avx512), "this build has no AVX-512 kernels");
    EXPECT_THROW(simd::set_impl(simd::Impl::avx512), Error);
  } else if (cpu_has_avx512()) {
    EXPECT_TRUE(simd::impl_usable(simd::Impl::avx512)) << simd::impl_unusable_reason(simd::Impl::avx512);
    // The automatic choice takes it on the families it was measured faster on (AMD Zen 4, Zen 5).
    const unsigned fam = simd::cpu_features().amd_family;
    EXPECT_EQ(simd::best_impl(), fam == 0x19 || fam == 0x1a ? simd::Impl::avx512 : simd::Impl::avx2);
  } else {
    EXPECT_FALSE(simd::impl_usable(simd::Impl::avx512));
    EXPECT_THROW(simd::set_impl(simd::Impl::avx512), Error);
    EXPECT_NE(simd::best_impl(), simd::Impl::avx512);
  }
}

/// The SIMD implementations this CPU can run, for the tests that compare each with the portable one.
std::vector<simd::Impl> simd_impls() {
  std::vector<simd::Impl> v;
  for (const auto impl : {simd::Impl::avx2, simd::Impl::avx512})
    if (simd::impl_usable(impl)) v.push_back(impl);
  return v;
}

#if defined(__x86_64__)  // XGETBV and the vector registers are x86-64's
// Every operation of the AVX2 implementation, ML-KEM and NTRU, returns with the upper halves of
// the YMM registers clean (vzeroupper): otherwise the caller's SSE code (the portable paths, libc)
// runs slower until something clears them. XGETBV with ECX = 1 reports which state components
// are in use; bit 2 is the AVX (upper YMM) state.
bool xinuse_readable() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid_count(0xD, 1, &a, &b, &c, &d) != 0 && (a & 4) != 0;
}
std::uint64_t xinuse() {
  std::uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
  return (std::uint64_t{hi} << 32) | lo;
}
void clear_upper() { __asm__ volatile("vzeroupper" ::: "memory"); }

// The AVX-512 implementation likewise for the upper halves of ZMM0-15 (bit 6, ZMM_Hi256), which
// vzeroupper clears too. (ZMM16-31, bit 7, are out of reach of SSE code and cost it nothing.)
TEST(Avx2State, OperationsReturnWithTheUpperYmmStateClean) {
  if (!cpu_has_avx2()) GTEST_SKIP() << "this CPU has no AVX2: no AVX2 code to check";
  if (!xinuse_readable()) GTEST_SKIP() << "this CPU has no XGETBV with ECX = 1 (XINUSE), which the check reads";
  for (const simd::Impl impl : simd_impls()) {
    simd::set_impl(impl);
    const std::string name(simd::impl_name(impl));
    constexpr std::uint64_t kUpper = 4 | 64;  // AVX (YMM upper halves), ZMM_Hi256
    for (const SchemeInfo& info : all_schemes()) {
      for (int trial = 0; trial < 8; ++trial) {
        clear_upper();
        const KeyPair kp = keygen(info.scheme);
        EXPECT_EQ(xinuse() & kUpper, 0u) << name << ": " << info.name << " keygen left the upper state dirty";
        clear_upper();
        const Encapsulation e = encaps(info.scheme, kp.pk);
        EXPECT_EQ(xinuse() & kUpper, 0u) << name << ": " << info.name << " encaps left the upper state dirty";
        clear_upper();
        const SecretBytes ss = decaps(info.scheme, kp.sk, e.ct);
        EXPECT_EQ(xinuse() & kUpper, 0u) << name << ": " << info.name << " decaps left the upper state dirty";
        ASSERT_TRUE(std::equal(ss.view().begin(), ss.view().end(), e.ss.view().begin()));
      }
    }
  }
  simd::set_impl_auto();
}
#endif

// The whole KEM under both implementations: identical keys, ciphertexts and shared secrets
// (also for implicit rejection and for the key checks). Runs everywhere; on a CPU without AVX2
// it checks that asking for AVX2 fails and the operations run (portable).
class KemBothImpls : public ::testing::TestWithParam<Scheme> {
protected:
  void TearDown() override { simd::set_impl_auto(); }
};

TEST_P(KemBothImpls, SameBytesUnderEveryImplementation) {
  const Scheme s = GetParam();
  const SchemeInfo& info = scheme_info(s);
  if (!cpu_has_avx2()) {
    EXPECT_THROW(simd::set_impl(simd::Impl::avx2), Error);
    return;
  }
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    Bytes kc(64), ec(32);
    for (auto& b : kc) b = static_cast<std::uint8_t>(rng());
    for (auto& b : ec) b = static_cast<std::uint8_t>(rng());
    simd::set_impl(simd::Impl::portable);
    ASSERT_EQ(simd::active_impl(), simd::Impl::portable);
    const KeyPair kp = keygen_derand(s, kc);
    const Encapsulation e = encaps_derand(s, kp.pk, ec);
    Bytes bad_ct = e.ct;
    bad_ct[static_cast<std::size_t>(rng() % bad_ct.size())] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
    const SecretBytes ss = decaps(s, kp.sk, e.ct);
    const SecretBytes ss_bad = decaps(s, kp.sk, bad_ct);

    for (const simd::Impl impl : simd_impls()) {
      simd::set_impl(impl);
      ASSERT_EQ(simd::active_impl(), impl);
      const std::string where =
          std::string(info.name) + " " + std::string(simd::impl_name(impl)) + " trial " + std::to_string(trial);
      const KeyPair kp2 = keygen_derand(s, kc);
      ASSERT_EQ(kp2.pk, kp.pk) << where;
      ASSERT_TRUE(std::equal(kp2.sk.data(), kp2.sk.data() + kp2.sk.size(), kp.sk.data())) << where;
      const Encapsulation e2 = encaps_derand(s, kp.pk, ec);
      ASSERT_EQ(e2.ct, e.ct) << where;
      ASSERT_TRUE(std::equal(e2.ss.data(), e2.ss.data() + 32, e.ss.data())) << where;
      const SecretBytes ss2 = decaps(s, kp.sk, e.ct);
      ASSERT_TRUE(std::equal(ss2.data(), ss2.data() + 32, ss.data())) << where;
      ASSERT_TRUE(std::equal(ss2.data(), ss2.data() + 32, e.ss.data())) << where;
      const SecretBytes ss2_bad = decaps(s, kp.sk, bad_ct);
      ASSERT_TRUE(std::equal(ss2_bad.data(), ss2_bad.data() + 32, ss_bad.data())) << where;
    }

    // The modulus check of ek: an unreduced coefficient (q or 4095) anywhere is refused by both.
    Bytes bad_pk = kp.pk;
    const std::size_t at = 3 * static_cast<std::size_t>(rng() % (info.pk_bytes / 3 - 11));
    const int v = (trial & 1) ? kQ : 4095;
    bad_pk[at] = static_cast<std::uint8_t>(v & 0xFF);
    bad_pk[at + 1] = static_cast<std::uint8_t>((bad_pk[at + 1] & 0xF0) | (v >> 8));
    std::vector<simd::Impl> impls = simd_impls();
    impls.push_back(simd::Impl::portable);
    for (const auto impl : impls) {
      simd::set_impl(impl);
      EXPECT_THROW(check_public_key(s, bad_pk), Error);
      EXPECT_NO_THROW(check_public_key(s, kp.pk));
      SecretBytes bad_sk = kp.sk.clone();
      bad_sk[info.sk_bytes - 40] ^= 1;  // inside H(ek)
      EXPECT_THROW(check_secret_key(s, bad_sk), Error);
      EXPECT_NO_THROW(check_secret_key(s, kp.sk));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllMlKem, KemBothImpls,
                         ::testing::Values(Scheme::MlKem512, Scheme::MlKem768, Scheme::MlKem1024),
                         [](const auto& param_info) {
                           return std::string(scheme_info(param_info.param).name).substr(7);
                         });

#if !PQKEM_HAVE_AVX2
TEST(MlKemAvx2, BuildWithoutKernelsFallsBackToPortable) {
  EXPECT_FALSE(cpu_has_avx2()) << "the CPU has AVX2 but this build has no ML-KEM AVX2 kernels";
  EXPECT_FALSE(simd::impl_usable(simd::Impl::avx2));
  EXPECT_EQ(simd::active_impl(), simd::Impl::portable);
}
#endif  // !PQKEM_HAVE_AVX2

}  // namespace
}  // namespace pqkem::mlkem
