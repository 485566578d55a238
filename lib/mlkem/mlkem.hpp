// FIPS 203 section 6 and 7: ML-KEM's internal algorithms and input checks, per parameter set.
#pragma once

#include <cstdint>
#include <span>

#include "mlkem/params.hpp"

namespace pqkem::mlkem {

/// ML-KEM.KeyGen_internal (Algorithm 16): ek and dk = dk_pke || ek || H(ek) || z.
template <class P>
void keygen_internal(std::span<const std::uint8_t, 32> d, std::span<const std::uint8_t, 32> z,
                     std::span<std::uint8_t, P::ek_bytes> ek, std::span<std::uint8_t, P::dk_bytes> dk);

/// ML-KEM.Encaps_internal (Algorithm 17). The caller has run check_ek (section 7.2).
template <class P>
void encaps_internal(std::span<const std::uint8_t, P::ek_bytes> ek, std::span<const std::uint8_t, 32> m,
                     std::span<std::uint8_t, 32> shared_key, std::span<std::uint8_t, P::ct_bytes> c);

/// ML-KEM.Decaps_internal (Algorithm 18), with implicit rejection: when re-encryption does
/// not reproduce c, the key is J(z || c); the choice is made with masks, not branches.
/// The caller has run check_dk (section 7.3).
template <class P>
void decaps_internal(std::span<const std::uint8_t, P::dk_bytes> dk, std::span<const std::uint8_t, P::ct_bytes> c,
                     std::span<std::uint8_t, 32> shared_key);

/// The hash check of section 7.3 and Decaps_internal in one pass: H(ek) runs beside J(z || c)
/// (two lanes of the 4-way Keccak on AVX2). Returns the check's verdict; shared_key is only
/// meaningful when it is true.
template <class P>
bool decaps_checked(std::span<const std::uint8_t, P::dk_bytes> dk, std::span<const std::uint8_t, P::ct_bytes> c,
                    std::span<std::uint8_t, 32> shared_key);

/// Encapsulation key check (section 7.2): ByteEncode_12(ByteDecode_12(ek)) == ek, i.e. every
/// 12-bit coefficient is below q. (The length is checked by the type.)
template <class P>
bool check_ek(std::span<const std::uint8_t, P::ek_bytes> ek) noexcept;

/// Decapsulation key check (section 7.3): H(ek) stored in dk matches the ek stored in dk.
template <class P>
bool check_dk(std::span<const std::uint8_t, P::dk_bytes> dk);

}  // namespace pqkem::mlkem
