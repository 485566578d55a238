// ML-KEM backends with their contracts checked (lib/contract.hpp): Checked<B> runs B's kernels
// and checks, at each one's entry and exit, the bounds MlKemBackend (backend.hpp) states.
// Contracted<B> is Checked<B> in builds with PQKEM_CONTRACTS on, else B itself.
#pragma once

#include <type_traits>

#include "contract.hpp"
#include "mlkem/backend.hpp"

namespace pqkem::mlkem {

template <MlKemBackend B>
struct Checked {
  static constexpr Impl kImpl = B::kImpl;
  using NttPoly = typename B::NttPoly;

  static NttPoly from_fips203_order(const mlkem::NttPoly& f) noexcept { return B::from_fips203_order(f); }
  static mlkem::NttPoly to_fips203_order(const NttPoly& f) noexcept { return B::to_fips203_order(f); }
  static NttPoly ntt(const Poly& f) noexcept {
    expect_abs(f.c.data(), kQ - 1, "ntt", "in: |f_i| < q");
    NttPoly r = B::ntt(f);
    expect_abs(r.c.data(), kHalfQ, "ntt", "out: |f^_i| <= (q-1)/2");
    return r;
  }
  static Poly inverse_ntt(const NttPoly& f) noexcept {
    expect_abs(f.c.data(), kQ - 1, "inverse_ntt", "in: |f^_i| < q");
    Poly r = B::inverse_ntt(f);
    expect_abs(r.c.data(), kQ - 1, "inverse_ntt", "out: |f_i| < q");
    return r;
  }
  static void inner_product(NttPoly& r, const NttPoly* a, const NttPoly* b, int k) noexcept {
    contract::expect(k >= 1 && k <= 4, "inner_product", "in: 1 <= k <= 4");
    for (int j = 0; j < k; ++j) {
      expect_abs(a[j].c.data(), kQ - 1, "inner_product", "in: |a_i| < q");
      expect_abs(b[j].c.data(), kQ - 1, "inner_product", "in: |b_i| < q");
    }
    B::inner_product(r, a, b, k);
    expect_abs(r.c.data(), kHalfQ, "inner_product", "out: |r_i| <= (q-1)/2");
  }
  static void tomont_add_reduce(NttPoly& t, const NttPoly& e) noexcept {
    expect_abs(t.c.data(), kHalfQ, "tomont_add_reduce", "in: |t_i| <= (q-1)/2");
    expect_abs(e.c.data(), kQ - 1, "tomont_add_reduce", "in: |e_i| < q");
    B::tomont_add_reduce(t, e);
    expect_abs(t.c.data(), kHalfQ, "tomont_add_reduce", "out: |t_i| <= (q-1)/2");
  }
  static void add_reduce(Poly& r, const Poly& a, const Poly* b) noexcept {
    bool ok = true;
    for (int i = 0; i < kN; ++i) {
      const long s = long{r.c[i]} + a.c[i] + (b != nullptr ? b->c[i] : 0);
      ok &= s > -32768 && s < 32768;
    }
    contract::expect(ok, "add_reduce", "in: |r_i + a_i + b_i| < 2^15");
    B::add_reduce(r, a, b);
    expect_abs(r.c.data(), kHalfQ, "add_reduce", "out: |r_i| <= (q-1)/2");
  }
  static void sub_reduce(Poly& r, const Poly& a) noexcept {
    bool ok = true;
    for (int i = 0; i < kN; ++i) {
      const long d = long{a.c[i]} - r.c[i];
      ok &= d > -32768 && d < 32768;
    }
    contract::expect(ok, "sub_reduce", "in: |a_i - r_i| < 2^15");
    B::sub_reduce(r, a);
    expect_abs(r.c.data(), kHalfQ, "sub_reduce", "out: |r_i| <= (q-1)/2");
  }
  static NttPoly decode12(std::span<const std::uint8_t, kPolyBytes> in) noexcept {
    NttPoly r = B::decode12(in);
    expect_mod_q(r.c.data(), "decode12", "out: 0 <= f^_i < q");
    return r;
  }
  static void encode12(const NttPoly& f, std::span<std::uint8_t, kPolyBytes> out) noexcept {
    expect_abs(f.c.data(), kQ - 1, "encode12", "in: |f^_i| < q");
    B::encode12(f, out);
  }
  static bool is_canonical12(std::span<const std::uint8_t, kPolyBytes> in) noexcept { return B::is_canonical12(in); }
  template <int D>
  static void compress_encode(const Poly& f, std::span<std::uint8_t, 32 * D> out) noexcept {
    expect_abs(f.c.data(), kQ - 1, "compress_encode", "in: |f_i| < q");
    B::template compress_encode<D>(f, out);
  }
  template <int D>
  static Poly decode_decompress(std::span<const std::uint8_t, 32 * D> in) noexcept {
    Poly r = B::template decode_decompress<D>(in);
    expect_mod_q(r.c.data(), "decode_decompress", "out: 0 <= f_i < q");
    return r;
  }
  static void sample_ntt_x4(NttPoly* const out[4], Bytes32 rho, const std::uint8_t xy[4][2], int n) {
    B::sample_ntt_x4(out, rho, xy, n);
    for (int j = 0; j < n; ++j) expect_mod_q(out[j]->c.data(), "sample_ntt_x4", "out: 0 <= a_i < q");
  }
  template <int Eta>
  static void sample_noise_x4(Poly* const out[4], Bytes32 seed, const std::uint8_t nonce[4], int n) {
    B::template sample_noise_x4<Eta>(out, seed, nonce, n);
    for (int j = 0; j < n; ++j) expect_abs(out[j]->c.data(), Eta, "sample_noise_x4", "out: |a_i| <= eta");
  }
  static void run_xof_batch(const XofBatch<NttPoly>& b) {
    B::run_xof_batch(b);
    for (int i = 0; i < b.n_matrix; ++i) expect_mod_q(b.matrix[i], "run_xof_batch", "out: matrix 0 <= a_i < q");
    for (int i = 0; i < b.n_noise; ++i) expect_abs(b.noise[i], b.eta[i], "run_xof_batch", "out: noise |a_i| <= eta");
  }
  static void sha3_256(std::span<std::uint8_t, 32> out, ByteView a, ByteView b) { B::sha3_256(out, a, b); }
  static void sha3_512(std::span<std::uint8_t, 64> out, ByteView a, ByteView b) { B::sha3_512(out, a, b); }
  static void shake256(std::span<std::uint8_t> out, ByteView a, ByteView b) { B::shake256(out, a, b); }

private:
  static constexpr int kHalfQ = (kQ - 1) / 2;
  static void expect_abs(const std::int16_t* c, long bound, const char* kernel, const char* condition) noexcept {
    contract::expect(contract::all_between(c, kN, -bound, bound), kernel, condition);
  }
  static void expect_mod_q(const std::int16_t* c, const char* kernel, const char* condition) noexcept {
    contract::expect(contract::all_between(c, kN, 0, kQ - 1), kernel, condition);
  }
};

template <class B>
using Contracted = std::conditional_t<contract::kEnabled, Checked<B>, B>;

}  // namespace pqkem::mlkem
