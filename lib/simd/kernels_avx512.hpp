// pqkem: the kernels of the AVX-512 instruction set, by name: the one place the backends that run
// on it (mlkem::Avx512Backend, ntru::Avx512Backend: simd/mlkem/backend_avx512.hpp,
// simd/ntru/backend_avx512.hpp) learn them. Each entry is the address of a C-like kernel compiled
// with the AVX-512 flags (contracts at its declaration); the kernels exist only when
// PQKEM_HAVE_AVX512 is 1, and run only when simd::impl_usable(Impl::avx512).
#pragma once

#include <cstddef>

#include "impl.hpp"
#include "simd/keccak/keccak_avx512.hpp"
#include "simd/mlkem/mlkem_avx512.hpp"
#include "simd/ntru/ntru_avx512.hpp"

namespace pqkem::simd {

struct Avx512Kernels {
  static constexpr Impl kImpl = Impl::avx512;

  // ML-KEM (mlkem_avx512.hpp): the arithmetic in the AVX2 order of T_q, and the sponge batch.
  static constexpr auto ntt = avx512::ntt_avx512;
  static constexpr auto inverse_ntt = avx512::inverse_ntt_avx512;
  static constexpr auto inner_product = avx512::inner_product_avx512;
  static constexpr auto tomont_add_reduce = avx512::tomont_add_reduce_avx512;
  static constexpr auto add_reduce = avx512::add_reduce_avx512;
  static constexpr auto sub_reduce = avx512::sub_reduce_avx512;
  static constexpr auto xof_batch = avx512::xof_batch_avx512;

  // NTRU (ntru_kernels.inc), and its hash pair and sponge batches (keccak_avx512.hpp).
  static constexpr std::size_t kProductScratchBytes = avx512::kNtruProductScratchBytes;
  static constexpr std::size_t kSortMaxLen = avx512::kNtruSortMaxLen;
  static constexpr auto poly_mul_cyclic = avx512::poly_mul_cyclic_avx512;
  static constexpr auto poly_rq_mul = avx512::poly_rq_mul_avx512;
  static constexpr auto poly_sq_mul = avx512::poly_sq_mul_avx512;
  static constexpr auto poly_s3_mul = avx512::poly_s3_mul_avx512;
  static constexpr auto poly_rq_mul_in = avx512::poly_rq_mul_in_avx512;
  static constexpr auto poly_sq_mul_in = avx512::poly_sq_mul_in_avx512;
  static constexpr auto poly_s3_mul_in = avx512::poly_s3_mul_in_avx512;
  static constexpr auto wipe_product_scratch = avx512::wipe_product_scratch_avx512;
  static constexpr auto poly_mul_x_minus_1 = avx512::poly_mul_x_minus_1_avx512;
  static constexpr auto poly_r2_inv = avx512::poly_r2_inv_avx512;
  static constexpr auto poly_rq_inv = avx512::poly_rq_inv_avx512;
  static constexpr auto poly_s3_inv = avx512::poly_s3_inv_avx512;
  static constexpr auto sort_int32 = avx512::sort_int32_avx512;
  static constexpr auto sample_fixed_type = avx512::sample_fixed_type_avx512;
  static constexpr auto poly_s3_frombytes = avx512::poly_s3_frombytes_avx512;
  static constexpr auto poly_q_frombytes = avx512::poly_q_frombytes_avx512;
  static constexpr auto poly_rq_to_s3 = avx512::poly_rq_to_s3_avx512;
  static constexpr auto poly_z3_to_zq = avx512::poly_z3_to_zq_avx512;
  static constexpr auto poly_trinary_zq_to_z3 = avx512::poly_trinary_zq_to_z3_avx512;
  static constexpr auto poly_s3_tobytes = avx512::poly_s3_tobytes_avx512;
  static constexpr auto poly_lift_hrss = avx512::poly_lift_hrss_avx512;
  static constexpr auto sha3_256_pair = avx512::sha3_256_x2_avx512;
  static constexpr auto keccak_jobs = avx512::keccak_jobs_avx512;
};

}  // namespace pqkem::simd
