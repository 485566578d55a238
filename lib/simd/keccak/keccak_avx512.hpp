// pqkem: Keccak-f[1600] for the AVX-512 backend: four states in the 64-bit lanes of a YMM
// register (AVX-512VL) and eight in a ZMM register, with vprolq for the rotations and vpternlogq
// for theta's five-way xor (two instructions) and chi (one), and the sponge-batch scheduler on
// their lanes. The 1-way permutation stays the BMI one of keccak_avx2.hpp (keccak_f1600_x1_avx2):
// single hashes are latency-bound and gain nothing from 512-bit registers.
//
// Defined in keccak_avx512.cpp, compiled with the AVX-512 flags; call these only when
// simd::impl_usable(simd::Impl::avx512). Included by portable translation units too, so it
// stays C-like: declarations of plain functions on integer arrays, no inline code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "keccak_job.hpp"

namespace pqkem::simd::avx512 {

/// Four Keccak-f[1600] at once (256-bit registers). Lane (x, y) of state j is at
/// s[4 (x + 5 y) + j]; s is 32-byte aligned.
void keccak_f1600_x4_avx512(std::uint64_t s[100]) noexcept;
/// Eight at once (512-bit registers). Lane (x, y) of state j is at s[8 (x + 5 y) + j]; s is
/// 64-byte aligned.
void keccak_f1600_x8_avx512(std::uint64_t s[200]) noexcept;

/// Runs n independent sponges as keccak_jobs_avx2 does (simd/keccak/keccak_avx2.hpp, same
/// contract and results), on the lanes of the 8-way permutation until four lanes suffice, then
/// on the 4-way one, and the last sponge alone on the 1-way one.
void keccak_jobs_avx512(const KeccakJob* jobs, int n) noexcept;
/// The same on the 4-way permutation only (for the measurements that chose the above).
void keccak_jobs_x4_avx512(const KeccakJob* jobs, int n) noexcept;

/// SHA3-256(a) and SHA3-256(b0 || b1) at once (NTRU decapsulation), as sha3_256_x2_avx2.
void sha3_256_x2_avx512(std::uint8_t out0[32], const std::uint8_t* a, std::size_t alen, std::uint8_t out1[32],
                        const std::uint8_t* b0, std::size_t b0len, const std::uint8_t* b1, std::size_t b1len) noexcept;

}  // namespace pqkem::simd::avx512
