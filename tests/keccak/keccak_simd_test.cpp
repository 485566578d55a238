// The 1-, 4- and 8-way Keccak of lib/simd/keccak against the portable permutation and sponges
// (lib/hash.cpp) and OpenSSL: the permutations, SHAKE and SHA-3 on every input length, and the
// batch schedulers (keccak_job.hpp) with their portable twin. Run where the build has the AVX2
// kernels, under the ML-KEM kernel tests' fixtures (tests/support/simd_fixture.hpp), whose
// names they keep (Avx2Kernel.Keccak*, Avx512Kernel.*).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "hash.hpp"
#include "keccak_job.hpp"
#include "simd_fixture.hpp"

namespace pqkem::mlkem {
namespace {

#if PQKEM_HAVE_AVX2
TEST_F(Avx2Kernel, KeccakPermutationKnownAnswer) {
  // Keccak-f[1600] of the zero state (the KeccakF-1600 reference test vector).
  std::uint64_t s[25] = {};
  av::keccak_f1600_x1_avx2(s);
  EXPECT_EQ(s[0], 0xF1258F7940E1DDE7ULL);
  EXPECT_EQ(s[1], 0x84D5CCF933C0478AULL);
  EXPECT_EQ(s[24], 0xEAF1FF7B5CECA249ULL);
  alignas(32) std::uint64_t s4[100] = {};
  for (int i = 0; i < 25; ++i) s4[4 * i + 2] = s[i];  // lane 2 starts from one permutation
  av::keccak_f1600_x4_avx2(s4);
  std::uint64_t s2[25];
  for (int i = 0; i < 25; ++i) s2[i] = s[i];
  av::keccak_f1600_x1_avx2(s2);
  for (int i = 0; i < 25; ++i) {
    ASSERT_EQ(s4[4 * i + 0], i == 0 ? 0xF1258F7940E1DDE7ULL : s4[4 * i + 0]);
    ASSERT_EQ(s4[4 * i + 1], s4[4 * i + 0]);
    ASSERT_EQ(s4[4 * i + 3], s4[4 * i + 0]);
    ASSERT_EQ(s4[4 * i + 2], s2[i]);
    ASSERT_EQ(s4[4 * i + 0], s[i]);
  }
}

// Every input length from 0 to several rate blocks (and output lengths across block
// boundaries), four different random inputs per call: each lane equals OpenSSL's SHAKE.
TEST_F(Avx2Kernel, Keccak4xMatchesOpenSslOnEveryLength) {
  for (std::size_t len = 0; len <= 5 * 168 + 3; ++len) {
    std::vector<std::uint8_t> in[4];
    for (auto& v : in) v = random_bytes(len + 1);
    const std::uint8_t* ip[4] = {in[0].data(), in[1].data(), in[2].data(), in[3].data()};
    const std::size_t outlen = (len * 37) % (3 * 168 + 1);
    std::vector<std::uint8_t> out[4];
    for (auto& v : out) v.assign(outlen + 1, 0);
    std::uint8_t* op[4] = {out[0].data(), out[1].data(), out[2].data(), out[3].data()};
    std::vector<std::uint8_t> want(outlen);
    av::shake128_x4_avx2(op, outlen, ip, len);
    for (int j = 0; j < 4; ++j) {
      hash::shake128(want, {ByteView(in[j].data(), len)});
      ASSERT_TRUE(std::equal(want.begin(), want.end(), out[j].begin())) << "SHAKE128 len " << len << " lane " << j;
    }
    av::shake256_x4_avx2(op, outlen, ip, len);
    for (int j = 0; j < 4; ++j) {
      hash::shake256(want, {ByteView(in[j].data(), len)});
      ASSERT_TRUE(std::equal(want.begin(), want.end(), out[j].begin())) << "SHAKE256 len " << len << " lane " << j;
    }
    // block-wise squeezing
    av::Shake128x4 st;
    av::shake128x4_absorb_avx2(st, ip, len);
    std::vector<std::uint8_t> blocks[4];
    for (auto& v : blocks) v.assign(3 * 168, 0);
    std::uint8_t* bp[4] = {blocks[0].data(), blocks[1].data(), blocks[2].data(), blocks[3].data()};
    av::shake128x4_squeeze_blocks_avx2(st, bp, 2);
    std::uint8_t* bp2[4] = {bp[0] + 336, bp[1] + 336, bp[2] + 336, bp[3] + 336};
    av::shake128x4_squeeze_blocks_avx2(st, bp2, 1);
    std::vector<std::uint8_t> want3(3 * 168);
    for (int j = 0; j < 4; ++j) {
      hash::shake128(want3, {ByteView(in[j].data(), len)});
      ASSERT_EQ(blocks[j], want3) << "blocks, len " << len << " lane " << j;
    }
  }
}

// Batches of sponges on the lanes of the 4-way permutation: random mixes of the four FIPS 202
// functions ML-KEM uses (rates 168, 136, 72), message lengths from 0 to five blocks split into two
// pieces at a random point, fixed output lengths across block boundaries, and consumers that
// take a random number of blocks; batches of 1 to 12 jobs (so lanes are refilled, and the last
// sponge goes on alone). Each job equals the portable sponge.
struct Kind {
  std::size_t rate;
  std::uint8_t ds;
};
constexpr Kind kShake128{168, 0x1F}, kShake256{136, 0x1F}, kSha3_256{136, 0x06}, kSha3_512{72, 0x06};

std::vector<std::uint8_t> portable_sponge(const Kind& k, ByteView msg, std::size_t outlen) {
  std::vector<std::uint8_t> out(outlen);
  if (k.rate == 168)
    hash::shake128(out, {msg});
  else if (k.rate == 72)
    hash::sha3_512(std::span<std::uint8_t, 64>(out.data(), 64), {msg});
  else if (k.ds == 0x1F)
    hash::shake256(out, {msg});
  else
    hash::sha3_256(std::span<std::uint8_t, 32>(out.data(), 32), {msg});
  return out;
}

struct BlockSink {
  std::vector<std::uint8_t> got;
  std::size_t rate = 0, wanted = 0;
  static bool take(void* ctx, const std::uint8_t* block) {
    auto* b = static_cast<BlockSink*>(ctx);
    b->got.insert(b->got.end(), block, block + b->rate);
    return b->got.size() < b->wanted * b->rate;
  }
};

/// Random batches of up to max_jobs sponges through `run` (a keccak_jobs_* scheduler). About a
/// third of the fixed-output sponges of a block or more are absorbed in parts: the batch absorbs
/// a whole number of blocks into a kept state (KeccakJob::keep_state), and a second batch
/// finishes them from it, beside each other.
void check_keccak_jobs(std::mt19937_64& rng, void (*run)(const KeccakJob*, int) noexcept, int max_jobs) {
  const auto random_bytes = [&](std::size_t n) {
    std::vector<std::uint8_t> v(n);
    for (auto& x : v) x = static_cast<std::uint8_t>(rng());
    return v;
  };
  const Kind kinds[4] = {kShake128, kShake256, kSha3_256, kSha3_512};
  for (int t = 0; t < 400; ++t) {
    const int n = 1 + static_cast<int>(rng() % static_cast<unsigned>(max_jobs));
    std::vector<Kind> kind(n);
    std::vector<std::vector<std::uint8_t>> msg(n), out(n);
    std::vector<std::size_t> split(n), outlen(n), kept(n, 0);
    std::vector<BlockSink> sink(n);
    std::vector<KeccakJob> jobs(n);
    std::vector<std::array<std::uint64_t, 25>> state(n);
    for (int i = 0; i < n; ++i) {
      kind[i] = kinds[rng() % 4];
      const std::size_t len = static_cast<std::size_t>(rng() % (5 * kind[i].rate + 4));
      msg[i] = random_bytes(len);
      split[i] = static_cast<std::size_t>(rng() % (len + 1));
      const bool shake = kind[i].ds == 0x1F;
      const bool consumer = shake && rng() % 2 == 0;
      outlen[i] = !shake ? (kind[i].rate == 72 ? 64 : 32) : 1 + static_cast<std::size_t>(rng() % 400);
      out[i].assign(outlen[i], 0);
      sink[i].rate = kind[i].rate;
      sink[i].wanted = 1 + static_cast<std::size_t>(rng() % 4);
      jobs[i] = {kind[i].rate,
                 kind[i].ds,
                 {msg[i].data(), msg[i].data() + split[i]},
                 {split[i], len - split[i]},
                 consumer ? nullptr : out[i].data(),
                 consumer ? 0 : outlen[i],
                 consumer ? &BlockSink::take : nullptr,
                 consumer ? &sink[i] : nullptr,
                 consumer ? static_cast<std::size_t>(rng() % 6) : 0};  // a guess, right or wrong
      if (!consumer && len >= kind[i].rate && rng() % 3 == 0) {  // absorbed in parts
        kept[i] = kind[i].rate * (1 + static_cast<std::size_t>(rng() % (len / kind[i].rate)));
        split[i] = static_cast<std::size_t>(rng() % (kept[i] + 1));
        state[i].fill(0);
        jobs[i].in[1] = msg[i].data() + split[i];
        jobs[i].inlen[0] = split[i];
        jobs[i].inlen[1] = kept[i] - split[i];
        jobs[i].state = state[i].data();
        jobs[i].keep_state = true;
      }
    }
    run(jobs.data(), n);
    std::vector<KeccakJob> rest;  // the parted sponges, from their kept states
    for (int i = 0; i < n; ++i)
      if (kept[i] > 0)
        rest.push_back({kind[i].rate, kind[i].ds, {msg[i].data() + kept[i], nullptr}, {msg[i].size() - kept[i], 0},
                        out[i].data(), outlen[i], nullptr, nullptr, 0, state[i].data(), false});
    if (!rest.empty()) run(rest.data(), static_cast<int>(rest.size()));
    for (int i = 0; i < n; ++i) {
      const ByteView m(msg[i].data(), msg[i].size());
      if (jobs[i].consume != nullptr) {
        ASSERT_EQ(sink[i].got, portable_sponge(kind[i], m, sink[i].wanted * kind[i].rate))
            << "batch " << t << " job " << i << " (consumer, rate " << kind[i].rate << ")";
      } else {
        ASSERT_EQ(out[i], portable_sponge(kind[i], m, outlen[i]))
            << "batch " << t << " job " << i << " (rate " << kind[i].rate << ", length " << m.size() << ", kept "
            << kept[i] << ")";
      }
    }
  }
}

// The chosen schedule, and each width forced: up to 24 jobs, so the five lanes fill, refill and
// hand over to four, then to the 1-way permutation.
TEST_F(Avx2Kernel, KeccakJobsMatchThePortableSponges) {
  check_keccak_jobs(rng, av::keccak_jobs_avx2, 24);
  check_keccak_jobs(rng, av::keccak_jobs_x4_avx2, 12);
  check_keccak_jobs(rng, av::keccak_jobs_x5_avx2, 24);
}

// Four states in the vector lanes and a fifth on the integer unit, each from random words (the
// zero state first): every one equals the portable permutation of it.
TEST_F(Avx2Kernel, Keccak5xMatchesThePortablePermutation) {
  for (int t = 0; t < 64; ++t) {
    alignas(32) std::uint64_t s5[125];
    std::uint64_t one[5][25];
    for (int j = 0; j < 5; ++j)
      for (int i = 0; i < 25; ++i) {
        one[j][i] = t == 0 ? 0 : rng();
        (j < 4 ? s5[4 * i + j] : s5[100 + i]) = one[j][i];
      }
    av::keccak_f1600_x5_avx2(s5);
    for (int j = 0; j < 5; ++j) {
      hash::keccak_f1600(one[j]);
      for (int i = 0; i < 25; ++i)
        ASSERT_EQ(j < 4 ? s5[4 * i + j] : s5[100 + i], one[j][i]) << "trial " << t << " state " << j << " lane " << i;
    }
  }
}

// The schedulers' portable twin (NTRU's coin expansion runs on it under the portable backend),
// through the same batches: consumers included, which the expansion itself never uses.
TEST(KeccakJobsRef, MatchesThePortableSponges) {
  std::mt19937_64 rng(0x6a6f6273);
  check_keccak_jobs(rng, hash::keccak_jobs_ref, 12);
}

TEST_F(Avx2Kernel, Keccak1xMatchesOpenSslOnEveryLength) {
  for (std::size_t len = 0; len <= 5 * 168 + 3; ++len) {
    const std::vector<std::uint8_t> in = random_bytes(len + 1);
    const std::size_t split = len == 0 ? 0 : static_cast<std::size_t>(rng() % (len + 1));
    std::array<std::uint8_t, 32> h{}, hw{};
    av::sha3_256_x1_avx2(h.data(), in.data(), split, in.data() + split, len - split);
    hash::sha3_256(hw, {ByteView(in.data(), len)});
    ASSERT_EQ(h, hw) << "SHA3-256 len " << len;
    std::array<std::uint8_t, 64> g{}, gw{};
    av::sha3_512_x1_avx2(g.data(), in.data(), split, in.data() + split, len - split);
    hash::sha3_512(gw, {ByteView(in.data(), len)});
    ASSERT_EQ(g, gw) << "SHA3-512 len " << len;
    const std::size_t outlen = (len * 13) % 400;
    std::vector<std::uint8_t> j(outlen), jw(outlen);
    av::shake256_x1_avx2(j.data(), outlen, in.data(), split, in.data() + split, len - split);
    hash::shake256(jw, {ByteView(in.data(), len)});
    ASSERT_EQ(j, jw) << "SHAKE256 len " << len;
  }
}

#if PQKEM_HAVE_AVX512
TEST_F(Avx512Kernel, PermutationsMatchThePortableOne) {
  for (int t = 0; t < 64; ++t) {
    alignas(64) std::uint64_t s8[200];
    alignas(32) std::uint64_t s4[100];
    std::uint64_t one[8][25];
    for (int j = 0; j < 8; ++j)
      for (int i = 0; i < 25; ++i) {
        one[j][i] = t == 0 ? 0 : rng();  // the zero state first (FIPS 202's first SHA-3 call)
        s8[8 * i + j] = one[j][i];
        if (j < 4) s4[4 * i + j] = one[j][i];
      }
    simd::avx512::keccak_f1600_x8_avx512(s8);
    simd::avx512::keccak_f1600_x4_avx512(s4);
    for (int j = 0; j < 8; ++j) {
      hash::keccak_f1600(one[j]);
      for (int i = 0; i < 25; ++i) {
        ASSERT_EQ(s8[8 * i + j], one[j][i]) << "x8, trial " << t << " state " << j << " lane " << i;
        if (j < 4) {
          ASSERT_EQ(s4[4 * i + j], one[j][i]) << "x4, trial " << t << " state " << j << " lane " << i;
        }
      }
    }
  }
}

// Up to 24 jobs: the 8-way lanes fill, refill and hand over to the 4-way ones, then to the 1-way.
TEST_F(Avx512Kernel, KeccakJobsMatchThePortableSponges) {
  check_keccak_jobs(rng, simd::avx512::keccak_jobs_avx512, 24);
  check_keccak_jobs(rng, simd::avx512::keccak_jobs_x4_avx512, 12);
}
#endif  // PQKEM_HAVE_AVX512
#endif  // PQKEM_HAVE_AVX2

}  // namespace
}  // namespace pqkem::mlkem
