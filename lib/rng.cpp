#include "rng.hpp"

#include <openssl/rand.h>

#include <climits>

#include "error.hpp"

namespace pqkem {

void random_bytes(std::span<std::uint8_t> out) {
  if (out.size() > static_cast<std::size_t>(INT_MAX) ||
      RAND_bytes(out.data(), static_cast<int>(out.size())) != 1)
    throw Error(Errc::rng_failure, "the system random number generator failed (RAND_bytes)");
}

}  // namespace pqkem
