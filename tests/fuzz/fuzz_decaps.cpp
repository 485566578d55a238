// Decapsulation with arbitrary ciphertexts and keys, every scheme, every usable implementation.
//
// Input: [scheme][mode] then
//   mode even: keygen coins (keygen_coin_bytes), then the ciphertext (any length): a real key,
//              an arbitrary ciphertext (implicit rejection, or bad_length);
//   mode odd:  the secret key (sk_bytes, zero-padded), then the ciphertext (any length):
//              arbitrary keys (check_secret_key rejects most, but NTRU keys are only checked
//              for canonical packing, so arbitrary f, fp, h^-1 reach the arithmetic).
// Properties: no crash or sanitizer report; only pqkem::Error is thrown (by keygen only for
// NTRU coins that give no key pair); decaps is deterministic and gives the same secret on every
// implementation.
#include <optional>

#include "fuzz_util.hpp"
#include "pqkem.hpp"
#include "simd/dispatch.hpp"

using namespace pqkem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Reader in(data, size);
  const auto schemes = all_schemes();
  const SchemeInfo& info = schemes[in.byte() % schemes.size()];
  const std::uint8_t mode = in.byte();

  SecretBytes sk;
  if (mode % 2 == 0) {
    const auto coins = in.bytes(info.keygen_coin_bytes());
    try {
      sk = keygen_derand(info.scheme, coins).sk;
    } catch (const Error& e) {
      // NTRU refuses coins that sample f = 0 or g = 0 (no key pair exists): nothing to decapsulate.
      fuzz::check(e.code() == Errc::bad_argument && info.family == pqkem::Family::Ntru,
                  "keygen_derand refused its coins");
      return 0;
    }
  } else {
    sk = SecretBytes(ByteView(in.bytes(info.sk_bytes)));
  }
  const auto ct = in.rest();

  std::optional<SecretBytes> first;
  for (const auto impl : {simd::Impl::portable, simd::Impl::avx2, simd::Impl::avx512}) {
    if (!simd::impl_usable(impl)) continue;
    simd::set_impl(impl);
    try {
      SecretBytes ss = decaps(info.scheme, sk, ct);
      fuzz::check(ss.size() == info.ss_bytes, "shared secret has the wrong size");
      fuzz::check(ct.size() == info.ct_bytes, "decaps accepted a ciphertext of the wrong length");
      if (first)
        fuzz::check(fuzz::same(first->data(), ss.data(), ss.size()), "implementations disagree on decaps");
      else
        first = std::move(ss);
    } catch (const Error&) {
      fuzz::check(!first, "decaps failed on one implementation only");
    }
  }
  simd::set_impl_auto();
  return 0;
}
