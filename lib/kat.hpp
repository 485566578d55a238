// pqkem: NIST known-answer-test generation (PQCgenKAT_kem).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <pqkem/export.hpp>  // PQKEM_API: the symbols libpqkem.so exports

#include "pqkem.hpp"

namespace pqkem {

/// NIST's AES-256 CTR_DRBG as in the round-3 `rng.c` (SP 800-90A, no derivation function,
/// no prediction resistance, no reseed counter limit), on OpenSSL's AES-256-ECB.
class PQKEM_API KatDrbg {
public:
  /// Instantiate with 48 bytes of entropy (and an optional 48-byte personalization string).
  explicit KatDrbg(std::span<const std::uint8_t, 48> entropy);
  KatDrbg(const KatDrbg&) = delete;
  KatDrbg& operator=(const KatDrbg&) = delete;
  ~KatDrbg();

  /// randombytes(out, n): fills `out`, then updates the state (one call = one Generate).
  void generate(std::span<std::uint8_t> out);

private:
  void update(const std::uint8_t* provided /* 48 bytes or null */);
  std::uint8_t m_key[32];
  std::uint8_t m_v[16];
};

/// The text of NIST's PQCkemKAT_<sk bytes>.rsp for `s`, with `count` records (0..count-1):
/// "# <name>\n\n" then per record count/seed/pk/sk/ct/ss in upper-case hex and a blank line.
PQKEM_API std::string kat_rsp(Scheme s, int count);

}  // namespace pqkem
