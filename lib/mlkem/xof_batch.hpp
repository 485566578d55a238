// pqkem: the plain data of an ML-KEM sponge batch (mlkem/backend.hpp: XofBatch builds it with
// the backend's types). Integers and pointers only, so that the AVX2 kernel
// (simd/mlkem/mlkem_avx2.hpp: xof_batch_avx2) takes it as it is, across the -mavx2 wall.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pqkem::mlkem {

/// - hash[i], i < n_hash (<= 2): SHA3-256 (hash_shake false) or SHAKE256 with 32 output bytes
///   (true) of hash_in[i][0] || hash_in[i][1] into hash_out[i] (32 bytes); with hash_state[i]
///   set (SHA3-256 only), a hash absorbed in parts (KeccakJob::state): it starts from those 25
///   words, and with hash_keep[i] absorbs whole 136-byte blocks and writes the state back
///   instead of padding and writing a hash;
/// - matrix[i], i < n_matrix (<= 16): SampleNTT(rho || xy[i][0] || xy[i][1]) in the backend's
///   order of T_q, 0 <= a_i < q;
/// - noise[i], i < n_noise (<= 9): SamplePolyCBD_eta[i](PRF_eta[i](sigma, nonce[i])), eta[i] in
///   {2, 3}, standard order, |a_i| <= eta[i].
/// Every length and count is public.
struct XofBatchData {
  int n_hash = 0;
  bool hash_shake[2] = {};
  std::uint8_t* hash_out[2] = {};
  const std::uint8_t* hash_in[2][2] = {};
  std::size_t hash_len[2][2] = {};
  std::uint64_t* hash_state[2] = {};
  bool hash_keep[2] = {};
  const std::uint8_t* rho = nullptr;
  int n_matrix = 0;
  std::int16_t* matrix[16] = {};
  std::uint8_t xy[16][2] = {};
  const std::uint8_t* sigma = nullptr;
  int n_noise = 0;
  std::int16_t* noise[9] = {};
  std::uint8_t nonce[9] = {};
  std::uint8_t eta[9] = {};
};

}  // namespace pqkem::mlkem
