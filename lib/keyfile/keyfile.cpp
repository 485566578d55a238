// Private keys from their seed or expanded form, the names of the forms, and fingerprints.
#include "keyfile/keyfile.hpp"

#include "error.hpp"
#include "hash.hpp"
#include "keyfile/internal.hpp"

namespace pqkem::keyfile {
using namespace detail;

std::string_view form_name(PrivateKeyForm form) noexcept {
  switch (form) {
    case PrivateKeyForm::seed: return "seed";
    case PrivateKeyForm::expanded: return "expanded";
    case PrivateKeyForm::both: return "both";
  }
  return "?";
}

std::optional<PrivateKeyForm> parse_form(std::string_view name) noexcept {
  if (name == "seed") return PrivateKeyForm::seed;
  if (name == "expanded") return PrivateKeyForm::expanded;
  if (name == "both") return PrivateKeyForm::both;
  return std::nullopt;
}

PrivateKey private_key_from_seed(Scheme s, ByteView seed) {
  auto kp = keygen_derand(s, seed);
  PrivateKey key;
  key.scheme = s;
  key.form = PrivateKeyForm::seed;
  key.seed = SecretBytes(seed);
  key.dk = std::move(kp.sk);
  key.pk = std::move(kp.pk);
  return key;
}

PrivateKey private_key_from_expanded(Scheme s, ByteView dk) {
  const auto& info = scheme_info(s);
  // check_secret_key also takes a hybrid's seed: this function is for the expanded form only.
  if (dk.size() != info.sk_bytes)
    throw Error(Errc::bad_length, name_of(s) + " expanded decapsulation key has the wrong length (expected " +
                                      std::to_string(info.sk_bytes) + " bytes)");
  check_secret_key(s, dk);  // ML-KEM: H(ek) stored in dk matches ek; hybrids: dk is its seed's expansion
  PrivateKey key;
  key.scheme = s;
  key.form = PrivateKeyForm::expanded;
  // A hybrid's expanded key starts with its seed (hybrid/hybrid.hpp), checked just above.
  if (info.seed_is_secret_key) key.seed = SecretBytes(dk.first(info.seed_bytes));
  key.pk = public_key_from_secret_key(s, dk);
  try {
    check_public_key(s, key.pk);
  } catch (const Error& e) {
    throw Error(Errc::invalid_decaps_key,
                name_of(s) + " expanded key embeds an invalid encapsulation key: " + e.what());
  }
  key.dk = SecretBytes(dk);
  // Pairwise consistency: what encapsulates to ek must decapsulate with dk. This catches a
  // dk_pke (s) that does not belong to ek, which the hash check cannot see.
  const auto enc = encaps(s, key.pk);
  const SecretBytes ss = decaps(s, key.dk, enc.ct);
  if (!equal_ct(ss.view(), enc.ss.view()))
    throw Error(Errc::invalid_decaps_key,
                name_of(s) +
                    " expanded key fails the pairwise consistency check: its secret part does not "
                    "belong to its encapsulation key");
  return key;
}

std::array<std::uint8_t, 32> sha256(ByteView data) noexcept {
  std::array<std::uint8_t, 32> out{};
  hash::sha256(out, {data});
  return out;
}

}  // namespace pqkem::keyfile
