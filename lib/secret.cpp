#include "secret.hpp"

#include <openssl/crypto.h>

namespace pqkem {

void secure_wipe(void* p, std::size_t n) noexcept {
  if (p != nullptr && n != 0) OPENSSL_cleanse(p, n);
}

}  // namespace pqkem
