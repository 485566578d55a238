// Keccak-f[1600] and the SHA-3 sponges for the AVX2 backend (see keccak_avx2.hpp).
//
// Compiled with -mavx2 -mbmi -mbmi2. Everything below the public functions has internal linkage
// (anonymous namespace) and uses no STL, so no code compiled with these flags can be picked
// by the linker for a portable caller.
#include "simd/keccak/keccak_avx2.hpp"

#include <immintrin.h>
#include <string.h>

#include "keccak_f1600.hpp"
#include "secret.hpp"  // secure_wipe: defined in portable code (secret.cpp)
#include "simd/keccak/keccak_jobs_impl.hpp"

namespace pqkem::simd::avx2 {
namespace {

using keccak::kRc;

// Lanes: one state in 64-bit integers (keccak::U64Lane; BMI2 gives andn and rorx) and four
// states in the 64-bit lanes of a YMM register.
using ScalarLane = keccak::U64Lane;

struct Avx2Lane {
  using V = __m256i;
  static V bxor(V a, V b) { return _mm256_xor_si256(a, b); }
  static V andn(V a, V b) { return _mm256_andnot_si256(a, b); }
  template <int N>
  static V rol(V a) {
    if constexpr (N == 0) {
      return a;
    } else if constexpr (N == 8) {
      const __m256i k = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6,
                                         15, 8, 9, 10, 11, 12, 13, 14);
      return _mm256_shuffle_epi8(a, k);
    } else if constexpr (N == 56) {
      const __m256i k = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0,
                                         9, 10, 11, 12, 13, 14, 15, 8);
      return _mm256_shuffle_epi8(a, k);
    } else {
      return _mm256_or_si256(_mm256_slli_epi64(a, N), _mm256_srli_epi64(a, 64 - N));
    }
  }
  static V rc(int i) { return _mm256_set1_epi64x(static_cast<long long>(kRc[i])); }
};

template <class L>
inline void permute(typename L::V* a) {
  keccak::permute<L>(a);
}

constexpr std::size_t kRate128 = 168, kRate256 = 136, kRate512 = 72;

std::uint64_t load64(const std::uint8_t* p) {
  std::uint64_t v;
  memcpy(&v, p, 8);
  return v;  // x86-64 is little-endian, as FIPS 202's lane order
}

// ---- one state -----------------------------------------------------------------------------

/// XORs `len` bytes of `in` into the state at byte offset `pos` (pos + len <= 200).
void xor_bytes_x1(std::uint64_t* s, std::size_t pos, const std::uint8_t* in, std::size_t len) {
  auto* bytes = reinterpret_cast<std::uint8_t*>(s);
  for (std::size_t i = 0; i < len; ++i) bytes[pos + i] ^= in[i];
}

struct Sponge1 {
  std::uint64_t s[25];
  std::size_t pos;  // bytes absorbed into the current block
  std::size_t rate;
};

void sponge1_init(Sponge1& sp, std::size_t rate) {
  memset(sp.s, 0, sizeof sp.s);
  sp.pos = 0;
  sp.rate = rate;
}

void sponge1_absorb(Sponge1& sp, const std::uint8_t* in, std::size_t len) {
  while (len > 0) {
    if (sp.pos == 0) {
      while (len >= sp.rate) {  // whole blocks, word by word
        for (std::size_t i = 0; i < sp.rate / 8; ++i) sp.s[i] ^= load64(in + 8 * i);
        keccak_f1600_x1_avx2(sp.s);
        in += sp.rate;
        len -= sp.rate;
      }
      if (len == 0) break;
    }
    std::size_t n = sp.rate - sp.pos;
    if (n > len) n = len;
    xor_bytes_x1(sp.s, sp.pos, in, n);
    sp.pos += n;
    in += n;
    len -= n;
    if (sp.pos == sp.rate) {
      keccak_f1600_x1_avx2(sp.s);
      sp.pos = 0;
    }
  }
}

/// Pads (domain bits `ds`, then pad10*1), permutes, and squeezes outlen bytes.
void sponge1_finish(Sponge1& sp, std::uint8_t ds, std::uint8_t* out, std::size_t outlen) {
  auto* bytes = reinterpret_cast<std::uint8_t*>(sp.s);
  bytes[sp.pos] ^= ds;
  bytes[sp.rate - 1] ^= 0x80;
  keccak_f1600_x1_avx2(sp.s);
  while (outlen > 0) {
    const std::size_t n = outlen < sp.rate ? outlen : sp.rate;
    memcpy(out, bytes, n);
    out += n;
    outlen -= n;
    if (outlen > 0) keccak_f1600_x1_avx2(sp.s);
  }
}

void hash_x1(std::size_t rate, std::uint8_t ds, std::uint8_t* out, std::size_t outlen, const std::uint8_t* a,
             std::size_t alen, const std::uint8_t* b, std::size_t blen) {
  Sponge1 sp;
  sponge1_init(sp, rate);
  sponge1_absorb(sp, a, alen);
  if (blen > 0) sponge1_absorb(sp, b, blen);
  sponge1_finish(sp, ds, out, outlen);
  // The state may hold secrets (G on m, PRF on sigma): wipe it.
  secure_wipe(sp.s, sizeof sp.s);
}

// ---- four states -----------------------------------------------------------------------------

void absorb_x4(std::uint64_t* s, std::size_t rate, std::uint8_t ds, const std::uint8_t* const in[4],
               std::size_t inlen) {
  memset(s, 0, 800);
  std::size_t off = 0;
  while (inlen - off >= rate) {
    for (std::size_t i = 0; i < rate / 8; ++i)
      for (int j = 0; j < 4; ++j) s[4 * i + j] ^= load64(in[j] + off + 8 * i);
    keccak_f1600_x4_avx2(s);
    off += rate;
  }
  // The last partial block goes straight from the input into the state, its last bytes through
  // a register (no buffer holding input bytes is left behind: they may be secret, PRF on sigma).
  const std::size_t rest = inlen - off, whole = rest / 8, tail = rest % 8;
  for (int j = 0; j < 4; ++j) {  // in[j] may be null when inlen == 0 (then nothing is read)
    for (std::size_t i = 0; i < whole; ++i) s[4 * i + j] ^= load64(in[j] + off + 8 * i);
    std::uint64_t t = std::uint64_t{ds} << (8 * tail);
    for (std::size_t k = 0; k < tail; ++k) t |= std::uint64_t{in[j][off + 8 * whole + k]} << (8 * k);
    s[4 * whole + j] ^= t;
    s[4 * (rate / 8 - 1) + j] ^= std::uint64_t{0x80} << 56;
  }
}

/// Copies the first `n` bytes of each of the four rate parts into out[j] + off.
void extract_x4(const std::uint64_t* s, std::uint8_t* const out[4], std::size_t off, std::size_t n) {
  extract_group<4>(s, 0, out, off, n);
}

void xof_x4(std::size_t rate, std::uint8_t* const out[4], std::size_t outlen, const std::uint8_t* const in[4],
            std::size_t inlen) {
  alignas(32) std::uint64_t s[100];
  absorb_x4(s, rate, 0x1F, in, inlen);
  std::size_t off = 0;
  while (off < outlen) {
    keccak_f1600_x4_avx2(s);
    const std::size_t n = outlen - off < rate ? outlen - off : rate;
    extract_x4(s, out, off, n);
    off += n;
  }
  secure_wipe(s, sizeof s);
}

/// The lanes of the 4-way permutation for the batch scheduler (keccak_jobs_impl.hpp), and of
/// the 4-way one with a fifth state on the integer unit beside it (keccak_f1600_x5_avx2).
/// kCost and kCost1: the time of one permutation of all lanes and of the 1-way one, relative to
/// the 4-way one (100), on AMD EPYC (Zen 5): 903 and 546 rdtsc ticks alone; five lanes 970 alone
/// and 990-1050 inside ML-KEM's batches, whose schedules the costs were set to order rightly.
struct Avx2Perm {
  static constexpr int kVector = 4, kWidth = 4, kCost = 100, kCost1 = 60;
  static void permute(std::uint64_t* s) { keccak_f1600_x4_avx2(s); }
  static void permute1(std::uint64_t* s) { keccak_f1600_x1_avx2(s); }
};
struct Avx2Perm5 {
  static constexpr int kVector = 4, kWidth = 5, kCost = 112, kCost1 = 60;
  static void permute(std::uint64_t* s) { keccak_f1600_x5_avx2(s); }
  static void permute1(std::uint64_t* s) { keccak_f1600_x1_avx2(s); }
};

/// Whether five lanes (then four once four suffice) cost less than four for this batch. Playing
/// the schedule out takes about 200 rdtsc ticks, so the answer is kept per batch shape (the
/// public lengths, rates and counts that decide the schedule) in a small per-thread memo: a
/// program runs the same few shapes again and again, and a collision costs time, never
/// correctness.
bool five_lanes_pay(const KeccakJob* jobs, int n) {
  constexpr int kMaxJobs = 32;
  if (n <= Avx2Perm::kWidth || n > kMaxJobs) return false;
  std::uint64_t key = static_cast<std::uint64_t>(n);
  for (int i = 0; i < n; ++i) {
    const KeccakJob& j = jobs[i];
    const std::uint64_t v = (j.inlen[0] + j.inlen[1]) ^ (std::uint64_t{j.rate} << 16) ^ (std::uint64_t{j.outlen} << 24) ^
                            (std::uint64_t{j.expected_blocks} << 48) ^ (std::uint64_t{j.consume != nullptr} << 56) ^
                            (std::uint64_t{j.keep_state} << 57);
    key = (key ^ v) * 0x9E3779B97F4A7C15ULL;
  }
  constexpr unsigned kShapes = 8;  // ML-KEM's operations run up to 7 shapes
  struct Memo {
    std::uint64_t key[kShapes];
    bool five[kShapes];
    unsigned next;
  };
  thread_local Memo memo{};
  for (unsigned k = 0; k < kShapes; ++k)
    if (memo.key[k] == key) return memo.five[k];
  int perms[kMaxJobs];
  for (int i = 0; i < n; ++i) perms[i] = job_permutations(jobs[i]);
  // Five only for a predicted saving of 5% or more: the fifth lane's cost varies with what runs
  // around it (NTRU's coin expansion, whose schedules differ by a step or less, ran slower on it).
  const bool five =
      20 * schedule_cost<Avx2Perm5, Avx2Perm>(perms, n) <= 19 * schedule_cost<Avx2Perm, Avx2Perm>(perms, n);
  memo.key[memo.next] = key;
  memo.five[memo.next] = five;
  memo.next = (memo.next + 1) % kShapes;
  return five;
}

}  // namespace

// Five lanes where that takes fewer permutations than four by more than the fifth lane costs:
// ML-KEM-768 key generation, say, 6 steps of five and one of four instead of 8 of four and one
// 1-way; ML-KEM-512's, whose sponges do not pack into fewer steps, stays on four.
void keccak_jobs_avx2(const KeccakJob* jobs, int n) noexcept {
  if (five_lanes_pay(jobs, n))
    run_keccak_jobs<Avx2Perm5, Avx2Perm>(jobs, n);
  else
    run_keccak_jobs<Avx2Perm, Avx2Perm>(jobs, n);
}

void keccak_jobs_x4_avx2(const KeccakJob* jobs, int n) noexcept { run_keccak_jobs<Avx2Perm, Avx2Perm>(jobs, n); }

void keccak_jobs_x5_avx2(const KeccakJob* jobs, int n) noexcept { run_keccak_jobs<Avx2Perm5, Avx2Perm>(jobs, n); }

void keccak_f1600_x1_avx2(std::uint64_t s[25]) noexcept { permute<ScalarLane>(s); }

// The permutation works on the state in place, as 25 vectors for the 4-way one (hence its
// 32-byte alignment).
void keccak_f1600_x4_avx2(std::uint64_t s[100]) noexcept { permute<Avx2Lane>(reinterpret_cast<__m256i*>(s)); }

void keccak_f1600_x5_avx2(std::uint64_t s[125]) noexcept {
  keccak::permute_side_by_side<Avx2Lane, ScalarLane>(reinterpret_cast<__m256i*>(s), s + 100);
}

void sha3_256_x1_avx2(std::uint8_t out[32], const std::uint8_t* a, std::size_t alen, const std::uint8_t* b,
                      std::size_t blen) noexcept {
  hash_x1(kRate256, 0x06, out, 32, a, alen, b, blen);
}
void sha3_512_x1_avx2(std::uint8_t out[64], const std::uint8_t* a, std::size_t alen, const std::uint8_t* b,
                      std::size_t blen) noexcept {
  hash_x1(kRate512, 0x06, out, 64, a, alen, b, blen);
}
void shake256_x1_avx2(std::uint8_t* out, std::size_t outlen, const std::uint8_t* a, std::size_t alen,
                      const std::uint8_t* b, std::size_t blen) noexcept {
  hash_x1(kRate256, 0x1F, out, outlen, a, alen, b, blen);
}

void shake128_x4_avx2(std::uint8_t* const out[4], std::size_t outlen, const std::uint8_t* const in[4],
                      std::size_t inlen) noexcept {
  xof_x4(kRate128, out, outlen, in, inlen);
}
void shake256_x4_avx2(std::uint8_t* const out[4], std::size_t outlen, const std::uint8_t* const in[4],
                      std::size_t inlen) noexcept {
  xof_x4(kRate256, out, outlen, in, inlen);
}

void sha3_256_x2_avx2(std::uint8_t out0[32], const std::uint8_t* a, std::size_t alen, std::uint8_t out1[32],
                      const std::uint8_t* b0, std::size_t b0len, const std::uint8_t* b1, std::size_t b1len) noexcept {
  run_sha3_256_pair<Avx2Perm, Avx2Perm>(out0, a, alen, out1, b0, b0len, b1, b1len);
}

void shake128x4_absorb_avx2(Shake128x4& st, const std::uint8_t* const in[4], std::size_t inlen) noexcept {
  absorb_x4(st.s, kRate128, 0x1F, in, inlen);
}

void shake128x4_squeeze_blocks_avx2(Shake128x4& st, std::uint8_t* const out[4], std::size_t nblocks) noexcept {
  for (std::size_t b = 0; b < nblocks; ++b) {
    keccak_f1600_x4_avx2(st.s);
    extract_x4(st.s, out, b * kRate128, kRate128);
  }
}

}  // namespace pqkem::simd::avx2
