// pqkem: the ML-KEM sponge batch scheduler shared by the x86 backends (xof_batch_avx2,
// xof_batch_avx512). Each backend's sampling source includes it and instantiates it with
// its own Keccak job runner and SampleNTT rejection step, so the scheduler is compiled with that
// backend's flags. Included only by files compiled with -mavx2 (or more): internal linkage.
#pragma once

#include <cstddef>
#include <cstdint>

#include "keccak_job.hpp"
#include "mlkem/xof_batch.hpp"
#include "secret.hpp"  // secure_wipe: defined in portable code (secret.cpp)
#include "simd/mlkem/mlkem_avx2.hpp"
#include "simd/mlkem/mlkem_common_avx2.hpp"

namespace pqkem::simd::x86 {
namespace {

using RejUniformFn = unsigned (*)(std::int16_t a[256], unsigned ctr, const std::uint8_t* buf, std::size_t len) noexcept;

/// A SampleNTT in progress: the candidates accepted so far.
struct Rejection {
  std::int16_t* a;
  unsigned ctr;
};

/// KeccakJob consumer of a SHAKE128 stream: one 168-byte block of candidates through RejUniform;
/// wants more until 256 are accepted (public: the stream of rho).
template <RejUniformFn RejUniform>
bool rejection_consume(void* ctx, const std::uint8_t* block) {
  auto* r = static_cast<Rejection*>(ctx);
  r->ctr = RejUniform(r->a, r->ctr, block, 168);
  return r->ctr < 256;
}

/// The batch (mlkem/xof_batch.hpp) as one run of RunJobs: hashes first, then the matrix, then
/// the noise, so the longest sponges start first. Matrix entries come out in the AVX2 order.
template <void (*RunJobs)(const KeccakJob*, int) noexcept, RejUniformFn RejUniform>
void run_mlkem_xof_batch(const mlkem::XofBatchData& b) noexcept {
  KeccakJob jobs[2 + 16 + 9];
  Rejection rej[16];
  alignas(32) std::uint8_t prf[9][192];
  int n = 0;
  for (int i = 0; i < b.n_hash; ++i)
    jobs[n++] = {136,
                 static_cast<std::uint8_t>(b.hash_shake[i] ? 0x1F : 0x06),
                 {b.hash_in[i][0], b.hash_in[i][1]},
                 {b.hash_len[i][0], b.hash_len[i][1]},
                 b.hash_out[i],
                 32,
                 nullptr,
                 nullptr,
                 0,
                 b.hash_state[i],
                 b.hash_keep[i]};
  // A SampleNTT stream is expected to take 3 blocks: 504 bytes give 256 coefficients below q
  // with probability 0.993 (binomial, 336 candidates, p = 3329/4096).
  for (int i = 0; i < b.n_matrix; ++i) {
    rej[i] = {b.matrix[i], 0};
    jobs[n++] = {168, 0x1F, {b.rho, b.xy[i]}, {32, 2}, nullptr, 0, rejection_consume<RejUniform>, &rej[i], 3};
  }
  for (int i = 0; i < b.n_noise; ++i)
    jobs[n++] = {136,     0x1F,   {b.sigma, &b.nonce[i]}, {32, 1}, prf[i], 64 * static_cast<std::size_t>(b.eta[i]),
                 nullptr, nullptr};
  RunJobs(jobs, n);
  for (int i = 0; i < b.n_matrix; ++i) avx2::detail::transpose16_mem(b.matrix[i], b.matrix[i]);  // to the AVX2 order
  for (int i = 0; i < b.n_noise; ++i) avx2::sample_poly_cbd_avx2(b.noise[i], prf[i], b.eta[i]);
  secure_wipe(prf, sizeof prf[0] * static_cast<std::size_t>(b.n_noise));  // the rows written
}

}  // namespace
}  // namespace pqkem::simd::x86
