// pqkem: the kernels of the AVX2 instruction set, by name: the one place the backends that run
// on it (mlkem::Avx2Backend, ntru::Avx2Backend: simd/mlkem/backend_avx2.hpp,
// simd/ntru/backend_avx2.hpp) learn them. Each entry is the address of a C-like kernel compiled
// with the AVX2 flags (contracts at its declaration); the kernels exist only when
// PQKEM_HAVE_AVX2 is 1, and run only when simd::impl_usable(Impl::avx2).
#pragma once

#include <cstddef>

#include "impl.hpp"
#include "simd/keccak/keccak_avx2.hpp"
#include "simd/mlkem/mlkem_avx2.hpp"
#include "simd/ntru/ntru_avx2.hpp"

namespace pqkem::simd {

struct Avx2Kernels {
  static constexpr Impl kImpl = Impl::avx2;

  // ML-KEM (mlkem_avx2.hpp): the arithmetic in the AVX2 order of T_q, and the sponge batch.
  static constexpr auto ntt = avx2::ntt_avx2;
  static constexpr auto inverse_ntt = avx2::inverse_ntt_avx2;
  static constexpr auto inner_product = avx2::inner_product_avx2;
  static constexpr auto tomont_add_reduce = avx2::tomont_add_reduce_avx2;
  static constexpr auto add_reduce = avx2::add_reduce_avx2;
  static constexpr auto sub_reduce = avx2::sub_reduce_avx2;
  static constexpr auto xof_batch = avx2::xof_batch_avx2;

  // NTRU (ntru_kernels.inc), and its hash pair and sponge batches (keccak_avx2.hpp).
  static constexpr std::size_t kProductScratchBytes = avx2::kNtruProductScratchBytes;
  static constexpr std::size_t kSortMaxLen = avx2::kNtruSortMaxLen;
  static constexpr auto poly_mul_cyclic = avx2::poly_mul_cyclic_avx2;
  static constexpr auto poly_rq_mul = avx2::poly_rq_mul_avx2;
  static constexpr auto poly_sq_mul = avx2::poly_sq_mul_avx2;
  static constexpr auto poly_s3_mul = avx2::poly_s3_mul_avx2;
  static constexpr auto poly_rq_mul_in = avx2::poly_rq_mul_in_avx2;
  static constexpr auto poly_sq_mul_in = avx2::poly_sq_mul_in_avx2;
  static constexpr auto poly_s3_mul_in = avx2::poly_s3_mul_in_avx2;
  static constexpr auto wipe_product_scratch = avx2::wipe_product_scratch_avx2;
  static constexpr auto poly_mul_x_minus_1 = avx2::poly_mul_x_minus_1_avx2;
  static constexpr auto poly_r2_inv = avx2::poly_r2_inv_avx2;
  static constexpr auto poly_rq_inv = avx2::poly_rq_inv_avx2;
  static constexpr auto poly_s3_inv = avx2::poly_s3_inv_avx2;
  static constexpr auto sort_int32 = avx2::sort_int32_avx2;
  static constexpr auto sample_fixed_type = avx2::sample_fixed_type_avx2;
  static constexpr auto poly_s3_frombytes = avx2::poly_s3_frombytes_avx2;
  static constexpr auto poly_q_frombytes = avx2::poly_q_frombytes_avx2;
  static constexpr auto poly_rq_to_s3 = avx2::poly_rq_to_s3_avx2;
  static constexpr auto poly_z3_to_zq = avx2::poly_z3_to_zq_avx2;
  static constexpr auto poly_trinary_zq_to_z3 = avx2::poly_trinary_zq_to_z3_avx2;
  static constexpr auto poly_s3_tobytes = avx2::poly_s3_tobytes_avx2;
  static constexpr auto poly_lift_hrss = avx2::poly_lift_hrss_avx2;
  static constexpr auto sha3_256_pair = avx2::sha3_256_x2_avx2;
  static constexpr auto keccak_jobs = avx2::keccak_jobs_avx2;
};

}  // namespace pqkem::simd
