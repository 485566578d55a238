// The key-file parsers (lib/keyfile): PEM (RFC 7468), SubjectPublicKeyInfo and PKCS#8 DER
// (RFC 5280 / 5958 / 9935), and the outer-structure sniffers. Input: [selector][text or DER].
// Properties: only pqkem::Error is thrown; a PEM block that decodes re-encodes to a block
// that decodes to the same label and DER; an SPKI that decodes re-encodes to the same bytes
// (DER is canonical and the reader strict); a PKCS#8 key that decodes re-encodes (in its
// form) to a structure that decodes to the same key.
#include "fuzz_util.hpp"
#include "keyfile/keyfile.hpp"

using namespace pqkem;

namespace {

void der_checks(ByteView der) {
  (void)keyfile::der_kind(der);
  (void)keyfile::der_kind_by_prefix(der);
  (void)keyfile::starts_like_der(der);
  try {
    const keyfile::PublicKey pk = keyfile::decode_spki(der);
    const Bytes again = keyfile::encode_spki(pk.scheme, pk.pk);
    fuzz::check(again.size() == der.size() && fuzz::same(again.data(), der.data(), der.size()),
                "SPKI does not re-encode to the same DER");
  } catch (const Error&) {
  }
  try {
    const keyfile::PrivateKey sk = keyfile::decode_pkcs8(der);
    const SecretBytes again = keyfile::encode_pkcs8(sk, sk.form);
    const keyfile::PrivateKey sk2 = keyfile::decode_pkcs8(again);
    fuzz::check(sk2.scheme == sk.scheme && sk2.pk == sk.pk && sk2.dk.size() == sk.dk.size() &&
                    fuzz::same(sk2.dk.data(), sk.dk.data(), sk.dk.size()),
                "PKCS#8 does not round-trip");
  } catch (const Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteView input(data, size);
  if (keyfile::looks_like_pem(input)) {
    try {
      const keyfile::PemBlock block = keyfile::pem_decode(input);
      const SecretBytes text = keyfile::pem_encode(block.label, block.der);
      const keyfile::PemBlock again = keyfile::pem_decode(text);
      fuzz::check(again.label == block.label && again.der.size() == block.der.size() &&
                      fuzz::same(again.der.data(), block.der.data(), block.der.size()),
                  "PEM does not round-trip");
      der_checks(block.der);
    } catch (const Error&) {
    }
  } else {
    der_checks(input);
  }
  return 0;
}
