// Differential: each NTRU AVX2 kernel (the kernel table of lib/ntru/kernels.cpp for
// Impl::avx2) against its portable `_ref` twin, for every parameter set, on inputs inside each
// kernel's stated representation (poly.hpp: "mod 2^16", "Z3"). Results must be bit-identical.
// Input: [parameter set and kernel selector][coefficient material].
#include <algorithm>
#include <vector>

#include "../ntru/kernel_table.hpp"
#include "fuzz_util.hpp"
#include "ntru/params.hpp"
#include "ntru/poly.hpp"
#include "simd/dispatch.hpp"

using namespace pqkem;
using namespace pqkem::ntru;

namespace {

template <class P>
Poly<P> any_poly(fuzz::Reader& in) {  // "mod 2^16"
  Poly<P> p;
  for (auto& x : p.c) x = in.u16();
  return p;
}
template <class P>
Poly<P> z3_poly(fuzz::Reader& in) {  // "Z3": c_i in {0, 1, 2}
  Poly<P> p;
  for (auto& x : p.c) x = static_cast<std::uint16_t>(in.byte() % 3);
  return p;
}
template <class P>
void expect_same(const Poly<P>& a, const Poly<P>& b, const char* what) {
  fuzz::check(a.c == b.c, what);
}

template <class P>
void run(fuzz::Reader& in, int kernel) {
  const Kernels<P>& r = kernels_ref<P>();
  const Kernels<P>& a = kernels<P>(simd::Impl::avx2);
  fuzz::check(a.impl == simd::Impl::avx2, "no AVX2 kernel table although AVX2 is usable");
  Poly<P> x, y;
  switch (kernel) {
    case 0: {
      const auto f = any_poly<P>(in), g = any_poly<P>(in);
      r.poly_mul_cyclic(x, f, g), a.poly_mul_cyclic(y, f, g);
      expect_same(x, y, "poly_mul_cyclic");
      break;
    }
    case 1: {
      const auto f = any_poly<P>(in), g = any_poly<P>(in);
      r.poly_rq_mul(x, f, g), a.poly_rq_mul(y, f, g);
      expect_same(x, y, "poly_rq_mul");
      break;
    }
    case 2: {
      const auto f = any_poly<P>(in), g = any_poly<P>(in);
      r.poly_sq_mul(x, f, g), a.poly_sq_mul(y, f, g);
      expect_same(x, y, "poly_sq_mul");
      break;
    }
    case 3: {
      const auto f = z3_poly<P>(in), g = z3_poly<P>(in);
      r.poly_s3_mul(x, f, g), a.poly_s3_mul(y, f, g);
      expect_same(x, y, "poly_s3_mul");
      break;
    }
    case 4: {
      const auto f = any_poly<P>(in);
      r.poly_mul_x_minus_1(x, f), a.poly_mul_x_minus_1(y, f);
      expect_same(x, y, "poly_mul_x_minus_1");
      break;
    }
    case 5: {
      const auto f = any_poly<P>(in);
      r.poly_r2_inv(x, f), a.poly_r2_inv(y, f);
      expect_same(x, y, "poly_r2_inv");
      break;
    }
    case 6: {
      const auto f = any_poly<P>(in);
      r.poly_rq_inv(x, f), a.poly_rq_inv(y, f);
      expect_same(x, y, "poly_rq_inv");
      break;
    }
    case 7: {
      const auto f = z3_poly<P>(in);
      r.poly_s3_inv(x, f), a.poly_s3_inv(y, f);
      expect_same(x, y, "poly_s3_inv");
      break;
    }
    case 8: {  // Sample_fixed_type (HPS) from arbitrary bytes
      if constexpr (P::hps) {
        const std::vector<std::uint8_t> u = in.bytes(P::sample_ft_bytes);
        r.sample_fixed_type(x, u.data()), a.sample_fixed_type(y, u.data());
        expect_same(x, y, "sample_fixed_type");
      }
      break;
    }
    default: {  // sort_int32 on len <= 1024 values (the length is public; any length)
      const std::size_t len = in.u16() % 1025;
      std::vector<std::int32_t> v(len);
      for (auto& e : v) e = static_cast<std::int32_t>(in.u16() | (std::uint32_t{in.u16()} << 16));
      std::vector<std::int32_t> w = v, s = v;
      r.sort_int32(v);
      a.sort_int32(w);
      std::sort(s.begin(), s.end());
      fuzz::check(v == s, "sort_int32_ref does not sort");
      fuzz::check(w == s, "sort_int32 (avx2) differs");
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!simd::impl_usable(simd::Impl::avx2)) return 0;
  fuzz::Reader in(data, size);
  const std::uint8_t sel = in.byte();
  const int kernel = (sel >> 2) % 10;
  switch (sel & 3) {
    case 0: run<NtruHps2048509>(in, kernel); break;
    case 1: run<NtruHps2048677>(in, kernel); break;
    case 2: run<NtruHps4096821>(in, kernel); break;
    default: run<NtruHrss701>(in, kernel); break;
  }
  return 0;
}
