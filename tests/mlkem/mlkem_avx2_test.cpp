// ML-KEM AVX2 and AVX-512 kernels against their portable twins (lib/mlkem), the 4-, 8- and 1-way
// Keccak against the portable sponges and OpenSSL, and the whole KEM once per implementation,
// byte for byte.
//
// On a CPU with AVX2, BMI1, BMI2, POPCNT and PCLMULQDQ the AVX2 kernels must be compiled in, usable and
// selected: anything else FAILS (never skips). On a CPU without them the tests check that
// dispatch falls back to the portable code. The AVX-512 tests skip, saying so, on a CPU without
// the AVX-512 features the backend needs (F, VL, BW, DQ, VBMI, VBMI2).
#include <cpuid.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "hash.hpp"
#include "mlkem/backend.hpp"
#include "mlkem/encoding.hpp"
#include "mlkem/ntt.hpp"
#include "mlkem/sampling.hpp"
#include "pqkem.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"

#ifndef PQKEM_HAVE_AVX2
#define PQKEM_HAVE_AVX2 0
#endif
#ifndef PQKEM_HAVE_AVX512
#define PQKEM_HAVE_AVX512 0
#endif

namespace pqkem::mlkem {
namespace {

bool cpu_has_avx2() {
  const auto& f = simd::cpu_features();
  return f.avx2 && f.bmi1 && f.bmi2 && f.popcnt && f.pclmul;
}

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

bool cpu_has_avx512() {
  const auto& f = simd::cpu_features();
  return cpu_has_avx2() && f.avx512f && f.avx512vl && f.avx512bw && f.avx512dq && f.avx512vbmi && f.avx512vbmi2;
}

// A build may leave the AVX-512 kernels out (PQKEM_ENABLE_AVX512=OFF): then the backend is never
// usable, whatever the CPU. Otherwise it is usable exactly where the CPU has what it needs.
TEST(MlKemAvx512, UsableExactlyWhenTheCpuHasTheFeatures) {
  if (!PQKEM_HAVE_AVX512) {
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
      const std::string where = std::string(info.name) + " " + std::string(simd::impl_name(impl)) + " trial " +
                                std::to_string(trial);
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
                         [](const auto& param_info) { return std::string(scheme_info(param_info.param).name).substr(7); });

#if PQKEM_HAVE_AVX2
namespace av = simd::avx2;
using Arr = std::array<std::int16_t, kN>;

class Avx2Kernel : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(cpu_has_avx2()) << "no AVX2 on this CPU: the kernel tests cannot run the AVX2 code";
    ASSERT_TRUE(simd::impl_usable(simd::Impl::avx2)) << simd::impl_unusable_reason(simd::Impl::avx2);
  }
  std::mt19937_64 rng{12345};

  Arr random_coeffs(int bound) {  // |c| < bound
    Arr a;
    for (auto& x : a) x = static_cast<std::int16_t>(static_cast<int>(rng() % (2 * bound - 1)) - (bound - 1));
    return a;
  }
  std::vector<Arr> inputs(int bound) {  // random ones, then extremes
    std::vector<Arr> v;
    for (int i = 0; i < 200; ++i) v.push_back(random_coeffs(bound));
    for (const int c : {0, 1, -1, bound - 1, -(bound - 1)}) {
      Arr a;
      a.fill(static_cast<std::int16_t>(c));
      v.push_back(a);
    }
    Arr alt;
    for (int i = 0; i < kN; ++i) alt[i] = static_cast<std::int16_t>((i & 1) ? bound - 1 : -(bound - 1));
    v.push_back(alt);
    return v;
  }
  std::vector<std::uint8_t> random_bytes(std::size_t n) {
    std::vector<std::uint8_t> b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return b;
  }
};

Arr transposed(Arr a) {
  av::mlkem_transpose_avx2(a.data());
  return a;
}

TEST_F(Avx2Kernel, TransposeIsTheDocumentedOrder) {
  Arr a;
  for (int i = 0; i < kN; ++i) a[i] = static_cast<std::int16_t>(i);
  const Arr t = transposed(a);
  for (int i = 0; i < 16; ++i)
    for (int l = 0; l < 16; ++l) ASSERT_EQ(t[16 * l + i], 16 * i + l);
  EXPECT_EQ(transposed(t), a);
}

TEST_F(Avx2Kernel, NttMatchesPortable) {
  for (const Arr& in : inputs(kQ)) {
    const NttPoly want = ntt_ref(Poly{in}, current_ntt_plan());
    Arr got = in;
    av::mlkem_ntt_avx2(got.data());
    ASSERT_EQ(transposed(got), want.c);
    for (auto x : got) ASSERT_LE(std::abs(x), (kQ - 1) / 2);
  }
}

TEST_F(Avx2Kernel, InverseNttMatchesPortable) {
  for (const Arr& in : inputs(kQ)) {
    const Poly want = inverse_ntt_ref(NttPoly{in}, current_ntt_plan());
    Arr got = transposed(in);
    av::mlkem_inverse_ntt_avx2(got.data());
    ASSERT_EQ(got, want.c);
    for (auto x : got) ASSERT_LT(std::abs(x), kQ);
  }
}

/// An inner-product kernel (AVX2 order) against RefBackend::inner_product for k = 1..4, on
/// operands taken from `in` around index t.
void check_inner_product(void (*kernel)(std::int16_t*, const std::int16_t*, const std::int16_t*, int) noexcept,
                         const std::vector<Arr>& in, std::size_t t) {
  for (int k = 1; k <= 4; ++k) {
    NttPoly a[4], b[4];
    Arr at[4], bt[4];
    for (int j = 0; j < k; ++j) {
      a[j].c = in[(t + j) % in.size()];
      b[j].c = in[(t + 2 * j + 1) % in.size()];
      at[j] = transposed(a[j].c);
      bt[j] = transposed(b[j].c);
    }
    NttPoly want;
    RefBackend::inner_product(want, a, b, k);
    Arr got;
    kernel(got.data(), at[0].data(), bt[0].data(), k);
    ASSERT_EQ(transposed(got), want.c) << "input " << t << ", k = " << k;
  }
}

TEST_F(Avx2Kernel, BasemulAndInnerProductMatchPortable) {
  const auto in = inputs(kQ);
  for (std::size_t t = 0; t + 4 < in.size(); ++t) {
    // accumulate onto a nonzero r, as multiply_ntts_acc_ref allows
    NttPoly r_ref{random_coeffs(2 * kQ)};
    Arr r = transposed(r_ref.c);
    multiply_ntts_acc_ref(r_ref, NttPoly{in[t]}, NttPoly{in[t + 1]});
    av::mlkem_basemul_acc_avx2(r.data(), transposed(in[t]).data(), transposed(in[t + 1]).data());
    ASSERT_EQ(transposed(r), r_ref.c);

    check_inner_product(av::mlkem_inner_product_avx2, in, t);
  }
}

TEST_F(Avx2Kernel, ReductionsMatchPortable) {
  for (int t = 0; t < 300; ++t) {
    Arr a = random_coeffs(t < 100 ? 32768 : kQ), e = random_coeffs(kQ);
    if (t == 0) a.fill(-32768);
    if (t == 1) a.fill(32767);
    Arr r = a;
    av::mlkem_reduce_avx2(r.data());
    for (int i = 0; i < kN; ++i) ASSERT_EQ(r[i], barrett_reduce(a[i]));

    const Arr half = random_coeffs((kQ + 1) / 2);
    NttPoly want{half};
    RefBackend::tomont_add_reduce(want, NttPoly{e});
    Arr got = half;
    av::mlkem_tomont_add_reduce_avx2(got.data(), e.data());
    ASSERT_EQ(got, want.c);

    const Arr x = random_coeffs(kQ), y = random_coeffs(kQ), z = random_coeffs(kQ);
    Poly p{x};
    RefBackend::add_reduce(p, Poly{y}, t & 1 ? nullptr : &static_cast<const Poly&>(Poly{z}));
    Arr q = x;
    av::mlkem_add_reduce_avx2(q.data(), y.data(), t & 1 ? nullptr : z.data());
    ASSERT_EQ(q, p.c);

    Poly s{x};
    RefBackend::sub_reduce(s, Poly{y});
    Arr u = x;
    av::mlkem_sub_reduce_avx2(u.data(), y.data());
    ASSERT_EQ(u, s.c);
  }
}

template <int D>
void check_compress_encode(Avx2Kernel& self, const Arr& a) {
  (void)self;
  std::array<std::uint8_t, 32 * D> want{};
  RefBackend::compress_encode<D>(Poly{a}, want);
  std::vector<std::uint8_t> got(32 * D);  // exactly: ASan catches a write past it
  av::mlkem_compress_encode_avx2(got.data(), a.data(), D);
  ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << "d = " << D;
}

template <int D>
void check_decode_decompress(const std::vector<std::uint8_t>& bytes) {
  // Exactly 32 D bytes on the heap, so that ASan catches a read past them.
  const std::vector<std::uint8_t> exact(bytes.begin(), bytes.begin() + 32 * D);
  const auto in = std::span<const std::uint8_t, 32 * D>(exact.data(), 32 * D);
  const Poly want = RefBackend::decode_decompress<D>(in);
  Arr got;
  av::mlkem_decode_decompress_avx2(got.data(), exact.data(), D);
  ASSERT_EQ(got, want.c) << "d = " << D;
}

TEST_F(Avx2Kernel, CompressEncodeMatchesPortableOnEveryValue) {
  // Every representative in (-q, q) appears at every position of some polynomial.
  std::vector<Arr> polys;
  for (int start = -(kQ - 1); start < kQ; start += kN) {
    Arr a;
    for (int i = 0; i < kN; ++i) a[i] = static_cast<std::int16_t>(std::min(start + i, kQ - 1));
    polys.push_back(a);
    std::rotate(a.begin(), a.begin() + 77, a.end());
    polys.push_back(a);
  }
  for (const Arr& a : inputs(kQ)) polys.push_back(a);
  for (const Arr& a : polys) {
    check_compress_encode<1>(*this, a);
    check_compress_encode<4>(*this, a);
    check_compress_encode<5>(*this, a);
    check_compress_encode<10>(*this, a);
    check_compress_encode<11>(*this, a);
  }
}

TEST_F(Avx2Kernel, DecodeDecompressMatchesPortable) {
  for (int t = 0; t < 300; ++t) {
    std::vector<std::uint8_t> b = random_bytes(32 * 11);
    if (t == 0) std::fill(b.begin(), b.end(), 0xFF);
    if (t == 1) std::fill(b.begin(), b.end(), 0x00);
    check_decode_decompress<1>(b);
    check_decode_decompress<4>(b);
    check_decode_decompress<5>(b);
    check_decode_decompress<10>(b);
    check_decode_decompress<11>(b);
  }
}

TEST_F(Avx2Kernel, ByteEncodeDecode12MatchPortable) {
  for (int t = 0; t < 300; ++t) {
    std::vector<std::uint8_t> b = random_bytes(kPolyBytes);
    if (t == 0) std::fill(b.begin(), b.end(), 0xFF);  // 4095 everywhere
    if (t == 1)
      for (std::size_t p = 0; p < kPolyBytes; p += 3) {  // q - 1 and q alternately... both slots
        b[p] = static_cast<std::uint8_t>((kQ - 1) & 0xFF);
        b[p + 1] = static_cast<std::uint8_t>(((kQ - 1) >> 8) | ((kQ & 0xF) << 4));
        b[p + 2] = static_cast<std::uint8_t>(kQ >> 4);
      }
    const auto in = std::span<const std::uint8_t, kPolyBytes>(b.data(), kPolyBytes);
    const NttPoly want = decode_ntt_poly_ref(in);
    Arr got;
    av::mlkem_decode12_avx2(got.data(), b.data());
    ASSERT_EQ(transposed(got), want.c);
    ASSERT_EQ(av::mlkem_is_canonical12_avx2(b.data()), is_canonical_encoding_ref(in));

    const Arr a = random_coeffs(kQ);
    std::array<std::uint8_t, kPolyBytes> e_ref{}, e_avx{};
    encode_ntt_poly_ref(NttPoly{a}, e_ref);
    av::mlkem_encode12_avx2(e_avx.data(), transposed(a).data());
    ASSERT_EQ(e_avx, e_ref);
    // Nothing is written past the 384 bytes (the kernel stores 16 bytes at a time).
    std::array<std::uint8_t, kPolyBytes + 32> guarded;
    guarded.fill(0xA5);
    av::mlkem_encode12_avx2(guarded.data(), transposed(a).data());
    ASSERT_TRUE(std::equal(e_ref.begin(), e_ref.end(), guarded.begin()));
    ASSERT_TRUE(std::all_of(guarded.begin() + kPolyBytes, guarded.end(), [](std::uint8_t x) { return x == 0xA5; }));
  }
  // A single unreduced coefficient at each position is caught.
  for (int pos = 0; pos < kN; ++pos) {
    std::array<std::uint8_t, kPolyBytes> b{};
    const std::size_t p = 3 * static_cast<std::size_t>(pos / 2);
    if (pos % 2 == 0) {
      b[p] = kQ & 0xFF;
      b[p + 1] = kQ >> 8;
    } else {
      b[p + 1] = static_cast<std::uint8_t>((kQ & 0xF) << 4);
      b[p + 2] = static_cast<std::uint8_t>(kQ >> 4);
    }
    ASSERT_FALSE(av::mlkem_is_canonical12_avx2(b.data())) << pos;
  }
}

TEST_F(Avx2Kernel, CbdMatchesPortable) {
  for (int t = 0; t < 300; ++t) {
    std::vector<std::uint8_t> b = random_bytes(192);
    if (t == 0) std::fill(b.begin(), b.end(), 0xFF);
    if (t == 1) std::fill(b.begin(), b.end(), 0x00);
    if (t == 2) std::fill(b.begin(), b.end(), 0x0F);
    if (t == 3) std::fill(b.begin(), b.end(), 0xF0);
    Arr got;
    av::mlkem_cbd_avx2(got.data(), b.data(), 2);
    ASSERT_EQ(got, sample_poly_cbd_ref<2>(std::span<const std::uint8_t, 128>(b.data(), 128)).c);
    av::mlkem_cbd_avx2(got.data(), b.data(), 3);
    ASSERT_EQ(got, sample_poly_cbd_ref<3>(std::span<const std::uint8_t, 192>(b.data(), 192)).c);
  }
}

TEST_F(Avx2Kernel, RejectionSamplingMatchesPortableLoop) {
  for (int t = 0; t < 500; ++t) {
    std::vector<std::uint8_t> buf = random_bytes(3 * 168 + 8);
    if (t % 5 == 1)  // mostly rejected candidates: 0xFFF, with a few accepted
      for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = (rng() % 8 == 0) ? buf[i] : 0xFF;
    const std::size_t len = 3 * (1 + rng() % 168);
    Arr got{}, want{};
    unsigned ctr0 = static_cast<unsigned>(rng() % 257);
    unsigned c_want = ctr0;
    for (std::size_t p = 0; p + 3 <= len && c_want < 256; p += 3) {
      const int d1 = buf[p] | ((buf[p + 1] & 0x0f) << 8);
      const int d2 = (buf[p + 1] >> 4) | (buf[p + 2] << 4);
      if (d1 < kQ) want[c_want++] = static_cast<std::int16_t>(d1);
      if (d2 < kQ && c_want < 256) want[c_want++] = static_cast<std::int16_t>(d2);
    }
    const unsigned c_got = av::mlkem_rej_uniform_avx2(got.data(), ctr0, buf.data(), len);
    ASSERT_EQ(c_got, c_want);
    for (unsigned i = ctr0; i < c_got; ++i) ASSERT_EQ(got[i], want[i]) << i;
  }
}

TEST_F(Avx2Kernel, SampleNttX4MatchesPortable) {
  int needed_more = 0;
  for (int t = 0; t < 300; ++t) {
    const auto rho_v = random_bytes(32);
    const auto rho = std::span<const std::uint8_t, 32>(rho_v.data(), 32);
    const int n = 1 + t % 4;
    std::uint8_t xy[4][2];
    for (auto& p : xy) {
      p[0] = static_cast<std::uint8_t>(rng());
      p[1] = static_cast<std::uint8_t>(rng());
    }
    Avx2NttPoly out[4];
    Avx2NttPoly* const o[4] = {&out[0], &out[1], &out[2], &out[3]};
    Avx2Backend::sample_ntt_x4(o, rho, xy, n);
    for (int j = 0; j < n; ++j) {
      const NttPoly want = sample_ntt_ref(rho, xy[j][0], xy[j][1]);
      ASSERT_EQ(transposed(out[j].c), want.c) << "trial " << t << " lane " << j;
    }
    // count inputs that needed a fourth block (about 1 in 100): the squeeze-more path ran
    std::array<std::uint8_t, 504 + 8> s{};  // + 8: rej_uniform's read overrun
    const std::uint8_t idx[2] = {xy[0][0], xy[0][1]};
    hash::shake128(std::span<std::uint8_t>(s.data(), 504), {rho, idx});
    Arr tmp{};
    if (av::mlkem_rej_uniform_avx2(tmp.data(), 0, s.data(), 504) < 256) ++needed_more;
  }
  RecordProperty("inputs_needing_a_fourth_block", needed_more);
}

TEST_F(Avx2Kernel, SampleNttX4SqueezesMoreBlocksWhenNeeded) {
  // Find seeds whose first three blocks give fewer than 256 coefficients, deterministically.
  int found = 0;
  for (int t = 0; t < 20000 && found < 5; ++t) {
    std::array<std::uint8_t, 32> rho{};
    for (int i = 0; i < 4; ++i) rho[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(t >> (8 * i));
    std::array<std::uint8_t, 504 + 8> s{};  // + 8: rej_uniform's read overrun
    const std::uint8_t idx[2] = {0, 0};
    hash::shake128(std::span<std::uint8_t>(s.data(), 504), {rho, idx});
    Arr tmp{};
    if (av::mlkem_rej_uniform_avx2(tmp.data(), 0, s.data(), 504) == 256) continue;
    ++found;
    const std::uint8_t xy[4][2] = {{0, 0}, {1, 0}, {0, 1}, {0, 0}};
    Avx2NttPoly out[4];
    Avx2NttPoly* const o[4] = {&out[0], &out[1], &out[2], &out[3]};
    Avx2Backend::sample_ntt_x4(o, rho, xy, 4);
    for (int j = 0; j < 4; ++j) ASSERT_EQ(transposed(out[j].c), sample_ntt_ref(rho, xy[j][0], xy[j][1]).c);
  }
  EXPECT_EQ(found, 5);
}

TEST_F(Avx2Kernel, SampleNoiseX4MatchesPortable) {
  for (int t = 0; t < 100; ++t) {
    const auto seed_v = random_bytes(32);
    const auto seed = std::span<const std::uint8_t, 32>(seed_v.data(), 32);
    const int n = 1 + t % 4;
    std::uint8_t nonce[4];
    for (auto& x : nonce) x = static_cast<std::uint8_t>(rng());
    for (const int eta : {2, 3}) {
      Poly out[4];
      Poly* const o[4] = {&out[0], &out[1], &out[2], &out[3]};
      if (eta == 2) Avx2Backend::sample_noise_x4<2>(o, seed, nonce, n);
      else Avx2Backend::sample_noise_x4<3>(o, seed, nonce, n);
      for (int j = 0; j < n; ++j) {
        const Poly want = eta == 2 ? sample_noise_ref<2>(seed, nonce[j]) : sample_noise_ref<3>(seed, nonce[j]);
        ASSERT_EQ(out[j].c, want.c) << "eta " << eta << " lane " << j;
      }
    }
  }
}

// ---- Keccak ------------------------------------------------------------------------------------

TEST_F(Avx2Kernel, KeccakPermutationKnownAnswer) {
  // Keccak-f[1600] of the zero state (the KeccakF-1600 reference test vector).
  std::uint64_t s[25] = {};
  av::keccak_f1600_x1_avx2(s);
  EXPECT_EQ(s[0], 0xF1258F7940E1DDE7ULL);
  EXPECT_EQ(s[1], 0x84D5CCF933C0478AULL);
  EXPECT_EQ(s[24], 0xEAF1FF7B5CECA249ULL);
  alignas(32) std::uint64_t s4[100] = {};
  for (int i = 0; i < 25; ++i) s4[4 * i + 2] = s[i];  // lane 2 starts from one permutation
  av::keccak_f1600_x4_avx2(s4);
  std::uint64_t s2[25];
  for (int i = 0; i < 25; ++i) s2[i] = s[i];
  av::keccak_f1600_x1_avx2(s2);
  for (int i = 0; i < 25; ++i) {
    ASSERT_EQ(s4[4 * i + 0], i == 0 ? 0xF1258F7940E1DDE7ULL : s4[4 * i + 0]);
    ASSERT_EQ(s4[4 * i + 1], s4[4 * i + 0]);
    ASSERT_EQ(s4[4 * i + 3], s4[4 * i + 0]);
    ASSERT_EQ(s4[4 * i + 2], s2[i]);
    ASSERT_EQ(s4[4 * i + 0], s[i]);
  }
}

// Every input length from 0 to several rate blocks (and output lengths across block
// boundaries), four different random inputs per call: each lane equals OpenSSL's SHAKE.
TEST_F(Avx2Kernel, Keccak4xMatchesOpenSslOnEveryLength) {
  for (std::size_t len = 0; len <= 5 * 168 + 3; ++len) {
    std::vector<std::uint8_t> in[4];
    for (auto& v : in) v = random_bytes(len + 1);
    const std::uint8_t* ip[4] = {in[0].data(), in[1].data(), in[2].data(), in[3].data()};
    const std::size_t outlen = (len * 37) % (3 * 168 + 1);
    std::vector<std::uint8_t> out[4];
    for (auto& v : out) v.assign(outlen + 1, 0);
    std::uint8_t* op[4] = {out[0].data(), out[1].data(), out[2].data(), out[3].data()};
    std::vector<std::uint8_t> want(outlen);
    av::shake128_x4_avx2(op, outlen, ip, len);
    for (int j = 0; j < 4; ++j) {
      hash::shake128(want, {ByteView(in[j].data(), len)});
      ASSERT_TRUE(std::equal(want.begin(), want.end(), out[j].begin())) << "SHAKE128 len " << len << " lane " << j;
    }
    av::shake256_x4_avx2(op, outlen, ip, len);
    for (int j = 0; j < 4; ++j) {
      hash::shake256(want, {ByteView(in[j].data(), len)});
      ASSERT_TRUE(std::equal(want.begin(), want.end(), out[j].begin())) << "SHAKE256 len " << len << " lane " << j;
    }
    // block-wise squeezing
    av::Shake128x4 st;
    av::shake128x4_absorb_avx2(st, ip, len);
    std::vector<std::uint8_t> blocks[4];
    for (auto& v : blocks) v.assign(3 * 168, 0);
    std::uint8_t* bp[4] = {blocks[0].data(), blocks[1].data(), blocks[2].data(), blocks[3].data()};
    av::shake128x4_squeeze_blocks_avx2(st, bp, 2);
    std::uint8_t* bp2[4] = {bp[0] + 336, bp[1] + 336, bp[2] + 336, bp[3] + 336};
    av::shake128x4_squeeze_blocks_avx2(st, bp2, 1);
    std::vector<std::uint8_t> want3(3 * 168);
    for (int j = 0; j < 4; ++j) {
      hash::shake128(want3, {ByteView(in[j].data(), len)});
      ASSERT_EQ(blocks[j], want3) << "blocks, len " << len << " lane " << j;
    }
  }
}

// Batches of sponges on the lanes of the 4-way permutation: random mixes of the four FIPS 202
// functions ML-KEM uses (rates 168, 136, 72), message lengths from 0 to five blocks split into two
// pieces at a random point, fixed output lengths across block boundaries, and consumers that
// take a random number of blocks; batches of 1 to 12 jobs (so lanes are refilled, and the last
// sponge goes on alone). Each job equals the portable sponge.
struct Kind {
  std::size_t rate;
  std::uint8_t ds;
};
constexpr Kind kShake128{168, 0x1F}, kShake256{136, 0x1F}, kSha3_256{136, 0x06}, kSha3_512{72, 0x06};

std::vector<std::uint8_t> portable_sponge(const Kind& k, ByteView msg, std::size_t outlen) {
  std::vector<std::uint8_t> out(outlen);
  if (k.rate == 168) hash::shake128(out, {msg});
  else if (k.rate == 72) hash::sha3_512(std::span<std::uint8_t, 64>(out.data(), 64), {msg});
  else if (k.ds == 0x1F) hash::shake256(out, {msg});
  else hash::sha3_256(std::span<std::uint8_t, 32>(out.data(), 32), {msg});
  return out;
}

struct BlockSink {
  std::vector<std::uint8_t> got;
  std::size_t rate = 0, wanted = 0;
  static bool take(void* ctx, const std::uint8_t* block) {
    auto* b = static_cast<BlockSink*>(ctx);
    b->got.insert(b->got.end(), block, block + b->rate);
    return b->got.size() < b->wanted * b->rate;
  }
};

/// Random batches of up to max_jobs sponges through `run` (a keccak_jobs_* scheduler).
void check_keccak_jobs(std::mt19937_64& rng, void (*run)(const KeccakJob*, int) noexcept, int max_jobs) {
  const auto random_bytes = [&](std::size_t n) {
    std::vector<std::uint8_t> v(n);
    for (auto& x : v) x = static_cast<std::uint8_t>(rng());
    return v;
  };
  const Kind kinds[4] = {kShake128, kShake256, kSha3_256, kSha3_512};
  for (int t = 0; t < 400; ++t) {
    const int n = 1 + static_cast<int>(rng() % static_cast<unsigned>(max_jobs));
    std::vector<Kind> kind(n);
    std::vector<std::vector<std::uint8_t>> msg(n), out(n);
    std::vector<std::size_t> split(n), outlen(n);
    std::vector<BlockSink> sink(n);
    std::vector<KeccakJob> jobs(n);
    for (int i = 0; i < n; ++i) {
      kind[i] = kinds[rng() % 4];
      const std::size_t len = static_cast<std::size_t>(rng() % (5 * kind[i].rate + 4));
      msg[i] = random_bytes(len);
      split[i] = static_cast<std::size_t>(rng() % (len + 1));
      const bool shake = kind[i].ds == 0x1F;
      const bool consumer = shake && rng() % 2 == 0;
      outlen[i] = !shake ? (kind[i].rate == 72 ? 64 : 32) : 1 + static_cast<std::size_t>(rng() % 400);
      out[i].assign(outlen[i], 0);
      sink[i].rate = kind[i].rate;
      sink[i].wanted = 1 + static_cast<std::size_t>(rng() % 4);
      jobs[i] = {kind[i].rate, kind[i].ds, {msg[i].data(), msg[i].data() + split[i]}, {split[i], len - split[i]},
                 consumer ? nullptr : out[i].data(), consumer ? 0 : outlen[i],
                 consumer ? &BlockSink::take : nullptr, consumer ? &sink[i] : nullptr};
    }
    run(jobs.data(), n);
    for (int i = 0; i < n; ++i) {
      const ByteView m(msg[i].data(), msg[i].size());
      if (jobs[i].consume != nullptr) {
        ASSERT_EQ(sink[i].got, portable_sponge(kind[i], m, sink[i].wanted * kind[i].rate))
            << "batch " << t << " job " << i << " (consumer, rate " << kind[i].rate << ")";
      } else {
        ASSERT_EQ(out[i], portable_sponge(kind[i], m, outlen[i]))
            << "batch " << t << " job " << i << " (rate " << kind[i].rate << ", length " << m.size() << ")";
      }
    }
  }
}

TEST_F(Avx2Kernel, KeccakJobsMatchThePortableSponges) { check_keccak_jobs(rng, av::keccak_jobs_avx2, 12); }

// The schedulers' portable twin (NTRU's coin expansion runs on it under the portable backend),
// through the same batches: consumers included, which the expansion itself never uses.
TEST(KeccakJobsRef, MatchesThePortableSponges) {
  std::mt19937_64 rng(0x6a6f6273);
  check_keccak_jobs(rng, hash::keccak_jobs_ref, 12);
}

// The ML-KEM batch (hashes, matrix entries, noise of both etas, in any mix) under a SIMD backend and the portable one.
template <class B>
void check_xof_batch(std::mt19937_64& rng) {
  const auto random_bytes = [&](std::size_t n) {
    std::vector<std::uint8_t> v(n);
    for (auto& x : v) x = static_cast<std::uint8_t>(rng());
    return v;
  };
  for (int t = 0; t < 200; ++t) {
    const auto rho = random_bytes(32), sigma = random_bytes(32), ek = random_bytes(32 + rng() % 1600);
    const auto z = random_bytes(32), c = random_bytes(rng() % 1600);
    XofBatch<NttPoly> ref;
    XofBatch<typename B::NttPoly> avx;
    std::array<std::uint8_t, 32> h_ref[2], h_avx[2];
    const int n_hash = static_cast<int>(rng() % 3);
    for (int i = 0; i < n_hash; ++i) {
      const bool shake = i == 1;
      ref.add_hash(shake, h_ref[i], shake ? ByteView(z) : ByteView(ek), shake ? ByteView(c) : ByteView());
      avx.add_hash(shake, h_avx[i], shake ? ByteView(z) : ByteView(ek), shake ? ByteView(c) : ByteView());
    }
    std::array<std::array<NttPoly, 4>, 4> m_ref;
    std::array<std::array<typename B::NttPoly, 4>, 4> m_avx;
    const bool with_matrix = rng() % 4 != 0;
    if (with_matrix) {
      const bool transposed_order = rng() % 2 == 0;
      ref.add_matrix<4>(m_ref, std::span<const std::uint8_t, 32>(rho.data(), 32), transposed_order);
      avx.template add_matrix<4>(m_avx, std::span<const std::uint8_t, 32>(rho.data(), 32), transposed_order);
      const int keep = 1 + static_cast<int>(rng() % 16);  // any count of entries
      ref.n_matrix = avx.n_matrix = keep;
    }
    std::array<Poly, 9> p_ref, p_avx;
    const int n1 = static_cast<int>(rng() % 5), n2 = static_cast<int>(rng() % 5);
    const int eta1 = 2 + static_cast<int>(rng() % 2);
    const int first = static_cast<int>(rng() % 200);
    const auto seed = std::span<const std::uint8_t, 32>(sigma.data(), 32);
    ref.add_noise(p_ref.data(), n1, eta1, seed, first);
    avx.add_noise(p_avx.data(), n1, eta1, seed, first);
    ref.add_noise(p_ref.data() + n1, n2, 2, seed, first + n1);
    avx.add_noise(p_avx.data() + n1, n2, 2, seed, first + n1);
    RefBackend::run_xof_batch(ref);
    B::run_xof_batch(avx);
    for (int i = 0; i < n_hash; ++i) ASSERT_EQ(h_avx[i], h_ref[i]) << "batch " << t << " hash " << i;
    for (int i = 0; i < ref.n_matrix; ++i)  // entry i is row i / 4, column i % 4
      ASSERT_EQ(B::to_fips203_order(m_avx[i / 4][i % 4]).c, m_ref[i / 4][i % 4].c)
          << "batch " << t << " entry " << i;
    for (int i = 0; i < n1 + n2; ++i) ASSERT_EQ(p_avx[i].c, p_ref[i].c) << "batch " << t << " noise " << i;
  }
}

TEST_F(Avx2Kernel, XofBatchMatchesThePortableBackend) { check_xof_batch<Avx2Backend>(rng); }

TEST_F(Avx2Kernel, Keccak1xMatchesOpenSslOnEveryLength) {
  for (std::size_t len = 0; len <= 5 * 168 + 3; ++len) {
    const std::vector<std::uint8_t> in = random_bytes(len + 1);
    const std::size_t split = len == 0 ? 0 : static_cast<std::size_t>(rng() % (len + 1));
    std::array<std::uint8_t, 32> h{}, hw{};
    av::sha3_256_x1_avx2(h.data(), in.data(), split, in.data() + split, len - split);
    hash::sha3_256(hw, {ByteView(in.data(), len)});
    ASSERT_EQ(h, hw) << "SHA3-256 len " << len;
    std::array<std::uint8_t, 64> g{}, gw{};
    av::sha3_512_x1_avx2(g.data(), in.data(), split, in.data() + split, len - split);
    hash::sha3_512(gw, {ByteView(in.data(), len)});
    ASSERT_EQ(g, gw) << "SHA3-512 len " << len;
    const std::size_t outlen = (len * 13) % 400;
    std::vector<std::uint8_t> j(outlen), jw(outlen);
    av::shake256_x1_avx2(j.data(), outlen, in.data(), split, in.data() + split, len - split);
    hash::shake256(jw, {ByteView(in.data(), len)});
    ASSERT_EQ(j, jw) << "SHAKE256 len " << len;
  }
}

#if PQKEM_HAVE_AVX512
class Avx512Kernel : public Avx2Kernel {
protected:
  void SetUp() override {
    if (!cpu_has_avx512())
      GTEST_SKIP() << "this CPU lacks AVX-512 F/VL/BW/DQ/VBMI/VBMI2: the AVX-512 kernels cannot run here";
    ASSERT_TRUE(simd::impl_usable(simd::Impl::avx512)) << simd::impl_unusable_reason(simd::Impl::avx512);
    rng.seed(54321);
  }
};

TEST_F(Avx512Kernel, NttAndInverseMatchPortable) {
  for (const Arr& in : inputs(kQ)) {
    const NttPoly want = ntt_ref(Poly{in}, current_ntt_plan());
    Arr got = in;
    simd::avx512::mlkem_ntt_avx512(got.data());
    ASSERT_EQ(transposed(got), want.c);
    for (auto x : got) ASSERT_LE(std::abs(x), (kQ - 1) / 2);
    const Poly back = inverse_ntt_ref(NttPoly{in}, current_ntt_plan());
    Arr inv = transposed(in);
    simd::avx512::mlkem_inverse_ntt_avx512(inv.data());
    ASSERT_EQ(inv, back.c);
    for (auto x : inv) ASSERT_LT(std::abs(x), kQ);
  }
}

TEST_F(Avx512Kernel, InnerProductMatchesPortable) {
  const auto in = inputs(kQ);
  for (std::size_t t = 0; t + 4 < in.size(); ++t) check_inner_product(simd::avx512::mlkem_inner_product_avx512, in, t);
}

TEST_F(Avx512Kernel, ElementwiseKernelsMatchPortable) {
  for (int t = 0; t < 300; ++t) {
    const Arr e = random_coeffs(kQ), half = random_coeffs((kQ + 1) / 2);
    NttPoly want{half};
    RefBackend::tomont_add_reduce(want, NttPoly{e});
    Arr got = half;
    simd::avx512::mlkem_tomont_add_reduce_avx512(got.data(), e.data());
    ASSERT_EQ(got, want.c);

    const Arr x = random_coeffs(kQ), y = random_coeffs(kQ), z = random_coeffs(kQ);
    Poly p{x};
    RefBackend::add_reduce(p, Poly{y}, t & 1 ? nullptr : &static_cast<const Poly&>(Poly{z}));
    Arr q = x;
    simd::avx512::mlkem_add_reduce_avx512(q.data(), y.data(), t & 1 ? nullptr : z.data());
    ASSERT_EQ(q, p.c);

    Poly s{x};
    RefBackend::sub_reduce(s, Poly{y});
    Arr u = x;
    simd::avx512::mlkem_sub_reduce_avx512(u.data(), y.data());
    ASSERT_EQ(u, s.c);
  }
}

TEST_F(Avx512Kernel, PermutationsMatchThePortableOne) {
  for (int t = 0; t < 64; ++t) {
    alignas(64) std::uint64_t s8[200];
    alignas(32) std::uint64_t s4[100];
    std::uint64_t one[8][25];
    for (int j = 0; j < 8; ++j)
      for (int i = 0; i < 25; ++i) {
        one[j][i] = t == 0 ? 0 : rng();  // the zero state first (FIPS 202's first SHA-3 call)
        s8[8 * i + j] = one[j][i];
        if (j < 4) s4[4 * i + j] = one[j][i];
      }
    simd::avx512::keccak_f1600_x8_avx512(s8);
    simd::avx512::keccak_f1600_x4_avx512(s4);
    for (int j = 0; j < 8; ++j) {
      hash::keccak_f1600(one[j]);
      for (int i = 0; i < 25; ++i) {
        ASSERT_EQ(s8[8 * i + j], one[j][i]) << "x8, trial " << t << " state " << j << " lane " << i;
        if (j < 4) {
          ASSERT_EQ(s4[4 * i + j], one[j][i]) << "x4, trial " << t << " state " << j << " lane " << i;
        }
      }
    }
  }
}

// Up to 24 jobs: the 8-way lanes fill, refill and hand over to the 4-way ones, then to the 1-way.
TEST_F(Avx512Kernel, KeccakJobsMatchThePortableSponges) {
  check_keccak_jobs(rng, simd::avx512::keccak_jobs_avx512, 24);
  check_keccak_jobs(rng, simd::avx512::keccak_jobs_x4_avx512, 12);
}

TEST_F(Avx512Kernel, XofBatchMatchesThePortableBackend) { check_xof_batch<Avx512Backend>(rng); }

// SampleNTT's loop body (FIPS 203, Algorithm 7) on every length that is a multiple of 3 up to
// three blocks, from any count already accepted, on random bytes and on bytes that accept every
// candidate or none. The buffer is exactly len bytes: the sampler promises masked loads only, and
// the sanitizer build catches a read past it.
TEST_F(Avx512Kernel, RejectionSamplingMatchesTheSpecification) {
  for (int t = 0; t < 3000; ++t) {
    const std::size_t len = 3 * static_cast<std::size_t>(rng() % (3 * 56 + 1));
    std::vector<std::uint8_t> buf(len);
    const int fill = static_cast<int>(rng() % 8);  // 0: all accepted, 1: none, else random
    for (auto& x : buf) x = fill == 0 ? 0 : fill == 1 ? 0xFF : static_cast<std::uint8_t>(rng());
    const unsigned ctr0 = rng() % 4 == 0 ? 256 - static_cast<unsigned>(rng() % 40) : static_cast<unsigned>(rng() % 257);
    std::array<std::int16_t, 256> want{}, got{};
    for (std::size_t i = 0; i < ctr0; ++i) want[i] = got[i] = static_cast<std::int16_t>(i);
    unsigned ctr = ctr0;
    for (std::size_t pos = 0; pos + 3 <= len && ctr < 256; pos += 3) {
      const int d1 = buf[pos] | ((buf[pos + 1] & 0x0f) << 8);
      const int d2 = (buf[pos + 1] >> 4) | (buf[pos + 2] << 4);
      if (d1 < kQ) want[ctr++] = static_cast<std::int16_t>(d1);
      if (d2 < kQ && ctr < 256) want[ctr++] = static_cast<std::int16_t>(d2);
    }
    const unsigned n = simd::avx512::mlkem_rej_uniform_avx512(got.data(), ctr0, buf.data(), len);
    ASSERT_EQ(n, ctr) << "trial " << t << " len " << len << " from " << ctr0;
    ASSERT_EQ(got, want) << "trial " << t << " len " << len << " from " << ctr0;
  }
}
#endif  // PQKEM_HAVE_AVX512

#else   // !PQKEM_HAVE_AVX2

TEST(MlKemAvx2, BuildWithoutKernelsFallsBackToPortable) {
  EXPECT_FALSE(cpu_has_avx2()) << "the CPU has AVX2 but this build has no ML-KEM AVX2 kernels";
  EXPECT_FALSE(simd::impl_usable(simd::Impl::avx2));
  EXPECT_EQ(simd::active_impl(), simd::Impl::portable);
}

#endif  // PQKEM_HAVE_AVX2

}  // namespace
}  // namespace pqkem::mlkem
