// pqkem: the sponge-batch scheduler shared by the AVX2 and AVX-512 Keccak files (KeccakJob,
// keccak_job.hpp). Include it only from a translation unit compiled with AVX2 or
// wider: everything here has internal linkage (anonymous namespace), so each file gets its own
// copy compiled with its own flags and the linker can never hand one file's code to another.
//
// A permutation policy P gives kWidth (4 or 8 states, lane (x, y) of state j at
// s[kWidth (x + 5 y) + j], the array aligned to 8 kWidth bytes), permute(s), and permute1(s) for
// one state of 25 words. run_keccak_jobs<Wide, Narrow> runs the batch on Wide's lanes, moves to
// Narrow's once no job waits and Narrow's lanes suffice (Narrow = Wide: never), and finishes the
// last sponge on the 1-way permutation.
#pragma once

#include <immintrin.h>
#include <string.h>

#include "keccak_job.hpp"
#include "secret.hpp"  // secure_wipe: defined in portable code (secret.cpp)

namespace pqkem::simd {
namespace {

inline std::uint64_t jobs_load64(const std::uint8_t* p) {
  std::uint64_t v;
  memcpy(&v, p, 8);
  return v;  // x86-64 is little-endian, as FIPS 202's lane order
}

/// The message bytes [pos, pos + 8) of in[0] || in[1] (zero past its end) as a little-endian
/// word: one load inside a piece, byte by byte across the pieces' boundary or the end.
inline std::uint64_t message_word(const KeccakJob& job, std::size_t pos) {
  const std::size_t len0 = job.inlen[0], len = len0 + job.inlen[1];
  if (pos + 8 <= len0) return jobs_load64(job.in[0] + pos);
  if (pos >= len0 && pos + 8 <= len) return jobs_load64(job.in[1] + (pos - len0));
  std::uint64_t v = 0;
  for (std::size_t k = 0; k < 8 && pos + k < len; ++k) {
    const std::size_t p = pos + k;
    v |= std::uint64_t{p < len0 ? job.in[0][p] : job.in[1][p - len0]} << (8 * k);
  }
  return v;
}

/// XORs block b (of nblocks) of the job's padded message into a lane whose words are w[0],
/// w[Stride], ...: a whole block inside one piece word by word, the others through message_word;
/// the last block (len mod Rate message bytes) gets the domain bits and pad10*1.
template <std::size_t Rate, int Stride>
inline void absorb_block(std::uint64_t* w, const KeccakJob& job, std::size_t b, std::size_t nblocks) {
  constexpr std::size_t kWords = Rate / 8;
  const std::size_t off = b * Rate, len0 = job.inlen[0];
  if (b + 1 < nblocks) {
    const std::uint8_t* src = off + Rate <= len0 ? job.in[0] + off : off >= len0 ? job.in[1] + (off - len0) : nullptr;
    if (src != nullptr) {
#pragma GCC unroll 21
      for (std::size_t i = 0; i < kWords; ++i) w[Stride * i] ^= jobs_load64(src + 8 * i);
    } else {
      for (std::size_t i = 0; i < kWords; ++i) w[Stride * i] ^= message_word(job, off + 8 * i);
    }
    return;
  }
  const std::size_t n = len0 + job.inlen[1] - off;  // < Rate
  for (std::size_t i = 0; 8 * i < n; ++i) w[Stride * i] ^= message_word(job, off + 8 * i);
  w[Stride * (n >> 3)] ^= std::uint64_t{job.ds} << (8 * (n & 7));
  w[Stride * (kWords - 1)] ^= std::uint64_t{0x80} << 56;
}

/// floor(len / rate) for the rates of FIPS 202 used here (168, 136, 72), by multiplication:
/// lengths are public, but no division instruction is allowed in code that handles secrets.
inline std::size_t whole_blocks(std::size_t len, std::size_t rate) {
  return rate == 168 ? len / 168 : rate == 136 ? len / 136 : len / 72;
}

/// A sponge in a lane: its job (null when the lane is free), the next block to absorb, and how
/// many output bytes it has delivered.
struct JobLane {
  const KeccakJob* job;
  std::size_t block, nblocks, done;
};

/// The work that follows a permutation in a lane whose words are w[0], w[Stride], ...: absorb the
/// next block, or, once all are in, squeeze one block from `squeezed` (the lane's rate bytes,
/// readable for 8 more) to the consumer or the output. Returns whether the sponge goes on.
template <std::size_t Rate, int Stride>
bool lane_step_at(JobLane& l, std::uint64_t* w, const std::uint8_t* squeezed) {
  const KeccakJob& job = *l.job;
  if (l.block < l.nblocks) {
    absorb_block<Rate, Stride>(w, job, l.block, l.nblocks);
    ++l.block;
    return true;
  }
  if (job.consume != nullptr) return job.consume(job.ctx, squeezed);
  const std::size_t n = job.outlen - l.done < Rate ? job.outlen - l.done : Rate;
  if (n > 0) memcpy(job.out + l.done, squeezed, n);
  l.done += n;
  return l.done < job.outlen;
}

template <int Stride>
bool lane_step(JobLane& l, std::uint64_t* w, const std::uint8_t* squeezed) {
  switch (l.job->rate) {
    case 168: return lane_step_at<168, Stride>(l, w, squeezed);
    case 136: return lane_step_at<136, Stride>(l, w, squeezed);
    default: return lane_step_at<72, Stride>(l, w, squeezed);
  }
}

/// Copies the first `n` bytes of the rate part of states
/// 4 g .. 4 g + 3 of a W-state array into out[j] + off: 4 x 4 transposes of 64-bit words.
template <int W>
inline void extract_group(const std::uint64_t* s, int g, std::uint8_t* const out[4], std::size_t off, std::size_t n) {
  const std::size_t words = n / 8;
  const std::uint64_t* base = s + 4 * g;
  for (std::size_t i = 0; i < words; i += 4) {
    if (i + 4 <= words) {
      const __m256i w0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(base + W * i));
      const __m256i w1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(base + W * (i + 1)));
      const __m256i w2 = _mm256_load_si256(reinterpret_cast<const __m256i*>(base + W * (i + 2)));
      const __m256i w3 = _mm256_load_si256(reinterpret_cast<const __m256i*>(base + W * (i + 3)));
      const __m256i t0 = _mm256_unpacklo_epi64(w0, w1);  // s0w0 s0w1 | s2w0 s2w1
      const __m256i t1 = _mm256_unpackhi_epi64(w0, w1);  // s1w0 s1w1 | s3w0 s3w1
      const __m256i t2 = _mm256_unpacklo_epi64(w2, w3);
      const __m256i t3 = _mm256_unpackhi_epi64(w2, w3);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out[0] + off + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out[1] + off + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out[2] + off + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x31));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out[3] + off + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x31));
    } else {
      for (std::size_t w = i; w < words; ++w)
        for (int j = 0; j < 4; ++j) memcpy(out[j] + off + 8 * w, base + W * w + j, 8);
    }
  }
  const std::size_t tail = n - 8 * words;
  if (tail > 0)
    for (int j = 0; j < 4; ++j) memcpy(out[j] + off + 8 * words, base + W * words + j, tail);
}

/// The lanes of one width: W states, the squeeze buffers, and the sponges in them.
template <int W>
struct JobLanes {
  alignas(64) std::uint64_t s[25 * W];
  alignas(64) std::uint8_t blk[W][168 + 8];  // + 8: consumers may read past the block
  JobLane lane[W];
};

/// Runs the batch on P's lanes from their current contents (jobs [next, n) waiting) until every
/// sponge is done or, with none waiting, at most `stop_at` lanes are busy. Returns how many are.
template <class P>
int run_lanes(JobLanes<P::kWidth>& L, const KeccakJob* jobs, int n, int& next, int stop_at) {
  constexpr int W = P::kWidth;
  // Lane j takes the next job, if any, and absorbs its first block.
  const auto start = [&](int j) {
    L.lane[j].job = nullptr;
    if (next == n) return;
    const KeccakJob& job = jobs[next++];
    L.lane[j] = {&job, 0, whole_blocks(job.inlen[0] + job.inlen[1], job.rate) + 1, 0};
    for (int i = 0; i < 25; ++i) L.s[W * i + j] = 0;
    lane_step<W>(L.lane[j], L.s + j, nullptr);
  };
  for (int j = 0; j < W; ++j)
    if (L.lane[j].job == nullptr) start(j);
  for (;;) {
    int active = 0;
    bool squeezing = false;
    for (int j = 0; j < W; ++j)
      if (L.lane[j].job != nullptr) {
        ++active;
        squeezing |= L.lane[j].block == L.lane[j].nblocks;
      }
    if (active <= stop_at && next == n) return active;
    P::permute(L.s);
    // Any lane squeezing: take the rate part of all of them at once.
    if (squeezing)
      for (int g = 0; g < W / 4; ++g) {
        std::uint8_t* const out[4] = {L.blk[4 * g], L.blk[4 * g + 1], L.blk[4 * g + 2], L.blk[4 * g + 3]};
        extract_group<W>(L.s, g, out, 0, 168);
      }
    for (int j = 0; j < W; ++j)
      if (L.lane[j].job != nullptr && !lane_step<W>(L.lane[j], L.s + j, L.blk[j])) start(j);
  }
}

/// Moves the busy lanes of `from` into the first lanes of `to` (the others free).
template <int WF, int WT>
void move_lanes(const JobLanes<WF>& from, JobLanes<WT>& to) {
  int k = 0;
  for (int j = 0; j < WT; ++j) to.lane[j].job = nullptr;
  for (int j = 0; j < WF; ++j) {
    if (from.lane[j].job == nullptr) continue;
    to.lane[k] = from.lane[j];
    for (int i = 0; i < 25; ++i) to.s[WT * i + k] = from.s[WF * i + j];
    ++k;
  }
}

/// The whole batch: Wide's lanes, then Narrow's, then the last sponge alone. Every state and
/// buffer is wiped on return (they may hold secrets: PRF on sigma, G on m, J on z).
template <class Wide, class Narrow>
void run_keccak_jobs(const KeccakJob* jobs, int n) {
  JobLanes<Wide::kWidth> wide;
  JobLanes<Narrow::kWidth> narrow;
  alignas(8) std::uint64_t one[25];  // 200 bytes: rate + 8 readable too
  memset(wide.s, 0, sizeof wide.s);
  for (auto& b : wide.blk) memset(b + 168, 0, 8);  // the squeezes fill the 168 bytes before these
  for (auto& l : wide.lane) l.job = nullptr;
  int next = 0;
  int active = 0;
  const JobLane* lanes = wide.lane;
  const std::uint64_t* s = wide.s;
  int width = Wide::kWidth;
  bool narrowed = false;
  if constexpr (Narrow::kWidth < Wide::kWidth) {
    active = run_lanes<Wide>(wide, jobs, n, next, Narrow::kWidth);
    if (active > 1) {
      narrowed = true;
      memset(narrow.s, 0, sizeof narrow.s);
      move_lanes(wide, narrow);
      for (auto& b : narrow.blk) memset(b + 168, 0, 8);
      active = run_lanes<Narrow>(narrow, jobs, n, next, 1);
      lanes = narrow.lane;
      s = narrow.s;
      width = Narrow::kWidth;
    }
  } else {
    active = run_lanes<Wide>(wide, jobs, n, next, 1);
  }
  if (active == 1) {  // the last sponge goes on alone, on the cheaper 1-way permutation
    int last = 0;
    while (lanes[last].job == nullptr) ++last;
    JobLane lane = lanes[last];
    for (int i = 0; i < 25; ++i) one[i] = s[width * i + last];
    // GCC vectorises that copy and then calls the (scalar, same-file) permutation and the
    // consumer without the vzeroupper it puts before other calls, so the upper halves of the
    // vector registers stayed dirty into the caller's SSE code (portable NTRU ran 2.5x slower
    // after it). Clear them here; the tests check the state on return.
    _mm256_zeroupper();
    do Wide::permute1(one);
    while (lane_step<1>(lane, one, reinterpret_cast<const std::uint8_t*>(one)));
  }
  secure_wipe(wide.s, sizeof wide.s);
  secure_wipe(wide.blk, sizeof wide.blk);
  if (narrowed) {
    secure_wipe(narrow.s, sizeof narrow.s);
    secure_wipe(narrow.blk, sizeof narrow.blk);
  }
  secure_wipe(one, sizeof one);
}

/// SHA3-256(a) and SHA3-256(b0 || b1) as one batch (NTRU decapsulation's hash pair).
template <class Wide, class Narrow>
void run_sha3_256_pair(std::uint8_t out0[32], const std::uint8_t* a, std::size_t alen, std::uint8_t out1[32],
                       const std::uint8_t* b0, std::size_t b0len, const std::uint8_t* b1, std::size_t b1len) {
  const KeccakJob jobs[2] = {{136, 0x06, {a, nullptr}, {alen, 0}, out0, 32, nullptr, nullptr},
                             {136, 0x06, {b0, b1}, {b0len, b1len}, out1, 32, nullptr, nullptr}};
  run_keccak_jobs<Wide, Narrow>(jobs, 2);
}

}  // namespace
}  // namespace pqkem::simd
