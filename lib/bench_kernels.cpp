#include "bench_kernels.hpp"

#include <memory>
#include <random>

#include "hash.hpp"
#include "mlkem/encoding.hpp"
#include "mlkem/ntt.hpp"
#include "mlkem/sampling.hpp"

namespace pqkem::bench {
namespace {

/// Keeps the optimizer from deleting a kernel whose result is unused.
template <class T>
void keep(T& value) noexcept {
  __asm__ volatile("" : : "r"(&value) : "memory");
}

struct MlKemState {
  mlkem::Poly poly;
  mlkem::NttPoly a, b, acc;
  std::array<std::uint8_t, 32> rho{};
  std::array<std::uint8_t, 192> cbd_bytes{};
  std::array<std::uint8_t, 352> packed{};
};

std::vector<Kernel> mlkem_kernels(int eta1, int du) {
  auto st = std::make_shared<MlKemState>();
  std::mt19937 rng(1);
  for (auto& x : st->poly.c) x = static_cast<std::int16_t>(rng() % mlkem::kQ);
  for (auto& x : st->a.c) x = static_cast<std::int16_t>(rng() % mlkem::kQ);
  for (auto& x : st->b.c) x = static_cast<std::int16_t>(rng() % mlkem::kQ);
  for (auto& x : st->rho) x = static_cast<std::uint8_t>(rng());
  for (auto& x : st->cbd_bytes) x = static_cast<std::uint8_t>(rng());

  std::vector<Kernel> k;
  const std::string impl = "portable";
  k.push_back({"NTT", impl, [st] {
                 mlkem::NttPoly r = mlkem::ntt(st->poly);
                 keep(r);
               }});
  k.push_back({"inverse NTT", impl, [st] {
                 mlkem::Poly r = mlkem::inverse_ntt(st->a);
                 keep(r);
               }});
  k.push_back({"basemul (MultiplyNTTs)", impl, [st] {
                 mlkem::multiply_ntts_acc(st->acc, st->a, st->b);
                 keep(st->acc);
                 st->acc = {};
               }});
  k.push_back({"SampleNTT", impl, [st] {
                 mlkem::NttPoly r = mlkem::sample_ntt(st->rho, 0, 1);
                 keep(r);
               }});
  if (eta1 == 3) {
    k.push_back({"CBD eta=3", impl, [st] {
                   mlkem::Poly r = mlkem::sample_poly_cbd<3>(std::span<const std::uint8_t, 192>(st->cbd_bytes));
                   keep(r);
                 }});
  }
  k.push_back({"CBD eta=2", impl, [st] {
                 mlkem::Poly r = mlkem::sample_poly_cbd<2>(std::span<const std::uint8_t, 128>(st->cbd_bytes.data(), 128));
                 keep(r);
               }});
  k.push_back({"PRF (SHAKE256, 128 B)", impl, [st] {
                 std::array<std::uint8_t, 128> out;
                 const std::uint8_t nonce[1] = {0};
                 hash::shake256(out, {st->rho, nonce});
                 keep(out);
               }});
  k.push_back({"Keccak (SHAKE128, 3 blocks)", impl, [st] {
                 std::array<std::uint8_t, 504> out;
                 hash::shake128(out, {st->rho});
                 keep(out);
               }});
  if (du == 10) {
    k.push_back({"Compress+ByteEncode d=10", impl, [st] {
                   auto c = mlkem::compress_poly<10>(st->poly);
                   mlkem::byte_encode<10>(c, std::span<std::uint8_t, 320>(st->packed.data(), 320));
                   keep(st->packed);
                 }});
  } else {
    k.push_back({"Compress+ByteEncode d=11", impl, [st] {
                   auto c = mlkem::compress_poly<11>(st->poly);
                   mlkem::byte_encode<11>(c, std::span<std::uint8_t, 352>(st->packed.data(), 352));
                   keep(st->packed);
                 }});
  }
  return k;
}

}  // namespace

// NTRU kernels live beside the NTRU code's bench entry (bench_kernels_ntru.cpp).
std::vector<Kernel> ntru_kernels(Scheme s);

std::vector<Kernel> kernels(Scheme s) {
  switch (s) {
    case Scheme::MlKem512: return mlkem_kernels(3, 10);
    case Scheme::MlKem768: return mlkem_kernels(2, 10);
    case Scheme::MlKem1024: return mlkem_kernels(2, 11);
    default: return ntru_kernels(s);
  }
}

}  // namespace pqkem::bench
