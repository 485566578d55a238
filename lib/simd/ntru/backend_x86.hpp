// The NTRU backends on x86 SIMD (ntru::NtruBackend, lib/ntru/backend.hpp), written once as a
// template over the kernel set K of one ISA (simd/kernels_avx2.hpp, simd/kernels_avx512.hpp: the
// addresses of that ISA's kernels, the C-like functions on raw arrays of ntru_kernels.inc, and
// its Keccak pair and job runner). X86Backend<K> adapts them to Poly<P>; the contracts are the
// concept's, and the results are bit for bit RefBackend's (tests/ntru checks it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ntru/backend.hpp"

namespace pqkem::ntru {

template <class K>
struct X86Backend {
  static constexpr Impl kImpl = K::kImpl;
  static constexpr std::size_t kProductScratchBytes = K::kProductScratchBytes;

  template <class P>
  static void poly_mul_cyclic(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    K::poly_mul_cyclic(r.c.data(), a.c.data(), b.c.data(), P::n);
  }
  template <class P>
  static void poly_rq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    K::poly_rq_mul(r.c.data(), a.c.data(), b.c.data(), P::n, P::logq);
  }
  template <class P>
  static void poly_sq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    K::poly_sq_mul(r.c.data(), a.c.data(), b.c.data(), P::n, P::logq);
  }
  template <class P>
  static void poly_s3_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    K::poly_s3_mul(r.c.data(), a.c.data(), b.c.data(), P::n);
  }
  template <class P>
  static void poly_rq_mul_in(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept {
    K::poly_rq_mul_in(r.c.data(), a.c.data(), b.c.data(), P::n, P::logq, scratch);
  }
  template <class P>
  static void poly_sq_mul_in(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept {
    K::poly_sq_mul_in(r.c.data(), a.c.data(), b.c.data(), P::n, P::logq, scratch);
  }
  template <class P>
  static void poly_s3_mul_in(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept {
    K::poly_s3_mul_in(r.c.data(), a.c.data(), b.c.data(), P::n, scratch);
  }
  template <class P>
  static void wipe_product_scratch(void* scratch) noexcept {
    K::wipe_product_scratch(scratch, P::n);
  }
  template <class P>
  static void poly_mul_x_minus_1(Poly<P>& r, const Poly<P>& a) noexcept {
    K::poly_mul_x_minus_1(r.c.data(), a.c.data(), P::n, P::logq);
  }
  template <class P>
  static void poly_r2_inv(Poly<P>& r, const Poly<P>& a) noexcept {
    K::poly_r2_inv(r.c.data(), a.c.data(), P::n);
  }
  template <class P>
  static void poly_rq_inv(Poly<P>& r, const Poly<P>& a) noexcept {
    K::poly_rq_inv(r.c.data(), a.c.data(), P::n, P::logq);
  }
  template <class P>
  static void poly_s3_inv(Poly<P>& r, const Poly<P>& a) noexcept {
    K::poly_s3_inv(r.c.data(), a.c.data(), P::n);
  }
  static void sort_int32(std::span<std::int32_t> x) noexcept {
    if (x.size() <= K::kSortMaxLen)
      K::sort_int32(x.data(), x.size());  // public length
    else
      sort_int32_ref(x);
  }
  template <class P>
  static void sample_fixed_type(Poly<P>& r, const std::uint8_t* u) noexcept {
    if constexpr (P::n - 1 <= K::kSortMaxLen)
      K::sample_fixed_type(r.c.data(), u, P::n, P::weight);
    else
      sample_fixed_type_ref<P>(r, u);
  }
  template <class P>
  static void poly_s3_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept {
    K::poly_s3_frombytes(r.c.data(), in.data(), P::n);
  }
  template <class P>
  static void poly_sq_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
    K::poly_q_frombytes(r.c.data(), in.data(), P::n, P::logq, false);
  }
  template <class P>
  static void poly_rq_sum_zero_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
    K::poly_q_frombytes(r.c.data(), in.data(), P::n, P::logq, true);
  }
  template <class P>
  static void poly_rq_to_s3(Poly<P>& r, const Poly<P>& a) noexcept {
    K::poly_rq_to_s3(r.c.data(), a.c.data(), P::n, P::logq);
  }
  template <class P>
  static void poly_z3_to_zq(Poly<P>& r, const Poly<P>& a) noexcept {
    K::poly_z3_to_zq(r.c.data(), a.c.data(), P::n, P::logq);
  }
  template <class P>
  static void poly_trinary_zq_to_z3(Poly<P>& r, const Poly<P>& a) noexcept {
    K::poly_trinary_zq_to_z3(r.c.data(), a.c.data(), P::n, P::logq);
  }
  template <class P>
  static void poly_s3_tobytes(std::span<std::uint8_t, P::pack_trinary_bytes> out, const Poly<P>& a) noexcept {
    K::poly_s3_tobytes(out.data(), a.c.data(), P::n);
  }
  template <class P>
  static void poly_lift(Poly<P>& r, const Poly<P>& m) noexcept {
    if constexpr (P::hps)
      K::poly_z3_to_zq(r.c.data(), m.c.data(), P::n, P::logq);  // HPS: m in {0, 1, q - 1} form
    else
      K::poly_lift_hrss(r.c.data(), m.c.data(), P::n, P::logq);
  }
  // Both hashes in one 4-way permutation while the inputs allow.
  static void sha3_256_pair(std::span<std::uint8_t, 32> k0, ByteView m0, std::span<std::uint8_t, 32> k1, ByteView m1a,
                            ByteView m1b) noexcept {
    K::sha3_256_pair(k0.data(), m0.data(), m0.size(), k1.data(), m1a.data(), m1a.size(), m1b.data(), m1b.size());
  }
  // expand_coins' eight SHAKE256 streams on the widest lanes the backend has.
  static void keccak_jobs(const KeccakJob* jobs, int n) noexcept { K::keccak_jobs(jobs, n); }
};

}  // namespace pqkem::ntru
