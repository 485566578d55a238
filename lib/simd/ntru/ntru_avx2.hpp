// NTRU AVX2 kernels: the twins of the portable `_ref` kernels of lib/ntru.
//
// This header is included by -mavx2 translation units, so it stays C-like: plain functions on
// raw coefficient arrays, no inline or template code that portable callers could share.
// `ntru::Avx2Backend<P>` (lib/ntru/backend.hpp) wraps each function for a parameter set P and is
// the only caller; with_kem (lib/scheme.cpp) chooses the backend once per operation.
//
// Common contract, every function:
//   - n is one of 509, 677, 701, 821 and logq the matching log2 q (11, 11, 12, 13);
//   - arrays hold exactly n uint16_t coefficients (no padding is read or written), r may alias
//     a or b; the result is bit for bit the portable twin's (lib/ntru/poly.hpp states the
//     representations "mod 2^16", "Rq", "Sq", "Z3", "S3");
//   - constant time: no branch, table index or division depends on coefficient values;
//   - the CPU supports AVX2, BMI1, BMI2, POPCNT and PCLMULQDQ (the dispatcher checks it), stack temporaries
//     that held coefficients are wiped before returning.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pqkem::simd::avx2 {

/// r = a * b in Z_{2^16}[x]/(x^n - 1). In: mod 2^16. Out: mod 2^16 (twin: poly_mul_cyclic_ref).
/// Karatsuba over blocks of 16 coefficients down to 16-lane schoolbook products.
void ntru_poly_mul_cyclic_avx2(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n) noexcept;

/// r = a * b in Z_{2^13}[x]/(x^n - 1): coefficients correct mod 2^13, their top 3 bits
/// unspecified. In: mod 2^16. Toom-Cook 4-way (its interpolation loses 3 bits), two Karatsuba
/// levels, then 16 leaf products at a time in transposed layout. Internal: the Rq, Sq and S3
/// products and the Rq inversion use it (q <= 2^13 and S3 products are < 4n < 2^13); it has no
/// twin in the kernel table, the tests compare it with poly_mul_cyclic_ref mod 2^13.
void ntru_poly_mul_cyclic_mod8192_avx2(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n) noexcept;

/// Rq multiplication. In: mod 2^16. Out: Rq (twin: poly_rq_mul_ref). By the Toom-4 product: Rq
/// needs the product mod q only, and q <= 2^13.
void ntru_poly_rq_mul_avx2(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n, int logq) noexcept;

/// Sq multiplication. In: mod 2^16. Out: Sq (twin: poly_sq_mul_ref). By the Toom-4 product.
void ntru_poly_sq_mul_avx2(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n, int logq) noexcept;

/// S3 multiplication: the cyclic product (exact: coefficients <= 4n < 2^13, so the Toom-4
/// product mod 2^13 is exact) reduced mod (3, Phi_n).
/// In: Z3. Out: S3 (twin: poly_s3_mul_ref).
void ntru_poly_s3_mul_avx2(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n) noexcept;

/// Bytes of scratch for the products below, enough for every n (checked at compile time).
inline constexpr std::size_t kNtruProductScratchBytes = 32768;
/// ntru_poly_rq_mul_avx2, ntru_poly_sq_mul_avx2 and ntru_poly_s3_mul_avx2 with their Toom-4 workspace in
/// `scratch` (kNtruProductScratchBytes, 32-byte aligned) instead of on the stack, left holding
/// secret data: an operation that runs several products wipes the workspace once, with
/// ntru_wipe_product_scratch_avx2, instead of once per product. Scratch contents on entry do not
/// matter.
void ntru_poly_rq_mul_in_avx2(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n, int logq,
                         void* scratch) noexcept;
void ntru_poly_sq_mul_in_avx2(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n, int logq,
                         void* scratch) noexcept;
void ntru_poly_s3_mul_in_avx2(std::uint16_t* r, const std::uint16_t* a, const std::uint16_t* b, int n,
                         void* scratch) noexcept;
/// Zeroes every byte the products above can have written to scratch for this n.
void ntru_wipe_product_scratch_avx2(void* scratch, int n) noexcept;
/// r = (x - 1) a in Rq. In: mod 2^16. Out: Rq (twin: poly_mul_x_minus_1_ref).
void ntru_poly_mul_x_minus_1_avx2(std::uint16_t* r, const std::uint16_t* a, int n, int logq) noexcept;

/// Inverse in S2 by 2(n-1) - 1 constant-time divsteps (Bernstein-Yang), run as jump divsteps:
/// blocks of 60 scalar steps on the low words, each block's 2x2 transition matrix applied to the
/// whole polynomials with carry-less multiplication (PCLMULQDQ). In: a_i mod 2 is used. Out: S2 ({0, 1}, r_{n-1} = 0), the inverse of a mod
/// (2, Phi_n), or 0 if a = 0 mod (2, Phi_n) (twin: poly_r2_inv_ref).
void ntru_poly_r2_inv_avx2(std::uint16_t* r, const std::uint16_t* a, int n) noexcept;

/// Inverse mod (q, Phi_n): ntru_poly_r2_inv_avx2, then (for log2 q = 11, 12) one step
/// r <- r (1 + u + u^2) with u = 1 - a r, and Newton steps r <- r (2 - a r), all with the Toom-4
/// product mod 2^13 of ntru_poly_mul_cyclic_mod8192_avx2 (one shared workspace, operands evaluated
/// once and reused), until the precision reaches q. In: mod 2^16. Out: Sq (twin: poly_rq_inv_ref).
void ntru_poly_rq_inv_avx2(std::uint16_t* r, const std::uint16_t* a, int n, int logq) noexcept;

/// Inverse in S3 by constant-time divsteps, trits bit-sliced as (nonzero, negative) bit planes.
/// In: Z3. Out: S3, the inverse mod (3, Phi_n), or 0 if there is none (twin: poly_s3_inv_ref).
void ntru_poly_s3_inv_avx2(std::uint16_t* r, const std::uint16_t* a, int n) noexcept;

/// Sorts x[0 .. len) ascending as int32, len <= 1024 (x needs no alignment), with a bitonic
/// sorting network on 2^t >= max(len, 64) wires padded with INT32_MAX, in a transposed layout
/// where all but 6 of its stages are whole-vector min/max. The comparisons, branches and
/// addresses depend on len only.
/// (twin: sort_int32_ref; the sorted sequence is unique, so the outputs are identical.)
void ntru_sort_int32_avx2(std::int32_t* x, std::size_t len) noexcept;
inline constexpr std::size_t kNtruSortMaxLen = 1024;

/// NTRU-HPS Sample_fixed_type: r[0 .. n-1) gets weight/2 coefficients 1 and weight/2
/// coefficients 2 (-1) at the positions given by sorting the 30-bit keys read from u
/// (P::sample_ft_bytes = ceil(30 (n-1) / 8) bytes, little-endian bit stream), r[n-1] = 0.
/// In: 2 <= n - 1 <= kNtruSortMaxLen,
/// weight <= n - 1 even. Out: Z3. Builds the keys 8 at a time, sorts them with the network of
/// ntru_sort_int32_avx2 and packs the labels 16 at a time (twin: sample_fixed_type_ref; the kernel
/// table's sample_fixed_type entry).
void ntru_sample_fixed_type_avx2(std::uint16_t* r, const std::uint8_t* u, int n, int weight) noexcept;

/// unpack_S3: r_{5j+k} = floor(in_j / 3^k) mod 3 for 5j + k < n - 1 (any byte value),
/// r_{n-1} = 0; in holds ceil((n - 1) / 5) bytes (twin: poly_s3_frombytes_ref).
void ntru_s3_frombytes_avx2(std::uint16_t* r, const std::uint8_t* in, int n) noexcept;

/// The coefficient conversions of poly.hpp, for n >= 16 coefficients; r may alias a. Rq -> S3
/// (twin: poly_rq_to_s3_ref), Z3 -> Zq (poly_z3_to_zq_ref), trinary Zq -> Z3 (poly_trinary_zq_to_z3_ref).
void ntru_rq_to_s3_avx2(std::uint16_t* r, const std::uint16_t* a, int n, int logq) noexcept;
void ntru_z3_to_zq_avx2(std::uint16_t* r, const std::uint16_t* a, int n, int logq) noexcept;
void ntru_trinary_zq_to_z3_avx2(std::uint16_t* r, const std::uint16_t* a, int n, int logq) noexcept;

/// pack_S3: out_j = sum_k 3^k c_{5j+k} over 5j + k < n - 1, ceil((n - 1) / 5) bytes, for c in
/// {0, 1, 2} (twin: poly_s3_tobytes_ref).
void ntru_s3_tobytes_avx2(std::uint8_t* out, const std::uint16_t* c, int n) noexcept;

/// unpack_Sq (sum_zero false: r_{n-1} = 0) and unpack_Rq0 (sum_zero true: r_{n-1} =
/// -(r_0 + ... + r_{n-2}) mod q): r_i = the logq-bit field i of the little-endian bit stream at
/// in (ceil((n - 1) logq / 8) bytes; the unused bits of the last byte are ignored)
/// (twins: poly_sq_frombytes_ref, poly_rq_sum_zero_frombytes_ref).
void ntru_q_frombytes_avx2(std::uint16_t* r, const std::uint8_t* in, int n, int logq, bool sum_zero) noexcept;

/// NTRU-HRSS Lift: r = (x - 1) b with b = m / (x - 1) mod (3, Phi_n) in {0, 1, q - 1} form
/// (b_{n-1} = 0). In: Z3. Out: Rq (twin: poly_lift_ref of an HRSS parameter set). r may alias m.
void ntru_poly_lift_hrss_avx2(std::uint16_t* r, const std::uint16_t* m, int n, int logq) noexcept;

}  // namespace pqkem::simd::avx2
