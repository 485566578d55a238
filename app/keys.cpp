// Reading keys and ciphertexts (raw, hex, PEM, DER) with the checks and messages every command
// shares, and encoding keys for output. Nothing here names an algorithm: sizes, names and
// whether a secret key is a seed come from pqkem::all_schemes(), so new schemes work without a
// CLI change.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "keys.hpp"
#include "text.hpp"

namespace pqkem::cli {
namespace {

/// Why a hybrid's expanded key is never read from or written to a file (secret_key_is_seed).
constexpr const char* kExpandedHybridKeyRule =
    "the X-Wing draft: an expanded key MUST NOT be transmitted between implementations";

/// The three kinds of key material an input can be, with their sizes per scheme.
enum class Part { public_key, secret_key, ciphertext };

const char* part_name(Part p) noexcept {
  switch (p) {
    case Part::public_key: return "public key";
    case Part::secret_key: return "secret key";
    case Part::ciphertext: return "ciphertext";
  }
  return "input";
}

std::size_t size_of(const SchemeInfo& info, Part p) noexcept {
  switch (p) {
    case Part::public_key: return info.pk_bytes;
    case Part::secret_key: return info.sk_bytes;
    case Part::ciphertext: return info.ct_bytes;
  }
  return 0;
}

/// The schemes whose `p` has exactly `n` bytes: more than one for the hybrids' public keys and
/// ciphertexts (1216 and 1120 bytes each).
std::vector<Scheme> schemes_of_size(Part p, std::size_t n) {
  std::vector<Scheme> out;
  for (const auto& info : all_schemes())
    if (size_of(info, p) == n) out.push_back(info.scheme);
  return out;
}

/// "a, b or c" (`sep` "or") or "a, b and c".
std::string join_words(const std::vector<std::string>& words, const char* last_sep) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? fmt::format(" {} ", last_sep) : ", ";
    out += words[i];
  }
  return out;
}

/// "800, 1184 or 1568 bytes": the sizes a `p` read from a file may have (not a hybrid's
/// in-memory expanded secret key).
std::string list_sizes(Part p) {
  std::vector<std::size_t> sizes;
  for (const auto& info : all_schemes())
    if (p != Part::secret_key || !secret_key_is_seed(info.scheme)) sizes.push_back(size_of(info, p));
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  std::vector<std::string> words;
  for (const auto n : sizes) words.push_back(std::to_string(n));
  return join_words(words, "or") + " bytes";
}

/// Exit 2: raw input of `n` bytes that is the `what` of several schemes (the hybrids' public
/// keys and ciphertexts); -a must say which.
[[noreturn]] void ambiguous_size(const char* what, std::size_t n, bool from_hex, const std::vector<Scheme>& schemes,
                                 const std::string& file) {
  std::vector<std::string> options;
  for (const auto s : schemes) options.push_back(fmt::format("-a {}", scheme_info(s).name));
  throw_usage(fmt::format("{} has {} bytes ({}): {} {}s {} have that size, so it does not tell which; give {}", what, n,
                          how_read(from_hex), scheme_names(schemes, "and"), what, schemes.size() == 2 ? "both" : "all",
                          join_words(options, "or")),
              file);
}

/// Exit 1: `d` (from `file`) has no acceptable length for `p`. `expected` is the scheme it
/// had to fit, if known; `extra` describes other accepted forms (" or a 64-byte seed").
[[noreturn]] void wrong_length(Part p, const Decoded& d, std::optional<Scheme> expected, const std::string& extra,
                               const std::string& file) {
  const std::size_t n = d.bytes.size();
  // Key files may also be DER: say that it is not that either (whatever the content, so the
  // message tells nothing about the bytes of what may be a secret key).
  const std::string not_der = p == Part::ciphertext ? "" : "; nor is it a whole DER key structure";
  if (expected) {
    const auto& info = scheme_info(*expected);
    std::vector<Scheme> others;
    for (const auto s : schemes_of_size(p, n))
      if (s != *expected && (p != Part::secret_key || !secret_key_is_seed(s))) others.push_back(s);
    if (!others.empty())
      throw_failure(fmt::format("{} has {} bytes ({}), the size of a {} for {}; {} needs {} bytes{}", part_name(p), n,
                                how_read(d.from_hex), part_name(p), scheme_names(others, "or"), info.name,
                                size_of(info, p), extra),
                    file);
    throw_failure(fmt::format("{} has {} bytes ({}); {} needs {} bytes{}{}", part_name(p), n, how_read(d.from_hex),
                              info.name, size_of(info, p), extra, not_der),
                  file);
  }
  throw_failure(fmt::format("{} has {} bytes ({}); no algorithm has a {} of that size (expected {}{}){}", part_name(p),
                            n, how_read(d.from_hex), part_name(p), list_sizes(p), extra, not_der),
                file);
}

[[noreturn]] void wrong_container(const std::string& is, const std::string& wanted, const std::string& hint,
                                  const std::string& file) {
  throw_failure(fmt::format("this is {}, not {}{}", is, wanted, hint), file);
}

/// Exit 1 if a key's scheme (from its OID) is not the one -a named.
void check_algorithm(Scheme got, std::optional<Scheme> algorithm, const char* what, const std::string& file) {
  if (algorithm && *algorithm != got)
    throw_failure(fmt::format("the {} is {} (by its OID), but -a says {}", what, scheme_info(got).name,
                              scheme_info(*algorithm).name),
                  file);
}

}  // namespace

const char* how_read(bool from_hex) noexcept { return from_hex ? "read as hex" : "read as raw bytes"; }

std::string scheme_names(const std::vector<Scheme>& schemes, const char* last_sep) {
  std::vector<std::string> names;
  for (const auto s : schemes) names.emplace_back(scheme_info(s).name);
  return join_words(names, last_sep);
}

bool secret_key_is_seed(Scheme s) noexcept { return scheme_info(s).seed_is_secret_key; }

void require_unambiguous_size(const char* what, std::size_t n, bool from_hex, const std::vector<Scheme>& fits,
                              const std::string& file) {
  if (fits.size() > 1) ambiguous_size(what, n, from_hex, fits, file);
}

std::optional<std::size_t> seed_size(Scheme s) noexcept {
  const auto& info = scheme_info(s);
  if (info.seed_bytes == 0 || info.seed_bytes != info.keygen_coin_bytes()) return std::nullopt;
  return info.seed_bytes;
}

KeyInput load_key_input(const std::string& path) {
  KeyInput in;
  in.file = input_name(path);
  SecretBytes content = read_input(path);
  in.file_bytes = content.size();
  if (keyfile::looks_like_pem(content)) {
    auto block = with_file_context("not a valid key file", in.file, [&] { return keyfile::pem_decode(content); });
    in.bytes = std::move(block.der);
    in.format = Format::pem;
    in.der = true;
    in.pem_label = std::move(block.label);
    return in;
  }
  auto decoded = decode_input(std::move(content), in.file);
  in.from_hex = decoded.from_hex;
  in.format = decoded.from_hex ? Format::hex : Format::bin;
  in.bytes = std::move(decoded.bytes);
  // DER only with the outer shape of an SPKI / PKCS#8 structure spanning the whole input
  // (random bytes have it with a chance below 2^-16), or the first bytes of an ML-KEM key file
  // (a truncated or damaged one, which is then reported as the private or public key file it
  // was; a chance below 2^-60). Anything else is raw: a raw key that happens to start with 0x30
  // must not be parsed as DER, or its bytes would reach the messages.
  in.der_kind = keyfile::der_kind(in.bytes);
  if (!in.der_kind) in.der_kind = keyfile::der_kind_by_prefix(in.bytes);
  if (in.der_kind) {
    in.der = true;
    if (!in.from_hex) in.format = Format::der;
  }
  return in;
}

std::optional<bool> container_is_private(const KeyInput& in) {
  if (in.format == Format::pem) {
    if (in.pem_label == keyfile::kPemPrivateKey) return true;
    if (in.pem_label == keyfile::kPemPublicKey) return false;
    if (in.pem_label == "ENCRYPTED PRIVATE KEY")
      throw_failure("encrypted private keys are not supported; decrypt it first (openssl pkey -in FILE -out PLAIN)",
                    in.file);
    throw_failure(fmt::format("PEM label '{}' is not a key pqkem reads; expected 'PRIVATE KEY' (PKCS#8) or 'PUBLIC "
                              "KEY' (SubjectPublicKeyInfo)",
                              printable(in.pem_label)),
                  in.file);
  }
  if (!in.der || !in.der_kind) return std::nullopt;
  return *in.der_kind == keyfile::DerKind::pkcs8;
}

PublicKeyInput public_key_from_input(KeyInput in, std::optional<Scheme> algorithm) {
  const std::string& file = in.file;
  if (in.der) {
    if (container_is_private(in).value_or(false))
      wrong_container("a private key (PKCS#8)", "a public key", "; 'pqkem pubkey' derives the public key from it",
                      file);
    auto pub = with_file_context("not a valid public key file", file, [&] { return keyfile::decode_spki(in.bytes); });
    check_algorithm(pub.scheme, algorithm, "public key", file);
    return {pub.scheme, std::move(pub.pk), in.format, true};
  }
  const auto fits = [&](std::size_t n) {
    return algorithm ? n == scheme_info(*algorithm).pk_bytes : scheme_from_pk_size(n).has_value();
  };
  const Decoded decoded{std::move(in.bytes), in.from_hex};
  if (!algorithm)
    require_unambiguous_size("public key", decoded.bytes.size(), decoded.from_hex,
                             schemes_of_size(Part::public_key, decoded.bytes.size()), file);
  if (!fits(decoded.bytes.size())) wrong_length(Part::public_key, decoded, algorithm, "", file);
  const Scheme s = algorithm ? *algorithm : *scheme_from_pk_size(decoded.bytes.size());
  Bytes pk(decoded.bytes.view().begin(), decoded.bytes.view().end());
  with_file_context(fmt::format("not a valid {} public key", scheme_info(s).name), file,
                    [&] { check_public_key(s, pk); });
  return {s, std::move(pk), in.format, false};
}

namespace {

/// A raw secret key of the size of scheme s's expanded key.
SecretKeyInput expanded_secret_key(Scheme s, Decoded decoded, Format format, bool full_check, const std::string& file) {
  // A hybrid's expanded key (hybrid/hybrid.hpp) is pqkem's in-memory form: files hold the seed.
  if (secret_key_is_seed(s))
    throw_failure(fmt::format("secret key has {} bytes ({}), the size of pqkem's in-memory expanded {} key, which "
                              "key files never hold ({}); give the {}-byte seed, the {} secret key",
                              decoded.bytes.size(), how_read(decoded.from_hex), scheme_info(s).name,
                              kExpandedHybridKeyRule, scheme_info(s).seed_bytes, scheme_info(s).name),
                  file);
  if (full_check) {
    auto key = with_file_context(secret_key_context(s), file,
                                 [&] { return keyfile::private_key_from_expanded(s, decoded.bytes); });
    return {std::move(key), format, false};
  }
  // Without full_check (decaps, its only user) the key is not checked here: pqkem::decaps runs
  // the same check (ML-KEM: H(ek) against the stored hash, beside J(z || c)) and run_decaps
  // reports its invalid_decaps_key against this file, so the key is hashed once, not twice.
  SecretKeyInput out;
  out.key.scheme = s;
  out.key.form = keyfile::PrivateKeyForm::expanded;
  out.key.dk = std::move(decoded.bytes);
  out.format = format;
  return out;
}

/// A raw secret key of a seed's size, n bytes: expanded with -a, refused without it.
SecretKeyInput seed_secret_key(std::optional<Scheme> algorithm, const Decoded& decoded, Format format,
                               const std::string& file) {
  const std::size_t n = decoded.bytes.size();
  if (algorithm) {
    auto key = with_file_context("cannot expand the secret key seed", file,
                                 [&] { return keyfile::private_key_from_seed(*algorithm, decoded.bytes); });
    return {std::move(key), format, false};
  }
  std::vector<Scheme> seeded;
  for (const auto& info : all_schemes())
    if (seed_size(info.scheme) == n) seeded.push_back(info.scheme);
  // A shared secret has the size of some seeds (32: X-Wing; 64: ML-KEM), and nothing in its
  // bytes tells the two apart: say so, rather than suggest -a, which would make it a "key".
  const bool secret_sized =
      std::any_of(all_schemes().begin(), all_schemes().end(), [&](const SchemeInfo& i) { return i.ss_bytes == n; });
  if (secret_sized)
    throw_usage(fmt::format("secret key has {} bytes: a seed of {}, which does not reveal its parameter set (give "
                            "-a ALG), or a shared secret, which is not a key; pqkem cannot tell them apart",
                            n, scheme_names(seeded, "or")),
                file);
  throw_usage(fmt::format("secret key is a {}-byte seed, which does not reveal its parameter set; give -a ALG "
                          "({}-byte seeds: {})",
                          n, n, scheme_names(seeded, "or")),
              file);
}

/// A raw secret key of no secret key's or seed's size.
[[noreturn]] void wrong_secret_key_length(const Decoded& decoded, std::optional<Scheme> algorithm,
                                          const std::string& file) {
  std::string extra;
  if (algorithm) {
    const auto& info = scheme_info(*algorithm);
    if (secret_key_is_seed(*algorithm))
      throw_failure(fmt::format("secret key has {} bytes ({}); {}'s secret key is its {}-byte seed; nor is it a whole "
                                "DER key structure",
                                decoded.bytes.size(), how_read(decoded.from_hex), info.name, info.seed_bytes),
                    file);
    if (const auto seed = seed_size(*algorithm)) extra = fmt::format(", or a {}-byte seed", *seed);
  } else {
    std::vector<std::size_t> seeds;
    for (const auto& info : all_schemes()) {
      if (const auto seed = seed_size(info.scheme)) seeds.push_back(*seed);
    }
    std::sort(seeds.begin(), seeds.end());
    seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
    std::vector<std::string> words;
    for (const auto seed : seeds) words.push_back(fmt::format("{}-byte", seed));
    extra = fmt::format(", or a {} seed with -a", join_words(words, "or"));
  }
  wrong_length(Part::secret_key, decoded, algorithm, extra, file);
}

}  // namespace

SecretKeyInput secret_key_from_input(KeyInput in, std::optional<Scheme> algorithm, bool full_check) {
  const std::string& file = in.file;
  if (in.der) {
    if (!container_is_private(in).value_or(true))
      wrong_container("a public key (SubjectPublicKeyInfo)", "a secret key", "", file);
    auto key = with_file_context("not a valid private key file", file, [&] { return keyfile::decode_pkcs8(in.bytes); });
    check_algorithm(key.scheme, algorithm, "private key", file);
    return {std::move(key), in.format, true};
  }
  Decoded decoded{std::move(in.bytes), in.from_hex};
  const std::size_t n = decoded.bytes.size();
  const bool key_size = algorithm ? n == scheme_info(*algorithm).sk_bytes : scheme_from_sk_size(n).has_value();
  if (key_size)
    return expanded_secret_key(algorithm ? *algorithm : *scheme_from_sk_size(n), std::move(decoded), in.format,
                               full_check, file);
  const bool seed_sized = algorithm ? seed_size(*algorithm) == n
                                    : std::any_of(all_schemes().begin(), all_schemes().end(),
                                                  [&](const SchemeInfo& i) { return seed_size(i.scheme) == n; });
  if (seed_sized) return seed_secret_key(algorithm, decoded, in.format, file);
  wrong_secret_key_length(decoded, algorithm, file);
}

PublicKeyInput load_public_key(const std::string& path, std::optional<Scheme> algorithm) {
  return public_key_from_input(load_key_input(path), algorithm);
}

SecretKeyInput load_secret_key(const std::string& path, std::optional<Scheme> algorithm, bool full_check) {
  return secret_key_from_input(load_key_input(path), algorithm, full_check);
}

std::pair<Scheme, Bytes> read_public_key(const std::string& path, std::optional<Scheme> algorithm) {
  auto in = load_public_key(path, algorithm);
  return {in.scheme, std::move(in.pk)};
}

std::string secret_key_context(Scheme s) { return fmt::format("not a valid {} secret key", scheme_info(s).name); }

std::pair<Scheme, SecretBytes> read_secret_key(const std::string& path, std::optional<Scheme> algorithm) {
  auto in = load_secret_key(path, algorithm, false);
  return {in.key.scheme, std::move(in.key.dk)};
}

void require_key_format(Scheme s, Format format) {
  if ((format != Format::pem && format != Format::der) || keyfile::has_key_files(s)) return;
  const auto& info = scheme_info(s);
  std::string why;
  if (secret_key_is_seed(s)) {
    why = fmt::format("no standard encoding exists yet for {}: {} defines only its wire format", info.name,
                      info.standard);
  } else {
    // "ML-KEM-512, ML-KEM-768, ML-KEM-1024 (RFC 9935) and X-Wing (draft-connolly-cfrg-xwing-kem)"
    std::vector<std::string> groups;
    std::vector<Scheme> group;
    std::string_view standard;
    const auto close_group = [&] {
      if (!group.empty()) groups.push_back(fmt::format("{} ({})", scheme_names(group, "and"), standard));
      group.clear();
    };
    for (const auto& other : all_schemes()) {
      const auto other_standard = keyfile::oid_standard(other.scheme);
      if (!other_standard) continue;
      if (*other_standard != standard) close_group();
      standard = *other_standard;
      group.push_back(other.scheme);
    }
    close_group();
    why = "standard OIDs exist only for " + join_words(groups, "and");
  }
  throw_usage(fmt::format("{} has no standard OID, so its keys have no PEM or DER form ({}); use --format bin or hex",
                          info.name, why));
}

keyfile::PrivateKeyForm resolve_sk_form(const std::string& given, Format format, Scheme s, bool seed_known,
                                        const std::string& file) {
  using Form = keyfile::PrivateKeyForm;
  const bool structured = format == Format::pem || format == Format::der;
  const auto& info = scheme_info(s);
  Form form = Form::seed;
  if (!given.empty()) {
    const auto parsed = keyfile::parse_form(given);
    if (!parsed) throw_usage(fmt::format("--sk-form must be seed, expanded or both, not '{}'", given));
    form = *parsed;
  }
  if (secret_key_is_seed(s)) {
    // The hybrids: the seed is the standard secret key, in every format.
    if (form != Form::seed)
      throw_usage(
          fmt::format("--sk-form {}: {} secret keys are written only as their {}-byte seed, the standard "
                      "form; pqkem's expanded {} key exists in memory only ({})",
                      given, info.name, info.seed_bytes, info.name, kExpandedHybridKeyRule));
    return Form::seed;
  }
  if (given.empty()) return structured && seed_known ? Form::seed : Form::expanded;
  if (form == Form::both && !structured)
    throw_usage("--sk-form both needs --format pem or der: a raw secret key file holds one form (seed or expanded)");
  if (form != Form::expanded && !seed_size(s))
    throw_usage(fmt::format("--sk-form {}: {} keys have no private seed form", given, info.name));
  if (form != Form::expanded && !seed_known)
    throw_failure(fmt::format("--sk-form {} needs the private seed, which cannot be recovered from an expanded key; "
                              "use --sk-form expanded",
                              given),
                  file);
  return form;
}

SecretBytes encode_public_key(Scheme s, ByteView pk, Format format) {
  switch (format) {
    case Format::bin:
    case Format::hex: return encode_output(pk, format);
    case Format::der: return SecretBytes(keyfile::encode_spki(s, pk));
    case Format::pem: return keyfile::pem_encode(keyfile::kPemPublicKey, keyfile::encode_spki(s, pk));
  }
  return {};
}

SecretBytes encode_secret_key(const keyfile::PrivateKey& key, Format format, keyfile::PrivateKeyForm form) {
  switch (format) {
    case Format::bin:
    case Format::hex:
      return encode_output(form == keyfile::PrivateKeyForm::seed ? key.seed.view() : key.dk.view(), format);
    case Format::der: return keyfile::encode_pkcs8(key, form);
    case Format::pem: return keyfile::pem_encode(keyfile::kPemPrivateKey, keyfile::encode_pkcs8(key, form));
  }
  return {};
}

Bytes read_ciphertext(const std::string& path, Scheme s) {
  const std::string file = input_name(path);
  const std::size_t want = scheme_info(s).ct_bytes;
  auto decoded = decode_input(read_input(path), file);
  if (decoded.bytes.size() != want) wrong_length(Part::ciphertext, decoded, s, "", file);
  return Bytes(decoded.bytes.view().begin(), decoded.bytes.view().end());
}

}  // namespace pqkem::cli
