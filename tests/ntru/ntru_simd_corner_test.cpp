// The NTRU SIMD kernels (AVX2; the AVX-512 build of the same sources in the avx512.* runs) against
// their portable `_ref` twins, bit for bit, on the corners of each kernel's input contract, for
// every parameter set. The portable kernels' bounds are proven in tests/proof/ntru_proof.cpp; this
// carries them over to the SIMD lanes at the inputs where lane arithmetic breaks first.
//
// Contracts and their corners:
//   Z3 (poly_s3_mul, poly_z3_to_zq, poly_lift, poly_s3_inv, poly_s3_tobytes): 0, 1, 2;
//   mod 2^16 (poly_rq_to_s3, poly_trinary_zq_to_z3, poly_mul_x_minus_1, poly_mul_cyclic,
//     poly_rq_mul, poly_sq_mul, poly_r2_inv, poly_rq_inv): 0, 1, 2, q/2 - 1, q/2, q - 1, q, 0x7FFF,
//     0x8000, 0xFFFF; trinary inputs of poly_trinary_zq_to_z3 also with 0, 1, q - 1 only;
//   int32 (sort_int32, at the length n - 1 sample_fixed_type sorts): INT32_MIN, INT32_MIN + 1, -1,
//     0, 1, INT32_MAX - 1, INT32_MAX;
//   bytes (sample_fixed_type, the decodings): 0x00, 0x01, 0x7F, 0x80, 0xAA, 0x55, 0xFE, 0xFF.
// Patterns over the corners: each corner everywhere; every ordered pair of corners alternating;
// each corner alone at a lane-block edge (0, 1, 15, 16, 17, n/2, n - 17, n - 16, n - 15, n - 2,
// n - 1: the first block, block borders, the overlapping last block, the coefficient that the
// reductions mod Phi_n subtract) in a field of the smallest or the largest corner; and seeded
// random mixes of corners. The per-coefficient maps also see every uint16 value (rq_to_s3 with
// a_{n-1} at each corner). Unary kernels run out of place and in place (r = a).
//
// A CPU without AVX2 (and BMI1, BMI2, POPCNT, PCLMULQDQ) has no SIMD kernel to compare: the tests
// skip there, saying so; where the CPU has them, the SIMD kernels must be usable (else the tests
// fail). The avx512.* copies skip where the AVX-512 kernels cannot run.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kernel_table.hpp"
#include "ntru/poly.hpp"
#include "simd/dispatch.hpp"
#include "test_util.hpp"

namespace pqkem::ntru {
namespace {

template <class P>
std::string param_name() {
  std::ostringstream s;
  if (P::hps)
    s << "ntruhps" << P::q << P::n;
  else
    s << "ntruhrss" << P::n;
  return s.str();
}

std::string hex(std::int64_t v) {
  std::ostringstream s;
  if (v < 0) {
    s << "-0x" << std::hex << -v;
  } else {
    s << "0x" << std::hex << v;
  }
  return s.str();
}

/// Mismatch reports for one kernel: the first few in full (kernel, parameter set, pattern, first
/// differing index and both values), then only a count.
class Reporter {
public:
  explicit Reporter(std::string kernel) : m_kernel(std::move(kernel)) {}
  ~Reporter() {
    if (m_failures > kShown) ADD_FAILURE() << m_kernel << ": " << m_failures - kShown << " more differing patterns";
  }
  Reporter(const Reporter&) = delete;
  Reporter& operator=(const Reporter&) = delete;

  /// Compares count values; returns whether they agree.
  template <class T>
  bool same(const std::string& where, const T* simd, const T* ref, std::size_t count) {
    std::size_t i = 0;
    while (i < count && simd[i] == ref[i]) ++i;
    if (i == count) return true;
    if (++m_failures <= kShown)
      ADD_FAILURE() << m_kernel << " " << where << ": first difference at index " << i << ": simd "
                    << static_cast<std::int64_t>(simd[i]) << ", ref " << static_cast<std::int64_t>(ref[i]);
    return false;
  }

private:
  static constexpr int kShown = 3;
  std::string m_kernel;
  int m_failures = 0;
};

template <class T>
struct Pattern {
  std::string name;
  std::vector<T> v;
};

enum Shapes : unsigned { kConstants = 1, kAlternating = 2, kSingles = 4, kMixes = 8, kAllShapes = 15 };

/// The patterns of `len` values over `corners` (see the file comment); `seed` fixes the mixes.
template <class T>
std::vector<Pattern<T>> corner_patterns(const std::vector<T>& corners, std::size_t len, unsigned shapes,
                                        std::uint64_t seed) {
  std::vector<Pattern<T>> out;
  if (shapes & kConstants)
    for (const T c : corners) out.push_back({"all " + hex(c), std::vector<T>(len, c)});
  if (shapes & kAlternating) {
    for (const T x : corners) {
      for (const T y : corners) {
        if (x == y) continue;
        std::vector<T> v(len);
        for (std::size_t i = 0; i < len; ++i) v[i] = i % 2 ? y : x;
        out.push_back({"alternating " + hex(x) + "/" + hex(y), std::move(v)});
      }
    }
  }
  if (shapes & kSingles) {
    std::vector<std::size_t> positions = {0, 1, 15, 16, 17, len / 2, len - 17, len - 16, len - 15, len - 2, len - 1};
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    for (const T field : {corners.front(), corners.back()}) {
      for (const T c : corners) {
        if (c == field) continue;
        for (const std::size_t pos : positions) {
          std::vector<T> v(len, field);
          v[pos] = c;
          out.push_back({hex(c) + " at " + std::to_string(pos) + " in all " + hex(field), std::move(v)});
        }
      }
    }
  }
  if (shapes & kMixes) {
    for (std::uint64_t k = 0; k < 8; ++k) {
      std::mt19937_64 rng(seed + k);
      std::vector<T> v(len);
      for (auto& x : v) x = corners[rng() % corners.size()];
      out.push_back({"random mix of corners (seed " + std::to_string(seed + k) + ")", std::move(v)});
    }
  }
  return out;
}

template <class P>
Poly<P> poly_of(const std::vector<std::uint16_t>& v) {
  Poly<P> a;
  std::copy(v.begin(), v.end(), a.c.begin());
  return a;
}

template <class P>
std::vector<std::uint16_t> z3_corners() {
  return {0, 1, 2};
}
template <class P>
std::vector<std::uint16_t> wide_corners() {
  return {0, 1, 2, P::q / 2 - 1, P::q / 2, P::q - 1, P::q, 0x7FFF, 0x8000, 0xFFFF};
}
const std::vector<std::uint8_t> kByteCorners = {0x00, 0x01, 0x7F, 0x80, 0xAA, 0x55, 0xFE, 0xFF};

template <class P>
class NtruAvx2KernelCorners : public ::testing::Test {
protected:
  void SetUp() override {
    if (test::testing_avx512_kernels()) {
      if (!simd::impl_usable(simd::Impl::avx512))
        GTEST_SKIP() << "AVX-512 kernels not usable here: " << simd::impl_unusable_reason(simd::Impl::avx512);
    } else if (!test::cpu_has_avx2_kernels()) {
      GTEST_SKIP() << "this CPU lacks AVX2, BMI1, BMI2, POPCNT or PCLMULQDQ: there is no SIMD kernel to compare";
    } else {
      ASSERT_TRUE(simd::impl_usable(simd::Impl::avx2))
          << "the CPU has AVX2 but the AVX2 kernels are not usable: " << simd::impl_unusable_reason(simd::Impl::avx2);
    }
    ASSERT_NE(simd().impl, simd::Impl::portable);
  }
  static const Kernels<P>& ref() { return kernels_ref<P>(); }
  static const Kernels<P>& simd() { return kernels<P>(test::simd_under_test()); }
  static std::string where(const std::string& pattern) { return "[" + param_name<P>() + "] pattern " + pattern; }

  using Unary = void (*)(Poly<P>&, const Poly<P>&) noexcept;
  using Binary = void (*)(Poly<P>&, const Poly<P>&, const Poly<P>&) noexcept;

  /// r = f(a) on every pattern: out of place (outputs pre-filled with different garbage) and in place.
  static void unary(const char* kernel, Unary ref_fn, Unary simd_fn, const std::vector<Pattern<std::uint16_t>>& pats) {
    Reporter rep(kernel);
    for (const auto& p : pats) {
      const Poly<P> a = poly_of<P>(p.v);
      Poly<P> want, got, inplace = a;
      want.c.fill(0xABCD), got.c.fill(0x1234);
      ref_fn(want, a), simd_fn(got, a), simd_fn(inplace, inplace);
      if (rep.same(where(p.name), got.c.data(), want.c.data(), P::n))
        rep.same(where(p.name) + " (in place)", inplace.c.data(), want.c.data(), P::n);
    }
  }
  /// r = f(a, b) for a on every pattern and b on each constant corner, a itself and two mixes.
  static void binary(const char* kernel, Binary ref_fn, Binary simd_fn, const std::vector<Pattern<std::uint16_t>>& pats,
                     const std::vector<std::uint16_t>& corners) {
    Reporter rep(kernel);
    std::vector<Pattern<std::uint16_t>> partners = corner_patterns(corners, P::n, kConstants | kMixes, 9000 + P::n);
    partners.resize(corners.size() + 2);  // the constants and two mixes
    for (const auto& p : pats) {
      const Poly<P> a = poly_of<P>(p.v);
      auto check = [&](const Poly<P>& b, const std::string& b_name) {
        Poly<P> want, got;
        ref_fn(want, a, b), simd_fn(got, a, b);
        rep.same(where(p.name + " x " + b_name), got.c.data(), want.c.data(), P::n);
      };
      check(a, "itself");
      for (const auto& q : partners) check(poly_of<P>(q.v), q.name);
    }
  }
};
TYPED_TEST_SUITE(NtruAvx2KernelCorners, test::AllParams, test::ParamsName);

/// S3 multiplication (In: Z3): the Toom-4 product mod 2^13 is exact up to 4n, reached by all 2 x
/// all 2, and its finish reduces mod (3, Phi_n) in 16-bit lanes.
TYPED_TEST(NtruAvx2KernelCorners, S3Multiplication) {
  using P = TypeParam;
  const auto pats = corner_patterns(z3_corners<P>(), P::n, kAllShapes, 100 + P::n);
  this->binary("poly_s3_mul", this->ref().poly_s3_mul, this->simd().poly_s3_mul, pats, z3_corners<P>());
}

/// The products over Z_{2^16} (In: mod 2^16): cyclic, Rq, Sq.
TYPED_TEST(NtruAvx2KernelCorners, ProductsMod2To16) {
  using P = TypeParam;
  const auto pats = corner_patterns(wide_corners<P>(), P::n, kConstants | kAlternating | kMixes, 200 + P::n);
  this->binary("poly_mul_cyclic", this->ref().poly_mul_cyclic, this->simd().poly_mul_cyclic, pats, wide_corners<P>());
  this->binary("poly_rq_mul", this->ref().poly_rq_mul, this->simd().poly_rq_mul, pats, wide_corners<P>());
  this->binary("poly_sq_mul", this->ref().poly_sq_mul, this->simd().poly_sq_mul, pats, wide_corners<P>());
}

/// The coefficient maps: Rq -> S3 and trinary Zq -> Z3 (In: mod 2^16), Z3 -> Zq and the lift (In:
/// Z3), multiplication by x - 1 (In: mod 2^16).
TYPED_TEST(NtruAvx2KernelCorners, CoefficientMaps) {
  using P = TypeParam;
  const auto wide = corner_patterns(wide_corners<P>(), P::n, kAllShapes, 300 + P::n);
  const auto z3 = corner_patterns(z3_corners<P>(), P::n, kAllShapes, 400 + P::n);
  const std::vector<std::uint16_t> trinary_corners = {0, 1, static_cast<std::uint16_t>(P::q - 1)};
  const auto trinary = corner_patterns(trinary_corners, P::n, kAllShapes, 500 + P::n);
  const auto& ref = this->ref();
  const auto& simd = this->simd();
  this->unary("poly_rq_to_s3", ref.poly_rq_to_s3, simd.poly_rq_to_s3, wide);
  this->unary("poly_trinary_zq_to_z3", ref.poly_trinary_zq_to_z3, simd.poly_trinary_zq_to_z3, wide);
  this->unary("poly_trinary_zq_to_z3 (trinary)", ref.poly_trinary_zq_to_z3, simd.poly_trinary_zq_to_z3, trinary);
  this->unary("poly_mul_x_minus_1", ref.poly_mul_x_minus_1, simd.poly_mul_x_minus_1, wide);
  this->unary("poly_z3_to_zq", ref.poly_z3_to_zq, simd.poly_z3_to_zq, z3);
  this->unary("poly_lift", ref.poly_lift, simd.poly_lift, z3);
}

/// The per-coefficient maps on every uint16 value, n - 1 consecutive values at a time: Rq -> S3
/// with a_{n-1} at each corner, trinary Zq -> Z3 and x - 1 (every value against its neighbour,
/// stride 1 and 0x8001).
TYPED_TEST(NtruAvx2KernelCorners, EveryUint16Coefficient) {
  using P = TypeParam;
  const auto& ref = this->ref();
  const auto& simd = this->simd();
  Reporter to_s3("poly_rq_to_s3"), to_z3("poly_trinary_zq_to_z3"), xm1("poly_mul_x_minus_1");
  for (std::uint32_t base = 0; base < 65536; base += P::n - 1) {
    Poly<P> a, want, got;
    for (std::size_t i = 0; i + 1 < P::n; ++i) a.c[i] = static_cast<std::uint16_t>(base + i);
    for (const std::uint16_t top : wide_corners<P>()) {
      a.c[P::n - 1] = top;
      ref.poly_rq_to_s3(want, a), simd.poly_rq_to_s3(got, a);
      to_s3.same(this->where("a_i = " + std::to_string(base) + " + i, a_{n-1} = " + hex(top)), got.c.data(),
                 want.c.data(), P::n);
    }
    ref.poly_trinary_zq_to_z3(want, a), simd.poly_trinary_zq_to_z3(got, a);
    to_z3.same(this->where("a_i = " + std::to_string(base) + " + i"), got.c.data(), want.c.data(), P::n);
    for (const std::uint32_t stride : {1u, 0x8001u}) {
      for (std::size_t i = 0; i < P::n; ++i) a.c[i] = static_cast<std::uint16_t>(base + stride * i);
      ref.poly_mul_x_minus_1(want, a), simd.poly_mul_x_minus_1(got, a);
      xm1.same(this->where("a_i = " + std::to_string(base) + " + " + std::to_string(stride) + " i"), got.c.data(),
               want.c.data(), P::n);
    }
  }
}

/// The inversions: S3 (In: Z3), S2 and Sq (In: mod 2^16). Many corner patterns are not invertible
/// (constants are multiples of Phi_n): both twins must then agree too.
TYPED_TEST(NtruAvx2KernelCorners, Inversions) {
  using P = TypeParam;
  const auto& ref = this->ref();
  const auto& simd = this->simd();
  this->unary("poly_s3_inv", ref.poly_s3_inv, simd.poly_s3_inv,
              corner_patterns(z3_corners<P>(), P::n, kAllShapes, 600 + P::n));
  const auto wide = corner_patterns(wide_corners<P>(), P::n, kConstants | kAlternating | kMixes, 700 + P::n);
  this->unary("poly_r2_inv", ref.poly_r2_inv, simd.poly_r2_inv, wide);
  this->unary("poly_rq_inv", ref.poly_rq_inv, simd.poly_rq_inv, wide);
}

/// sort_int32 at the length sample_fixed_type sorts (n - 1), on int32 corners; and
/// sample_fixed_type (HPS) on byte corners (all-0xFF bytes make every 30-bit word 2^30 - 1, keys
/// below zero as int32, equal but for their labels).
TYPED_TEST(NtruAvx2KernelCorners, SortAndSampleFixedType) {
  using P = TypeParam;
  const auto& ref = this->ref();
  const auto& simd = this->simd();
  const std::vector<std::int32_t> int_corners = {INT32_MIN, INT32_MIN + 1, -1, 0, 1, INT32_MAX - 1, INT32_MAX};
  Reporter sorts("sort_int32");
  for (const auto& p : corner_patterns(int_corners, P::n - 1, kAllShapes, 800 + P::n)) {
    std::vector<std::int32_t> want = p.v, got = p.v;
    ref.sort_int32(want), simd.sort_int32(got);
    sorts.same(this->where(p.name), got.data(), want.data(), want.size());
  }
  if constexpr (P::hps) {
    Reporter sample("sample_fixed_type");
    for (const auto& p :
         corner_patterns(kByteCorners, P::sample_ft_bytes, kConstants | kAlternating | kMixes, 900 + P::n)) {
      Poly<P> want, got;
      want.c.fill(0xABCD), got.c.fill(0x1234);
      ref.sample_fixed_type(want, p.v.data()), simd.sample_fixed_type(got, p.v.data());
      sample.same(this->where(p.name), got.c.data(), want.c.data(), P::n);
    }
  }
}

/// The S3 encoding (Z3 corners) and the decodings (byte corners).
TYPED_TEST(NtruAvx2KernelCorners, Encodings) {
  using P = TypeParam;
  constexpr std::size_t t = P::pack_trinary_bytes;
  const auto& ref = this->ref();
  const auto& simd = this->simd();
  Reporter pack("poly_s3_tobytes");
  for (const auto& p : corner_patterns(z3_corners<P>(), P::n, kAllShapes, 1000 + P::n)) {
    std::array<std::uint8_t, t> want{}, got{};
    ref.poly_s3_tobytes(want, poly_of<P>(p.v)), simd.poly_s3_tobytes(got, poly_of<P>(p.v));
    pack.same(this->where(p.name), got.data(), want.data(), t);
  }
  Reporter s3("poly_s3_frombytes"), sq("poly_sq_frombytes"), rq0("poly_rq_sum_zero_frombytes");
  for (const auto& p :
       corner_patterns(kByteCorners, P::pack_q_bytes, kConstants | kAlternating | kMixes, 1100 + P::n)) {
    const std::span<const std::uint8_t, t> in3(p.v.data(), t);
    const std::span<const std::uint8_t, P::pack_q_bytes> inq(p.v.data(), P::pack_q_bytes);
    Poly<P> want, got;
    ref.poly_s3_frombytes(want, in3), simd.poly_s3_frombytes(got, in3);
    s3.same(this->where(p.name), got.c.data(), want.c.data(), P::n);
    ref.poly_sq_frombytes(want, inq), simd.poly_sq_frombytes(got, inq);
    sq.same(this->where(p.name), got.c.data(), want.c.data(), P::n);
    ref.poly_rq_sum_zero_frombytes(want, inq), simd.poly_rq_sum_zero_frombytes(got, inq);
    rq0.same(this->where(p.name), got.c.data(), want.c.data(), P::n);
  }
}

}  // namespace
}  // namespace pqkem::ntru
