// pqkem: one sponge of a batch for the Keccak batch runners: the SIMD schedulers
// (simd::avx2::keccak_jobs_avx2, simd::avx512::keccak_jobs_avx512) and their portable twin
// (hash::keccak_jobs_ref). A plain struct, no code, below both.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pqkem {

/// One sponge (FIPS 202, section 4): the message in[0] || in[1] (a null piece has length 0),
/// padded with the domain bits `ds` (0x06 SHA-3, 0x1F SHAKE) and pad10*1 at `rate` bytes: 168
/// (SHAKE128), 136 (SHA3-256, SHAKE256) or 72 (SHA3-512), no other. Output: with consume null,
/// the first outlen bytes go to out; otherwise consume(ctx, block) receives each squeezed block
/// of `rate` bytes in turn (readable for 8 bytes past it) and returns whether it wants the next.
struct KeccakJob {
  std::size_t rate;
  std::uint8_t ds;
  const std::uint8_t* in[2];
  std::size_t inlen[2];
  std::uint8_t* out;
  std::size_t outlen;
  bool (*consume)(void* ctx, const std::uint8_t* block);
  void* ctx;
  /// For scheduling only: how many blocks `consume` is expected to ask for (0: one). A wrong
  /// guess costs time, never correctness.
  std::size_t expected_blocks = 0;
  /// A sponge absorbed in parts: with `state` set, the sponge starts from these 25 words (a state
  /// an earlier job kept) instead of zero; with keep_state too, it absorbs the message, which is
  /// then a whole number (at least one) of blocks, without padding or output, and writes its
  /// state back to `state` (out, outlen and consume unused).
  std::uint64_t* state = nullptr;
  bool keep_state = false;
};

}  // namespace pqkem
