// The public API (pqkem.hpp): run-time Scheme -> compile-time parameter set, length and
// validity checks, and the RNG for the randomized operations.
#include <algorithm>
#include <array>
#include <cctype>

#include "ct.hpp"
#include "mlkem/mlkem.hpp"
#include "pqkem.hpp"
#include "rng.hpp"

namespace pqkem {
namespace {

template <class P>
constexpr SchemeInfo mlkem_info(Scheme s, std::string_view name) {
  return SchemeInfo{s, name, "ML-KEM", "FIPS 203", P::ek_bytes, P::dk_bytes, P::ct_bytes, P::ss_bytes,
                    64, {64, 0}, {32, 0}};
}

constexpr std::array<SchemeInfo, 3> kSchemes = {
    mlkem_info<mlkem::MlKem512>(Scheme::MlKem512, "ML-KEM-512"),
    mlkem_info<mlkem::MlKem768>(Scheme::MlKem768, "ML-KEM-768"),
    mlkem_info<mlkem::MlKem1024>(Scheme::MlKem1024, "ML-KEM-1024"),
};

/// Calls f.template operator()<P>() with the parameter set of s.
template <class F>
decltype(auto) with_params(Scheme s, F&& f) {
  switch (s) {
    case Scheme::MlKem512: return f.template operator()<mlkem::MlKem512>();
    case Scheme::MlKem768: return f.template operator()<mlkem::MlKem768>();
    case Scheme::MlKem1024: return f.template operator()<mlkem::MlKem1024>();
  }
  throw Error(Errc::bad_argument, "unknown scheme");
}

void expect_length(ByteView v, std::size_t n, const char* what, const SchemeInfo& info) {
  if (v.size() != n)
    throw Error(Errc::bad_length, std::string(info.name) + " " + what + " must be " + std::to_string(n) +
                                      " bytes, got " + std::to_string(v.size()));
}

template <std::size_t N>
std::span<const std::uint8_t, N> fixed(ByteView v) noexcept {
  return std::span<const std::uint8_t, N>(v.data(), N);
}

std::string normalize(std::string_view name) {
  std::string out;
  for (char c : name)
    if (c != '-' && c != '_' && c != ' ') out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

template <class Get>
std::optional<Scheme> unique_by_size(std::size_t n, Get get) noexcept {
  std::optional<Scheme> found;
  for (const SchemeInfo& i : kSchemes) {
    if (get(i) != n) continue;
    if (found) return std::nullopt;  // ambiguous
    found = i.scheme;
  }
  return found;
}

}  // namespace

std::span<const SchemeInfo> all_schemes() noexcept { return kSchemes; }

const SchemeInfo& scheme_info(Scheme s) noexcept {
  for (const SchemeInfo& i : kSchemes)
    if (i.scheme == s) return i;
  return kSchemes[0];  // unreachable for a valid enum value
}

std::optional<Scheme> parse_scheme(std::string_view name) noexcept {
  try {
    const std::string n = normalize(name);
    for (const SchemeInfo& i : kSchemes)
      if (n == normalize(i.name)) return i.scheme;
  } catch (...) {
  }
  return std::nullopt;
}

std::optional<Scheme> scheme_from_pk_size(std::size_t n) noexcept {
  return unique_by_size(n, [](const SchemeInfo& i) { return i.pk_bytes; });
}
std::optional<Scheme> scheme_from_sk_size(std::size_t n) noexcept {
  return unique_by_size(n, [](const SchemeInfo& i) { return i.sk_bytes; });
}
std::optional<Scheme> scheme_from_ct_size(std::size_t n) noexcept {
  return unique_by_size(n, [](const SchemeInfo& i) { return i.ct_bytes; });
}

void check_public_key(Scheme s, ByteView pk) {
  const SchemeInfo& info = scheme_info(s);
  expect_length(pk, info.pk_bytes, "encapsulation key", info);
  const bool ok = with_params(s, [&]<class P>() { return mlkem::check_ek<P>(fixed<P::ek_bytes>(pk)); });
  if (!ok)
    throw Error(Errc::invalid_encaps_key, std::string(info.name) +
                                              " encapsulation key is invalid: a coefficient is not reduced "
                                              "modulo q (FIPS 203 section 7.2)");
}

void check_secret_key(Scheme s, ByteView sk) {
  const SchemeInfo& info = scheme_info(s);
  expect_length(sk, info.sk_bytes, "decapsulation key", info);
  const bool ok = with_params(s, [&]<class P>() { return mlkem::check_dk<P>(fixed<P::dk_bytes>(sk)); });
  if (!ok)
    throw Error(Errc::invalid_decaps_key, std::string(info.name) +
                                              " decapsulation key is invalid: its stored H(ek) does not match "
                                              "its encapsulation key (FIPS 203 section 7.3)");
}

KeyPair keygen_derand(Scheme s, ByteView coins) {
  const SchemeInfo& info = scheme_info(s);
  expect_length(coins, info.keygen_coin_bytes(), "key generation coins (d || z)", info);
  KeyPair kp{Bytes(info.pk_bytes), SecretBytes(info.sk_bytes)};
  ct::poison(coins.data(), coins.size());
  with_params(s, [&]<class P>() {
    mlkem::keygen_internal<P>(fixed<32>(coins), fixed<32>(coins.subspan(32)),
                              std::span<std::uint8_t, P::ek_bytes>(kp.pk.data(), P::ek_bytes),
                              std::span<std::uint8_t, P::dk_bytes>(kp.sk.data(), P::dk_bytes));
  });
  ct::declassify(coins.data(), coins.size());
  ct::declassify(kp.sk.data(), kp.sk.size());  // handed to the caller, who stores it
  return kp;
}

KeyPair keygen(Scheme s) {
  SecretBytes coins(scheme_info(s).keygen_coin_bytes());
  random_bytes(coins.span());
  return keygen_derand(s, coins);
}

Encapsulation encaps_derand(Scheme s, ByteView pk, ByteView coins) {
  const SchemeInfo& info = scheme_info(s);
  check_public_key(s, pk);
  expect_length(coins, info.encaps_coin_bytes(), "encapsulation coins (m)", info);
  Encapsulation out{Bytes(info.ct_bytes), SecretBytes(info.ss_bytes)};
  ct::poison(coins.data(), coins.size());
  with_params(s, [&]<class P>() {
    mlkem::encaps_internal<P>(fixed<P::ek_bytes>(pk), fixed<32>(coins), std::span<std::uint8_t, 32>(out.ss.data(), 32),
                              std::span<std::uint8_t, P::ct_bytes>(out.ct.data(), P::ct_bytes));
  });
  ct::declassify(coins.data(), coins.size());
  ct::declassify(out.ss.data(), out.ss.size());
  return out;
}

Encapsulation encaps(Scheme s, ByteView pk) {
  SecretBytes coins(scheme_info(s).encaps_coin_bytes());
  random_bytes(coins.span());
  return encaps_derand(s, pk, coins);
}

SecretBytes decaps(Scheme s, ByteView sk, ByteView ct) {
  const SchemeInfo& info = scheme_info(s);
  check_secret_key(s, sk);
  expect_length(ct, info.ct_bytes, "ciphertext", info);
  SecretBytes ss(info.ss_bytes);
  ct::poison(sk.data(), sk.size());
  with_params(s, [&]<class P>() {
    mlkem::decaps_internal<P>(fixed<P::dk_bytes>(sk), fixed<P::ct_bytes>(ct),
                              std::span<std::uint8_t, 32>(ss.data(), 32));
  });
  ct::declassify(sk.data(), sk.size());
  ct::declassify(ss.data(), ss.size());
  return ss;
}

Bytes public_key_from_secret_key(Scheme s, ByteView sk) {
  check_secret_key(s, sk);
  return with_params(s, [&]<class P>() {
    const auto ek = sk.subspan(P::dk_pke_bytes, P::ek_bytes);
    return Bytes(ek.begin(), ek.end());
  });
}

std::string_view version() noexcept { return PQKEM_VERSION; }

}  // namespace pqkem
