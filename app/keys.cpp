// Reading keys and ciphertexts (raw, hex, PEM, DER) with the checks and messages every command
// shares, and encoding keys for output. Nothing here names an algorithm: sizes and names come
// from pqkem::all_schemes(), so new schemes work without a CLI change.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"

namespace pqkem::cli {
namespace {

/// The three kinds of key material an input can be, with their sizes per scheme.
enum class Part { public_key, secret_key, ciphertext };

const char* part_name(Part p) noexcept {
  switch (p) {
    case Part::public_key:
      return "public key";
    case Part::secret_key:
      return "secret key";
    case Part::ciphertext:
      return "ciphertext";
  }
  return "input";
}

std::size_t size_of(const SchemeInfo& info, Part p) noexcept {
  switch (p) {
    case Part::public_key:
      return info.pk_bytes;
    case Part::secret_key:
      return info.sk_bytes;
    case Part::ciphertext:
      return info.ct_bytes;
  }
  return 0;
}

/// The scheme whose `p` has exactly `n` bytes, if exactly one does.
std::optional<Scheme> scheme_of_size(Part p, std::size_t n) noexcept {
  switch (p) {
    case Part::public_key:
      return scheme_from_pk_size(n);
    case Part::secret_key:
      return scheme_from_sk_size(n);
    case Part::ciphertext:
      return scheme_from_ct_size(n);
  }
  return std::nullopt;
}

/// "800, 1184 or 1568 bytes"
std::string list_sizes(Part p) {
  std::vector<std::size_t> sizes;
  for (const auto& info : all_schemes()) sizes.push_back(size_of(info, p));
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  std::string out;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0) out += i + 1 == sizes.size() ? " or " : ", ";
    out += std::to_string(sizes[i]);
  }
  return out + " bytes";
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
    const auto other = scheme_of_size(p, n);
    if (other && *other != *expected)
      throw_failure(
          fmt::format("{} has {} bytes ({}), the size of a {} for {}; {} needs {} bytes{}", part_name(p), n,
                      how_read(d.from_hex), part_name(p), scheme_info(*other).name, info.name, size_of(info, p), extra),
          file);
    throw_failure(fmt::format("{} has {} bytes ({}); {} needs {} bytes{}{}", part_name(p), n, how_read(d.from_hex),
                              info.name, size_of(info, p), extra, not_der),
                  file);
  }
  throw_failure(fmt::format("{} has {} bytes ({}); no algorithm has a {} of that size (expected {}{}){}",
                            part_name(p), n, how_read(d.from_hex), part_name(p), list_sizes(p), extra, not_der),
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
      wrong_container("a private key (PKCS#8)", "a public key", "; 'pqkem pubkey' derives the public key from it", file);
    auto pub = with_file_context("not a valid public key file", file, [&] { return keyfile::decode_spki(in.bytes); });
    check_algorithm(pub.scheme, algorithm, "public key", file);
    return {pub.scheme, std::move(pub.pk), in.format, true};
  }
  const auto fits = [&](std::size_t n) {
    return algorithm ? n == scheme_info(*algorithm).pk_bytes : scheme_from_pk_size(n).has_value();
  };
  const Decoded decoded{std::move(in.bytes), in.from_hex};
  if (!fits(decoded.bytes.size())) wrong_length(Part::public_key, decoded, algorithm, "", file);
  const Scheme s = algorithm ? *algorithm : *scheme_from_pk_size(decoded.bytes.size());
  Bytes pk(decoded.bytes.view().begin(), decoded.bytes.view().end());
  with_file_context(fmt::format("not a valid {} public key", scheme_info(s).name), file,
                    [&] { check_public_key(s, pk); });
  return {s, std::move(pk), in.format, false};
}

SecretKeyInput secret_key_from_input(KeyInput in, std::optional<Scheme> algorithm, bool full_check) {
  const std::string& file = in.file;
  if (in.der) {
    if (!container_is_private(in).value_or(true))
      wrong_container("a public key (SubjectPublicKeyInfo)", "a secret key", "", file);
    auto key = with_file_context("not a valid private key file", file, [&] { return keyfile::decode_pkcs8(in.bytes); });
    check_algorithm(key.scheme, algorithm, "private key", file);
    return {std::move(key), in.format, true};
  }
  const auto is_seed_size = [&](std::size_t n) {
    if (algorithm) return seed_size(*algorithm) == n;
    return std::any_of(all_schemes().begin(), all_schemes().end(),
                       [&](const SchemeInfo& i) { return seed_size(i.scheme) == n; });
  };
  const auto is_key_size = [&](std::size_t n) {
    return algorithm ? n == scheme_info(*algorithm).sk_bytes : scheme_from_sk_size(n).has_value();
  };
  Decoded decoded{std::move(in.bytes), in.from_hex};
  const std::size_t n = decoded.bytes.size();

  if (is_key_size(n)) {
    const Scheme s = algorithm ? *algorithm : *scheme_from_sk_size(n);
    if (full_check) {
      auto key = with_file_context(secret_key_context(s), file,
                                   [&] { return keyfile::private_key_from_expanded(s, decoded.bytes); });
      return {std::move(key), in.format, false};
    }
    // Without full_check (decaps, its only user) the key is not checked here: pqkem::decaps runs
    // the same check (ML-KEM: H(ek) against the stored hash, beside J(z || c)) and run_decaps
    // reports its invalid_decaps_key against this file, so the key is hashed once, not twice.
    SecretKeyInput out;
    out.key.scheme = s;
    out.key.form = keyfile::PrivateKeyForm::expanded;
    out.key.dk = std::move(decoded.bytes);
    out.format = in.format;
    return out;
  }
  if (is_seed_size(n)) {
    if (!algorithm)
      throw_usage(fmt::format("secret key is a {}-byte seed, which does not reveal its parameter set; give -a ALG", n),
                  file);
    auto key = with_file_context("cannot expand the secret key seed", file,
                                 [&] { return keyfile::private_key_from_seed(*algorithm, decoded.bytes); });
    return {std::move(key), in.format, false};
  }
  std::string extra;
  if (algorithm) {
    if (const auto seed = seed_size(*algorithm)) extra = fmt::format(", or a {}-byte seed", *seed);
  } else {
    std::vector<std::size_t> seeds;
    for (const auto& info : all_schemes()) {
      if (const auto seed = seed_size(info.scheme)) seeds.push_back(*seed);
    }
    std::sort(seeds.begin(), seeds.end());
    seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
    for (const auto seed : seeds) extra += fmt::format(", or a {}-byte seed with -a", seed);
  }
  wrong_length(Part::secret_key, decoded, algorithm, extra, file);
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
  if ((format == Format::pem || format == Format::der) && !keyfile::has_key_files(s))
    throw_usage(fmt::format("{} has no standard OID, so its keys have no PEM or DER form (RFC 9935 covers ML-KEM "
                            "only); use --format bin or hex",
                            scheme_info(s).name));
}

keyfile::PrivateKeyForm resolve_sk_form(const std::string& given, Format format, Scheme s, bool seed_known,
                                        const std::string& file) {
  const bool structured = format == Format::pem || format == Format::der;
  if (given.empty())
    return structured && seed_known ? keyfile::PrivateKeyForm::seed : keyfile::PrivateKeyForm::expanded;
  const auto form = keyfile::parse_form(given);
  if (!form) throw_usage(fmt::format("--sk-form must be seed, expanded or both, not '{}'", given));
  if (*form == keyfile::PrivateKeyForm::both && !structured)
    throw_usage("--sk-form both needs --format pem or der: a raw secret key file holds one form (seed or expanded)");
  if (*form != keyfile::PrivateKeyForm::expanded && !seed_size(s))
    throw_usage(fmt::format("--sk-form {}: {} keys have no private seed form", given, scheme_info(s).name));
  if (*form != keyfile::PrivateKeyForm::expanded && !seed_known)
    throw_failure(fmt::format("--sk-form {} needs the private seed, which cannot be recovered from an expanded key; "
                              "use --sk-form expanded",
                              given),
                  file);
  return *form;
}

SecretBytes encode_public_key(Scheme s, ByteView pk, Format format) {
  switch (format) {
    case Format::bin:
    case Format::hex:
      return encode_output(pk, format);
    case Format::der:
      return SecretBytes(keyfile::encode_spki(s, pk));
    case Format::pem:
      return keyfile::pem_encode(keyfile::kPemPublicKey, keyfile::encode_spki(s, pk));
  }
  return {};
}

SecretBytes encode_secret_key(const keyfile::PrivateKey& key, Format format, keyfile::PrivateKeyForm form) {
  switch (format) {
    case Format::bin:
    case Format::hex:
      return encode_output(form == keyfile::PrivateKeyForm::seed ? key.seed.view() : key.dk.view(), format);
    case Format::der:
      return keyfile::encode_pkcs8(key, form);
    case Format::pem:
      return keyfile::pem_encode(keyfile::kPemPrivateKey, keyfile::encode_pkcs8(key, form));
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
