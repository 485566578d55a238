// pqkem: Keccak-f[1600] for the AVX2 backend: a 4-way AVX2 permutation (four independent
// states, one per 64-bit lane of a YMM register) and a 1-way BMI2 permutation, with the
// SHA-3 / SHAKE sponges ML-KEM needs (FIPS 202).
//
// Defined in keccak_avx2.cpp, which is compiled with -mavx2 -mbmi -mbmi2; call these only when
// simd::impl_usable(simd::Impl::avx2). This header is included by portable translation units
// too, so it stays C-like: declarations of plain functions on integer arrays, no inline code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "keccak_job.hpp"

namespace pqkem::simd::avx2 {

/// Keccak-f[1600] (FIPS 202, section 3.3, 24 rounds) on one state of 25 lanes, lane
/// (x, y) at s[x + 5 y], little-endian byte order as in FIPS 202's state-to-string mapping.
void keccak_f1600_x1_avx2(std::uint64_t s[25]) noexcept;

/// Four Keccak-f[1600] at once. Lane (x, y) of state j is at s[4 (x + 5 y) + j]; s is 32-byte
/// aligned (it is read and written in place as 25 YMM vectors).
void keccak_f1600_x4_avx2(std::uint64_t s[100]) noexcept;

/// Five Keccak-f[1600] at once: four as keccak_f1600_x4_avx2 in s[0..99] on the vector unit and
/// a fifth, lane (x, y) at s[100 + x + 5 y], on the integer unit, interleaved round by round so
/// that the fifth costs little more than the four. s is 32-byte aligned.
void keccak_f1600_x5_avx2(std::uint64_t s[125]) noexcept;

/// SHA3-256 / SHA3-512 of a || b (FIPS 202, section 6.1); b may be empty (blen = 0).
void sha3_256_x1_avx2(std::uint8_t out[32], const std::uint8_t* a, std::size_t alen, const std::uint8_t* b,
                      std::size_t blen) noexcept;
void sha3_512_x1_avx2(std::uint8_t out[64], const std::uint8_t* a, std::size_t alen, const std::uint8_t* b,
                      std::size_t blen) noexcept;
/// SHAKE256(a || b, outlen) (FIPS 202, section 6.2).
void shake256_x1_avx2(std::uint8_t* out, std::size_t outlen, const std::uint8_t* a, std::size_t alen,
                      const std::uint8_t* b, std::size_t blen) noexcept;

/// SHAKE128 / SHAKE256 of four inputs of the same length, outlen bytes each.
void shake128_x4_avx2(std::uint8_t* const out[4], std::size_t outlen, const std::uint8_t* const in[4],
                      std::size_t inlen) noexcept;
void shake256_x4_avx2(std::uint8_t* const out[4], std::size_t outlen, const std::uint8_t* const in[4],
                      std::size_t inlen) noexcept;

/// SHA3-256(a) and SHA3-256(b0 || b1) at once (NTRU decapsulation's K and its rejection key),
/// as two lanes of the 4-way permutation while both have blocks left, then the longer one alone.
void sha3_256_x2_avx2(std::uint8_t out0[32], const std::uint8_t* a, std::size_t alen, std::uint8_t out1[32],
                      const std::uint8_t* b0, std::size_t b0len, const std::uint8_t* b1, std::size_t b1len) noexcept;

/// Runs n independent sponges on the lanes of the 4-way permutation (keccak_jobs_x4_avx2) or,
/// where its schedule costs less, of the 5-way one (keccak_jobs_x5_avx2). Lengths, and how many
/// blocks a consumer asks for, must be public: they decide the schedule. Every state and buffer
/// is wiped on return.
void keccak_jobs_avx2(const KeccakJob* jobs, int n) noexcept;
/// The four lanes of keccak_f1600_x4_avx2: jobs enter in order, each into the first lane that
/// is free, so sponges of different rates, lengths and output lengths share permutations; once a
/// single sponge is left it goes on with the 1-way permutation, which costs less.
void keccak_jobs_x4_avx2(const KeccakJob* jobs, int n) noexcept;
/// The same on the five lanes of keccak_f1600_x5_avx2, then, once no sponge waits and four
/// lanes suffice, on the four of keccak_f1600_x4_avx2, then on the 1-way permutation.
void keccak_jobs_x5_avx2(const KeccakJob* jobs, int n) noexcept;

/// Four SHAKE128 instances read block by block (168 bytes), as SampleNTT needs.
struct Shake128x4 {
  alignas(32) std::uint64_t s[100];
};
/// Absorbs four inputs of the same length (any length) and pads; the state is ready to squeeze.
void shake128x4_absorb_avx2(Shake128x4& st, const std::uint8_t* const in[4], std::size_t inlen) noexcept;
/// Writes the next nblocks * 168 bytes of each of the four output streams.
void shake128x4_squeeze_blocks_avx2(Shake128x4& st, std::uint8_t* const out[4], std::size_t nblocks) noexcept;

}  // namespace pqkem::simd::avx2
