// NTRU kernel tables (see kernels.hpp). The AVX2 table wraps the raw-array functions of
// simd/avx2/ntru_avx2.h; this file itself is portable code (not compiled with -mavx2).
#include "ntru/kernels.hpp"

#include "hash.hpp"
#include "ntru/pack.hpp"
#include "ntru/sample.hpp"
#include "ntru/sort.hpp"

#ifndef PQKEM_HAVE_AVX2
#define PQKEM_HAVE_AVX2 0  // set by lib/CMakeLists.txt when AVX2 kernels are compiled in
#endif
#if PQKEM_HAVE_AVX2
#include "simd/avx2/keccak_avx2.hpp"
#include "simd/avx2/ntru_avx2.h"
#endif

namespace pqkem::ntru {
namespace {

void sha3_256_pair_ref(std::span<std::uint8_t, 32> k0, ByteView m0, std::span<std::uint8_t, 32> k1, ByteView m1a,
                       ByteView m1b) noexcept {
  hash::sha3_256(k0, {m0});
  hash::sha3_256(k1, {m1a, m1b});
}

}  // namespace

template <class P>
const Kernels<P>& kernels_ref() noexcept {
  static constexpr Kernels<P> table{
      simd::Impl::portable,  poly_mul_cyclic<P>, poly_rq_mul_ref<P>, poly_sq_mul_ref<P>, poly_s3_mul_ref<P>,
      poly_mul_x_minus_1_ref<P>, poly_r2_inv_ref<P>, poly_rq_inv_ref<P>, poly_s3_inv_ref<P>, sort_int32_ref,
      sample_fixed_type_ref<P>,
      [](Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void*) noexcept { poly_rq_mul_ref<P>(r, a, b); },
      [](Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void*) noexcept { poly_sq_mul_ref<P>(r, a, b); },
      [](Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void*) noexcept { poly_s3_mul_ref<P>(r, a, b); },
      [](void*) noexcept {},
      poly_s3_frombytes<P>, poly_sq_frombytes<P>, poly_rq_sum_zero_frombytes<P>,
      poly_rq_to_s3<P>, poly_z3_to_zq<P>, poly_trinary_zq_to_z3<P>, poly_s3_tobytes<P>,
      [](Poly<P>& r, const Poly<P>& m) noexcept { poly_lift<P>(kernels_ref<P>(), r, m); },
      sha3_256_pair_ref,
  };
  return table;
}

#if PQKEM_HAVE_AVX2
namespace {

template <class P>
constexpr Kernels<P> make_avx2_table() noexcept {
  namespace v = simd::avx2;
  return Kernels<P>{
      simd::Impl::avx2,
      [](Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept { v::ntru_poly_mul_cyclic(r.c.data(), a.c.data(), b.c.data(), P::n); },
      [](Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
        v::ntru_poly_rq_mul(r.c.data(), a.c.data(), b.c.data(), P::n, P::logq);
      },
      [](Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
        v::ntru_poly_sq_mul(r.c.data(), a.c.data(), b.c.data(), P::n, P::logq);
      },
      [](Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept { v::ntru_poly_s3_mul(r.c.data(), a.c.data(), b.c.data(), P::n); },
      [](Poly<P>& r, const Poly<P>& a) noexcept { v::ntru_poly_mul_x_minus_1(r.c.data(), a.c.data(), P::n, P::logq); },
      [](Poly<P>& r, const Poly<P>& a) noexcept { v::ntru_poly_r2_inv(r.c.data(), a.c.data(), P::n); },
      [](Poly<P>& r, const Poly<P>& a) noexcept { v::ntru_poly_rq_inv(r.c.data(), a.c.data(), P::n, P::logq); },
      [](Poly<P>& r, const Poly<P>& a) noexcept { v::ntru_poly_s3_inv(r.c.data(), a.c.data(), P::n); },
      [](std::span<std::int32_t> x) noexcept {
        if (x.size() <= v::kNtruSortMaxLen) v::ntru_sort_int32(x.data(), x.size());  // public length
        else sort_int32_ref(x);
      },
      [](Poly<P>& r, const std::uint8_t* u) noexcept {
        if constexpr (P::n - 1 <= v::kNtruSortMaxLen) v::ntru_sample_fixed_type(r.c.data(), u, P::n, P::weight);
        else sample_fixed_type_ref<P>(r, u);
      },
      [](Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept {
        v::ntru_poly_rq_mul_in(r.c.data(), a.c.data(), b.c.data(), P::n, P::logq, scratch);
      },
      [](Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept {
        v::ntru_poly_sq_mul_in(r.c.data(), a.c.data(), b.c.data(), P::n, P::logq, scratch);
      },
      [](Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept {
        v::ntru_poly_s3_mul_in(r.c.data(), a.c.data(), b.c.data(), P::n, scratch);
      },
      [](void* scratch) noexcept { v::ntru_wipe_product_scratch(scratch, P::n); },
      [](Poly<P>& r, std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept {
        v::ntru_s3_frombytes(r.c.data(), in.data(), P::n);
      },
      [](Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
        v::ntru_q_frombytes(r.c.data(), in.data(), P::n, P::logq, false);
      },
      [](Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
        v::ntru_q_frombytes(r.c.data(), in.data(), P::n, P::logq, true);
      },
      [](Poly<P>& r, const Poly<P>& a) noexcept { v::ntru_rq_to_s3(r.c.data(), a.c.data(), P::n, P::logq); },
      [](Poly<P>& r, const Poly<P>& a) noexcept { v::ntru_z3_to_zq(r.c.data(), a.c.data(), P::n, P::logq); },
      [](Poly<P>& r, const Poly<P>& a) noexcept { v::ntru_trinary_zq_to_z3(r.c.data(), a.c.data(), P::n, P::logq); },
      [](std::span<std::uint8_t, P::pack_trinary_bytes> out, const Poly<P>& a) noexcept {
        v::ntru_s3_tobytes(out.data(), a.c.data(), P::n);
      },
      [](Poly<P>& r, const Poly<P>& m) noexcept {
        if constexpr (P::hps) v::ntru_z3_to_zq(r.c.data(), m.c.data(), P::n, P::logq);  // HPS: m in {0, 1, q - 1} form
        else v::ntru_poly_lift_hrss(r.c.data(), m.c.data(), P::n, P::logq);
      },
      [](std::span<std::uint8_t, 32> k0, ByteView m0, std::span<std::uint8_t, 32> k1, ByteView m1a,
         ByteView m1b) noexcept {
        v::sha3_256_x2(k0.data(), m0.data(), m0.size(), k1.data(), m1a.data(), m1a.size(), m1b.data(), m1b.size());
      },
  };
}

}  // namespace
#endif

template <class P>
const Kernels<P>& kernels(simd::Impl impl) noexcept {
#if PQKEM_HAVE_AVX2
  static constexpr Kernels<P> avx2 = make_avx2_table<P>();
  if (impl == simd::Impl::avx2) return avx2;
#else
  (void)impl;
#endif
  return kernels_ref<P>();
}

#define PQKEM_NTRU_INSTANTIATE_KERNELS(P)                         \
  template const Kernels<P>& kernels_ref<P>() noexcept;           \
  template const Kernels<P>& kernels<P>(simd::Impl impl) noexcept;
PQKEM_NTRU_FOR_EACH_PARAMS(PQKEM_NTRU_INSTANTIATE_KERNELS)

}  // namespace pqkem::ntru
