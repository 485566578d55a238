// `pqkem bench --kernels` for the hybrids: the parts a hybrid adds to ML-KEM-768 (whose own
// kernels are the ML-KEM-768 rows): the two X25519 calls (libsodium) and the SHA-3 work.
#include <array>
#include <cstdint>
#include <memory>

#include "bench_kernels.hpp"
#include "hash.hpp"
#include "hybrid/hybrid.hpp"
#include "hybrid/x25519.hpp"

namespace pqkem::bench {
namespace {

struct HybridState {
  std::array<std::uint8_t, 32> sk{}, pk{}, out{};
  std::array<std::uint8_t, 96> expanded{};
  std::array<std::uint8_t, 32> seed{};
};

}  // namespace

std::vector<Kernel> hybrid_kernels(Scheme s, const std::vector<simd::Impl>& impls) {
  auto st = std::make_shared<HybridState>();
  for (std::size_t i = 0; i < 32; ++i) {
    st->sk[i] = static_cast<std::uint8_t>(17 * i + 3);
    st->seed[i] = static_cast<std::uint8_t>(29 * i + 1);
  }
  x25519::base(st->pk, st->sk);
  std::vector<Kernel> k;
  // The same code whatever the implementation: listed under each, as every kernel is.
  for (const simd::Impl impl : impls) {
    if (!simd::impl_usable(impl)) continue;
    const std::string name(simd::impl_name(impl));
    k.push_back({"X25519 base (libsodium)", name, [st] {
                   x25519::base(st->out, st->sk);
                   keep(st->out);
                 }});
    k.push_back({"X25519 shared (libsodium)", name, [st] {
                   (void)x25519::shared(st->out, st->sk, st->pk);
                   keep(st->out);
                 }});
    if (s == Scheme::XWing) {
      k.push_back({"SHAKE256 expand (96 B)", name, [st] {
                     hash::shake256(st->expanded, {st->seed});
                     keep(st->expanded);
                   }});
      k.push_back({"SHA3-256 combiner (134 B)", name, [st] {
                     hash::sha3_256(st->out, {st->seed, st->sk, st->pk, st->out,
                                              ByteView(hybrid::kXWingLabel, sizeof hybrid::kXWingLabel)});
                     keep(st->out);
                   }});
    }
  }
  return k;
}

}  // namespace pqkem::bench
