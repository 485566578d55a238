// The sampling kernels of the ML-KEM AVX2 and AVX-512 backends against their portable twins
// (lib/mlkem/sampling.cpp, RefBackend): CBD, rejection sampling, SampleNTT and the noise four at
// a time, and the batch of hashes, matrix entries and noise (xof_batch.hpp). Built with the
// other ML-KEM SIMD tests (mlkem_avx2_test.cpp).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "backends/backends.hpp"
#include "hash.hpp"
#include "mlkem/sampling.hpp"
#include "simd_fixture.hpp"

namespace pqkem::mlkem {
namespace {

#if PQKEM_HAVE_AVX2
TEST_F(Avx2Kernel, CbdMatchesPortable) {
  for (int t = 0; t < 300; ++t) {
    std::vector<std::uint8_t> b = random_bytes(192);
    if (t == 0) std::fill(b.begin(), b.end(), 0xFF);
    if (t == 1) std::fill(b.begin(), b.end(), 0x00);
    if (t == 2) std::fill(b.begin(), b.end(), 0x0F);
    if (t == 3) std::fill(b.begin(), b.end(), 0xF0);
    Arr got;
    av::sample_poly_cbd_avx2(got.data(), b.data(), 2);
    ASSERT_EQ(got, sample_poly_cbd_ref<2>(std::span<const std::uint8_t, 128>(b.data(), 128)).c);
    av::sample_poly_cbd_avx2(got.data(), b.data(), 3);
    ASSERT_EQ(got, sample_poly_cbd_ref<3>(std::span<const std::uint8_t, 192>(b.data(), 192)).c);
  }
}

TEST_F(Avx2Kernel, RejectionSamplingMatchesPortableLoop) {
  for (int t = 0; t < 500; ++t) {
    std::vector<std::uint8_t> buf = random_bytes(3 * 168 + 8);
    if (t % 5 == 1)  // mostly rejected candidates: 0xFFF, with a few accepted
      for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = (rng() % 8 == 0) ? buf[i] : 0xFF;
    const std::size_t len = 3 * (1 + rng() % 168);
    Arr got{}, want{};
    unsigned ctr0 = static_cast<unsigned>(rng() % 257);
    unsigned c_want = ctr0;
    for (std::size_t p = 0; p + 3 <= len && c_want < 256; p += 3) {
      const int d1 = buf[p] | ((buf[p + 1] & 0x0f) << 8);
      const int d2 = (buf[p + 1] >> 4) | (buf[p + 2] << 4);
      if (d1 < kQ) want[c_want++] = static_cast<std::int16_t>(d1);
      if (d2 < kQ && c_want < 256) want[c_want++] = static_cast<std::int16_t>(d2);
    }
    const unsigned c_got = av::rej_uniform_avx2(got.data(), ctr0, buf.data(), len);
    ASSERT_EQ(c_got, c_want);
    for (unsigned i = ctr0; i < c_got; ++i) ASSERT_EQ(got[i], want[i]) << i;
  }
}

TEST_F(Avx2Kernel, SampleNttX4MatchesPortable) {
  int needed_more = 0;
  for (int t = 0; t < 300; ++t) {
    const auto rho_v = random_bytes(32);
    const auto rho = std::span<const std::uint8_t, 32>(rho_v.data(), 32);
    const int n = 1 + t % 4;
    std::uint8_t xy[4][2];
    for (auto& p : xy) {
      p[0] = static_cast<std::uint8_t>(rng());
      p[1] = static_cast<std::uint8_t>(rng());
    }
    Avx2NttPoly out[4];
    Avx2NttPoly* const o[4] = {&out[0], &out[1], &out[2], &out[3]};
    Avx2Backend::sample_ntt_x4(o, rho, xy, n);
    for (int j = 0; j < n; ++j) {
      const NttPoly want = sample_ntt_ref(rho, xy[j][0], xy[j][1]);
      ASSERT_EQ(transposed(out[j].c), want.c) << "trial " << t << " lane " << j;
    }
    // count inputs that needed a fourth block (about 1 in 100): the squeeze-more path ran
    std::array<std::uint8_t, 504 + 8> s{};  // + 8: rej_uniform's read overrun
    const std::uint8_t idx[2] = {xy[0][0], xy[0][1]};
    hash::shake128(std::span<std::uint8_t>(s.data(), 504), {rho, idx});
    Arr tmp{};
    if (av::rej_uniform_avx2(tmp.data(), 0, s.data(), 504) < 256) ++needed_more;
  }
  RecordProperty("inputs_needing_a_fourth_block", needed_more);
}

TEST_F(Avx2Kernel, SampleNttX4SqueezesMoreBlocksWhenNeeded) {
  // Find seeds whose first three blocks give fewer than 256 coefficients, deterministically.
  int found = 0;
  for (int t = 0; t < 20000 && found < 5; ++t) {
    std::array<std::uint8_t, 32> rho{};
    for (int i = 0; i < 4; ++i) rho[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(t >> (8 * i));
    std::array<std::uint8_t, 504 + 8> s{};  // + 8: rej_uniform's read overrun
    const std::uint8_t idx[2] = {0, 0};
    hash::shake128(std::span<std::uint8_t>(s.data(), 504), {rho, idx});
    Arr tmp{};
    if (av::rej_uniform_avx2(tmp.data(), 0, s.data(), 504) == 256) continue;
    ++found;
    const std::uint8_t xy[4][2] = {{0, 0}, {1, 0}, {0, 1}, {0, 0}};
    Avx2NttPoly out[4];
    Avx2NttPoly* const o[4] = {&out[0], &out[1], &out[2], &out[3]};
    Avx2Backend::sample_ntt_x4(o, rho, xy, 4);
    for (int j = 0; j < 4; ++j) ASSERT_EQ(transposed(out[j].c), sample_ntt_ref(rho, xy[j][0], xy[j][1]).c);
  }
  EXPECT_EQ(found, 5);
}

TEST_F(Avx2Kernel, SampleNoiseX4MatchesPortable) {
  for (int t = 0; t < 100; ++t) {
    const auto seed_v = random_bytes(32);
    const auto seed = std::span<const std::uint8_t, 32>(seed_v.data(), 32);
    const int n = 1 + t % 4;
    std::uint8_t nonce[4];
    for (auto& x : nonce) x = static_cast<std::uint8_t>(rng());
    for (const int eta : {2, 3}) {
      Poly out[4];
      Poly* const o[4] = {&out[0], &out[1], &out[2], &out[3]};
      if (eta == 2)
        Avx2Backend::sample_noise_x4<2>(o, seed, nonce, n);
      else
        Avx2Backend::sample_noise_x4<3>(o, seed, nonce, n);
      for (int j = 0; j < n; ++j) {
        const Poly want = eta == 2 ? sample_noise_ref<2>(seed, nonce[j]) : sample_noise_ref<3>(seed, nonce[j]);
        ASSERT_EQ(out[j].c, want.c) << "eta " << eta << " lane " << j;
      }
    }
  }
}

// The ML-KEM batch (hashes, matrix entries, noise of both etas, in any mix) under a SIMD backend and the portable one.
template <class B>
void check_xof_batch(std::mt19937_64& rng) {
  const auto random_bytes = [&](std::size_t n) {
    std::vector<std::uint8_t> v(n);
    for (auto& x : v) x = static_cast<std::uint8_t>(rng());
    return v;
  };
  for (int t = 0; t < 200; ++t) {
    const auto rho = random_bytes(32), sigma = random_bytes(32), ek = random_bytes(32 + rng() % 1600);
    const auto z = random_bytes(32), c = random_bytes(rng() % 1600);
    XofBatch<NttPoly> ref;
    XofBatch<typename B::NttPoly> avx;
    std::array<std::uint8_t, 32> h_ref[2], h_avx[2];
    const int n_hash = static_cast<int>(rng() % 3);
    for (int i = 0; i < n_hash; ++i) {
      const bool shake = i == 1;
      ref.add_hash(shake, h_ref[i], shake ? ByteView(z) : ByteView(ek), shake ? ByteView(c) : ByteView());
      avx.add_hash(shake, h_avx[i], shake ? ByteView(z) : ByteView(ek), shake ? ByteView(c) : ByteView());
    }
    std::array<std::array<NttPoly, 4>, 4> m_ref;
    std::array<std::array<typename B::NttPoly, 4>, 4> m_avx;
    const bool with_matrix = rng() % 4 != 0;
    if (with_matrix) {
      const bool transposed_order = rng() % 2 == 0;
      ref.add_matrix<4>(m_ref, std::span<const std::uint8_t, 32>(rho.data(), 32), transposed_order);
      avx.template add_matrix<4>(m_avx, std::span<const std::uint8_t, 32>(rho.data(), 32), transposed_order);
      const int keep = 1 + static_cast<int>(rng() % 16);  // any count of entries
      ref.n_matrix = avx.n_matrix = keep;
    }
    std::array<Poly, 9> p_ref, p_avx;
    const int n1 = static_cast<int>(rng() % 5), n2 = static_cast<int>(rng() % 5);
    const int eta1 = 2 + static_cast<int>(rng() % 2);
    const int first = static_cast<int>(rng() % 200);
    const auto seed = std::span<const std::uint8_t, 32>(sigma.data(), 32);
    ref.add_noise(p_ref.data(), n1, eta1, seed, first);
    avx.add_noise(p_avx.data(), n1, eta1, seed, first);
    ref.add_noise(p_ref.data() + n1, n2, 2, seed, first + n1);
    avx.add_noise(p_avx.data() + n1, n2, 2, seed, first + n1);
    RefBackend::run_xof_batch(ref);
    B::run_xof_batch(avx);
    for (int i = 0; i < n_hash; ++i) ASSERT_EQ(h_avx[i], h_ref[i]) << "batch " << t << " hash " << i;
    for (int i = 0; i < ref.n_matrix; ++i)  // entry i is row i / 4, column i % 4
      ASSERT_EQ(B::to_fips203_order(m_avx[i / 4][i % 4]).c, m_ref[i / 4][i % 4].c) << "batch " << t << " entry " << i;
    for (int i = 0; i < n1 + n2; ++i) ASSERT_EQ(p_avx[i].c, p_ref[i].c) << "batch " << t << " noise " << i;
  }
}

TEST_F(Avx2Kernel, XofBatchMatchesThePortableBackend) { check_xof_batch<Avx2Backend>(rng); }

#if PQKEM_HAVE_AVX512
TEST_F(Avx512Kernel, XofBatchMatchesThePortableBackend) { check_xof_batch<Avx512Backend>(rng); }

// SampleNTT's loop body (FIPS 203, Algorithm 7) on every length that is a multiple of 3 up to
// three blocks, from any count already accepted, on random bytes and on bytes that accept every
// candidate or none. The buffer is exactly len bytes: the sampler promises masked loads only, and
// the sanitizer build catches a read past it.
TEST_F(Avx512Kernel, RejectionSamplingMatchesTheSpecification) {
  for (int t = 0; t < 3000; ++t) {
    const std::size_t len = 3 * static_cast<std::size_t>(rng() % (3 * 56 + 1));
    std::vector<std::uint8_t> buf(len);
    const int fill = static_cast<int>(rng() % 8);  // 0: all accepted, 1: none, else random
    for (auto& x : buf) x = fill == 0 ? 0 : fill == 1 ? 0xFF : static_cast<std::uint8_t>(rng());
    const unsigned ctr0 = rng() % 4 == 0 ? 256 - static_cast<unsigned>(rng() % 40) : static_cast<unsigned>(rng() % 257);
    std::array<std::int16_t, 256> want{}, got{};
    for (std::size_t i = 0; i < ctr0; ++i) want[i] = got[i] = static_cast<std::int16_t>(i);
    unsigned ctr = ctr0;
    for (std::size_t pos = 0; pos + 3 <= len && ctr < 256; pos += 3) {
      const int d1 = buf[pos] | ((buf[pos + 1] & 0x0f) << 8);
      const int d2 = (buf[pos + 1] >> 4) | (buf[pos + 2] << 4);
      if (d1 < kQ) want[ctr++] = static_cast<std::int16_t>(d1);
      if (d2 < kQ && ctr < 256) want[ctr++] = static_cast<std::int16_t>(d2);
    }
    const unsigned n = simd::avx512::rej_uniform_avx512(got.data(), ctr0, buf.data(), len);
    ASSERT_EQ(n, ctr) << "trial " << t << " len " << len << " from " << ctr0;
    ASSERT_EQ(got, want) << "trial " << t << " len " << len << " from " << ctr0;
  }
}
#endif  // PQKEM_HAVE_AVX512
#endif  // PQKEM_HAVE_AVX2

}  // namespace
}  // namespace pqkem::mlkem
