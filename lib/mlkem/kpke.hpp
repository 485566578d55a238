// FIPS 203 section 5: the K-PKE component scheme (Algorithms 13, 14, 15).
// Internal to ML-KEM; inputs are assumed length-checked by the caller. B is the backend
// (mlkem/backend.hpp), chosen once per ML-KEM operation. Definitions: kpke_impl.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "mlkem/backend.hpp"
#include "mlkem/ntt.hpp"
#include "mlkem/params.hpp"

namespace pqkem::mlkem {

/// K-PKE.KeyGen (Algorithm 13) from the 32-byte seed d, and H(ek) (ML-KEM.KeyGen_internal's
/// step 3), hashed as ek is written.
template <class P, class B>
void kpke_keygen(std::span<const std::uint8_t, 32> d, std::span<std::uint8_t, P::ek_bytes> ek,
                 std::span<std::uint8_t, P::dk_pke_bytes> dk_pke, std::span<std::uint8_t, 32> h_ek);

/// A K x K matrix of the backend's NTT-domain type.
template <class B, int K>
using NttMatrix = std::array<std::array<typename B::NttPoly, K>, K>;

/// Queues A^T of K-PKE.Encrypt (steps 4-8: at[i][j] = SampleNTT(rho || i || j), rho from ek) in a
/// batch (mlkem/backend.hpp), so that the caller can run it beside its own hashes.
template <class P, class B>
void kpke_add_transposed_matrix(XofBatch<typename B::NttPoly>& batch, NttMatrix<B, P::k>& at,
                                std::span<const std::uint8_t, P::ek_bytes> ek) {
  batch.template add_matrix<P::k>(at, ek.template subspan<kPolyBytes * P::k, 32>(), true);
}

/// K-PKE.Encrypt (Algorithm 14) of the 32-byte message m with randomness r, with A^T sampled
/// by the caller from the same ek (kpke_add_transposed_matrix).
template <class P, class B>
void kpke_encrypt(std::span<const std::uint8_t, P::ek_bytes> ek, const NttMatrix<B, P::k>& at,
                  std::span<const std::uint8_t, 32> m, std::span<const std::uint8_t, 32> r,
                  std::span<std::uint8_t, P::ct_bytes> c);

/// K-PKE.Decrypt (Algorithm 15).
template <class P, class B>
void kpke_decrypt(std::span<const std::uint8_t, P::dk_pke_bytes> dk_pke, std::span<const std::uint8_t, P::ct_bytes> c,
                  std::span<std::uint8_t, 32> m);

}  // namespace pqkem::mlkem
