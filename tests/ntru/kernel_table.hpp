// Tests only: a run-time view of an NTRU backend (ntru/backend.hpp), so that one test body can
// compare a kernel with its twin on whichever backend the CPU runs (on a CPU without AVX2,
// kernels(avx2) is the portable view and the comparison is trivial). The library itself picks
// its backend at compile time per instantiation (lib/scheme.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "backends/backends.hpp"
#include "ntru/poly.hpp"
#include "simd/dispatch.hpp"

namespace pqkem::ntru {

template <class P>
struct Kernels {
  simd::Impl impl;
  void (*poly_mul_cyclic)(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept;
  void (*poly_rq_mul)(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept;
  void (*poly_sq_mul)(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept;
  void (*poly_s3_mul)(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept;
  void (*poly_mul_x_minus_1)(Poly<P>& r, const Poly<P>& a) noexcept;
  void (*poly_r2_inv)(Poly<P>& r, const Poly<P>& a) noexcept;
  void (*poly_rq_inv)(Poly<P>& r, const Poly<P>& a) noexcept;
  void (*poly_s3_inv)(Poly<P>& r, const Poly<P>& a) noexcept;
  void (*sort_int32)(std::span<std::int32_t> x) noexcept;
  void (*sample_fixed_type)(Poly<P>& r, const std::uint8_t* u) noexcept;
  void (*poly_rq_mul_in)(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept;
  void (*poly_sq_mul_in)(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept;
  void (*poly_s3_mul_in)(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept;
  void (*wipe_product_scratch)(void* scratch) noexcept;
  void (*poly_s3_frombytes)(Poly<P>& r, std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept;
  void (*poly_sq_frombytes)(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept;
  void (*poly_rq_sum_zero_frombytes)(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept;
  void (*poly_rq_to_s3)(Poly<P>& r, const Poly<P>& a) noexcept;
  void (*poly_z3_to_zq)(Poly<P>& r, const Poly<P>& a) noexcept;
  void (*poly_trinary_zq_to_z3)(Poly<P>& r, const Poly<P>& a) noexcept;
  void (*poly_s3_tobytes)(std::span<std::uint8_t, P::pack_trinary_bytes> out, const Poly<P>& a) noexcept;
  void (*poly_lift)(Poly<P>& r, const Poly<P>& m) noexcept;
  void (*sha3_256_pair)(std::span<std::uint8_t, 32> k0, ByteView m0, std::span<std::uint8_t, 32> k1, ByteView m1a,
                        ByteView m1b) noexcept;
};

/// Bytes of product scratch: the most any backend's products need (the portable ones need none;
/// kernels_of checks every backend against it).
inline constexpr std::size_t kProductScratchBytes = 49152;

template <class P, class B>
constexpr Kernels<P> kernels_of() noexcept {
  static_assert(B::kProductScratchBytes <= kProductScratchBytes, "raise kProductScratchBytes");
  return {B::kImpl,
          &B::template poly_mul_cyclic<P>,
          &B::template poly_rq_mul<P>,
          &B::template poly_sq_mul<P>,
          &B::template poly_s3_mul<P>,
          &B::template poly_mul_x_minus_1<P>,
          &B::template poly_r2_inv<P>,
          &B::template poly_rq_inv<P>,
          &B::template poly_s3_inv<P>,
          &B::sort_int32,
          &B::template sample_fixed_type<P>,
          &B::template poly_rq_mul_in<P>,
          &B::template poly_sq_mul_in<P>,
          &B::template poly_s3_mul_in<P>,
          &B::template wipe_product_scratch<P>,
          &B::template poly_s3_frombytes<P>,
          &B::template poly_sq_frombytes<P>,
          &B::template poly_rq_sum_zero_frombytes<P>,
          &B::template poly_rq_to_s3<P>,
          &B::template poly_z3_to_zq<P>,
          &B::template poly_trinary_zq_to_z3<P>,
          &B::template poly_s3_tobytes<P>,
          &B::template poly_lift<P>,
          &B::sha3_256_pair};
}

/// The portable kernels.
template <class P>
const Kernels<P>& kernels_ref() noexcept {
  static constexpr Kernels<P> k = kernels_of<P, RefBackend>();
  return k;
}

/// The kernels of `impl`; the portable ones for an implementation this build has no kernels for
/// (the `impl` field says so).
template <class P>
const Kernels<P>& kernels(simd::Impl impl) noexcept {
#if PQKEM_HAVE_AVX512
  static constexpr Kernels<P> avx512 = kernels_of<P, Avx512Backend>();
  if (impl == simd::Impl::avx512) return avx512;
#endif
#if PQKEM_HAVE_AVX2
  static constexpr Kernels<P> avx2 = kernels_of<P, Avx2Backend>();
  if (impl == simd::Impl::avx2) return avx2;
#endif
  (void)impl;
  return kernels_ref<P>();
}

/// kernels(simd::active_impl()).
template <class P>
const Kernels<P>& active_kernels() noexcept {
  return kernels<P>(simd::active_impl());
}

/// ProductScratch over a run-time view (ntru::ProductScratch takes the backend as a type).
template <class P>
class TableScratch {
public:
  explicit TableScratch(const Kernels<P>& k) noexcept : m_k(k) {}
  ~TableScratch() { m_k.wipe_product_scratch(m_buf); }
  TableScratch(const TableScratch&) = delete;
  TableScratch& operator=(const TableScratch&) = delete;

  void rq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept { m_k.poly_rq_mul_in(r, a, b, m_buf); }
  void sq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept { m_k.poly_sq_mul_in(r, a, b, m_buf); }
  void s3_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept { m_k.poly_s3_mul_in(r, a, b, m_buf); }

private:
  const Kernels<P>& m_k;
  alignas(64) unsigned char m_buf[kProductScratchBytes];
};

}  // namespace pqkem::ntru
