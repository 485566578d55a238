// NTRU backends: the kernel sets the OW-CPA layer and the KEM run on, one struct per
// implementation, like ML-KEM's (mlkem/backend.hpp). The NTRU code (owcpa_impl.hpp,
// kem_impl.hpp) is templated on (parameter set P, backend B) and instantiated for every backend
// of the build's list (lib/backends/backends.hpp); lib/scheme.cpp picks the backend once per
// operation.
//
// A backend is a struct of static kernels over Poly<P> (P is deduced from the polynomials).
// NtruBackend below states them; each kernel's contract is in RefBackend's comment on it (the
// representations "mod 2^16", "Rq", "Sq", "Z3", "S3" are defined in poly.hpp): every kernel is
// noexcept, constant time, lets its output alias an input, and returns bit for bit what
// RefBackend returns (tests/ntru/ntru_avx2_test.cpp checks it). The SIMD backends live in
// lib/simd/ntru (backend_x86.hpp); this directory includes nothing from lib/simd.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>

#include "hash.hpp"
#include "impl.hpp"
#include "ntru/pack.hpp"
#include "ntru/params.hpp"
#include "ntru/poly.hpp"
#include "ntru/sample.hpp"
#include "ntru/sort.hpp"
#include "secret.hpp"

namespace pqkem::ntru {

/// What the NTRU code needs of a backend B, checked for one parameter set (the kernels are
/// templates over P); the contracts are RefBackend's comments.
template <class B, class P = NtruHps2048509>
concept NtruBackend = requires(Poly<P>& r, const Poly<P>& a, void* scratch, std::span<std::int32_t> x,
                               const std::uint8_t* u, std::span<const std::uint8_t, P::pack_trinary_bytes> in3,
                               std::span<const std::uint8_t, P::pack_q_bytes> inq,
                               std::span<std::uint8_t, P::pack_trinary_bytes> out3, std::span<std::uint8_t, 32> k,
                               ByteView m, const KeccakJob* jobs, int n) {
  { B::kImpl } -> std::convertible_to<Impl>;
  { B::kProductScratchBytes } -> std::convertible_to<std::size_t>;
  { B::poly_mul_cyclic(r, a, a) }
  noexcept;
  { B::poly_rq_mul(r, a, a) }
  noexcept;
  { B::poly_sq_mul(r, a, a) }
  noexcept;
  { B::poly_s3_mul(r, a, a) }
  noexcept;
  { B::poly_rq_mul_in(r, a, a, scratch) }
  noexcept;
  { B::poly_sq_mul_in(r, a, a, scratch) }
  noexcept;
  { B::poly_s3_mul_in(r, a, a, scratch) }
  noexcept;
  { B::template wipe_product_scratch<P>(scratch) }
  noexcept;
  { B::poly_mul_x_minus_1(r, a) }
  noexcept;
  { B::poly_r2_inv(r, a) }
  noexcept;
  { B::poly_rq_inv(r, a) }
  noexcept;
  { B::poly_s3_inv(r, a) }
  noexcept;
  { B::sort_int32(x) }
  noexcept;
  { B::sample_fixed_type(r, u) }
  noexcept;
  { B::poly_s3_frombytes(r, in3) }
  noexcept;
  { B::poly_sq_frombytes(r, inq) }
  noexcept;
  { B::poly_rq_sum_zero_frombytes(r, inq) }
  noexcept;
  { B::poly_rq_to_s3(r, a) }
  noexcept;
  { B::poly_z3_to_zq(r, a) }
  noexcept;
  { B::poly_trinary_zq_to_z3(r, a) }
  noexcept;
  { B::poly_s3_tobytes(out3, a) }
  noexcept;
  { B::poly_lift(r, a) }
  noexcept;
  { B::sha3_256_pair(k, m, k, m, m) }
  noexcept;
  { B::keccak_jobs(jobs, n) }
  noexcept;
};

/// The portable kernels (the `_ref` twins of poly.hpp, pack.hpp, sample.hpp, sort.hpp).
struct RefBackend {
  static constexpr Impl kImpl = Impl::portable;
  /// Bytes of product scratch the `_in` products need: none.
  static constexpr std::size_t kProductScratchBytes = 0;

  /// r = a * b in Z_{2^16}[x]/(x^n - 1). In: mod 2^16. Out: mod 2^16.
  template <class P>
  static void poly_mul_cyclic(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    poly_mul_cyclic_ref<P>(r, a, b);
  }
  /// Rq multiplication. In: mod 2^16. Out: Rq.
  template <class P>
  static void poly_rq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    poly_rq_mul_ref<P>(r, a, b);
  }
  /// Sq multiplication. In: mod 2^16. Out: Sq.
  template <class P>
  static void poly_sq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    poly_sq_mul_ref<P>(r, a, b);
  }
  /// S3 multiplication. In: Z3. Out: S3.
  template <class P>
  static void poly_s3_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    poly_s3_mul_ref<P>(r, a, b);
  }
  /// The three products with their temporaries in `scratch` (kProductScratchBytes, 64-byte
  /// aligned), left there for wipe_product_scratch: an operation running several products wipes
  /// once. Use them through ProductScratch. The portable products keep their few temporaries to
  /// themselves and ignore scratch.
  template <class P>
  static void poly_rq_mul_in(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* /*scratch*/) noexcept {
    poly_rq_mul_ref<P>(r, a, b);
  }
  template <class P>
  static void poly_sq_mul_in(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* /*scratch*/) noexcept {
    poly_sq_mul_ref<P>(r, a, b);
  }
  template <class P>
  static void poly_s3_mul_in(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* /*scratch*/) noexcept {
    poly_s3_mul_ref<P>(r, a, b);
  }
  template <class P>
  static void wipe_product_scratch(void* /*scratch*/) noexcept {}
  /// r = (x - 1) a in Rq. In: mod 2^16. Out: Rq.
  template <class P>
  static void poly_mul_x_minus_1(Poly<P>& r, const Poly<P>& a) noexcept {
    poly_mul_x_minus_1_ref<P>(r, a);
  }
  /// Inverse in S2. In: a_i mod 2 is used. Out: S2, or 0 when a has no inverse.
  template <class P>
  static void poly_r2_inv(Poly<P>& r, const Poly<P>& a) noexcept {
    poly_r2_inv_ref<P>(r, a);
  }
  /// Inverse mod (q, Phi_n). In: mod 2^16. Out: Sq.
  template <class P>
  static void poly_rq_inv(Poly<P>& r, const Poly<P>& a) noexcept {
    poly_rq_inv_ref<P>(r, a);
  }
  /// Inverse in S3. In: Z3. Out: S3, or 0 when a has no inverse.
  template <class P>
  static void poly_s3_inv(Poly<P>& r, const Poly<P>& a) noexcept {
    poly_s3_inv_ref<P>(r, a);
  }
  /// Constant-time ascending sort of int32 values (the length is public).
  static void sort_int32(std::span<std::int32_t> x) noexcept { sort_int32_ref(x); }
  /// Sample_fixed_type (HPS) from P::sample_ft_bytes bytes at u. Out: Z3, r_{n-1} = 0.
  template <class P>
  static void sample_fixed_type(Poly<P>& r, const std::uint8_t* u) noexcept {
    sample_fixed_type_ref<P>(r, u);
  }
  /// unpack_S3 (any byte value). Out: S3.
  template <class P>
  static void poly_s3_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept {
    poly_s3_frombytes_ref<P>(r, in);
  }
  /// unpack_Sq. Out: Sq.
  template <class P>
  static void poly_sq_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
    poly_sq_frombytes_ref<P>(r, in);
  }
  /// unpack_Rq0 (r_{n-1} = minus the sum of the others). Out: Rq.
  template <class P>
  static void poly_rq_sum_zero_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
    poly_rq_sum_zero_frombytes_ref<P>(r, in);
  }
  /// Rq -> S3. In: mod 2^16. Out: S3.
  template <class P>
  static void poly_rq_to_s3(Poly<P>& r, const Poly<P>& a) noexcept {
    poly_rq_to_s3_ref<P>(r, a);
  }
  /// Z3 -> Zq, {0, 1, 2} -> {0, 1, q - 1}. In: Z3. Out: Rq.
  template <class P>
  static void poly_z3_to_zq(Poly<P>& r, const Poly<P>& a) noexcept {
    poly_z3_to_zq_ref<P>(r, a);
  }
  /// Trinary Zq -> Z3, {0, 1, q - 1} -> {0, 1, 2}. In: mod 2^16. Out: Z3 for trinary input.
  template <class P>
  static void poly_trinary_zq_to_z3(Poly<P>& r, const Poly<P>& a) noexcept {
    poly_trinary_zq_to_z3_ref<P>(r, a);
  }
  /// pack_S3. In: any values; the bytes are pack_S3's when a is Z3 (decapsulation also packs a
  /// failed decryption's r, which implicit rejection then discards).
  template <class P>
  static void poly_s3_tobytes(std::span<std::uint8_t, P::pack_trinary_bytes> out, const Poly<P>& a) noexcept {
    poly_s3_tobytes_ref<P>(out, a);
  }
  /// Lift (the message lift). In: Z3. Out: Rq.
  template <class P>
  static void poly_lift(Poly<P>& r, const Poly<P>& m) noexcept {
    poly_lift_ref<P>(r, m);
  }
  /// k0 = SHA3-256(m0) and k1 = SHA3-256(m1a || m1b): decapsulation's shared key and rejection key.
  static void sha3_256_pair(std::span<std::uint8_t, 32> k0, ByteView m0, std::span<std::uint8_t, 32> k1, ByteView m1a,
                            ByteView m1b) noexcept {
    hash::sha3_256(k0, {m0});
    hash::sha3_256(k1, {m1a, m1b});
  }
  /// Runs a batch of sponges (keccak_job.hpp), one after another: expand_coins'
  /// SHAKE256 streams.
  static void keccak_jobs(const KeccakJob* jobs, int n) noexcept { hash::keccak_jobs_ref(jobs, n); }
};
static_assert(NtruBackend<RefBackend>);

/// Scratch shared by the products of one operation, wiped once when it goes out of scope
/// (the SIMD products otherwise wipe their 15-45 KB workspace after every product).
template <class P, class B>
class ProductScratch {
public:
  ProductScratch() noexcept = default;
  ~ProductScratch() { B::template wipe_product_scratch<P>(m_buf); }
  ProductScratch(const ProductScratch&) = delete;
  ProductScratch& operator=(const ProductScratch&) = delete;

  void rq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept { B::poly_rq_mul_in(r, a, b, m_buf); }
  void sq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept { B::poly_sq_mul_in(r, a, b, m_buf); }
  void s3_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept { B::poly_s3_mul_in(r, a, b, m_buf); }

private:
  alignas(64) unsigned char m_buf[B::kProductScratchBytes > 0 ? B::kProductScratchBytes : 1];
};

}  // namespace pqkem::ntru
