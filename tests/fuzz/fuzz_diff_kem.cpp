// Differential: the whole KEM on the AVX2 implementation against the portable one.
// Input: [scheme] then keygen coins, encaps coins, then a byte string XORed into the
// ciphertext before a second decapsulation (implicit rejection path). Every output (public
// key, secret key, ciphertext, shared secrets, recomputed public key) must be byte-identical,
// and decaps of the unmodified ciphertext must return encaps' secret. Without AVX2 on the CPU
// it still checks the portable round trip. NTRU coins that give no key pair (f = 0 or g = 0)
// must be refused by every implementation alike.
#include <optional>
#include <string>
#include <utility>

#include "fuzz_util.hpp"
#include "pqkem.hpp"
#include "simd/dispatch.hpp"

using namespace pqkem;

namespace {

struct Run {
  KeyPair kp;
  Encapsulation e;
  SecretBytes ss, ss_bad;
  Bytes pk2;
};

/// keygen_derand, or nullopt where it refuses the coins (NTRU: f = 0 or g = 0, no key pair).
std::optional<KeyPair> keygen_or_refusal(const SchemeInfo& info, const Bytes& kg) {
  try {
    return keygen_derand(info.scheme, kg);
  } catch (const Error& e) {
    fuzz::check(e.code() == Errc::bad_argument && info.family == pqkem::Family::Ntru,
                "keygen_derand refused its coins");
    return std::nullopt;
  }
}

Run run(const SchemeInfo& info, KeyPair kp, const Bytes& ec, const Bytes& flip) {
  Run r{std::move(kp), {}, {}, {}, {}};
  r.e = encaps_derand(info.scheme, r.kp.pk, ec);
  r.ss = decaps(info.scheme, r.kp.sk, r.e.ct);
  Bytes bad = r.e.ct;
  for (std::size_t i = 0; i < flip.size() && i < bad.size(); ++i) bad[i] ^= flip[i];
  r.ss_bad = decaps(info.scheme, r.kp.sk, bad);
  r.pk2 = public_key_from_secret_key(info.scheme, r.kp.sk);
  return r;
}

bool same(const SecretBytes& a, const SecretBytes& b) {
  return a.size() == b.size() && fuzz::same(a.data(), b.data(), a.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Reader in(data, size);
  const auto schemes = all_schemes();
  const SchemeInfo& info = schemes[in.byte() % schemes.size()];
  const Bytes kg = in.bytes(info.keygen_coin_bytes());
  const Bytes ec = in.bytes(info.encaps_coin_bytes());
  const Bytes flip = in.rest();

  simd::set_impl(simd::Impl::portable);
  auto portable_kp = keygen_or_refusal(info, kg);
  if (!portable_kp) {
    // Refused coins are refused by every implementation.
    for (const simd::Impl impl : {simd::Impl::avx2, simd::Impl::avx512}) {
      if (!simd::impl_usable(impl)) continue;
      simd::set_impl(impl);
      fuzz::check(!keygen_or_refusal(info, kg), "keygen: the portable code refused coins another implementation took");
    }
    simd::set_impl_auto();
    return 0;
  }
  const Run p = run(info, std::move(*portable_kp), ec, flip);
  fuzz::check(same(p.ss, p.e.ss), "portable: decaps(encaps) differs");
  fuzz::check(p.pk2 == p.kp.pk, "portable: public_key_from_secret_key differs");
  for (const simd::Impl impl : {simd::Impl::avx2, simd::Impl::avx512}) {
    if (!simd::impl_usable(impl)) continue;
    simd::set_impl(impl);
    const std::string n(simd::impl_name(impl));
    auto kp = keygen_or_refusal(info, kg);
    fuzz::check(kp.has_value(), (n + " keygen: refused coins the portable code took").c_str());
    const Run a = run(info, std::move(*kp), ec, flip);
    fuzz::check(a.kp.pk == p.kp.pk, (n + " keygen: public key differs").c_str());
    fuzz::check(same(a.kp.sk, p.kp.sk), (n + " keygen: secret key differs").c_str());
    fuzz::check(a.e.ct == p.e.ct, (n + " encaps: ciphertext differs").c_str());
    fuzz::check(same(a.e.ss, p.e.ss), (n + " encaps: shared secret differs").c_str());
    fuzz::check(same(a.ss, p.ss), (n + " decaps: shared secret differs").c_str());
    fuzz::check(same(a.ss_bad, p.ss_bad), (n + " decaps (modified ciphertext): shared secret differs").c_str());
    fuzz::check(a.pk2 == p.pk2, (n + " public_key_from_secret_key differs").c_str());
  }
  simd::set_impl_auto();
  return 0;
}
