// FIPS 203 Algorithms 7 and 8: SampleNTT and SamplePolyCBD, and the PRF that feeds CBD.
#pragma once

#include <cstdint>
#include <span>

#include "mlkem/poly.hpp"

namespace pqkem::mlkem {

/// SampleNTT (Algorithm 7) on XOF(rho || x || y) = SHAKE128. Rejection sampling on public
/// data (rho is part of ek), read incrementally, as many blocks as needed.
/// Out: 0 <= a_i < q.
NttPoly sample_ntt_ref(std::span<const std::uint8_t, 32> rho, std::uint8_t x, std::uint8_t y);

/// SamplePolyCBD_eta (Algorithm 8) on 64 * eta bytes. Branch-free. Out: |f_i| <= eta.
template <int Eta>
Poly sample_poly_cbd_ref(std::span<const std::uint8_t, 64 * Eta> bytes) noexcept;

/// PRF_eta(s, b) = SHAKE256(s || b, 64 * eta) followed by SamplePolyCBD_eta: one noise polynomial.
template <int Eta>
Poly sample_noise_ref(std::span<const std::uint8_t, 32> seed, std::uint8_t nonce);

}  // namespace pqkem::mlkem
