// The NTT and the arithmetic kernels of the ML-KEM AVX2 and AVX-512 backends against their
// portable twins (lib/mlkem/ntt.cpp, RefBackend): forward and inverse NTT, the transposed order,
// base multiplication and inner products, reductions. Built with the other ML-KEM SIMD tests
// (mlkem_avx2_test.cpp says what a CPU without AVX2 or AVX-512 does with them).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "mlkem/backend.hpp"
#include "mlkem/ntt.hpp"
#include "simd_fixture.hpp"

namespace pqkem::mlkem {
namespace {

#if PQKEM_HAVE_AVX2
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
    av::ntt_avx2(got.data());
    ASSERT_EQ(transposed(got), want.c);
    for (auto x : got) ASSERT_LE(std::abs(x), (kQ - 1) / 2);
  }
}

TEST_F(Avx2Kernel, InverseNttMatchesPortable) {
  for (const Arr& in : inputs(kQ)) {
    const Poly want = inverse_ntt_ref(NttPoly{in}, current_ntt_plan());
    Arr got = transposed(in);
    av::inverse_ntt_avx2(got.data());
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
    av::multiply_ntts_acc_avx2(r.data(), transposed(in[t]).data(), transposed(in[t + 1]).data());
    ASSERT_EQ(transposed(r), r_ref.c);

    check_inner_product(av::inner_product_avx2, in, t);
  }
}

TEST_F(Avx2Kernel, ReductionsMatchPortable) {
  for (int t = 0; t < 300; ++t) {
    Arr a = random_coeffs(t < 100 ? 32768 : kQ), e = random_coeffs(kQ);
    if (t == 0) a.fill(-32768);
    if (t == 1) a.fill(32767);
    Arr r = a;
    av::reduce_avx2(r.data());
    for (int i = 0; i < kN; ++i) ASSERT_EQ(r[i], barrett_reduce(a[i]));

    const Arr half = random_coeffs((kQ + 1) / 2);
    NttPoly want{half};
    RefBackend::tomont_add_reduce(want, NttPoly{e});
    Arr got = half;
    av::tomont_add_reduce_avx2(got.data(), e.data());
    ASSERT_EQ(got, want.c);

    const Arr x = random_coeffs(kQ), y = random_coeffs(kQ), z = random_coeffs(kQ);
    Poly p{x};
    RefBackend::add_reduce(p, Poly{y}, t & 1 ? nullptr : &static_cast<const Poly&>(Poly{z}));
    Arr q = x;
    av::add_reduce_avx2(q.data(), y.data(), t & 1 ? nullptr : z.data());
    ASSERT_EQ(q, p.c);

    Poly s{x};
    RefBackend::sub_reduce(s, Poly{y});
    Arr u = x;
    av::sub_reduce_avx2(u.data(), y.data());
    ASSERT_EQ(u, s.c);
  }
}

#if PQKEM_HAVE_AVX512
TEST_F(Avx512Kernel, NttAndInverseMatchPortable) {
  for (const Arr& in : inputs(kQ)) {
    const NttPoly want = ntt_ref(Poly{in}, current_ntt_plan());
    Arr got = in;
    simd::avx512::ntt_avx512(got.data());
    ASSERT_EQ(transposed(got), want.c);
    for (auto x : got) ASSERT_LE(std::abs(x), (kQ - 1) / 2);
    const Poly back = inverse_ntt_ref(NttPoly{in}, current_ntt_plan());
    Arr inv = transposed(in);
    simd::avx512::inverse_ntt_avx512(inv.data());
    ASSERT_EQ(inv, back.c);
    for (auto x : inv) ASSERT_LT(std::abs(x), kQ);
  }
}

TEST_F(Avx512Kernel, InnerProductMatchesPortable) {
  const auto in = inputs(kQ);
  for (std::size_t t = 0; t + 4 < in.size(); ++t) check_inner_product(simd::avx512::inner_product_avx512, in, t);
}

TEST_F(Avx512Kernel, ElementwiseKernelsMatchPortable) {
  for (int t = 0; t < 300; ++t) {
    const Arr e = random_coeffs(kQ), half = random_coeffs((kQ + 1) / 2);
    NttPoly want{half};
    RefBackend::tomont_add_reduce(want, NttPoly{e});
    Arr got = half;
    simd::avx512::tomont_add_reduce_avx512(got.data(), e.data());
    ASSERT_EQ(got, want.c);

    const Arr x = random_coeffs(kQ), y = random_coeffs(kQ), z = random_coeffs(kQ);
    Poly p{x};
    RefBackend::add_reduce(p, Poly{y}, t & 1 ? nullptr : &static_cast<const Poly&>(Poly{z}));
    Arr q = x;
    simd::avx512::add_reduce_avx512(q.data(), y.data(), t & 1 ? nullptr : z.data());
    ASSERT_EQ(q, p.c);

    Poly s{x};
    RefBackend::sub_reduce(s, Poly{y});
    Arr u = x;
    simd::avx512::sub_reduce_avx512(u.data(), y.data());
    ASSERT_EQ(u, s.c);
  }
}
#endif  // PQKEM_HAVE_AVX512
#endif  // PQKEM_HAVE_AVX2

}  // namespace
}  // namespace pqkem::mlkem
