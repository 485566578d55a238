// The helpers of keyfile_test_util.hpp.
#include "keyfile_test_util.hpp"

namespace pqkem::keyfile_test {

ByteView view_of(const std::string& s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

std::string string_of(ByteView v) { return std::string(v.begin(), v.end()); }

Bytes counting_seed(std::size_t n) {
  Bytes seed(n);
  for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::uint8_t>(i);
  return seed;
}

Bytes rfc_seed() { return counting_seed(64); }

Bytes xwing_seed() { return counting_seed(32); }

::testing::AssertionResult pkcs8_rejects(const Bytes& der, const std::string& needle, Errc code) {
  return throws_with([&] { keyfile::decode_pkcs8(der); }, code, needle);
}

::testing::AssertionResult spki_rejects(const Bytes& der, Errc code, const std::string& needle) {
  return throws_with([&] { keyfile::decode_spki(der); }, code, needle);
}

Bytes with_trailing_byte(Bytes der) {
  der.push_back(0x00);
  return der;
}

Bytes tlv(std::uint8_t tag, const Bytes& content) {
  Bytes out{tag};
  const std::size_t n = content.size();
  if (n < 0x80) {
    out.push_back(static_cast<std::uint8_t>(n));
  } else if (n < 0x100) {
    out.insert(out.end(), {0x81, static_cast<std::uint8_t>(n)});
  } else {
    out.insert(out.end(), {0x82, static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n)});
  }
  out.insert(out.end(), content.begin(), content.end());
  return out;
}

Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

Bytes oid_bytes(std::uint8_t last) { return {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, last}; }

Bytes alg_id(std::uint8_t last) { return tlv(0x30, tlv(0x06, oid_bytes(last))); }

Bytes xwing_alg_id() { return tlv(0x30, tlv(0x06, kXWingOid)); }

Bytes version(std::uint8_t v) { return tlv(0x02, {v}); }

Bytes pkcs8(const Bytes& version_field, const Bytes& alg, const Bytes& choice, const Bytes& extra) {
  return tlv(0x30, cat({version_field, alg, tlv(0x04, choice), extra}));
}

Bytes spki(const Bytes& alg, const Bytes& pk, std::uint8_t unused_bits) {
  Bytes bits{unused_bits};
  bits.insert(bits.end(), pk.begin(), pk.end());
  return tlv(0x30, cat({alg, tlv(0x03, bits)}));
}

std::vector<Bytes> real_encodings() {
  std::vector<Bytes> out;
  for (const auto s : kMlKem) {
    const auto key = keyfile::private_key_from_seed(s, rfc_seed());
    for (const auto form : kForms) {
      const auto der = keyfile::encode_pkcs8(key, form);
      out.emplace_back(der.view().begin(), der.view().end());
    }
    out.push_back(keyfile::encode_spki(s, key.pk));
  }
  const auto xwing = keyfile::private_key_from_seed(Scheme::XWing, xwing_seed());
  const auto der = keyfile::encode_pkcs8(xwing, PrivateKeyForm::seed);
  out.emplace_back(der.view().begin(), der.view().end());
  out.push_back(keyfile::encode_spki(Scheme::XWing, xwing.pk));
  return out;
}

}  // namespace pqkem::keyfile_test
