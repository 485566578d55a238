// NTRU backends with their contracts checked (lib/contract.hpp): Checked<B> runs B's kernels and
// checks, at each one's entry and exit, the representations RefBackend's comments state
// (backend.hpp; "Rq", "Sq", "Z3", "S3" as poly.hpp defines them). Contracted<B> is Checked<B>
// in builds with PQKEM_CONTRACTS on, else B itself.
#pragma once

#include <algorithm>
#include <type_traits>

#include "contract.hpp"
#include "ntru/backend.hpp"

namespace pqkem::ntru {

template <class B>
struct Checked {
  static constexpr Impl kImpl = B::kImpl;
  static constexpr std::size_t kProductScratchBytes = B::kProductScratchBytes;

  template <class P>
  static void poly_mul_cyclic(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    B::poly_mul_cyclic(r, a, b);
  }
  template <class P>
  static void poly_rq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    B::poly_rq_mul(r, a, b);
    expect_rq(r, "poly_rq_mul");
  }
  template <class P>
  static void poly_sq_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    B::poly_sq_mul(r, a, b);
    expect_sq(r, "poly_sq_mul");
  }
  template <class P>
  static void poly_s3_mul(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) noexcept {
    expect_z3(a, "poly_s3_mul", "in: a in Z3");
    expect_z3(b, "poly_s3_mul", "in: b in Z3");
    B::poly_s3_mul(r, a, b);
    expect_s3(r, "poly_s3_mul");
  }
  template <class P>
  static void poly_rq_mul_in(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept {
    B::poly_rq_mul_in(r, a, b, scratch);
    expect_rq(r, "poly_rq_mul_in");
  }
  template <class P>
  static void poly_sq_mul_in(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept {
    B::poly_sq_mul_in(r, a, b, scratch);
    expect_sq(r, "poly_sq_mul_in");
  }
  template <class P>
  static void poly_s3_mul_in(Poly<P>& r, const Poly<P>& a, const Poly<P>& b, void* scratch) noexcept {
    expect_z3(a, "poly_s3_mul_in", "in: a in Z3");
    expect_z3(b, "poly_s3_mul_in", "in: b in Z3");
    B::poly_s3_mul_in(r, a, b, scratch);
    expect_s3(r, "poly_s3_mul_in");
  }
  template <class P>
  static void wipe_product_scratch(void* scratch) noexcept {
    B::template wipe_product_scratch<P>(scratch);
  }
  template <class P>
  static void poly_mul_x_minus_1(Poly<P>& r, const Poly<P>& a) noexcept {
    B::poly_mul_x_minus_1(r, a);
    expect_rq(r, "poly_mul_x_minus_1");
  }
  template <class P>
  static void poly_r2_inv(Poly<P>& r, const Poly<P>& a) noexcept {
    B::poly_r2_inv(r, a);
    contract::expect(contract::all_between(r.c.data(), P::n, 0, 1) && r.c[P::n - 1] == 0, "poly_r2_inv",
                     "out: S2 (c_i in {0, 1}, c_{n-1} = 0)");
  }
  template <class P>
  static void poly_rq_inv(Poly<P>& r, const Poly<P>& a) noexcept {
    B::poly_rq_inv(r, a);
    expect_sq(r, "poly_rq_inv");
  }
  template <class P>
  static void poly_s3_inv(Poly<P>& r, const Poly<P>& a) noexcept {
    expect_z3(a, "poly_s3_inv", "in: Z3");
    B::poly_s3_inv(r, a);
    expect_s3(r, "poly_s3_inv");
  }
  static void sort_int32(std::span<std::int32_t> x) noexcept {
    B::sort_int32(x);
    contract::expect(std::is_sorted(x.begin(), x.end()), "sort_int32", "out: ascending");
  }
  template <class P>
  static void sample_fixed_type(Poly<P>& r, const std::uint8_t* u) noexcept {
    B::sample_fixed_type(r, u);
    expect_s3(r, "sample_fixed_type");
  }
  template <class P>
  static void poly_s3_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept {
    B::poly_s3_frombytes(r, in);
    expect_s3(r, "poly_s3_frombytes");
  }
  template <class P>
  static void poly_sq_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
    B::poly_sq_frombytes(r, in);
    expect_sq(r, "poly_sq_frombytes");
  }
  template <class P>
  static void poly_rq_sum_zero_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
    B::poly_rq_sum_zero_frombytes(r, in);
    expect_rq(r, "poly_rq_sum_zero_frombytes");
  }
  template <class P>
  static void poly_rq_to_s3(Poly<P>& r, const Poly<P>& a) noexcept {
    B::poly_rq_to_s3(r, a);
    expect_s3(r, "poly_rq_to_s3");
  }
  template <class P>
  static void poly_z3_to_zq(Poly<P>& r, const Poly<P>& a) noexcept {
    expect_z3(a, "poly_z3_to_zq", "in: Z3");
    B::poly_z3_to_zq(r, a);
    expect_rq(r, "poly_z3_to_zq");
  }
  template <class P>
  static void poly_trinary_zq_to_z3(Poly<P>& r, const Poly<P>& a) noexcept {
    bool trinary = true;
    for (std::size_t i = 0; i < P::n; ++i) trinary &= a.c[i] <= 1 || a.c[i] == P::q - 1;
    B::poly_trinary_zq_to_z3(r, a);
    if (trinary) expect_z3(r, "poly_trinary_zq_to_z3", "out: Z3 for trinary input");
  }
  template <class P>
  static void poly_s3_tobytes(std::span<std::uint8_t, P::pack_trinary_bytes> out, const Poly<P>& a) noexcept {
    B::poly_s3_tobytes(out, a);  // any input (a failed decryption's r is packed, then discarded)
  }
  template <class P>
  static void poly_lift(Poly<P>& r, const Poly<P>& m) noexcept {
    expect_z3(m, "poly_lift", "in: Z3");
    B::poly_lift(r, m);
    expect_rq(r, "poly_lift");
  }
  static void sha3_256_pair(std::span<std::uint8_t, 32> k0, ByteView m0, std::span<std::uint8_t, 32> k1, ByteView m1a,
                            ByteView m1b) noexcept {
    B::sha3_256_pair(k0, m0, k1, m1a, m1b);
  }
  static void keccak_jobs(const KeccakJob* jobs, int n) noexcept { B::keccak_jobs(jobs, n); }

private:
  template <class P>
  static void expect_rq(const Poly<P>& r, const char* kernel) noexcept {
    contract::expect(contract::all_between(r.c.data(), P::n, 0, P::q - 1), kernel, "out: Rq (0 <= c_i < q)");
  }
  template <class P>
  static void expect_sq(const Poly<P>& r, const char* kernel) noexcept {
    contract::expect(contract::all_between(r.c.data(), P::n, 0, P::q - 1) && r.c[P::n - 1] == 0, kernel,
                     "out: Sq (0 <= c_i < q, c_{n-1} = 0)");
  }
  template <class P>
  static void expect_z3(const Poly<P>& a, const char* kernel, const char* condition) noexcept {
    contract::expect(contract::all_between(a.c.data(), P::n, 0, 2), kernel, condition);
  }
  template <class P>
  static void expect_s3(const Poly<P>& r, const char* kernel) noexcept {
    contract::expect(contract::all_between(r.c.data(), P::n, 0, 2) && r.c[P::n - 1] == 0, kernel,
                     "out: S3 (c_i in {0, 1, 2}, c_{n-1} = 0)");
  }
};

template <class B>
using Contracted = std::conditional_t<contract::kEnabled, Checked<B>, B>;

}  // namespace pqkem::ntru
