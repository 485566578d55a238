// Helpers shared by the key-file tests (tests/keyfile/*_test.cpp): the RFC 9935 and X-Wing
// seeds, error assertions, DER built by hand (independently of der::Writer) and well-formed
// encodings of real keys. Defined once, in keyfile_test_util.cpp.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "keyfile/keyfile.hpp"
#include "pqkem.hpp"

namespace pqkem::keyfile_test {

using keyfile::PrivateKeyForm;

inline constexpr Scheme kMlKem[] = {Scheme::MlKem512, Scheme::MlKem768, Scheme::MlKem1024};
inline constexpr PrivateKeyForm kForms[] = {PrivateKeyForm::seed, PrivateKeyForm::expanded, PrivateKeyForm::both};

ByteView view_of(const std::string& s);
std::string string_of(ByteView v);

/// 00 01 02 ... n-1: the seed of every RFC 9935 example (n = 64: d = 00..1f, z = 20..3f) and of
/// the X-Wing draft's (n = 32).
Bytes counting_seed(std::size_t n);
Bytes rfc_seed();
Bytes xwing_seed();

/// Runs f, expecting pqkem::Error with `code` whose message contains `needle`.
template <class F>
::testing::AssertionResult throws_with(F&& f, Errc code, const std::string& needle) {
  try {
    f();
  } catch (const Error& e) {
    const std::string what = e.what();
    if (e.code() != code)
      return ::testing::AssertionFailure()
             << "code " << errc_name(e.code()) << " (" << what << "), expected " << errc_name(code);
    if (what.find(needle) == std::string::npos)
      return ::testing::AssertionFailure() << "message '" << what << "' lacks '" << needle << "'";
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "did not throw (expected '" << needle << "')";
}

/// decode_pkcs8 / decode_spki reject `der` with `code` and a message containing `needle`.
::testing::AssertionResult pkcs8_rejects(const Bytes& der, const std::string& needle, Errc code = Errc::bad_format);
::testing::AssertionResult spki_rejects(const Bytes& der, Errc code, const std::string& needle);
/// `der` with one byte appended.
Bytes with_trailing_byte(Bytes der);

// --- Test-side DER building (independent of der::Writer) ---------------------------------------

Bytes tlv(std::uint8_t tag, const Bytes& content);
Bytes cat(std::initializer_list<Bytes> parts);
Bytes oid_bytes(std::uint8_t last);
Bytes alg_id(std::uint8_t last);
/// id-XWing, 1.3.6.1.4.1.62253.25722 (the X-Wing draft), and its AlgorithmIdentifier.
inline const Bytes kXWingOid = {0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xe6, 0x2d, 0x81, 0xc8, 0x7a};
Bytes xwing_alg_id();
Bytes version(std::uint8_t v);
Bytes pkcs8(const Bytes& version_field, const Bytes& alg, const Bytes& choice, const Bytes& extra = {});
Bytes spki(const Bytes& alg, const Bytes& pk, std::uint8_t unused_bits = 0);

struct Fixture {
  Scheme s = Scheme::MlKem512;
  Bytes seed = rfc_seed();
  KeyPair kp = keygen_derand(Scheme::MlKem512, rfc_seed());
  Bytes dk() const { return Bytes(kp.sk.view().begin(), kp.sk.view().end()); }
};

/// Well-formed encodings of real keys: PKCS#8 in every form and SPKI, for every ML-KEM set;
/// PKCS#8 and SPKI for X-Wing.
std::vector<Bytes> real_encodings();

}  // namespace pqkem::keyfile_test
