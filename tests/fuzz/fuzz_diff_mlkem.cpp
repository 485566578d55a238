// Differential: each ML-KEM AVX2 kernel (lib/simd/mlkem, through mlkem::Avx2Backend), and the
// AVX-512 ones where the CPU has them (SampleNTT through mlkem::Avx512Backend, its rejection step), against
// its portable twin (mlkem::RefBackend and lib/mlkem), on inputs inside each kernel's stated
// bounds (backend.hpp, mlkem_avx2.hpp). T_q values are converted between the FIPS 203 order
// and the AVX2 order (transpose_avx2) before comparing; results must be bit-identical.
// Input: [kernel selector][parameters...][coefficient / byte material].
#include <openssl/evp.h>

#include <array>
#include <memory>

#include "backends/backends.hpp"
#include "fuzz_util.hpp"
#include "hash.hpp"
#include "simd/dispatch.hpp"

#if PQKEM_HAVE_AVX2
#include "simd/keccak/keccak_avx2.hpp"
#include "simd/mlkem/mlkem_avx2.hpp"
#endif
#if PQKEM_HAVE_AVX512
#include "simd/mlkem/mlkem_avx512.hpp"
#endif

using namespace pqkem;
using namespace pqkem::mlkem;

#if PQKEM_HAVE_AVX2
namespace {

using R = RefBackend;
using A = Avx2Backend;
namespace avx2 = pqkem::simd::avx2;

/// OpenSSL's answer (the reference for pqkem's own sponge): `name` of msg, outlen bytes.
std::vector<std::uint8_t> openssl_hash(const char* name, const std::vector<std::uint8_t>& msg, std::size_t outlen) {
  std::unique_ptr<EVP_MD, decltype(&EVP_MD_free)> md(EVP_MD_fetch(nullptr, name, nullptr), &EVP_MD_free);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  std::vector<std::uint8_t> out(outlen);
  unsigned len = 0;
  const bool xof = md && (EVP_MD_get_flags(md.get()) & EVP_MD_FLAG_XOF) != 0;
  fuzz::check(md && ctx && EVP_DigestInit_ex2(ctx.get(), md.get(), nullptr) == 1 &&
                  EVP_DigestUpdate(ctx.get(), msg.data(), msg.size()) == 1 &&
                  (xof ? EVP_DigestFinalXOF(ctx.get(), out.data(), outlen)
                       : EVP_DigestFinal_ex(ctx.get(), out.data(), &len)) == 1,
              "OpenSSL digest failed");
  return out;
}

/// A coefficient with |x| <= bound, from 16 input bits.
std::int16_t coeff(fuzz::Reader& in, int bound) {
  return static_cast<std::int16_t>(static_cast<int>(in.u16() % (2 * bound + 1)) - bound);
}
template <class T>
T poly(fuzz::Reader& in, int bound) {
  T p;
  for (auto& x : p.c) x = coeff(in, bound);
  return p;
}
Avx2NttPoly to_avx2(const NttPoly& p) { return A::from_fips203_order(p); }
NttPoly from_avx2(const Avx2NttPoly& p) { return A::to_fips203_order(p); }
template <class T>
void expect_same(const T& a, const T& b, const char* what) {
  fuzz::check(fuzz::same(&a, &b, sizeof(T)), what);
}

template <int D>
void compress_case(fuzz::Reader& in) {
  const Poly f = poly<Poly>(in, kQ - 1);
  std::array<std::uint8_t, 32 * D> r{}, a{};
  R::compress_encode<D>(f, r);
  A::compress_encode<D>(f, a);
  expect_same(r, a, "compress_encode");
  std::array<std::uint8_t, 32 * D> bytes;
  for (auto& b : bytes) b = in.byte();
  expect_same(R::decode_decompress<D>(bytes), A::decode_decompress<D>(bytes), "decode_decompress");
}

template <int Eta>
void noise_case(fuzz::Reader& in) {
  const auto seed = in.bytes(32);
  const std::uint8_t nonce[4] = {in.byte(), in.byte(), in.byte(), in.byte()};
  const int n = 1 + in.byte() % 4;
  Poly r[4], a[4];
  Poly* const ro[4] = {&r[0], &r[1], &r[2], &r[3]};
  Poly* const ao[4] = {&a[0], &a[1], &a[2], &a[3]};
  R::sample_noise_x4<Eta>(ro, Bytes32(seed.data(), 32), nonce, n);
  A::sample_noise_x4<Eta>(ao, Bytes32(seed.data(), 32), nonce, n);
  for (int j = 0; j < n; ++j) expect_same(r[j], a[j], "sample_noise_x4");
  // SamplePolyCBD alone, on arbitrary bytes.
  const auto bytes = in.bytes(64 * Eta);
  Poly c;
  avx2::sample_poly_cbd_avx2(c.c.data(), bytes.data(), Eta);
  expect_same(sample_poly_cbd_ref<Eta>(std::span<const std::uint8_t, 64 * Eta>(bytes.data(), 64 * Eta)), c,
              "sample_poly_cbd_ref");
}

}  // namespace
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
#if PQKEM_HAVE_AVX2
  if (!simd::impl_usable(simd::Impl::avx2)) return 0;
  fuzz::Reader in(data, size);
  switch (in.byte() % 18) {
    case 0: {  // NTT. In: |f_i| < q.
      const Poly f = poly<Poly>(in, kQ - 1);
      expect_same(R::ntt(f), from_avx2(A::ntt(f)), "ntt");
      break;
    }
    case 1: {  // NTT^-1. In: |f_i| < q.
      const NttPoly f = poly<NttPoly>(in, kQ - 1);
      expect_same(R::inverse_ntt(f), A::inverse_ntt(to_avx2(f)), "inverse_ntt");
      break;
    }
    case 2: {  // inner product of k <= 4 pairs. In: |a|, |b| < q.
      const int k = 1 + in.byte() % 4;
      NttPoly a[4], b[4];
      Avx2NttPoly at[4], bt[4];
      for (int j = 0; j < k; ++j) {
        a[j] = poly<NttPoly>(in, kQ - 1);
        b[j] = poly<NttPoly>(in, kQ - 1);
        at[j] = to_avx2(a[j]);
        bt[j] = to_avx2(b[j]);
      }
      NttPoly r;
      Avx2NttPoly ra;
      R::inner_product(r, a, b, k);
      A::inner_product(ra, at, bt, k);
      expect_same(r, from_avx2(ra), "inner_product");
      break;
    }
    case 3: {  // tomont_add_reduce. In: |t| <= (q-1)/2, |e| < q.
      NttPoly t = poly<NttPoly>(in, (kQ - 1) / 2);
      Avx2NttPoly ta = to_avx2(t);
      const NttPoly e = poly<NttPoly>(in, kQ - 1);
      R::tomont_add_reduce(t, e);
      A::tomont_add_reduce(ta, to_avx2(e));
      expect_same(t, from_avx2(ta), "tomont_add_reduce");
      break;
    }
    case 4: {  // add_reduce / sub_reduce. In: sums below 2^15.
      Poly r = poly<Poly>(in, 8191), ra = r;
      const Poly a = poly<Poly>(in, 8191), b = poly<Poly>(in, 8191);
      const bool with_b = in.byte() & 1;
      R::add_reduce(r, a, with_b ? &b : nullptr);
      A::add_reduce(ra, a, with_b ? &b : nullptr);
      expect_same(r, ra, "add_reduce");
      Poly s = poly<Poly>(in, 16383), sa = s;
      const Poly c = poly<Poly>(in, 16383);
      R::sub_reduce(s, c);
      A::sub_reduce(sa, c);
      expect_same(s, sa, "sub_reduce");
      break;
    }
    case 5: {  // ByteDecode_12 / modulus check on arbitrary bytes; ByteEncode_12 of |f| < q.
      std::array<std::uint8_t, kPolyBytes> bytes;
      for (auto& b : bytes) b = in.byte();
      expect_same(R::decode12(bytes), from_avx2(A::decode12(bytes)), "decode12");
      fuzz::check(R::is_canonical12(bytes) == A::is_canonical12(bytes), "is_canonical12");
      const NttPoly f = poly<NttPoly>(in, kQ - 1);
      std::array<std::uint8_t, kPolyBytes> r{}, a{};
      R::encode12(f, r);
      A::encode12(to_avx2(f), a);
      expect_same(r, a, "encode12");
      break;
    }
    case 6: compress_case<1>(in); break;
    case 7: compress_case<4>(in); break;
    case 8: compress_case<5>(in); break;
    case 9: compress_case<10>(in); break;
    case 10: compress_case<11>(in); break;
    case 11: {  // SampleNTT, 1..4 lanes (public rho; rejection sampling).
      const auto rho = in.bytes(32);
      std::uint8_t xy[4][2];
      for (auto& p : xy) p[0] = in.byte(), p[1] = in.byte();
      const int n = 1 + in.byte() % 4;
      NttPoly r[4];
      Avx2NttPoly a[4];
      NttPoly* const ro[4] = {&r[0], &r[1], &r[2], &r[3]};
      Avx2NttPoly* const ao[4] = {&a[0], &a[1], &a[2], &a[3]};
      R::sample_ntt_x4(ro, Bytes32(rho.data(), 32), xy, n);
      A::sample_ntt_x4(ao, Bytes32(rho.data(), 32), xy, n);
      for (int j = 0; j < n; ++j) expect_same(r[j], from_avx2(a[j]), "sample_ntt_x4");
#if PQKEM_HAVE_AVX512
      if (simd::impl_usable(simd::Impl::avx512)) {
        Avx2NttPoly b[4];
        Avx2NttPoly* const bo[4] = {&b[0], &b[1], &b[2], &b[3]};
        Avx512Backend::sample_ntt_x4(bo, Bytes32(rho.data(), 32), xy, n);
        for (int j = 0; j < n; ++j) expect_same(r[j], from_avx2(b[j]), "avx512 sample_ntt_x4");
      }
#endif
      break;
    }
    case 12: noise_case<2>(in); break;
    case 13: noise_case<3>(in); break;
    case 14: {  // SHA3-256, SHA3-512, SHAKE256 of a || b (AVX2 Keccak vs the portable sponge).
      const std::size_t split = in.u16();
      auto rest = in.rest();
      const std::size_t cut = rest.empty() ? 0 : split % (rest.size() + 1);
      const ByteView a(rest.data(), cut), b(rest.data() + cut, rest.size() - cut);
      std::array<std::uint8_t, 32> h1, h2;
      R::sha3_256(h1, a, b);
      A::sha3_256(h2, a, b);
      expect_same(h1, h2, "sha3_256");
      std::array<std::uint8_t, 64> g1, g2;
      R::sha3_512(g1, a, b);
      A::sha3_512(g2, a, b);
      expect_same(g1, g2, "sha3_512");
      std::array<std::uint8_t, 300> j1, j2;
      const std::size_t outlen = 1 + split % 300;
      R::shake256(std::span<std::uint8_t>(j1.data(), outlen), a, b);
      A::shake256(std::span<std::uint8_t>(j2.data(), outlen), a, b);
      fuzz::check(fuzz::same(j1.data(), j2.data(), outlen), "shake256");
      break;
    }
    case 15: {  // 4-way SHAKE128 / SHAKE256 against the portable sponge, lane by lane.
      const std::size_t inlen = in.byte() % 200, outlen = 1 + in.byte() % 400;
      std::array<std::vector<std::uint8_t>, 4> msg, o128, o256;
      const std::uint8_t* ins[4];
      std::uint8_t* outs128[4];
      std::uint8_t* outs256[4];
      for (int j = 0; j < 4; ++j) {
        msg[j] = in.bytes(inlen);
        o128[j].assign(outlen, 0);
        o256[j].assign(outlen, 0);
        ins[j] = msg[j].data();
        outs128[j] = o128[j].data();
        outs256[j] = o256[j].data();
      }
      avx2::shake128_x4_avx2(outs128, outlen, ins, inlen);
      avx2::shake256_x4_avx2(outs256, outlen, ins, inlen);
      for (int j = 0; j < 4; ++j) {
        std::vector<std::uint8_t> r(outlen);
        hash::shake128(r, {msg[j]});
        fuzz::check(r == o128[j], "shake128_x4_avx2");
        hash::shake256(r, {msg[j]});
        fuzz::check(r == o256[j], "shake256_x4_avx2");
      }
      break;
    }
    case 16: {  // the portable SHA-3 family (hash.cpp) against OpenSSL, input in two pieces
      const std::size_t alen = in.u16() % 600, blen = in.byte(), outlen = in.u16() % 800;
      const std::vector<std::uint8_t> a = in.bytes(alen), b = in.bytes(blen);
      std::vector<std::uint8_t> msg = a;
      msg.insert(msg.end(), b.begin(), b.end());
      std::array<std::uint8_t, 32> h256{};
      hash::sha3_256(h256, {a, b});
      fuzz::check(std::vector<std::uint8_t>(h256.begin(), h256.end()) == openssl_hash("SHA3-256", msg, 32), "sha3_256");
      std::array<std::uint8_t, 64> h512{};
      hash::sha3_512(h512, {a, b});
      fuzz::check(std::vector<std::uint8_t>(h512.begin(), h512.end()) == openssl_hash("SHA3-512", msg, 64), "sha3_512");
      std::vector<std::uint8_t> r(outlen);
      hash::shake128(r, {a, b});
      fuzz::check(r == openssl_hash("SHAKE128", msg, outlen), "shake128");
      hash::shake256(r, {a, b});
      fuzz::check(r == openssl_hash("SHAKE256", msg, outlen), "shake256");
      break;
    }
    case 17: {  // SampleNTT's rejection step, AVX-512 against AVX2, from any count, on exactly len bytes
#if PQKEM_HAVE_AVX512
      if (!simd::impl_usable(simd::Impl::avx512)) break;
      const unsigned ctr0 = in.u16() % 257;
      const std::size_t len = 3 * static_cast<std::size_t>(in.byte() % 57);
      const std::vector<std::uint8_t> buf = in.bytes(len);
      std::vector<std::uint8_t> padded(buf);  // the AVX2 sampler may read 8 bytes past len
      padded.resize(len + 8);
      std::array<std::int16_t, 256> a{}, b{};
      const unsigned na = avx2::rej_uniform_avx2(a.data(), ctr0, padded.data(), len);
      const unsigned nb = simd::avx512::rej_uniform_avx512(b.data(), ctr0, buf.data(), len);
      fuzz::check(na == nb && a == b, "avx512 rejection sampling");
#endif
      break;
    }
  }
#else
  (void)data;
  (void)size;
#endif
  return 0;
}
