// What the HPKE tests share: hex in and out, and a suite's printable name.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "hpke.hpp"
#include "util/hex.hpp"

namespace pqkem::hpke::test {

inline Bytes unhex(std::string_view text) {
  Bytes out(text.size() / 2);
  if (!hex::decode(text, out.data())) throw std::runtime_error("bad hex: " + std::string(text));
  return out;
}

inline std::string to_hex(ByteView b) {
  std::string s(2 * b.size(), '\0');
  hex::encode(b.data(), b.size(), s.data());
  return s;
}

inline ByteView bytes(std::string_view s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

/// "ML-KEM-768/HKDF-SHA256/AES-128-GCM"
inline std::string suite_name(const Suite& s) {
  return std::string(kem_info(s.kem).name) + "/" + std::string(kdf_info(s.kdf).name) + "/" +
         std::string(aead_info(s.aead).name);
}

/// True if f() throws pqkem::Error with this code.
template <class F>
::testing::AssertionResult throws_errc(F&& f, Errc code) {
  try {
    f();
  } catch (const Error& e) {
    if (e.code() == code) return ::testing::AssertionSuccess() << e.what();
    return ::testing::AssertionFailure() << "threw " << errc_name(e.code()) << " (" << e.what() << "), expected "
                                         << errc_name(code);
  }
  return ::testing::AssertionFailure() << "did not throw, expected " << errc_name(code);
}

}  // namespace pqkem::hpke::test
