// The public API (pqkem.hpp): run-time (Scheme, Impl) -> compile-time instantiation
// Kem<P, B> (with_kem, the one dispatch point), length and validity checks, constant-time
// poisoning of secrets, and the RNG for the randomized operations.
#include <algorithm>
#include <array>

#include "backends/backends.hpp"
#include "ct.hpp"
#include "hybrid/hybrid.hpp"
#include "kem.hpp"
#include "mlkem/mlkem.hpp"
#include "ntru/ntru.hpp"
#include "pqkem.hpp"
#include "rng.hpp"
#include "simd/dispatch.hpp"
#include "util/ascii.hpp"

namespace pqkem {
namespace {

template <class P>
constexpr SchemeInfo mlkem_info(Scheme s, std::string_view name) {
  return SchemeInfo{.scheme = s,
                    .name = name,
                    .family = Family::MlKem,
                    .standard = "FIPS 203",
                    .pk_bytes = P::ek_bytes,
                    .sk_bytes = P::dk_bytes,
                    .ct_bytes = P::ct_bytes,
                    .ss_bytes = P::ss_bytes,
                    .seed_bytes = 64,
                    .keygen_draws = {64, 0},
                    .encaps_draws = {32, 0},
                    .seed_is_secret_key = false,
                    .has_nist_kat = true,
                    .pk_ct_sizes_unique = true,
                    .pk_check_strong = true};
}

// NTRU: names as the submission's CRYPTO_ALGNAME (the KAT files' header line); the aliases
// "NTRU-HPS-2048-509" etc. normalize to the same string. No compact seed: the sk is not
// derived from a standard seed format, so seed_bytes = 0.
template <class P>
constexpr SchemeInfo ntru_info(Scheme s, std::string_view name) {
  return SchemeInfo{.scheme = s,
                    .name = name,
                    .family = Family::Ntru,
                    .standard = "NIST PQC round 3",
                    .pk_bytes = P::pk_bytes,
                    .sk_bytes = P::sk_bytes,
                    .ct_bytes = P::ct_bytes,
                    .ss_bytes = P::ss_bytes,
                    .seed_bytes = 0,
                    .keygen_draws = {P::sample_fg_bytes, P::prf_key_bytes},
                    .encaps_draws = {P::sample_rm_bytes, 0},
                    .seed_is_secret_key = false,
                    .has_nist_kat = true,
                    .pk_ct_sizes_unique = true,
                    .pk_check_strong = false};
}

// The hybrids: the seed is their standard secret key (and their keygen coins); their public
// keys and ciphertexts are alike in size (1216, 1120 bytes).
template <class K>
constexpr SchemeInfo hybrid_info(Scheme s, std::string_view name, std::string_view standard) {
  return SchemeInfo{.scheme = s,
                    .name = name,
                    .family = Family::Hybrid,
                    .standard = standard,
                    .pk_bytes = K::pk_bytes,
                    .sk_bytes = K::sk_bytes,
                    .ct_bytes = K::ct_bytes,
                    .ss_bytes = K::ss_bytes,
                    .seed_bytes = K::seed_bytes,
                    .keygen_draws = {K::keygen_coin_bytes, 0},
                    .encaps_draws = {K::encaps_coin_bytes, 0},
                    .seed_is_secret_key = true,
                    .has_nist_kat = false,
                    .pk_ct_sizes_unique = false,
                    .pk_check_strong = true};
}
using XWingSizes = hybrid::Kem<hybrid::XWing, mlkem::RefBackend>;
using X25519MlKem768Sizes = hybrid::Kem<hybrid::X25519MlKem768, mlkem::RefBackend>;

constexpr std::array<SchemeInfo, 9> kSchemes = {
    mlkem_info<mlkem::MlKem512>(Scheme::MlKem512, "ML-KEM-512"),
    mlkem_info<mlkem::MlKem768>(Scheme::MlKem768, "ML-KEM-768"),
    mlkem_info<mlkem::MlKem1024>(Scheme::MlKem1024, "ML-KEM-1024"),
    ntru_info<ntru::NtruHps2048509>(Scheme::NtruHps2048509, "ntruhps2048509"),
    ntru_info<ntru::NtruHps2048677>(Scheme::NtruHps2048677, "ntruhps2048677"),
    ntru_info<ntru::NtruHps4096821>(Scheme::NtruHps4096821, "ntruhps4096821"),
    ntru_info<ntru::NtruHrss701>(Scheme::NtruHrss701, "ntruhrss701"),
    hybrid_info<XWingSizes>(Scheme::XWing, "X-Wing", "draft-connolly-cfrg-xwing-kem"),
    hybrid_info<X25519MlKem768Sizes>(Scheme::X25519MlKem768, "X25519MLKEM768", "draft-ietf-tls-ecdhe-mlkem"),
};

/// Other names of a scheme (compared after normalize()).
struct Alias {
  std::string_view name;
  Scheme scheme;
};
constexpr Alias kAliases[] = {
    {"MLKEM768-X25519", Scheme::XWing},  // draft-irtf-cfrg-concrete-hybrid-kems
};

// scheme_from_*_size relies on every size being unique across all schemes (NTRU pk == ct
// within one scheme is fine: the lookups are per kind), except where pk_ct_sizes_unique says
// otherwise: the two hybrids share their pk and ct sizes (1216, 1120), so those sizes name
// neither (nullopt), and the tool asks for -a. Secret keys stay unique. The check proves the
// flags: a scheme that claims unique sizes shares none, and one that does not shares them.
constexpr bool sizes_unique() {
  for (std::size_t i = 0; i < kSchemes.size(); ++i) {
    bool shares = false;
    for (std::size_t j = 0; j < kSchemes.size(); ++j) {
      if (i == j) continue;
      if (kSchemes[i].sk_bytes == kSchemes[j].sk_bytes) return false;
      shares = shares || kSchemes[i].pk_bytes == kSchemes[j].pk_bytes || kSchemes[i].ct_bytes == kSchemes[j].ct_bytes;
    }
    if (shares == kSchemes[i].pk_ct_sizes_unique) return false;
  }
  return true;
}
static_assert(sizes_unique());

/// f.template operator()<Kem<P, B>>() with B the first backend of the list whose kImpl is impl
/// (the last one, portable, when none is).
template <template <class, class> class Kem, class P, class B, class... Rest, class F>
decltype(auto) run_on(simd::Impl impl, F& f) {
  static_assert(KemInstance<Kem<P, B>>);
  if constexpr (sizeof...(Rest) == 0) {
    return f.template operator()<Kem<P, B>>();
  } else {
    if (impl == B::kImpl) return f.template operator()<Kem<P, B>>();
    return run_on<Kem, P, Rest...>(impl, f);
  }
}
template <template <class, class> class Kem, class P, class... B, class F>
decltype(auto) run_on(simd::Impl impl, Backends<B...> /*list*/, F& f) {
  return run_on<Kem, P, B...>(impl, f);
}

/// The one dispatch point: maps (s, simd::active_impl()) to the instantiation Kem<P, B> of
/// s's family and calls f.template operator()<Kem<P, B>>(). Reads the implementation once, so
/// every kernel of the operation comes from the same backend.
template <class F>
decltype(auto) with_kem(Scheme s, F&& f) {
  const simd::Impl impl = simd::active_impl();
  switch (s) {
    case Scheme::MlKem512: return run_on<mlkem::Kem, mlkem::MlKem512>(impl, MlKemBackends{}, f);
    case Scheme::MlKem768: return run_on<mlkem::Kem, mlkem::MlKem768>(impl, MlKemBackends{}, f);
    case Scheme::MlKem1024: return run_on<mlkem::Kem, mlkem::MlKem1024>(impl, MlKemBackends{}, f);
    case Scheme::NtruHps2048509: return run_on<ntru::Kem, ntru::NtruHps2048509>(impl, NtruBackends{}, f);
    case Scheme::NtruHps2048677: return run_on<ntru::Kem, ntru::NtruHps2048677>(impl, NtruBackends{}, f);
    case Scheme::NtruHps4096821: return run_on<ntru::Kem, ntru::NtruHps4096821>(impl, NtruBackends{}, f);
    case Scheme::NtruHrss701: return run_on<ntru::Kem, ntru::NtruHrss701>(impl, NtruBackends{}, f);
    // The hybrids run ML-KEM-768 on the ML-KEM backends.
    case Scheme::XWing: return run_on<hybrid::Kem, hybrid::XWing>(impl, MlKemBackends{}, f);
    case Scheme::X25519MlKem768: return run_on<hybrid::Kem, hybrid::X25519MlKem768>(impl, MlKemBackends{}, f);
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
    if (c != '-' && c != '_') out.push_back(util::ascii_lower(c));  // a space is no separator: 'ML-KEM-768 ' is a typo
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

/// Calls f(pointer, length) on the secret parts of a (length-checked) secret key of K, for
/// ct::poison / ct::declassify (K::secret_prefix_bytes and K::secret_suffix_bytes).
template <class K, class F>
void for_secret_parts(ByteView sk, F&& f) {
  f(sk.data(), K::secret_prefix_bytes);
  if constexpr (K::secret_suffix_bytes > 0) f(sk.data() + K::sk_bytes - K::secret_suffix_bytes, K::secret_suffix_bytes);
}

template <class K>
[[noreturn]] void throw_invalid_sk(const SchemeInfo& info) {
  throw Error(Errc::invalid_decaps_key, std::string(info.name) + std::string(K::invalid_sk_why));
}

/// Whether `sk` is given as a hybrid's seed (K::seed_bytes: the hybrids' standard secret key),
/// which the API accepts wherever it takes K's expanded key.
template <class K>
bool is_seed(ByteView sk) noexcept {
  if constexpr (requires { K::seed_bytes; })
    return sk.size() == K::seed_bytes;
  else
    return false;
}

/// A hybrid's seed expanded into `keep`, which then holds the key for the caller; any other sk
/// is returned as it is.
template <class K>
ByteView expand_if_seed(ByteView sk, SecretBytes& keep) {
  if constexpr (requires { K::seed_bytes; }) {
    if (is_seed<K>(sk)) {
      std::array<std::uint8_t, K::pk_bytes> pk;  // public; only the expanded key is wanted
      keep = SecretBytes(K::sk_bytes);
      ct::poison(sk.data(), sk.size());
      K::keygen_derand(fixed<K::seed_bytes>(sk), pk, Out<K::sk_bytes>(keep.data(), K::sk_bytes));
      ct::declassify(sk.data(), sk.size());
      ct::declassify(keep.data(), keep.size());
      return keep.view();
    }
  }
  return sk;
}

/// n coins for a randomized operation of K from the random source: as they are, or, for a
/// family that expands a short draw (NTRU: K::expand_coins), 32 bytes expanded. The seed is
/// poisoned during the expansion, as the derandomized entry points poison their coins, so the
/// constant-time tests check the expansion too.
template <class K>
SecretBytes draw_coins(std::size_t n) {
  SecretBytes coins(n);
  if constexpr (requires(In<32> seed, std::span<std::uint8_t> out) { K::expand_coins(seed, out); }) {
    Secret<32> seed;
    random_bytes(seed.span());
    ct::poison(seed.bytes, sizeof seed.bytes);
    K::expand_coins(seed.view(), coins.span());
    ct::declassify(seed.bytes, sizeof seed.bytes);  // wiped by its destructor
    ct::declassify(coins.data(), coins.size());     // handed to the caller, as random_bytes' are
  } else {
    random_bytes(coins.span());
  }
  return coins;
}

}  // namespace

std::span<const SchemeInfo> all_schemes() noexcept { return kSchemes; }

std::string_view family_name(Family f) noexcept {
  switch (f) {
    case Family::MlKem: return "ML-KEM";
    case Family::Ntru: return "NTRU";
    case Family::Hybrid: return "hybrid";
  }
  return "unknown";
}

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
    for (const Alias& a : kAliases)
      if (n == normalize(a.name)) return a.scheme;
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
  with_kem(s, [&]<class K>() {
    if (!K::check_pk(fixed<K::pk_bytes>(pk))) {
      std::string_view why = K::invalid_pk_why;
      if constexpr (requires { K::invalid_pk_reason(fixed<K::pk_bytes>(pk)); })
        why = K::invalid_pk_reason(fixed<K::pk_bytes>(pk));  // a hybrid: which half failed
      throw Error(Errc::invalid_encaps_key, std::string(info.name) + std::string(why));
    }
  });
}

void check_secret_key(Scheme s, ByteView sk) {
  const SchemeInfo& info = scheme_info(s);
  with_kem(s, [&]<class K>() {
    if (is_seed<K>(sk)) return;  // every seed is a key
    expect_length(sk, K::sk_bytes, "decapsulation key", info);
    if (!K::check_sk(fixed<K::sk_bytes>(sk))) throw_invalid_sk<K>(info);
  });
}

KeyPair keygen_derand(Scheme s, ByteView coins) {
  const SchemeInfo& info = scheme_info(s);
  return with_kem(s, [&]<class K>() {
    expect_length(coins, K::keygen_coin_bytes, K::keygen_coins_what.data(), info);
    KeyPair kp{Bytes(K::pk_bytes), SecretBytes(K::sk_bytes)};
    ct::poison(coins.data(), coins.size());
    try {
      K::keygen_derand(fixed<K::keygen_coin_bytes>(coins), Out<K::pk_bytes>(kp.pk.data(), K::pk_bytes),
                       Out<K::sk_bytes>(kp.sk.data(), K::sk_bytes));
    } catch (const Error& e) {  // NTRU: coins that give no key pair (kp.sk is wiped by its destructor)
      ct::declassify(coins.data(), coins.size());
      throw Error(e.code(), std::string(info.name) + " " + e.what());
    }
    ct::declassify(coins.data(), coins.size());
    ct::declassify(kp.pk.data(), kp.pk.size());
    ct::declassify(kp.sk.data(), kp.sk.size());  // handed to the caller, who stores it
    return kp;
  });
}

SecretBytes random_keygen_coins(Scheme s) {
  return with_kem(s, [&]<class K>() { return draw_coins<K>(K::keygen_coin_bytes); });
}

SecretBytes random_encaps_coins(Scheme s) {
  return with_kem(s, [&]<class K>() { return draw_coins<K>(K::encaps_coin_bytes); });
}

KeyPair keygen(Scheme s) { return keygen_derand(s, random_keygen_coins(s)); }

Encapsulation encaps_derand(Scheme s, ByteView pk, ByteView coins) {
  const SchemeInfo& info = scheme_info(s);
  check_public_key(s, pk);
  return with_kem(s, [&]<class K>() {
    expect_length(coins, K::encaps_coin_bytes, K::encaps_coins_what.data(), info);
    Encapsulation out{Bytes(K::ct_bytes), SecretBytes(K::ss_bytes)};
    ct::poison(coins.data(), coins.size());
    K::encaps_derand(fixed<K::pk_bytes>(pk), fixed<K::encaps_coin_bytes>(coins),
                     Out<K::ct_bytes>(out.ct.data(), K::ct_bytes), Out<K::ss_bytes>(out.ss.data(), K::ss_bytes));
    ct::declassify(coins.data(), coins.size());
    ct::declassify(out.ct.data(), out.ct.size());
    ct::declassify(out.ss.data(), out.ss.size());
    return out;
  });
}

Encapsulation encaps(Scheme s, ByteView pk) { return encaps_derand(s, pk, random_encaps_coins(s)); }

SecretBytes decaps(Scheme s, ByteView sk_in, ByteView ct) {
  const SchemeInfo& info = scheme_info(s);
  return with_kem(s, [&]<class K>() {
    SecretBytes expanded;
    const ByteView sk = expand_if_seed<K>(sk_in, expanded);
    // A family whose decapsulation checks the key (ML-KEM: H(ek) beside J(z || c)) does so
    // when the ciphertext has the right length. Otherwise, check the key first, so the errors
    // come in the same order either way.
    if (K::decaps_checks_sk && ct.size() == K::ct_bytes)
      expect_length(sk, K::sk_bytes, "decapsulation key", info);
    else
      check_secret_key(s, sk);
    expect_length(ct, K::ct_bytes, "ciphertext", info);
    SecretBytes ss(K::ss_bytes);
    for_secret_parts<K>(sk, ct::poison);
    const bool sk_ok =
        K::decaps(fixed<K::sk_bytes>(sk), fixed<K::ct_bytes>(ct), Out<K::ss_bytes>(ss.data(), K::ss_bytes));
    for_secret_parts<K>(sk, ct::declassify);
    ct::declassify(ss.data(), ss.size());
    if (!sk_ok) throw_invalid_sk<K>(info);  // ss is wiped by its destructor
    return ss;
  });
}

Bytes public_key_from_secret_key(Scheme s, ByteView sk_in) {
  check_secret_key(s, sk_in);
  return with_kem(s, [&]<class K>() {
    SecretBytes expanded;
    const ByteView sk = expand_if_seed<K>(sk_in, expanded);
    Bytes pk(K::pk_bytes);
    for_secret_parts<K>(sk, ct::poison);
    K::pk_from_sk(fixed<K::sk_bytes>(sk), Out<K::pk_bytes>(pk.data(), K::pk_bytes));
    for_secret_parts<K>(sk, ct::declassify);
    ct::declassify(pk.data(), pk.size());
    return pk;
  });
}

std::string_view version() noexcept { return PQKEM_VERSION; }

}  // namespace pqkem
