// X25519 (RFC 7748) for the hybrid KEMs, from libsodium: pqkem does not implement the curve
// arithmetic itself.
//
// Why libsodium and not OpenSSL's EVP (README, "Dependencies"): measured per process, one base
// multiplication and one shared-secret computation through EVP cost 7.4M instructions (the
// provider machinery starting up, then EVP_PKEY objects per call, and importing a raw private
// key recomputes its public key), through libsodium 0.7M; a whole `pqkem encaps -a ML-KEM-768`
// process is 0.8M.
//
// libsodium's sodium_init() is deliberately not called. Neither function below needs it: their
// implementation is chosen by a pointer statically initialized to libsodium's portable "ref10"
// code, and they use no randomness. sodium_init() costs about 200k ticks per process (CPU
// probing, seeding its RNG) and then switches these functions to the "sandy2x" ladder, which
// here is 5% faster for a variable point but 2.3x slower for the base point (63k against 28k
// ticks). If the program calls sodium_init() itself, the results are the same bytes (the RFC
// 7748 vectors in tests/hybrid check both paths).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace pqkem::x25519 {

inline constexpr std::size_t kBytes = 32;

/// pk = X25519(sk, 9): the public key of the private key sk (clamped by the function).
void base(std::span<std::uint8_t, kBytes> pk, std::span<const std::uint8_t, kBytes> sk) noexcept;

/// out = X25519(sk, u). Returns false when the result is all zero, which happens exactly when
/// u is a point of small order (the clamped scalar is a multiple of 8); out then holds the 32
/// zero bytes RFC 7748 defines as the result. Whether to reject that is the caller's protocol's
/// choice. The verdict depends on u alone, so it is public.
[[nodiscard]] bool shared(std::span<std::uint8_t, kBytes> out, std::span<const std::uint8_t, kBytes> sk,
                          std::span<const std::uint8_t, kBytes> u) noexcept;

/// True if u (its top bit ignored, as X25519 does) is the u-coordinate of a point of small order
/// on the curve or its twist, in any of its encodings: exactly the inputs for which shared()
/// gives the all-zero result. A comparison with the seven such encodings below 2^255 (0, 1,
/// p - 1, p, p + 1 and the two points of order 8), the list libsodium also checks; no curve
/// arithmetic. For validating a public key without a scalar multiplication. Public data only.
[[nodiscard]] bool has_small_order(std::span<const std::uint8_t, kBytes> u) noexcept;

}  // namespace pqkem::x25519
