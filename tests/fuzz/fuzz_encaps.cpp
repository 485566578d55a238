// Encapsulation to arbitrary public keys, every scheme, every usable implementation.
// Input: [scheme] then encapsulation coins (encaps_coin_bytes), then the public key (any
// length). Properties: only pqkem::Error is thrown; check_public_key and encaps accept the
// same keys; the ciphertext and the secret are identical on every implementation.
#include <optional>

#include "fuzz_util.hpp"
#include "pqkem.hpp"
#include "simd/dispatch.hpp"

using namespace pqkem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Reader in(data, size);
  const auto schemes = all_schemes();
  const SchemeInfo& info = schemes[in.byte() % schemes.size()];
  const auto coins = in.bytes(info.encaps_coin_bytes());
  const auto pk = in.rest();

  bool pk_ok = true;
  try {
    check_public_key(info.scheme, pk);
  } catch (const Error&) {
    pk_ok = false;
  }
  std::optional<Encapsulation> first;
  for (const auto impl : {simd::Impl::portable, simd::Impl::avx2, simd::Impl::avx512}) {
    if (!simd::impl_usable(impl)) continue;
    simd::set_impl(impl);
    try {
      Encapsulation e = encaps_derand(info.scheme, pk, coins);
      fuzz::check(pk_ok, "encaps accepted a key check_public_key rejects");
      fuzz::check(e.ct.size() == info.ct_bytes && e.ss.size() == info.ss_bytes, "wrong output sizes");
      if (first) {
        fuzz::check(first->ct == e.ct, "implementations disagree on the ciphertext");
        fuzz::check(fuzz::same(first->ss.data(), e.ss.data(), e.ss.size()), "implementations disagree on the secret");
      } else {
        first = std::move(e);
      }
    } catch (const Error&) {
      fuzz::check(!pk_ok, "encaps rejected a key check_public_key accepts");
    }
  }
  simd::set_impl_auto();
  return 0;
}
