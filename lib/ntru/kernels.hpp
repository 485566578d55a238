// NTRU kernel tables: one per (parameter set, implementation). An operation (key generation,
// encapsulation, decapsulation, pk_from_sk) reads simd::active_impl() once, takes the matching
// table and passes it down, so every kernel of one operation comes from the same backend.
//
// Each entry has the contract of its portable `_ref` twin (poly.hpp, sort.hpp); the AVX2 entries
// (lib/simd/avx2/ntru_avx2.h) return bit for bit the same results, and tests/simd/ntru checks it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ntru/poly.hpp"
#include "secret.hpp"
#include "simd/avx2/ntru_avx2.h"  // declarations and constants only
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
  /// Sample_fixed_type (sample.hpp) from P::sample_ft_bytes bytes at u; HPS only.
  void (*sample_fixed_type)(Poly<P>& r, const std::uint8_t* u) noexcept;
  /// poly_rq_mul, poly_sq_mul and poly_s3_mul with their temporaries in `scratch`
  /// (kProductScratchBytes, 32-byte aligned), left there for wipe_product_scratch: an operation
  /// running several products wipes once. Use them through ProductScratch. (The portable
  /// products keep their few temporaries to themselves and ignore scratch.)
  void (*poly_rq_mul_in)(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept;
  void (*poly_sq_mul_in)(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept;
  void (*poly_s3_mul_in)(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept;
  void (*wipe_product_scratch)(void* scratch) noexcept;
  /// The decodings of pack.hpp.
  void (*poly_s3_frombytes)(Poly<P>& r, std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept;
  void (*poly_sq_frombytes)(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept;
  void (*poly_rq_sum_zero_frombytes)(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept;
  /// The coefficient conversions of poly.hpp (r may alias a).
  void (*poly_rq_to_s3)(Poly<P>& r, const Poly<P>& a) noexcept;
  void (*poly_z3_to_zq)(Poly<P>& r, const Poly<P>& a) noexcept;
  void (*poly_trinary_zq_to_z3)(Poly<P>& r, const Poly<P>& a) noexcept;
  /// The S3 encoding of pack.hpp (poly_s3_tobytes).
  void (*poly_s3_tobytes)(std::span<std::uint8_t, P::pack_trinary_bytes> out, const Poly<P>& a) noexcept;
  /// The message lift of poly.hpp (poly_lift).
  void (*poly_lift)(Poly<P>& r, const Poly<P>& m) noexcept;
  /// k0 = SHA3-256(m0) and k1 = SHA3-256(m1a || m1b): decapsulation's shared key and rejection
  /// key, computed together (the AVX2 entry runs both in one 4-way permutation while it can).
  void (*sha3_256_pair)(std::span<std::uint8_t, 32> k0, ByteView m0, std::span<std::uint8_t, 32> k1, ByteView m1a,
                        ByteView m1b) noexcept;
};

/// Bytes of product scratch: what the AVX2 products need (the portable ones need none).
inline constexpr std::size_t kProductScratchBytes = simd::avx2::kNtruProductScratchBytes;

/// Scratch shared by the products of one operation, wiped once when it goes out of scope
/// (the AVX2 products otherwise wipe their 15-31 KB workspace after every product).
template <class P>
class ProductScratch {
public:
  explicit ProductScratch(const Kernels<P>& k) noexcept : m_k(k) {}
  ~ProductScratch() { m_k.wipe_product_scratch(m_buf); }
  ProductScratch(const ProductScratch&) = delete;
  ProductScratch& operator=(const ProductScratch&) = delete;

  void rq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept { m_k.poly_rq_mul_in(r, a, b, m_buf); }
  void sq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept { m_k.poly_sq_mul_in(r, a, b, m_buf); }
  void s3_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept { m_k.poly_s3_mul_in(r, a, b, m_buf); }

private:
  const Kernels<P>& m_k;
  alignas(32) unsigned char m_buf[kProductScratchBytes];
};

/// The portable kernels (the `_ref` twins).
template <class P>
const Kernels<P>& kernels_ref() noexcept;

/// The kernels of `impl`. For Impl::avx2 in a build without AVX2 kernels this is the portable
/// table (its `impl` field says so); callers choose impl from simd::active_impl(), which never
/// names an implementation that is not usable.
template <class P>
const Kernels<P>& kernels(simd::Impl impl) noexcept;

/// kernels(simd::active_impl()): call once per operation.
template <class P>
const Kernels<P>& active_kernels() noexcept {
  return kernels<P>(simd::active_impl());
}

}  // namespace pqkem::ntru
