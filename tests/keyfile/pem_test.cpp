// Key files through PEM and DER: round trips of every scheme in every form, PEM line wrapping,
// and the PEM reader's lenient whitespace and strict content.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "keyfile/keyfile.hpp"
#include "keyfile_test_util.hpp"
#include "pqkem.hpp"
#include "support.hpp"

namespace pqkem {
namespace {

using namespace keyfile_test;
using test::bytes_equal;
using test::throws_errc;

// --- Round trips ----------------------------------------------------------------------------

TEST(RoundTrip, EverySchemeEveryFormDerAndPem) {
  for (const auto s : kMlKem) {
    SCOPED_TRACE(std::string(scheme_info(s).name));
    Bytes seed(64);
    for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::uint8_t>(0xa5 ^ (7 * i));
    const auto key = keyfile::private_key_from_seed(s, seed);
    for (const auto form : kForms) {
      const auto der = keyfile::encode_pkcs8(key, form);
      const auto back = keyfile::decode_pkcs8(der);
      EXPECT_EQ(back.form, form);
      EXPECT_TRUE(bytes_equal(back.dk, key.dk));
      EXPECT_TRUE(bytes_equal(back.pk, key.pk));
      const auto pem = keyfile::pem_decode(keyfile::pem_encode(keyfile::kPemPrivateKey, der));
      EXPECT_TRUE(bytes_equal(pem.der, der));
    }
    const auto spki_der = keyfile::encode_spki(s, key.pk);
    EXPECT_TRUE(bytes_equal(keyfile::decode_spki(spki_der).pk, key.pk));
    // Expanded-only keys can be written expanded, but not as seed or both.
    const auto expanded = keyfile::private_key_from_expanded(s, key.dk);
    EXPECT_TRUE(expanded.seed.empty());
    EXPECT_TRUE(
        bytes_equal(keyfile::decode_pkcs8(keyfile::encode_pkcs8(expanded, PrivateKeyForm::expanded)).dk, key.dk));
    EXPECT_TRUE(throws_with([&] { keyfile::encode_pkcs8(expanded, PrivateKeyForm::seed); }, Errc::bad_argument,
                            "seed of this key is not known"));
    EXPECT_TRUE(throws_errc([&] { keyfile::encode_pkcs8(expanded, PrivateKeyForm::both); }, Errc::bad_argument));
  }
}

TEST(RoundTrip, PemLineWrapping) {
  for (std::size_t n = 0; n <= 100; ++n) {
    Bytes der(n);
    for (std::size_t i = 0; i < n; ++i) der[i] = static_cast<std::uint8_t>(i * 37 + n);
    const std::string pem = string_of(keyfile::pem_encode("X", der));
    // Lines of at most 64 characters, all but the last exactly 64.
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i < pem.size(); ++i)
      if (pem[i] == '\n') {
        lines.push_back(pem.substr(start, i - start));
        start = i + 1;
      }
    ASSERT_EQ(start, pem.size());
    ASSERT_GE(lines.size(), 2u);
    EXPECT_EQ(lines.front(), "-----BEGIN X-----");
    EXPECT_EQ(lines.back(), "-----END X-----");
    for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
      EXPECT_LE(lines[i].size(), 64u);
      if (i + 2 < lines.size()) {
        EXPECT_EQ(lines[i].size(), 64u);
      }
    }
    if (n == 0) {
      EXPECT_TRUE(throws_with([&] { keyfile::pem_decode(view_of(pem)); }, Errc::bad_format, "no data"));
    } else {
      EXPECT_TRUE(bytes_equal(keyfile::pem_decode(view_of(pem)).der, der)) << n;
    }
  }
}

// --- PEM rejections -------------------------------------------------------------------------

TEST(Pem, LenientWhitespaceStrictContent) {
  const std::string good = "-----BEGIN PUBLIC KEY-----\nAAEC\n-----END PUBLIC KEY-----\n";
  EXPECT_TRUE(bytes_equal(keyfile::pem_decode(view_of(good)).der, Bytes{0, 1, 2}));
  EXPECT_TRUE(keyfile::looks_like_pem(view_of("\n  " + good)));
  EXPECT_FALSE(keyfile::looks_like_pem(view_of("MIIB")));
  // CRLF line ends, surrounding whitespace, no final newline, short lines.
  EXPECT_NO_THROW(
      keyfile::pem_decode(view_of("\r\n \t-----BEGIN PUBLIC KEY-----\r\nAA\r\nEC\r\n-----END PUBLIC KEY-----")));
  EXPECT_NO_THROW(keyfile::pem_decode(view_of(good + "\n\n  ")));
  EXPECT_TRUE(bytes_equal(keyfile::pem_decode(view_of("-----BEGIN A-----\nAA==\n-----END A-----\n")).der, Bytes{0}));
  EXPECT_TRUE(bytes_equal(keyfile::pem_decode(view_of("-----BEGIN A-----\nAAA=\n-----END A-----\n")).der, Bytes{0, 0}));

  const auto bad = [](const std::string& text, const std::string& needle) {
    return throws_with([&] { keyfile::pem_decode(view_of(text)); }, Errc::bad_format, needle);
  };
  EXPECT_TRUE(bad("-----BEGIN PUBLIC KEY-----\nAAEC\n-----END PRIVATE KEY-----\n", "does not match"));
  EXPECT_TRUE(bad("-----BEGIN PUBLIC KEY-----\nAAEC\n", "no '-----END PUBLIC KEY-----' line"));
  EXPECT_TRUE(bad(good + "junk\n", "data after the END line"));
  EXPECT_TRUE(bad(good + good, "data after the END line"));
  EXPECT_TRUE(bad("junk\n" + good, "no '-----BEGIN ' line"));
  EXPECT_TRUE(bad("-----BEGIN PUBLIC KEY\nAAEC\n-----END PUBLIC KEY-----\n", "malformed BEGIN line"));
  EXPECT_TRUE(bad("-----BEGIN -----\nAAEC\n-----END -----\n", "malformed BEGIN line"));
  EXPECT_TRUE(bad("-----BEGIN PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nAAEC\n-----END PRIVATE KEY-----\n",
                  "headers are not supported"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAA*C\n-----END A-----\n", "invalid character"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAA EC\n-----END A-----\n", "invalid character"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAAE\n-----END A-----\n", "multiple of 4"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAA==AAEC\n-----END A-----\n", "padding in the middle"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nA=EC\n-----END A-----\n", "padding in the middle"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAB==\n-----END A-----\n", "non-zero padding bits"));
  EXPECT_TRUE(bad("-----BEGIN A-----\nAAB=\n-----END A-----\n", "non-zero padding bits"));
  EXPECT_TRUE(bad("-----BEGIN A-----\n-----END A-----\n", "no data"));
}

}  // namespace
}  // namespace pqkem
