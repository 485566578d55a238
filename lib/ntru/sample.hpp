// NTRU samplers (round-3 specification, section 1.10; reference sample.c). Each maps uniform
// bytes to a polynomial deterministically; the byte counts are those of params.hpp.
#pragma once

#include <cstdint>
#include <span>

#include "keccak_job.hpp"
#include "ntru/poly.hpp"

namespace pqkem::ntru {

/// The bytes pqkem draws from the random source for a randomized NTRU operation (keygen(s),
/// encaps(s, pk)); expand_coins turns them into the operation's coins.
inline constexpr std::size_t kCoinSeedBytes = 32;
/// Number of SHAKE256 streams in expand_coins.
inline constexpr std::size_t kCoinStreams = 8;
/// A sponge-batch runner: hash::keccak_jobs_ref or one of its SIMD twins (the backend's
/// keccak_jobs kernel); all give the same bytes.
using KeccakJobsFn = void (*)(const KeccakJob* jobs, int n) noexcept;

/// The coins of a randomized NTRU operation from a 32-byte seed. The round-3 algorithms take
/// uniform bytes (key generation: Sample_fg bytes || PRF key; encapsulation: Sample_rm bytes,
/// 1.4 to 3.9 KB), which the reference code draws from randombytes(). pqkem draws the seed and
/// expands it with SHAKE256 used as a PRF on eight streams:
///
///   B = ceil(|out| / 136) blocks; stream i (0 <= i < 8) gives b_i = floor(B / 8) + [i < B mod 8]
///   of them: S_i = the first 136 b_i bytes of SHAKE256(seed || i), i as one byte;
///   out = the first |out| bytes of S_0 || S_1 || ... || S_7.
///
/// Eight streams so that the AVX-512 backend runs them on its 8-way permutation (AVX2: on two
/// rounds of its 4-way one); whole blocks per stream so that the total is B permutations, as one
/// SHAKE256 stream of |out| bytes would be. The bytes depend only on seed and |out| (public),
/// never on the runner. Constant time in seed.
void expand_coins(std::span<const std::uint8_t, kCoinSeedBytes> seed, std::span<std::uint8_t> out,
                  KeccakJobsFn run) noexcept;

/// Sample_iid: r_i = u_i mod 3 for i < n - 1, r_{n-1} = 0. Out: S3.
template <class P>
void sample_iid(Poly<P>& r, std::span<const std::uint8_t, P::sample_iid_bytes> u) noexcept;

/// Sample_iid_plus (HRSS): sample_iid, then negate the even-index coefficients if the
/// correlation <x * r, r> = sum r_i r_{i+1} (coefficients as -1, 0, 1) is negative, so that
/// it is >= 0. Out: S3.
template <class P>
void sample_iid_plus(Poly<P>& r, std::span<const std::uint8_t, P::sample_iid_bytes> u) noexcept;

/// Sample_fixed_type (HPS): exactly weight/2 coefficients 1 and weight/2 coefficients 2 (= -1)
/// among r_0..r_{n-2}, r_{n-1} = 0. The bytes are read as a little-endian bit stream cut into
/// n - 1 30-bit words w_i; s_i = (w_i << 2) | label_i (label 1 for i < weight/2, 2 for
/// i < weight, else 0) is sorted as int32 in constant time and r_i = s_i mod 4. Out: S3.
/// Runs backend B's kernel.
template <class P, class B>
void sample_fixed_type(Poly<P>& r, std::span<const std::uint8_t, P::sample_ft_bytes> u) noexcept {
  B::sample_fixed_type(r, u.data());
}
/// The portable twin (RefBackend's kernel): builds the keys, sorts them with sort_int32_ref and
/// extracts the labels. u holds P::sample_ft_bytes bytes.
template <class P>
void sample_fixed_type_ref(Poly<P>& r, const std::uint8_t* u) noexcept;

/// Sample_fg: HPS f = iid, g = fixed type; HRSS f, g = iid plus. Out: S3.
template <class P, class B>
void sample_fg(Poly<P>& f, Poly<P>& g, std::span<const std::uint8_t, P::sample_fg_bytes> u) noexcept {
  if constexpr (P::hps) {
    sample_iid<P>(f, u.template first<P::sample_iid_bytes>());
    sample_fixed_type<P, B>(g, u.template subspan<P::sample_iid_bytes, P::sample_ft_bytes>());
  } else {
    sample_iid_plus<P>(f, u.template first<P::sample_iid_bytes>());
    sample_iid_plus<P>(g, u.template subspan<P::sample_iid_bytes, P::sample_iid_bytes>());
  }
}

/// Sample_rm: HPS r = iid, m = fixed type; HRSS r, m = iid. Out: S3.
template <class P, class B>
void sample_rm(Poly<P>& r, Poly<P>& m, std::span<const std::uint8_t, P::sample_rm_bytes> u) noexcept {
  sample_iid<P>(r, u.template first<P::sample_iid_bytes>());
  if constexpr (P::hps)
    sample_fixed_type<P, B>(m, u.template subspan<P::sample_iid_bytes, P::sample_ft_bytes>());
  else
    sample_iid<P>(m, u.template subspan<P::sample_iid_bytes, P::sample_iid_bytes>());
}

}  // namespace pqkem::ntru
