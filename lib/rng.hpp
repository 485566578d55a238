// pqkem: the system random number generator: the kernel's CSPRNG (getrandom(2)) by default, or
// OpenSSL's DRBG (RAND_bytes) when set_random_source(RandomSource::openssl) asks for it.
#pragma once

#include <cstdint>
#include <span>

namespace pqkem {

/// Fills `out` with cryptographically secure random bytes from random_source() (pqkem.hpp).
/// Throws Error(Errc::rng_failure); `out` is then all zeros, never a partial draw.
void random_bytes(std::span<std::uint8_t> out);

}  // namespace pqkem
