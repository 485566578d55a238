#include "keyfile/keyfile.hpp"

#include <openssl/crypto.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <span>

#include "ct.hpp"
#include "error.hpp"
#include "hash.hpp"
#include "keyfile/der.hpp"

namespace pqkem::keyfile {
namespace {

/// What the PKCS#8 privateKey OCTET STRING of a scheme holds.
enum class PrivateKeyLayout {
  rfc9935_choice,  ///< RFC 9935's ML-KEM-PrivateKey CHOICE: seed [0], expandedKey or both
  raw_seed,        ///< the seed itself, with no inner encoding (X-Wing)
};

/// The OID of each scheme that has key files, as the contents of a DER OBJECT IDENTIFIER.
struct OidEntry {
  Scheme scheme;
  std::array<std::uint8_t, 11> bytes;
  std::size_t size;
  std::string_view text;
  std::string_view standard;  ///< the document the messages cite for the encoding's rules
  PrivateKeyLayout layout;
  [[nodiscard]] ByteView der() const noexcept { return {bytes.data(), size}; }
};
constexpr std::string_view kRfc9935 = "RFC 9935";
constexpr std::string_view kXWingDraft = "draft-connolly-cfrg-xwing-kem";
constexpr OidEntry kOids[] = {
    // RFC 9935 section 3: id-alg-ml-kem-512/768/1024 ::= { nistAlgorithm kems(4) 1/2/3 }.
    {Scheme::MlKem512, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x01}, 9, "2.16.840.1.101.3.4.4.1", kRfc9935,
     PrivateKeyLayout::rfc9935_choice},
    {Scheme::MlKem768, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02}, 9, "2.16.840.1.101.3.4.4.2", kRfc9935,
     PrivateKeyLayout::rfc9935_choice},
    {Scheme::MlKem1024, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x03}, 9, "2.16.840.1.101.3.4.4.3", kRfc9935,
     PrivateKeyLayout::rfc9935_choice},
    // The X-Wing draft, section "Use in X.509 Public Key Infrastructure": id-XWing.
    {Scheme::XWing, {0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xe6, 0x2d, 0x81, 0xc8, 0x7a}, 11, "1.3.6.1.4.1.62253.25722",
     kXWingDraft, PrivateKeyLayout::raw_seed},
};
// der_kind_by_prefix compares 8 bytes of each OID, after headers in DER's short form.
static_assert(std::all_of(std::begin(kOids), std::end(kOids),
                          [](const OidEntry& e) { return e.size >= 8 && e.size < 128; }));

/// Algorithms whose keys are likely to be given by mistake, by the contents of their OIDs, so
/// that a message can say what a key is without printing the OID read from the input (a
/// secret key misread as DER would show its own bytes).
struct ForeignOid {
  std::string_view name;
  std::size_t size;
  std::array<std::uint8_t, 9> der;
  [[nodiscard]] ByteView view() const noexcept { return {der.data(), size}; }
};
constexpr ForeignOid kForeignOids[] = {
    {"RSA", 9, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01}},  // rsaEncryption 1.2.840.113549.1.1.1
    {"EC", 7, {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01}},              // id-ecPublicKey 1.2.840.10045.2.1
    {"X25519", 3, {0x2b, 0x65, 0x6e}},                                   // 1.3.101.110 (RFC 8410)
    {"X448", 3, {0x2b, 0x65, 0x6f}},                                     // 1.3.101.111
    {"Ed25519", 3, {0x2b, 0x65, 0x70}},                                  // 1.3.101.112
    {"Ed448", 3, {0x2b, 0x65, 0x71}},                                    // 1.3.101.113
    {"ML-DSA-44", 9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11}},  // 2.16.840.1.101.3.4.3.17
    {"ML-DSA-65", 9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12}},  // .18
    {"ML-DSA-87", 9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x13}},  // .19
};

const OidEntry* find_oid(Scheme s) noexcept {
  for (const auto& e : kOids)
    if (e.scheme == s) return &e;
  return nullptr;
}

const OidEntry& require_oid(Scheme s) {
  const OidEntry* e = find_oid(s);
  if (e == nullptr)
    throw Error(Errc::bad_argument, std::string(scheme_info(s).name) +
                                        " has no standard OID, so it has no SubjectPublicKeyInfo / PKCS#8 form");
  return *e;
}

std::string name_of(Scheme s) { return std::string(scheme_info(s).name); }

/// The private seed's size for `s` (64 for ML-KEM, 32 for X-Wing).
std::size_t seed_bytes_of(Scheme s) noexcept { return scheme_info(s).seed_bytes; }

bool equal_ct(ByteView a, ByteView b) noexcept {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

/// Fails unless `field` of a key of `oid`'s scheme has the size its standard gives it. The
/// message states the rule, not the size found: the field may be part of a secret key misread
/// as DER.
void check_size(const der::Reader& r, const OidEntry& oid, ByteView field_bytes, std::size_t want, const char* field) {
  if (field_bytes.size() != want)
    r.fail(name_of(oid.scheme) + " " + field + " has the wrong length; " + std::string(oid.standard) + " requires " +
           std::to_string(want) + " bytes");
}

/// AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }, which RFC 9935
/// and the X-Wing draft require to be exactly { OID } with parameters absent. Any other OID is
/// named only if it is one of kForeignOids.
const OidEntry& read_algorithm(der::Reader& outer, const std::string& what) {
  der::Reader alg(outer.expect(der::kSequence, "AlgorithmIdentifier"), what);
  const ByteView oid = alg.expect(der::kOid, "algorithm OID");
  const OidEntry* found = nullptr;
  for (const auto& e : kOids)
    if (equal_ct(oid, e.der())) found = &e;
  if (found == nullptr) {
    for (const auto& e : kForeignOids)
      if (equal_ct(oid, e.view())) alg.fail("this is an " + std::string(e.name) + " key, not ML-KEM or X-Wing");
    alg.fail("the algorithm OID is not ML-KEM's or X-Wing's (RFC 9935: 2.16.840.1.101.3.4.4.1, .2 or .3 for "
             "ML-KEM-512, -768, -1024; draft-connolly-cfrg-xwing-kem: 1.3.6.1.4.1.62253.25722)");
  }
  if (!alg.empty())
    alg.fail("the AlgorithmIdentifier has parameters; " + std::string(found->standard) +
             " requires them to be absent");
  return *found;
}

/// Size of AlgorithmIdentifier { oid } (13 bytes for ML-KEM, 15 for X-Wing).
std::size_t algorithm_bytes(const OidEntry& oid) noexcept { return der::tlv_size(der::tlv_size(oid.size)); }

/// Writes AlgorithmIdentifier { oid }.
void write_algorithm(der::Writer& w, const OidEntry& oid) {
  w.header(der::kSequence, der::tlv_size(oid.size));
  w.tlv(der::kOid, oid.der());
}

// --- base64 (RFC 4648, standard alphabet, padded) -------------------------------------------

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 6-bit value of a base64 character, or -1. Branch-free, as the characters of a PEM
/// private key are secret: which range a character falls in must not show in the timing.
int base64_value(std::uint8_t c) noexcept {
  std::uint32_t v = 0, ok = 0, m = 0;
  m = ct::in_range_mask(c, 'A', 'Z'), v |= m & (c - 'A'), ok |= m;
  m = ct::in_range_mask(c, 'a', 'z'), v |= m & (c - 'a' + 26u), ok |= m;
  m = ct::in_range_mask(c, '0', '9'), v |= m & (c - '0' + 52u), ok |= m;
  m = ct::in_range_mask(c, '+', '+'), v |= m & 62u, ok |= m;
  m = ct::in_range_mask(c, '/', '/'), v |= m & 63u, ok |= m;
  return static_cast<int>(v | ~ok);  // ~ok is all ones (-1) for a character outside the alphabet
}

[[noreturn]] void pem_fail(const std::string& why) { throw Error(Errc::bad_format, "PEM: " + why); }

/// Strict decoding of `text` (only alphabet characters and final '=' padding).
SecretBytes base64_decode(ByteView text) {
  if (text.empty()) pem_fail("the block holds no data");
  if (text.size() % 4 != 0) pem_fail("the base64 data is not a multiple of 4 characters (truncated?)");
  std::size_t pad = 0;
  if (text[text.size() - 1] == '=') pad = text[text.size() - 2] == '=' ? 2 : 1;
  SecretBytes out(text.size() / 4 * 3 - pad);
  std::size_t o = 0;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    std::uint32_t v = 0;
    const bool last = i + 4 == text.size();
    for (std::size_t j = 0; j < 4; ++j) {
      const std::uint8_t c = text[i + j];
      int d = base64_value(c);
      if (c == '=' && last && j >= 4 - pad) d = 0;
      if (d < 0) pem_fail(c == '=' ? "'=' padding in the middle of the base64 data" : "invalid base64 character");
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    const std::size_t n = last ? 3 - pad : 3;
    if (last && pad > 0 && (v & ((pad == 1 ? 0xffu : 0xffffu))) != 0)
      pem_fail("non-zero padding bits in the base64 data");
    for (std::size_t j = 0; j < n; ++j) out[o++] = static_cast<std::uint8_t>(v >> (16 - 8 * j));
    secure_wipe(&v, sizeof v);  // private keys pass through here
  }
  return out;
}

bool is_ws(std::uint8_t c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool starts_with(ByteView text, std::size_t pos, std::string_view prefix) noexcept {
  return text.size() - pos >= prefix.size() && std::memcmp(text.data() + pos, prefix.data(), prefix.size()) == 0;
}

}  // namespace

std::string_view form_name(PrivateKeyForm form) noexcept {
  switch (form) {
    case PrivateKeyForm::seed:
      return "seed";
    case PrivateKeyForm::expanded:
      return "expanded";
    case PrivateKeyForm::both:
      return "both";
  }
  return "?";
}

std::optional<PrivateKeyForm> parse_form(std::string_view name) noexcept {
  if (name == "seed") return PrivateKeyForm::seed;
  if (name == "expanded") return PrivateKeyForm::expanded;
  if (name == "both") return PrivateKeyForm::both;
  return std::nullopt;
}

std::optional<std::string_view> oid_text(Scheme s) noexcept {
  const OidEntry* e = find_oid(s);
  if (e == nullptr) return std::nullopt;
  return e->text;
}

std::optional<std::string_view> oid_standard(Scheme s) noexcept {
  const OidEntry* e = find_oid(s);
  if (e == nullptr) return std::nullopt;
  return e->standard;
}

bool key_file_holds_seed_only(Scheme s) noexcept {
  const OidEntry* e = find_oid(s);
  return e != nullptr && e->layout == PrivateKeyLayout::raw_seed;
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
    throw Error(Errc::invalid_decaps_key, name_of(s) + " expanded key embeds an invalid encapsulation key: " + e.what());
  }
  key.dk = SecretBytes(dk);
  // Pairwise consistency: what encapsulates to ek must decapsulate with dk. This catches a
  // dk_pke (s) that does not belong to ek, which the hash check cannot see.
  const auto enc = encaps(s, key.pk);
  const SecretBytes ss = decaps(s, key.dk, enc.ct);
  if (!equal_ct(ss.view(), enc.ss.view()))
    throw Error(Errc::invalid_decaps_key,
                name_of(s) + " expanded key fails the pairwise consistency check: its secret part does not "
                             "belong to its encapsulation key");
  return key;
}

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
    case PrivateKeyForm::seed:
      choice = raw_seed ? seed_bytes : der::tlv_size(seed_bytes);
      break;
    case PrivateKeyForm::expanded:
      choice = der::tlv_size(dk_bytes);
      break;
    case PrivateKeyForm::both:
      choice = der::tlv_size(der::tlv_size(seed_bytes) + der::tlv_size(dk_bytes));
      break;
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
    case PrivateKeyForm::expanded:
      w.tlv(der::kOctetString, key.dk.view());
      break;
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
    choice.fail("privateKey: not one of RFC 9935's private key forms (seed [0], expandedKey OCTET STRING, both "
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
      throw Error(Errc::invalid_decaps_key, alg + " private key in 'both' form: the seed and the expanded key "
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

// --- PEM --------------------------------------------------------------------------------------

SecretBytes pem_encode(std::string_view label, ByteView der) {
  const std::string begin = "-----BEGIN " + std::string(label) + "-----\n";
  const std::string end = "-----END " + std::string(label) + "-----\n";
  const std::size_t chars = (der.size() + 2) / 3 * 4;
  const std::size_t lines = (chars + 63) / 64;
  SecretBytes out(begin.size() + chars + lines + end.size());
  std::size_t o = 0;
  const auto put = [&](std::string_view s) {
    std::memcpy(out.data() + o, s.data(), s.size());
    o += s.size();
  };
  put(begin);
  std::size_t col = 0;
  for (std::size_t i = 0; i < der.size(); i += 3) {
    const std::size_t n = der.size() - i < 3 ? der.size() - i : 3;
    std::uint32_t v = static_cast<std::uint32_t>(der[i]) << 16;
    if (n > 1) v |= static_cast<std::uint32_t>(der[i + 1]) << 8;
    if (n > 2) v |= der[i + 2];
    for (std::size_t j = 0; j < 4; ++j) {
      out[o++] = j <= n ? static_cast<std::uint8_t>(kBase64[(v >> (18 - 6 * j)) & 0x3f]) : '=';
      if (++col == 64) {
        out[o++] = '\n';
        col = 0;
      }
    }
    secure_wipe(&v, sizeof v);
  }
  if (col != 0) out[o++] = '\n';
  put(end);
  return out;
}

bool looks_like_pem(ByteView text) noexcept {
  std::size_t pos = 0;
  while (pos < text.size() && is_ws(text[pos])) ++pos;
  return starts_with(text, pos, "-----BEGIN ");
}

PemBlock pem_decode(ByteView text) {
  std::size_t pos = 0;
  while (pos < text.size() && is_ws(text[pos])) ++pos;
  // Reads one line from pos (without its LF / CRLF); false at the end of the input.
  const auto next_line = [&](ByteView& line) {
    if (pos >= text.size()) return false;
    std::size_t end = pos;
    while (end < text.size() && text[end] != '\n') ++end;
    std::size_t stop = end;
    if (stop > pos && text[stop - 1] == '\r') --stop;
    line = text.subspan(pos, stop - pos);
    pos = end < text.size() ? end + 1 : end;
    return true;
  };
  const auto as_string = [](ByteView v) { return std::string(reinterpret_cast<const char*>(v.data()), v.size()); };

  ByteView line;
  if (!next_line(line) || !starts_with(line, 0, "-----BEGIN ")) pem_fail("no '-----BEGIN ' line");
  constexpr std::string_view kDashes = "-----";
  const std::size_t begin_len = std::string_view("-----BEGIN ").size();
  if (line.size() < begin_len + kDashes.size() || !starts_with(line, line.size() - kDashes.size(), kDashes))
    pem_fail("malformed BEGIN line");
  const ByteView label = line.subspan(begin_len, line.size() - begin_len - kDashes.size());
  if (label.empty() || label.size() > 64) pem_fail("malformed BEGIN line");
  for (const auto c : label)
    if (c < 0x20 || c > 0x7e) pem_fail("malformed BEGIN line");
  PemBlock block;
  block.label = as_string(label);

  SecretBytes body(text.size());
  std::size_t n = 0;
  bool ended = false;
  while (next_line(line)) {
    if (starts_with(line, 0, "-----END ")) {
      if (as_string(line) != "-----END " + block.label + "-----")
        pem_fail("the END line does not match '-----BEGIN " + block.label + "-----'");
      ended = true;
      break;
    }
    if (std::find(line.begin(), line.end(), ':') != line.end())
      pem_fail("PEM headers are not supported (an encrypted key? decrypt it first)");
    for (const auto c : line) {
      if (base64_value(c) < 0 && c != '=') pem_fail("invalid character in the base64 data");
      body[n++] = c;
    }
  }
  if (!ended) pem_fail("no '-----END " + block.label + "-----' line (truncated?)");
  while (pos < text.size()) {
    if (!is_ws(text[pos])) pem_fail("data after the END line (only one PEM block is allowed)");
    ++pos;
  }
  block.der = base64_decode(ByteView(body.data(), n));
  return block;
}

std::array<std::uint8_t, 32> sha256(ByteView data) noexcept {
  std::array<std::uint8_t, 32> out{};
  hash::sha256(out, {data});
  return out;
}

}  // namespace pqkem::keyfile
