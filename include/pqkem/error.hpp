// pqkem: the one exception type the library throws.
#pragma once

#include <stdexcept>
#include <string>

#include <pqkem/export.hpp>  // PQKEM_API: the symbols libpqkem.so exports

namespace pqkem {

/// What went wrong. Each value is a distinct, documented failure of the API.
enum class Errc {
  bad_length,          ///< an input has the wrong number of bytes for its scheme
  invalid_encaps_key,  ///< FIPS 203 s7.2 modulus check failed (a coefficient >= q); X25519MLKEM768: a small-order
                       ///< X25519 key
  invalid_decaps_key,  ///< FIPS 203 s7.3 hash check failed (H(ek) stored in dk differs)
  invalid_ciphertext,  ///< X25519MLKEM768: the X25519 share of the ciphertext has small order
  rng_failure,         ///< the system RNG (getrandom(2) or OpenSSL RAND_bytes) failed
  openssl_failure,     ///< an OpenSSL primitive failed or is unavailable
  bad_format,          ///< input could not be parsed (hex, file format, ...)
  bad_argument,        ///< unknown scheme name, NTRU keygen coins that give no key, or other misuse of the API
  open_failure,        ///< HPKE: a ciphertext did not authenticate (wrong key, enc, info, aad, order or bytes)
  message_limit,       ///< HPKE: a context's sequence number would overflow (MessageLimitReachedError)
};

/// Short, stable, human-readable name of an error code ("invalid encapsulation key").
PQKEM_API const char* errc_name(Errc code) noexcept;

/// Exported (typeinfo, vtable) so that catch (const pqkem::Error&) works across libpqkem.so.
class PQKEM_API Error : public std::runtime_error {
public:
  Error(Errc code, const std::string& what) : std::runtime_error(what), m_code(code) {}
  [[nodiscard]] Errc code() const noexcept { return m_code; }

private:
  Errc m_code;
};

}  // namespace pqkem
