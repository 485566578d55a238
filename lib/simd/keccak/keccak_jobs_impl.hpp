// pqkem: the sponge-batch scheduler shared by the AVX2 and AVX-512 Keccak files (KeccakJob,
// keccak_job.hpp). Include it only from a translation unit compiled with AVX2 or
// wider: everything here has internal linkage (anonymous namespace), so each file gets its own
// copy compiled with its own flags and the linker can never hand one file's code to another.
//
// A permutation policy P gives kVector (4 or 8 states for the vector unit, lane (x, y) of state
// j at s[kVector (x + 5 y) + j], the array aligned to 8 kVector bytes), kWidth (kVector, or
// kVector + 1 with one more state in plain order at s + 25 kVector, permuted beside them on the
// integer unit), permute(s) for all kWidth, and permute1(s) for one state of 25 words.
// run_keccak_jobs<Wide, Narrow> runs the batch on Wide's lanes, moves to Narrow's once no job
// waits and Narrow's lanes suffice (Narrow = Wide: never), and finishes the last sponge on the
// 1-way permutation.
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
  if (b + 1 < nblocks || job.keep_state) {
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
  if (job.keep_state) {  // every block absorbed and permuted: hand the state back
    for (int i = 0; i < 25; ++i) job.state[i] = w[Stride * i];
    return false;
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

/// A lane for `job`, before its first block: the blocks to absorb are the padded message's, or
/// a kept state's whole blocks (no padding).
inline JobLane new_lane(const KeccakJob& job) {
  const std::size_t whole = whole_blocks(job.inlen[0] + job.inlen[1], job.rate);
  return {&job, 0, job.keep_state ? whole : whole + 1, 0};
}

/// The lanes of one permutation policy P: P::kVector states interleaved for the vector unit
/// (lane (x, y) of state j at s[kVector (x + 5 y) + j]), then, when P::kWidth = kVector + 1, one
/// more state in plain order at s + 25 kVector, which P::permute runs on the integer unit beside
/// them. The squeeze buffers of the vector states, and the sponges in all the lanes.
template <class P>
struct JobLanes {
  static constexpr int kVector = P::kVector, kWidth = P::kWidth;
  static_assert(kVector % 4 == 0 && (kWidth == kVector || kWidth == kVector + 1), "vector lanes, then at most one");
  alignas(64) std::uint64_t s[25 * kWidth];
  alignas(64) std::uint8_t blk[kVector][168 + 8];  // + 8: consumers may read past the block
  JobLane lane[kWidth];

  /// Word i (lane x + 5 y = i) of state j.
  std::uint64_t& word(int j, int i) { return j < kVector ? s[kVector * i + j] : s[25 * kVector + i]; }
  /// Absorbs or squeezes after a permutation (lane_step) in lane j.
  bool step(int j, const std::uint8_t* squeezed) {
    return j < kVector ? lane_step<kVector>(lane[j], s + j, squeezed) : lane_step<1>(lane[j], s + 25 * kVector, squeezed);
  }
  /// Where lane j's squeezed block is read: its buffer, or the plain state itself (200 bytes:
  /// the rate and 8 more are readable).
  const std::uint8_t* squeezed(int j) const {
    return j < kVector ? blk[j] : reinterpret_cast<const std::uint8_t*>(s + 25 * kVector);
  }
  void clear() {
    memset(s, 0, sizeof s);
    for (auto& b : blk) memset(b + 168, 0, 8);  // the squeezes fill the 168 bytes before these
    for (auto& l : lane) l.job = nullptr;
  }
  void wipe() {
    secure_wipe(s, sizeof s);
    secure_wipe(blk, sizeof blk);
  }
};

/// Runs the batch on P's lanes from their current contents (jobs [next, n) waiting) until every
/// sponge is done or, with none waiting, at most `stop_at` lanes are busy. Returns how many are.
template <class P>
int run_lanes(JobLanes<P>& L, const KeccakJob* jobs, int n, int& next, int stop_at) {
  constexpr int W = P::kWidth, V = P::kVector;
  // Lane j takes the next job, if any, and absorbs its first block.
  const auto start = [&](int j) {
    L.lane[j].job = nullptr;
    if (next == n) return;
    const KeccakJob& job = jobs[next++];
    L.lane[j] = new_lane(job);
    for (int i = 0; i < 25; ++i) L.word(j, i) = job.state != nullptr ? job.state[i] : 0;
    L.step(j, nullptr);
  };
  for (int j = 0; j < W; ++j)
    if (L.lane[j].job == nullptr) start(j);
  for (;;) {
    int active = 0;
    bool squeezing = false;
    for (int j = 0; j < W; ++j)
      if (L.lane[j].job != nullptr) {
        ++active;
        squeezing |= j < V && L.lane[j].block == L.lane[j].nblocks;
      }
    if (active <= stop_at && next == n) return active;
    P::permute(L.s);
    // Any vector lane squeezing: take the rate part of all of them at once.
    if (squeezing)
      for (int g = 0; g < V / 4; ++g) {
        std::uint8_t* const out[4] = {L.blk[4 * g], L.blk[4 * g + 1], L.blk[4 * g + 2], L.blk[4 * g + 3]};
        extract_group<V>(L.s, g, out, 0, 168);
      }
    for (int j = 0; j < W; ++j)
      if (L.lane[j].job != nullptr && !L.step(j, L.squeezed(j))) start(j);
  }
}

/// Moves the busy lanes of `from` into the first lanes of `to` (the others free).
template <class F, class T>
void move_lanes(JobLanes<F>& from, JobLanes<T>& to) {
  int k = 0;
  for (auto& l : to.lane) l.job = nullptr;
  for (int j = 0; j < F::kWidth; ++j) {
    if (from.lane[j].job == nullptr) continue;
    to.lane[k] = from.lane[j];
    for (int i = 0; i < 25; ++i) to.word(k, i) = from.word(j, i);
    ++k;
  }
}

/// A sponge goes on alone from the state `one` (its next block absorbed), on the cheaper 1-way
/// permutation, to its end.
template <class One>
void run_alone(JobLane lane, std::uint64_t one[25]) {
  // GCC vectorises the callers' copies into `one` and then calls the (scalar, same-file)
  // permutation and the consumer without the vzeroupper it puts before other calls, so the upper
  // halves of the vector registers stayed dirty into the caller's SSE code (portable NTRU ran
  // 2.5x slower after it). Clear them here; the tests check the state on return.
  _mm256_zeroupper();
  do One::permute1(one);
  while (lane_step<1>(lane, one, reinterpret_cast<const std::uint8_t*>(one)));
}

/// The last busy lane of L goes on alone, in `one`.
template <class P, class One>
void finish_alone(JobLanes<P>& L, std::uint64_t one[25]) {
  int last = 0;
  while (L.lane[last].job == nullptr) ++last;
  for (int i = 0; i < 25; ++i) one[i] = L.word(last, i);
  run_alone<One>(L.lane[last], one);
}

/// The permutations a job runs for, as lane_step counts them: one per absorbed block after the
/// first, then one per squeezed block (a consumer's: its expected_blocks).
inline int job_permutations(const KeccakJob& job) {
  if (job.keep_state) return static_cast<int>(whole_blocks(job.inlen[0] + job.inlen[1], job.rate));
  const std::size_t squeezed = job.consume != nullptr ? job.expected_blocks
                                                      : whole_blocks(job.outlen + job.rate - 1, job.rate);
  return static_cast<int>(whole_blocks(job.inlen[0] + job.inlen[1], job.rate) + (squeezed > 0 ? squeezed : 1));
}

/// What run_keccak_jobs<Wide, Narrow> will spend on the batch, from the jobs' permutation counts,
/// in the policies' units (kCost per permutation of all lanes, kCost1 per 1-way permutation).
/// The scheduler's rule, played out by finish times: each job starts when the first lane is
/// free (the lowest on a tie); after the last start, Wide runs until at most Narrow::kWidth
/// lanes are busy, Narrow until one is, the 1-way permutation to the end. The counts, like the
/// schedule, are public.
template <class Wide, class Narrow>
int schedule_cost(const int* perms, int n) {
  constexpr int W = Wide::kWidth, N = Narrow::kWidth;
  int finish[W] = {};
  int last_start = 0;
  for (int i = 0; i < n; ++i) {
    int j = 0;
    for (int k = 1; k < W; ++k) j = finish[k] < finish[j] ? k : j;
    last_start = finish[j];
    finish[j] += perms[i];
  }
  // The largest finish times: order[0] >= order[1] >= ... (W <= 9: insertion sort).
  int order[W];
  for (int k = 0; k < W; ++k) {
    int v = finish[k], m = k;
    for (; m > 0 && order[m - 1] < v; --m) order[m] = order[m - 1];
    order[m] = v;
  }
  const auto busy_until = [&](int lanes) { return lanes < W && order[lanes] > last_start ? order[lanes] : last_start; };
  const int t1 = N < W ? busy_until(N) : busy_until(1);  // Wide until at most N lanes are busy
  const int t2 = busy_until(1) > t1 ? busy_until(1) : t1;  // Narrow until one is
  return t1 * Wide::kCost + (t2 - t1) * Narrow::kCost + (order[0] - t2) * Wide::kCost1;
}

/// The whole batch: Wide's lanes, then Narrow's, then the last sponge alone. Every state and
/// buffer is wiped on return (they may hold secrets: PRF on sigma, G on m, J on z).
template <class Wide, class Narrow>
void run_keccak_jobs(const KeccakJob* jobs, int n) {
  if (n == 1) {  // one sponge (the end of H(ek), say): the 1-way permutation, no lanes to set up
    alignas(8) std::uint64_t one[25];  // 200 bytes: rate + 8 readable too
    JobLane lane = new_lane(jobs[0]);
    for (int i = 0; i < 25; ++i) one[i] = jobs[0].state != nullptr ? jobs[0].state[i] : 0;
    lane_step<1>(lane, one, nullptr);
    run_alone<Wide>(lane, one);
    secure_wipe(one, sizeof one);
    return;
  }
  JobLanes<Wide> wide;
  JobLanes<Narrow> narrow;
  alignas(8) std::uint64_t one[25];  // 200 bytes: rate + 8 readable too
  wide.clear();
  int next = 0;
  if constexpr (Narrow::kWidth < Wide::kWidth) {
    const int active = run_lanes<Wide>(wide, jobs, n, next, Narrow::kWidth);
    if (active > 1) {
      narrow.clear();
      move_lanes(wide, narrow);
      if (run_lanes<Narrow>(narrow, jobs, n, next, 1) == 1) finish_alone<Narrow, Wide>(narrow, one);
      narrow.wipe();
    } else if (active == 1) {
      finish_alone<Wide, Wide>(wide, one);
    }
  } else {
    if (run_lanes<Wide>(wide, jobs, n, next, 1) == 1) finish_alone<Wide, Wide>(wide, one);
  }
  wide.wipe();
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
