// pqkem: the system random number generator (OpenSSL RAND_bytes, seeded from the OS).
#pragma once

#include <cstdint>
#include <span>

namespace pqkem {

/// Fills `out` with cryptographically secure random bytes. Throws Error(Errc::rng_failure).
void random_bytes(std::span<std::uint8_t> out);

}  // namespace pqkem
