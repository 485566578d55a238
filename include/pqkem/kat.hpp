// pqkem: NIST known-answer-test generation (PQCgenKAT_kem).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

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

/// Streams the text of NIST's PQCkemKAT_<sk bytes>.rsp for `s`, with `count` records
/// (0..count-1), in count + 1 calls of `sink`: first the header "# <name>\n\n", then each record
/// as soon as it is computed, "count = i\n", seed/pk/sk/ct/ss in upper-case hex, and a blank line.
/// Memory use does not grow with `count`, and there is no upper limit (a caller such as the CLI
/// sets its own). A chunk is valid only during its call: the buffer holds the sk and ss hex and
/// is wiped right after. An exception from `sink` stops the generation and propagates.
/// Throws Error (bad_argument) if `count` is negative, or if `s` has no such procedure
/// (has_kat_procedure).
PQKEM_API void kat_rsp(Scheme s, int count, const std::function<void(std::string_view)>& sink);

/// Whether NIST's KAT procedure applies to `s`: ML-KEM and NTRU. The hybrids are not NIST PQC
/// submissions (and their .rsp would hold pqkem's in-memory expanded key as "sk"); X-Wing's
/// reference vectors are its draft's, which keygen_derand and encaps_derand reproduce.
PQKEM_API bool has_kat_procedure(Scheme s) noexcept;

/// The same text as one string (the chunks of the streaming form, concatenated). Its sk and ss hex
/// are the caller's, and neither the string nor the copies its growth leaves in freed memory are
/// wiped: use the streaming form where that matters.
PQKEM_API std::string kat_rsp(Scheme s, int count);

}  // namespace pqkem
