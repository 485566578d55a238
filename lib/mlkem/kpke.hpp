// FIPS 203 section 5: the K-PKE component scheme (Algorithms 13, 14, 15).
// Internal to ML-KEM; inputs are assumed length-checked by the caller. B is the backend
// (mlkem/backend.hpp) and `plan` the NTT merge plans, both chosen once per ML-KEM operation.
#pragma once

#include <cstdint>
#include <span>

#include "mlkem/ntt.hpp"
#include "mlkem/params.hpp"

namespace pqkem::mlkem {

/// K-PKE.KeyGen (Algorithm 13) from the 32-byte seed d.
template <class P, class B>
void kpke_keygen(NttPlanChoice plan, std::span<const std::uint8_t, 32> d, std::span<std::uint8_t, P::ek_bytes> ek,
                 std::span<std::uint8_t, P::dk_pke_bytes> dk_pke);

/// K-PKE.Encrypt (Algorithm 14) of the 32-byte message m with randomness r.
template <class P, class B>
void kpke_encrypt(NttPlanChoice plan, std::span<const std::uint8_t, P::ek_bytes> ek,
                  std::span<const std::uint8_t, 32> m, std::span<const std::uint8_t, 32> r, std::span<std::uint8_t, P::ct_bytes> c);

/// K-PKE.Decrypt (Algorithm 15).
template <class P, class B>
void kpke_decrypt(NttPlanChoice plan, std::span<const std::uint8_t, P::dk_pke_bytes> dk_pke,
                  std::span<const std::uint8_t, P::ct_bytes> c, std::span<std::uint8_t, 32> m);

}  // namespace pqkem::mlkem
