// NTRU encodings (round-3 specification, section 1.8; reference packq.c / pack3.c).
// Only the first n - 1 coefficients are stored; coefficient n - 1 is implied by the ring:
//   Sq: 0 (canonical mod Phi_n); Rq "sum zero": minus the sum of the others (a(1) = 0);
//   S3: 0.
#pragma once

#include <cstdint>
#include <span>

#include "ntru/poly.hpp"

namespace pqkem::ntru {

/// pack_Sq: coefficients 0..n-2, each reduced mod q, as logq-bit little-endian fields of one
/// bit stream (coefficient i at bits [i logq, (i+1) logq)); unused bits of the last byte are 0.
template <class P>
void poly_sq_tobytes(std::span<std::uint8_t, P::pack_q_bytes> out, const Poly<P>& a) noexcept;
/// unpack_Sq: the inverse of poly_sq_tobytes; ignores the unused bits. Out: Sq.
template <class P>
void poly_sq_frombytes_ref(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept;

/// pack_Rq0: for a with a(1) = 0 mod q; the same bytes as poly_sq_tobytes.
template <class P>
void poly_rq_sum_zero_tobytes(std::span<std::uint8_t, P::pack_q_bytes> out, const Poly<P>& a) noexcept;
/// unpack_Rq0: coefficients 0..n-2 as stored, r_{n-1} = -(r_0 + ... + r_{n-2}) mod q. Out: Rq.
template <class P>
void poly_rq_sum_zero_frombytes_ref(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept;

/// pack_S3: coefficients 0..n-2 (each in {0, 1, 2}), five per byte in base 3, coefficient 5j + k
/// weighted 3^k in byte j (every byte < 243; a final partial byte holds the rest).
template <class P>
void poly_s3_tobytes_ref(std::span<std::uint8_t, P::pack_trinary_bytes> out, const Poly<P>& a) noexcept;
/// unpack_S3: r_{5j+k} = floor(byte_j / 3^k) mod 3 (any byte value is accepted, as in the
/// reference code), r_{n-1} = 0. Out: S3.
template <class P>
void poly_s3_frombytes_ref(Poly<P>& r, std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept;

/// 0xFFFFFFFF if `in` is the canonical S3 encoding (every digit group below 3^5, or 3^k for a
/// final group of k trits), else 0. Constant time.
template <class P>
std::uint32_t s3_encoding_is_canonical(std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept;

/// 0xFFFFFFFF if the unused high bits of the last byte of a packed Sq / Rq0 element are zero.
template <class P>
std::uint32_t q_encoding_is_canonical(std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept;

}  // namespace pqkem::ntru
