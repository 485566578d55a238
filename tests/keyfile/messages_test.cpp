// Key files: no value decoded from the input appears in any error message of the DER readers,
// whose input may be secret.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "keyfile/der.hpp"
#include "keyfile/keyfile.hpp"
#include "keyfile_test_util.hpp"
#include "pqkem.hpp"
#include "support.hpp"

namespace pqkem {
namespace {

using namespace keyfile_test;

// --- No value decoded from the input in any message ---------------------------------------------
//
// A raw secret key of a wrong length that starts with 0x30 is tried as DER, and a secret key
// may be given where a public key belongs, so the DER readers see secret bytes: their
// messages may name the structure, the field and the rule that failed, never a length, count,
// tag or OID read from the input. Checked two ways: (a) every number in a message (decimal,
// or hexadecimal after 0x) is one of the standard's constants the messages use, and (b) inputs
// whose failure is the same rule at the same place, but whose content differs, get the same
// message.

/// The numbers the messages may contain: RFC and FIPS numbers, parameter-set names, the
/// standard's sizes, DER's short-form limit (128), the arcs of the constant OIDs and the
/// foreign algorithm names.
const std::set<std::string> kAllowedNumbers = {"0",    "1",    "2",    "3",    "4",    "6",     "7",     "8",    "16",
                                               "32",   "44",   "64",   "65",   "87",   "101",   "128",   "203",  "448",
                                               "512",  "768",  "800",  "840",  "1024", "1184",  "1216",  "1568", "1632",
                                               "2400", "3168", "5280", "5958", "9935", "25519", "25722", "62253"};
/// Hexadecimal constants the messages may contain ("reserved length byte 0xff").
const std::set<std::string> kAllowedHex = {"0xff"};

/// (a): every hexadecimal and decimal number in `message` is an allowed constant.
::testing::AssertionResult only_constant_numbers(const std::string& message) {
  std::size_t i = 0;
  while (i < message.size()) {
    if (!std::isdigit(static_cast<unsigned char>(message[i]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    const bool hex = message.compare(i, 2, "0x") == 0;
    if (hex) end += 2;
    while (end < message.size() && (hex ? std::isxdigit(static_cast<unsigned char>(message[end]))
                                        : std::isdigit(static_cast<unsigned char>(message[end]))))
      ++end;
    const std::string number = message.substr(i, end - i);
    if ((hex ? kAllowedHex : kAllowedNumbers).count(number) == 0)
      return ::testing::AssertionFailure() << "'" << number << "' in: " << message;
    i = end;
  }
  return ::testing::AssertionSuccess();
}

/// The message of the pqkem::Error that `decode(input)` throws; nullopt if it succeeds. Any
/// other exception escapes and fails the test.
template <class Decode>
std::optional<std::string> message_of(Decode decode, const Bytes& input) {
  try {
    decode(input);
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

const auto kDecodePkcs8 = [](const Bytes& in) { keyfile::decode_pkcs8(in); };
const auto kDecodeSpki = [](const Bytes& in) { keyfile::decode_spki(in); };

/// (b): every input of `family` is rejected, all with one message, and that message passes (a).
template <class Decode>
::testing::AssertionResult one_message(Decode decode, const std::vector<Bytes>& family) {
  std::optional<std::string> first;
  for (std::size_t i = 0; i < family.size(); ++i) {
    const auto got = message_of(decode, family[i]);
    if (!got) return ::testing::AssertionFailure() << "input " << i << " was accepted";
    if (!first) first = got;
    if (*got != *first)
      return ::testing::AssertionFailure() << "input 0: '" << *first << "'\ninput " << i << ": '" << *got << "'";
  }
  if (!first) return ::testing::AssertionFailure() << "empty family";
  return only_constant_numbers(*first);
}

class Random {
public:
  explicit Random(std::uint64_t seed) : m_rng(seed) {}
  /// Uniform in [lo, hi].
  std::size_t in(std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(m_rng); }
  std::uint8_t byte() { return static_cast<std::uint8_t>(in(0, 255)); }
  Bytes bytes(std::size_t n) {
    Bytes out(n);
    for (auto& b : out) b = byte();
    return out;
  }

private:
  std::mt19937_64 m_rng;
};

/// `tag`, then a minimal long-form length of 1 to 3 bytes (0x81 / 0x82 / 0x83) of a value
/// larger than the random rest, so the element always claims more than remains.
Bytes overlong_element(Random& rng, std::uint8_t tag) {
  const std::size_t n = rng.in(1, 3);
  const std::size_t lo = std::size_t{1} << (8 * n - 8 + (n == 1 ? 7 : 0));  // 128, 256, 65536
  const std::size_t hi = std::min<std::size_t>((std::size_t{1} << (8 * n)) - 1, der::kMaxLength);
  const std::size_t rest = rng.in(0, std::min<std::size_t>(lo - 1, 5000));
  const std::size_t len = rng.in(std::max(lo, rest + 1), hi);
  Bytes out{tag, static_cast<std::uint8_t>(0x80 | n)};
  for (std::size_t i = n; i-- > 0;) out.push_back(static_cast<std::uint8_t>(len >> (8 * i)));
  const Bytes tail = rng.bytes(rest);
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

TEST(NoInputInMessages, RandomDerLikeInputs) {
  Random rng(20250917);
  const std::vector<Bytes> real = real_encodings();
  constexpr std::size_t kLengths[] = {2,   3,    4,    5,    6,    10,   64,   66,   100, 130,
                                      800, 1184, 1568, 1632, 2399, 2400, 2401, 3168, 4000};
  for (int i = 0; i < 2000; ++i) {
    Bytes in;
    const std::size_t variant = rng.in(0, 9);
    if (variant <= 1) {  // 0x30, then random bytes
      in = rng.bytes(kLengths[rng.in(0, std::size(kLengths) - 1)]);
      in[0] = 0x30;
    } else if (variant == 2) {  // 0x30 with a long-form length (0x81 / 0x82 / 0x83), then random
      in = rng.bytes(kLengths[rng.in(3, std::size(kLengths) - 1)]);
      in[0] = 0x30;
      in[1] = static_cast<std::uint8_t>(0x81 + rng.in(0, 2));
    } else if (variant == 3) {  // an outer SEQUENCE that fits exactly, random content
      in = tlv(0x30, rng.bytes(rng.in(0, 3000)));
    } else if (variant == 4) {  // a PKCS#8 version and a random rest inside a fitting SEQUENCE
      in = tlv(0x30, cat({version(static_cast<std::uint8_t>(rng.in(0, 1))), rng.bytes(rng.in(0, 3000))}));
    } else {  // a real encoding, changed
      in = real[rng.in(0, real.size() - 1)];
      const std::size_t at = rng.in(0, in.size() - 1);
      const auto pos = in.begin() + static_cast<std::ptrdiff_t>(at);
      switch (variant) {
        case 5:  // one byte changed, anywhere
          in[at] ^= static_cast<std::uint8_t>(rng.in(1, 255));
          break;
        case 6:  // one byte changed in the headers at the front
          in[at % 32] ^= static_cast<std::uint8_t>(rng.in(1, 255));
          break;
        case 7: {  // bytes appended
          const Bytes tail = rng.bytes(rng.in(1, 40));
          in.insert(in.end(), tail.begin(), tail.end());
          break;
        }
        case 8:  // truncated
          in.resize(at);
          break;
        default:  // one byte removed or inserted
          if (rng.in(0, 1) == 0) {
            in.erase(pos);
          } else {
            in.insert(pos, rng.byte());
          }
      }
    }
    for (const auto& decode : {+kDecodePkcs8, +kDecodeSpki}) {
      const auto message = message_of(decode, in);
      if (message) {
        ASSERT_TRUE(only_constant_numbers(*message)) << "input " << i << " (variant " << variant << ")";
      }
    }
  }
}

TEST(NoInputInMessages, SameRuleSameMessage) {
  Random rng(9935);
  const Fixture f;
  const Bytes seed_choice = tlv(0x80, f.seed);
  // `make` builds one member of a family; 100 members each.
  const auto family = [&](auto make) {
    std::vector<Bytes> out;
    for (int i = 0; i < 100; ++i) out.push_back(make());
    return out;
  };
  for (const auto& decode : {+kDecodePkcs8, +kDecodeSpki}) {
    SCOPED_TRACE(decode == +kDecodePkcs8 ? "decode_pkcs8" : "decode_spki");
    // The outer SEQUENCE claims more than remains, whatever the length and the rest.
    EXPECT_TRUE(one_message(decode, family([&] { return overlong_element(rng, 0x30); })));
    // The first byte is not a SEQUENCE tag, whatever it is.
    EXPECT_TRUE(one_message(decode, family([&] {
                              Bytes in = rng.bytes(rng.in(1, 3000));
                              while (in[0] == 0x30) in[0] = rng.byte();
                              return in;
                            })));
    // The same raw buffer header (0x30 0x83 and a length) with different contents.
    const Bytes header{0x30, 0x83, 0x2a, 0x43, 0x47};
    EXPECT_TRUE(one_message(decode, family([&] { return cat({header, rng.bytes(2394)}); })));
  }
  // Trailing data after a whole structure, however much.
  const std::vector<Bytes> real = real_encodings();
  for (const bool pkcs8_family : {true, false}) {
    SCOPED_TRACE(pkcs8_family ? "trailing PKCS#8" : "trailing SPKI");
    EXPECT_TRUE(one_message(pkcs8_family ? +kDecodePkcs8 : +kDecodeSpki, family([&] {
                              Bytes in;
                              do {
                                in = real[rng.in(0, real.size() - 1)];
                              } while ((keyfile::der_kind(in) == keyfile::DerKind::pkcs8) != pkcs8_family);
                              const Bytes tail = rng.bytes(rng.in(1, 300));
                              in.insert(in.end(), tail.begin(), tail.end());
                              return in;
                            })));
  }
  // A field of the wrong length, whatever its length and content.
  const auto wrong_length = [&](std::size_t right) {
    std::size_t n = 0;
    do {
      n = rng.in(0, 4000);
    } while (n == right);
    return rng.bytes(n);
  };
  for (std::uint8_t k = 1; k <= 3; ++k) {
    const auto& info = scheme_info(kMlKem[k - 1]);
    SCOPED_TRACE(std::string(info.name));
    const Bytes alg = alg_id(k);
    EXPECT_TRUE(one_message(kDecodeSpki, family([&] { return spki(alg, wrong_length(info.pk_bytes)); })));
    EXPECT_TRUE(one_message(kDecodePkcs8, family([&] { return pkcs8(version(0), alg, tlv(0x80, wrong_length(64))); })));
    EXPECT_TRUE(one_message(kDecodePkcs8,
                            family([&] { return pkcs8(version(0), alg, tlv(0x04, wrong_length(info.sk_bytes))); })));
    EXPECT_TRUE(
        one_message(kDecodePkcs8, family([&] {
                      const Bytes dk = rng.bytes(rng.in(0, 3000));
                      return pkcs8(version(0), alg, tlv(0x30, cat({tlv(0x04, wrong_length(64)), tlv(0x04, dk)})));
                    })));
  }
  // X-Wing: a public key or seed of the wrong length.
  EXPECT_TRUE(one_message(kDecodeSpki, family([&] { return spki(xwing_alg_id(), wrong_length(1216)); })));
  EXPECT_TRUE(one_message(kDecodePkcs8, family([&] { return pkcs8(version(0), xwing_alg_id(), wrong_length(32)); })));
  // An OID that is neither ML-KEM's, X-Wing's nor a well-known one (only X-Wing's has 10 or more
  // bytes, which random bytes do not hit).
  const auto foreign_alg = [&] { return tlv(0x30, tlv(0x06, rng.bytes(rng.in(10, 40)))); };
  EXPECT_TRUE(one_message(kDecodePkcs8, family([&] { return pkcs8(version(0), foreign_alg(), seed_choice); })));
  EXPECT_TRUE(one_message(kDecodeSpki, family([&] { return spki(foreign_alg(), f.kp.pk); })));
  // A field with the wrong tag, whatever the tag and the content.
  const auto tag_except = [&](std::initializer_list<std::uint8_t> right) {
    std::uint8_t t = 0;
    do {
      t = rng.byte();
    } while (std::find(right.begin(), right.end(), t) != right.end());
    return t;
  };
  const auto wrong_tag = [&](std::initializer_list<std::uint8_t> right) {
    return tlv(tag_except(right), rng.bytes(rng.in(0, 100)));
  };
  EXPECT_TRUE(one_message(kDecodePkcs8, family([&] { return pkcs8(wrong_tag({0x02}), alg_id(1), seed_choice); })));
  EXPECT_TRUE(one_message(kDecodePkcs8, family([&] { return pkcs8(version(0), wrong_tag({0x30}), seed_choice); })));
  EXPECT_TRUE(one_message(kDecodePkcs8, family([&] {
                            return pkcs8(version(0), alg_id(1), wrong_tag({0x80, 0x04, 0x30}));
                          })));
  EXPECT_TRUE(one_message(kDecodePkcs8, family([&] {
                            return pkcs8(version(0), alg_id(1), tlv(0x30, cat({wrong_tag({0x04}), tlv(0x04, f.dk())})));
                          })));
  EXPECT_TRUE(one_message(kDecodeSpki, family([&] { return spki(tlv(0x30, wrong_tag({0x06})), f.kp.pk); })));
  EXPECT_TRUE(one_message(kDecodeSpki, family([&] { return tlv(0x30, cat({alg_id(1), wrong_tag({0x03})})); })));
}

TEST(NoInputInMessages, RawSecretKeyStartingWithASequenceTag) {
  // One byte short of an ML-KEM-768 expanded key, starting 0x30 0x83 2a 43 47: read as DER, it
  // is a SEQUENCE claiming 2769735 bytes with 2394 left.
  Random rng(2399);
  Bytes raw = rng.bytes(2399);
  const Bytes header{0x30, 0x83, 0x2a, 0x43, 0x47};
  std::copy(header.begin(), header.end(), raw.begin());
  const std::string truncated = "truncated: an element is longer than the data that remains";
  EXPECT_EQ(message_of(kDecodePkcs8, raw), "PKCS#8 private key: " + truncated);
  EXPECT_EQ(message_of(kDecodeSpki, raw), "SubjectPublicKeyInfo: " + truncated);
  // A whole ML-KEM-768 key (2400 bytes) given as a public key.
  raw.push_back(rng.byte());
  const auto as_spki = message_of(kDecodeSpki, raw);
  ASSERT_TRUE(as_spki.has_value());
  EXPECT_TRUE(only_constant_numbers(*as_spki));
}

}  // namespace
}  // namespace pqkem
