// The public API (pqkem.hpp): run-time Scheme -> compile-time parameter set, length and
// validity checks, and the RNG for the randomized operations.
#include <algorithm>
#include <array>

#include "ct.hpp"
#include "mlkem/mlkem.hpp"
#include "ntru/ntru.hpp"
#include "pqkem.hpp"
#include "rng.hpp"
#include "util/ascii.hpp"

namespace pqkem {
namespace {

template <class P>
constexpr SchemeInfo mlkem_info(Scheme s, std::string_view name) {
  return SchemeInfo{s, name, "ML-KEM", "FIPS 203", P::ek_bytes, P::dk_bytes, P::ct_bytes, P::ss_bytes,
                    64, {64, 0}, {32, 0}};
}

// NTRU: names as the submission's CRYPTO_ALGNAME (the KAT files' header line); the aliases
// "NTRU-HPS-2048-509" etc. normalize to the same string. No compact seed: the sk is not
// derived from a standard seed format, so seed_bytes = 0.
template <class P>
constexpr SchemeInfo ntru_info(Scheme s, std::string_view name) {
  return SchemeInfo{s, name, "NTRU", "NIST PQC round 3", P::pk_bytes, P::sk_bytes, P::ct_bytes, P::ss_bytes,
                    0, {P::sample_fg_bytes, P::prf_key_bytes}, {P::sample_rm_bytes, 0}};
}

constexpr std::array<SchemeInfo, 7> kSchemes = {
    mlkem_info<mlkem::MlKem512>(Scheme::MlKem512, "ML-KEM-512"),
    mlkem_info<mlkem::MlKem768>(Scheme::MlKem768, "ML-KEM-768"),
    mlkem_info<mlkem::MlKem1024>(Scheme::MlKem1024, "ML-KEM-1024"),
    ntru_info<ntru::NtruHps2048509>(Scheme::NtruHps2048509, "ntruhps2048509"),
    ntru_info<ntru::NtruHps2048677>(Scheme::NtruHps2048677, "ntruhps2048677"),
    ntru_info<ntru::NtruHps4096821>(Scheme::NtruHps4096821, "ntruhps4096821"),
    ntru_info<ntru::NtruHrss701>(Scheme::NtruHrss701, "ntruhrss701"),
};

// scheme_from_*_size relies on every size being unique across all schemes (NTRU pk == ct
// within one scheme is fine: the lookups are per kind).
constexpr bool sizes_unique() {
  for (std::size_t i = 0; i < kSchemes.size(); ++i)
    for (std::size_t j = i + 1; j < kSchemes.size(); ++j)
      if (kSchemes[i].pk_bytes == kSchemes[j].pk_bytes || kSchemes[i].sk_bytes == kSchemes[j].sk_bytes ||
          kSchemes[i].ct_bytes == kSchemes[j].ct_bytes)
        return false;
  return true;
}
static_assert(sizes_unique());

bool is_ntru(Scheme s) noexcept {
  return s == Scheme::NtruHps2048509 || s == Scheme::NtruHps2048677 || s == Scheme::NtruHps4096821 ||
         s == Scheme::NtruHrss701;
}

/// Calls f.template operator()<P>() with the NTRU parameter set of s.
template <class F>
decltype(auto) with_ntru_params(Scheme s, F&& f) {
  switch (s) {
    case Scheme::NtruHps2048509: return f.template operator()<ntru::NtruHps2048509>();
    case Scheme::NtruHps2048677: return f.template operator()<ntru::NtruHps2048677>();
    case Scheme::NtruHps4096821: return f.template operator()<ntru::NtruHps4096821>();
    case Scheme::NtruHrss701: return f.template operator()<ntru::NtruHrss701>();
    default: break;
  }
  throw Error(Errc::bad_argument, "not an NTRU scheme");
}

/// Calls f.template operator()<P>() with the parameter set of s.
template <class F>
decltype(auto) with_params(Scheme s, F&& f) {
  switch (s) {
    case Scheme::MlKem512: return f.template operator()<mlkem::MlKem512>();
    case Scheme::MlKem768: return f.template operator()<mlkem::MlKem768>();
    case Scheme::MlKem1024: return f.template operator()<mlkem::MlKem1024>();
    default: break;  // NTRU: with_ntru_params
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
    if (c != '-' && c != '_' && c != ' ') out.push_back(util::ascii_lower(c));
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

/// The secret parts of a (length-checked) secret key, for ct::poison / ct::declassify: the
/// whole NTRU key; for ML-KEM dk_PKE and z, but not ek and H(ek), which dk also stores and
/// which are public (SampleNTT's rejection sampling branches on rho, part of ek).
template <class F>
void for_secret_parts(Scheme s, ByteView sk, F&& f) {
  if (is_ntru(s)) {
    f(sk.data(), sk.size());
    return;
  }
  with_params(s, [&]<class P>() {
    f(sk.data(), P::dk_pke_bytes);
    f(sk.data() + P::dk_bytes - 32, 32);  // z
    return 0;
  });
}
void poison_secret_key(Scheme s, ByteView sk) { for_secret_parts(s, sk, ct::poison); }
void declassify_secret_key(Scheme s, ByteView sk) { for_secret_parts(s, sk, ct::declassify); }

[[noreturn]] void throw_dk_hash_mismatch(const SchemeInfo& info) {
  throw Error(Errc::invalid_decaps_key, std::string(info.name) +
                                            " decapsulation key is invalid: its stored H(ek) does not match "
                                            "its encapsulation key (FIPS 203 section 7.3)");
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
  if (is_ntru(s)) {
    if (!with_ntru_params(s, [&]<class P>() { return ntru::check_pk<P>(fixed<P::pk_bytes>(pk)); }))
      throw Error(Errc::invalid_encaps_key, std::string(info.name) +
                                                " public key is invalid: the unused bits of its last byte "
                                                "are not zero");
    return;
  }
  const bool ok = with_params(s, [&]<class P>() { return mlkem::check_ek<P>(fixed<P::ek_bytes>(pk)); });
  if (!ok)
    throw Error(Errc::invalid_encaps_key, std::string(info.name) +
                                              " encapsulation key is invalid: a coefficient is not reduced "
                                              "modulo q (FIPS 203 section 7.2)");
}

void check_secret_key(Scheme s, ByteView sk) {
  const SchemeInfo& info = scheme_info(s);
  expect_length(sk, info.sk_bytes, "decapsulation key", info);
  if (is_ntru(s)) {
    if (!with_ntru_params(s, [&]<class P>() { return ntru::check_sk<P>(fixed<P::sk_bytes>(sk)); }))
      throw Error(Errc::invalid_decaps_key, std::string(info.name) +
                                                " secret key is invalid: a packed polynomial is not a "
                                                "canonical encoding");
    return;
  }
  const bool ok = with_params(s, [&]<class P>() { return mlkem::check_dk<P>(fixed<P::dk_bytes>(sk)); });
  if (!ok) throw_dk_hash_mismatch(info);
}

KeyPair keygen_derand(Scheme s, ByteView coins) {
  const SchemeInfo& info = scheme_info(s);
  expect_length(coins, info.keygen_coin_bytes(),
                is_ntru(s) ? "key generation coins (sampling seed || PRF key)" : "key generation coins (d || z)", info);
  KeyPair kp{Bytes(info.pk_bytes), SecretBytes(info.sk_bytes)};
  ct::poison(coins.data(), coins.size());
  if (is_ntru(s)) {
    with_ntru_params(s, [&]<class P>() {
      ntru::keypair_derand<P>(fixed<P::sample_fg_bytes>(coins), fixed<32>(coins.subspan(P::sample_fg_bytes)),
                              std::span<std::uint8_t, P::pk_bytes>(kp.pk.data(), P::pk_bytes),
                              std::span<std::uint8_t, P::sk_bytes>(kp.sk.data(), P::sk_bytes));
    });
    ct::declassify(coins.data(), coins.size());
    ct::declassify(kp.pk.data(), kp.pk.size());
    ct::declassify(kp.sk.data(), kp.sk.size());
    return kp;
  }
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
  expect_length(coins, info.encaps_coin_bytes(),
                is_ntru(s) ? "encapsulation coins (sampling bytes)" : "encapsulation coins (m)", info);
  Encapsulation out{Bytes(info.ct_bytes), SecretBytes(info.ss_bytes)};
  ct::poison(coins.data(), coins.size());
  if (is_ntru(s)) {
    with_ntru_params(s, [&]<class P>() {
      ntru::encaps_derand<P>(fixed<P::pk_bytes>(pk), fixed<P::sample_rm_bytes>(coins),
                             std::span<std::uint8_t, P::ct_bytes>(out.ct.data(), P::ct_bytes),
                             std::span<std::uint8_t, 32>(out.ss.data(), 32));
    });
    ct::declassify(coins.data(), coins.size());
    ct::declassify(out.ct.data(), out.ct.size());
    ct::declassify(out.ss.data(), out.ss.size());
    return out;
  }
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
  // ML-KEM with a ciphertext of the right length: the key's hash check runs inside the
  // decapsulation (mlkem::decaps_checked), beside J(z || c). Otherwise, check the key first, so
  // the errors come in the same order either way.
  const bool check_inside = !is_ntru(s) && ct.size() == info.ct_bytes;
  if (check_inside)
    expect_length(sk, info.sk_bytes, "decapsulation key", info);
  else
    check_secret_key(s, sk);
  expect_length(ct, info.ct_bytes, "ciphertext", info);
  SecretBytes ss(info.ss_bytes);
  poison_secret_key(s, sk);
  if (is_ntru(s)) {
    with_ntru_params(s, [&]<class P>() {
      ntru::decaps<P>(fixed<P::sk_bytes>(sk), fixed<P::ct_bytes>(ct), std::span<std::uint8_t, 32>(ss.data(), 32));
    });
    declassify_secret_key(s, sk);
    ct::declassify(ss.data(), ss.size());
    return ss;
  }
  const bool dk_ok = with_params(s, [&]<class P>() {
    return mlkem::decaps_checked<P>(fixed<P::dk_bytes>(sk), fixed<P::ct_bytes>(ct),
                                    std::span<std::uint8_t, 32>(ss.data(), 32));
  });
  declassify_secret_key(s, sk);
  ct::declassify(ss.data(), ss.size());
  if (!dk_ok) throw_dk_hash_mismatch(info);  // ss is wiped by its destructor
  return ss;
}

Bytes public_key_from_secret_key(Scheme s, ByteView sk) {
  check_secret_key(s, sk);
  if (is_ntru(s)) {
    // h is not stored; it is recomputed from the stored h^-1 (see ntru::pk_from_sk).
    Bytes pk(scheme_info(s).pk_bytes);
    ct::poison(sk.data(), sk.size());
    with_ntru_params(s, [&]<class P>() {
      ntru::pk_from_sk<P>(fixed<P::sk_bytes>(sk), std::span<std::uint8_t, P::pk_bytes>(pk.data(), P::pk_bytes));
    });
    ct::declassify(sk.data(), sk.size());
    ct::declassify(pk.data(), pk.size());
    return pk;
  }
  return with_params(s, [&]<class P>() {
    const auto ek = sk.subspan(P::dk_pke_bytes, P::ek_bytes);
    return Bytes(ek.begin(), ek.end());
  });
}

std::string_view version() noexcept { return PQKEM_VERSION; }

}  // namespace pqkem
