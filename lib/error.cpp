#include "error.hpp"

namespace pqkem {

const char* errc_name(Errc code) noexcept {
  switch (code) {
    case Errc::bad_length: return "wrong length";
    case Errc::invalid_encaps_key: return "invalid encapsulation key";
    case Errc::invalid_decaps_key: return "invalid decapsulation key";
    case Errc::invalid_ciphertext: return "invalid ciphertext";
    case Errc::rng_failure: return "random number generator failure";
    case Errc::openssl_failure: return "OpenSSL failure";
    case Errc::bad_format: return "malformed input";
    case Errc::bad_argument: return "invalid argument";
    case Errc::open_failure: return "decryption failed";
    case Errc::message_limit: return "message limit reached";
  }
  return "unknown error";
}

}  // namespace pqkem
