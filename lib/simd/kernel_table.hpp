// pqkem: the kernel table of an x86 instruction set, written once for all of them.
// PQKEM_SIMD_KERNEL_TABLE(isa), inside a struct, names the implementation (Impl::isa) and every
// kernel the backends take from it, each the address of the C-like kernel `<stem>_<isa>` in
// simd::<isa> (mlkem_<isa>.hpp, ntru_kernels.inc, keccak_<isa>.hpp: contracts at their
// declarations). simd/kernels_avx2.hpp and simd/kernels_avx512.hpp expand it, so the two tables
// hold the same entries by construction: a kernel is added to both at once, and an ISA that lacks
// one fails to compile.
#pragma once

#include <cstddef>  // the expansion names std::size_t and Impl

#include "impl.hpp"

#define PQKEM_SIMD_KERNEL_TABLE(isa)                                                             \
  static constexpr Impl kImpl = Impl::isa;                                                       \
  /* ML-KEM (mlkem_<isa>.hpp): the arithmetic in the AVX2 order of T_q, and the sponge batch. */ \
  static constexpr auto ntt = isa::ntt_##isa;                                                    \
  static constexpr auto inverse_ntt = isa::inverse_ntt_##isa;                                    \
  static constexpr auto inner_product = isa::inner_product_##isa;                                \
  static constexpr auto tomont_add_reduce = isa::tomont_add_reduce_##isa;                        \
  static constexpr auto add_reduce = isa::add_reduce_##isa;                                      \
  static constexpr auto sub_reduce = isa::sub_reduce_##isa;                                      \
  static constexpr auto xof_batch = isa::xof_batch_##isa;                                        \
  /* NTRU (ntru_kernels.inc), and its hash pair and sponge batches (keccak_<isa>.hpp). */        \
  static constexpr std::size_t kProductScratchBytes = isa::kNtruProductScratchBytes;             \
  static constexpr std::size_t kSortMaxLen = isa::kNtruSortMaxLen;                               \
  static constexpr auto poly_mul_cyclic = isa::poly_mul_cyclic_##isa;                            \
  static constexpr auto poly_rq_mul = isa::poly_rq_mul_##isa;                                    \
  static constexpr auto poly_sq_mul = isa::poly_sq_mul_##isa;                                    \
  static constexpr auto poly_s3_mul = isa::poly_s3_mul_##isa;                                    \
  static constexpr auto poly_rq_mul_in = isa::poly_rq_mul_in_##isa;                              \
  static constexpr auto poly_sq_mul_in = isa::poly_sq_mul_in_##isa;                              \
  static constexpr auto poly_s3_mul_in = isa::poly_s3_mul_in_##isa;                              \
  static constexpr auto wipe_product_scratch = isa::wipe_product_scratch_##isa;                  \
  static constexpr auto poly_mul_x_minus_1 = isa::poly_mul_x_minus_1_##isa;                      \
  static constexpr auto poly_r2_inv = isa::poly_r2_inv_##isa;                                    \
  static constexpr auto poly_rq_inv = isa::poly_rq_inv_##isa;                                    \
  static constexpr auto poly_s3_inv = isa::poly_s3_inv_##isa;                                    \
  static constexpr auto sort_int32 = isa::sort_int32_##isa;                                      \
  static constexpr auto sample_fixed_type = isa::sample_fixed_type_##isa;                        \
  static constexpr auto poly_s3_frombytes = isa::poly_s3_frombytes_##isa;                        \
  static constexpr auto poly_q_frombytes = isa::poly_q_frombytes_##isa;                          \
  static constexpr auto poly_rq_to_s3 = isa::poly_rq_to_s3_##isa;                                \
  static constexpr auto poly_z3_to_zq = isa::poly_z3_to_zq_##isa;                                \
  static constexpr auto poly_trinary_zq_to_z3 = isa::poly_trinary_zq_to_z3_##isa;                \
  static constexpr auto poly_s3_tobytes = isa::poly_s3_tobytes_##isa;                            \
  static constexpr auto poly_lift_hrss = isa::poly_lift_hrss_##isa;                              \
  static constexpr auto sha3_256_pair = isa::sha3_256_x2_##isa;                                  \
  static constexpr auto keccak_jobs = isa::keccak_jobs_##isa;
