// SubjectPublicKeyInfo (RFC 5280) and PKCS#8 (RFC 5958) key files: RFC 9935 for ML-KEM, the
// X-Wing draft for X-Wing. Written and read strictly; a private key file's fields are secret.
#include <algorithm>
#include <array>
#include <initializer_list>
#include <span>

#include "ct.hpp"
#include "error.hpp"
#include "keyfile/internal.hpp"

namespace pqkem::keyfile {
using namespace detail;
namespace {

/// The private seed's size for `s` (64 for ML-KEM, 32 for X-Wing).
std::size_t seed_bytes_of(Scheme s) noexcept { return scheme_info(s).seed_bytes; }

/// Fails unless `field` of a key of `oid`'s scheme has the size its standard gives it. The
/// message states the rule, not the size found: the field may be part of a secret key misread
/// as DER.
void check_size(const der::Reader& r, const OidEntry& oid, ByteView field_bytes, std::size_t want, const char* field) {
  if (field_bytes.size() != want)
    r.fail(name_of(oid.scheme) + " " + field + " has the wrong length; " + std::string(oid.standard) + " requires " +
           std::to_string(want) + " bytes");
}

}  // namespace

Bytes encode_spki(Scheme s, ByteView pk) {
  const OidEntry& oid = require_oid(s);
  check_public_key(s, pk);
  const std::size_t bits = 1 + pk.size();
  const std::size_t body = algorithm_bytes(oid) + der::tlv_size(bits);
  Bytes out(der::tlv_size(body));
  der::Writer w(out);
  w.header(der::kSequence, body);
  write_algorithm(w, oid);
  w.header(der::kBitString, bits);
  const std::uint8_t unused_bits = 0;
  w.raw(ByteView(&unused_bits, 1));
  w.raw(pk);
  w.done();
  return out;
}

SecretBytes encode_pkcs8(const PrivateKey& key, PrivateKeyForm form) {
  const OidEntry& oid = require_oid(key.scheme);
  const std::size_t dk_bytes = scheme_info(key.scheme).sk_bytes;
  const std::size_t seed_bytes = seed_bytes_of(key.scheme);
  if (key.dk.size() != dk_bytes) throw Error(Errc::bad_argument, "encode_pkcs8: expanded key has the wrong length");
  const bool raw_seed = oid.layout == PrivateKeyLayout::raw_seed;
  if (raw_seed && form != PrivateKeyForm::seed)
    throw Error(Errc::bad_argument, name_of(key.scheme) + " private keys hold only the seed (" +
                                        std::string(oid.standard) + "), not the " + std::string(form_name(form)) +
                                        " form");
  if (form != PrivateKeyForm::expanded && key.seed.size() != seed_bytes)
    throw Error(Errc::bad_argument, std::string("the seed of this key is not known (it was given in expanded form), "
                                                "so it cannot be written in ") +
                                        std::string(form_name(form)) + " form");
  // The privateKey OCTET STRING's content: X-Wing's raw seed, or RFC 9935's CHOICE.
  std::size_t choice = 0;
  switch (form) {
    case PrivateKeyForm::seed: choice = raw_seed ? seed_bytes : der::tlv_size(seed_bytes); break;
    case PrivateKeyForm::expanded: choice = der::tlv_size(dk_bytes); break;
    case PrivateKeyForm::both: choice = der::tlv_size(der::tlv_size(seed_bytes) + der::tlv_size(dk_bytes)); break;
  }
  const std::uint8_t version0[] = {0x00};
  const std::size_t body = der::tlv_size(1) + algorithm_bytes(oid) + der::tlv_size(choice);
  SecretBytes out(der::tlv_size(body));
  der::Writer w(out.span());
  w.header(der::kSequence, body);
  w.tlv(der::kInteger, version0);
  write_algorithm(w, oid);
  w.header(der::kOctetString, choice);
  switch (form) {
    case PrivateKeyForm::seed:
      if (raw_seed) {
        w.raw(key.seed.view());
      } else {
        w.tlv(der::kContext0Primitive, key.seed.view());
      }
      break;
    case PrivateKeyForm::expanded: w.tlv(der::kOctetString, key.dk.view()); break;
    case PrivateKeyForm::both:
      w.header(der::kSequence, der::tlv_size(seed_bytes) + der::tlv_size(dk_bytes));
      w.tlv(der::kOctetString, key.seed.view());
      w.tlv(der::kOctetString, key.dk.view());
      break;
  }
  w.done();
  return out;
}

PublicKey decode_spki(ByteView input) {
  const std::string what = "SubjectPublicKeyInfo";
  der::Reader top(input, what);
  der::Reader spki(top.expect(der::kSequence, "the outer element"), what);
  top.expect_end("the SubjectPublicKeyInfo");
  const OidEntry& oid = read_algorithm(spki, what);
  const Scheme s = oid.scheme;
  const ByteView bits = spki.expect(der::kBitString, "subjectPublicKey");
  spki.expect_end("the subjectPublicKey");
  if (bits.empty() || bits[0] != 0) spki.fail("the subjectPublicKey BIT STRING must have 0 unused bits");
  const ByteView pk = bits.subspan(1);
  check_size(spki, oid, pk, scheme_info(s).pk_bytes, "public key");
  check_public_key(s, pk);
  return PublicKey{s, Bytes(pk.begin(), pk.end())};
}

PrivateKey decode_pkcs8(ByteView input) {
  const std::string what = "PKCS#8 private key";
  der::Reader top(input, what);
  der::Reader p8(top.expect(der::kSequence, "PrivateKeyInfo"), what);
  top.expect_end("the PKCS#8 structure");
  const ByteView version = p8.expect(der::kInteger, "version");
  if (version.size() != 1 || version[0] > 1) p8.fail("unsupported version (expected 0, or 1 with a public key)");
  const OidEntry& oid = read_algorithm(p8, what);
  const Scheme s = oid.scheme;
  const std::string alg = name_of(s);
  const ByteView priv = p8.expect(der::kOctetString, "privateKey");
  if (p8.peek_tag() == der::kContext0Constructed) p8.fail("attributes are not supported in " + alg + " private keys");
  if (oid.layout == PrivateKeyLayout::raw_seed) {
    // The X-Wing draft: version 0, publicKey absent, privateKey the raw seed.
    if (p8.peek_tag() == der::kContext1Primitive)
      p8.fail(alg + " private keys have no publicKey field (" + std::string(oid.standard) + ": it MUST be absent)");
    p8.expect_end("the privateKey");
    if (version[0] != 0) p8.fail("unsupported version (" + std::string(oid.standard) + " requires 0)");
    check_size(p8, oid, priv, seed_bytes_of(s), "privateKey (the seed)");
    return private_key_from_seed(s, priv);
  }
  std::optional<ByteView> public_bits;
  if (p8.peek_tag() == der::kContext1Primitive) {
    if (version[0] != 1) p8.fail("a publicKey field needs version 1");
    public_bits = p8.next().content;
  }
  p8.expect_end("the privateKey");

  const auto& info = scheme_info(s);
  const std::size_t seed_bytes = seed_bytes_of(s);

  // RFC 9935 section 6: the CHOICE is decided by the tag alone.
  der::Reader choice(priv, what);
  const std::uint8_t tag = choice.peek_tag();
  if (tag != der::kContext0Primitive && tag != der::kOctetString && tag != der::kSequence)
    choice.fail(
        "privateKey: not one of RFC 9935's private key forms (seed [0], expandedKey OCTET STRING, both "
        "SEQUENCE)");
  const der::Tlv tlv = choice.next();
  choice.expect_end("the private key");

  PrivateKey key;
  if (tag == der::kContext0Primitive) {
    check_size(choice, oid, tlv.content, seed_bytes, "seed");
    key = private_key_from_seed(s, tlv.content);
  } else if (tag == der::kOctetString) {
    check_size(choice, oid, tlv.content, info.sk_bytes, "expandedKey");
    key = private_key_from_expanded(s, tlv.content);
  } else {
    der::Reader both(tlv.content, what + " (both)");
    const ByteView seed = both.expect(der::kOctetString, "seed");
    const ByteView dk = both.expect(der::kOctetString, "expandedKey");
    both.expect_end("the expandedKey");
    check_size(both, oid, seed, seed_bytes, "seed");
    check_size(both, oid, dk, info.sk_bytes, "expandedKey");
    key = private_key_from_seed(s, seed);
    if (!equal_ct(key.dk.view(), dk))
      throw Error(Errc::invalid_decaps_key, alg +
                                                " private key in 'both' form: the seed and the expanded key "
                                                "disagree (the seed does not generate that expanded key)");
    key.form = PrivateKeyForm::both;
  }

  if (public_bits) {
    if (public_bits->empty() || (*public_bits)[0] != 0 || !equal_ct(public_bits->subspan(1), key.pk))
      p8.fail("the publicKey field does not match the private key");
  }
  return key;
}

bool starts_like_der(ByteView bytes) noexcept { return bytes.size() >= 2 && bytes[0] == der::kSequence; }

std::optional<DerKind> der_kind_by_prefix(ByteView input) noexcept {
  // What follows the outer SEQUENCE's header in every key file pqkem reads: the
  // AlgorithmIdentifier SEQUENCE { OID } of a kOids entry, of which the first 12 bytes are
  // compared (SEQUENCE and OID headers, 8 bytes of the OID: not ML-KEM's parameter set),
  // preceded in PKCS#8 by the version INTEGER 0 or 1 (its value is not compared). -1 matches
  // any byte.
  constexpr int kAny = -1;
  constexpr std::size_t kCompared = 12;
  constexpr int kVersion[] = {der::kInteger, 0x01, kAny};
  const auto algorithm_prefix = [](const OidEntry& e) {
    std::array<int, kCompared> p{der::kSequence, static_cast<int>(der::tlv_size(e.size)), der::kOid,
                                 static_cast<int>(e.size)};
    for (std::size_t i = 4; i < kCompared; ++i) p[i] = e.bytes[i - 4];
    return p;
  };
  // Equal bytes of `pattern` at `at` (out of range: unequal), best over the outer header sizes
  // DER allows for these files (2, 3 or 4 bytes: short form, 0x81 n, 0x82 n n).
  const auto best = [&](std::initializer_list<std::span<const int>> parts) {
    int most = 0;
    for (std::size_t header = 2; header <= 4; ++header) {
      int equal = 0;
      std::size_t at = header;
      for (const auto part : parts)
        for (const int b : part) {
          // The input may be a raw secret key: count matches with a mask, not a branch per byte.
          if (at < input.size() && b != kAny)
            equal += static_cast<int>(ct::mask_is_zero(static_cast<std::uint32_t>(input[at] ^ b)) & 1u);
          ++at;
        }
      most = std::max(most, equal);
    }
    return most;
  };
  int spki = 0, pkcs8 = 0;
  for (const auto& e : kOids) {
    const auto algorithm = algorithm_prefix(e);
    spki = std::max(spki, best({algorithm}));
    pkcs8 = std::max(pkcs8, best({kVersion, algorithm}));
  }
  // 9 of the 12 compared bytes: a few damaged bytes still leave the file recognised, and
  // unrelated bytes (a raw key, a truncated hex key) match with a chance below 2^-60.
  constexpr int kEnough = 9;
  if (std::max(spki, pkcs8) < kEnough || spki == pkcs8) return std::nullopt;
  return pkcs8 > spki ? DerKind::pkcs8 : DerKind::spki;
}

std::optional<DerKind> der_kind(ByteView input) noexcept {
  try {
    der::Reader top(input, "DER");
    const der::Tlv outer = top.next();
    if (outer.tag != der::kSequence || !top.empty()) return std::nullopt;
    // An ML-KEM or X-Wing key file damaged in its first element (a PKCS#8 whose version tag became a
    // SEQUENCE's) is still named by what its AlgorithmIdentifier's position says it is.
    if (const auto by_prefix = der_kind_by_prefix(input)) return by_prefix;
    der::Reader inner(outer.content, "DER");
    if (inner.peek_tag() == der::kSequence) return DerKind::spki;
    if (inner.peek_tag() == der::kInteger) return DerKind::pkcs8;
  } catch (const Error&) {
  }
  return std::nullopt;
}

}  // namespace pqkem::keyfile
