#include "hash.hpp"

#include <bit>
#include <cstring>

#include "keccak_f1600.hpp"

namespace pqkem::hash {
namespace {

constexpr std::size_t kRate256 = 136, kRate512 = 72, kRateShake128 = 168, kRateShake256 = 136;
constexpr std::uint8_t kDsSha3 = 0x06, kDsShake = 0x1F;

// FIPS 202 maps bytes to lanes little-endian; written with shifts so it holds on any host
// (gcc turns each into one load or store on x86-64).
std::uint64_t load_le64(const std::uint8_t* p) noexcept {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}
void store_le64(std::uint8_t* p, std::uint64_t v) noexcept {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// FIPS 180-4, section 4.2.2: the first 32 bits of the fractional parts of the cube roots of
// the first 64 primes, floor(cbrt(p) * 2^32) mod 2^32.
constexpr std::uint32_t kSha256K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};
// Section 5.3.3: the same for the square roots of the first 8 primes, floor(sqrt(p) * 2^32) mod 2^32.
constexpr std::uint32_t kSha256H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// FIPS 180-4 reads words big-endian (section 3.1); written with shifts so it holds on any host.
std::uint32_t load_be32(const std::uint8_t* p) noexcept {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | static_cast<std::uint32_t>(p[3]);
}
void store_be32(std::uint8_t* p, std::uint32_t v) noexcept {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

/// Everything SHA-256 keeps between blocks, and the message schedule, in one place to wipe.
struct Sha256State {
  std::uint32_t h[8];       // H^(i), the hash value so far
  std::uint32_t w[64];      // the message schedule of the current block
  std::uint8_t block[64];   // the block being filled
  std::size_t pos = 0;      // bytes in `block`
  std::uint64_t bytes = 0;  // message length so far (FIPS 180-4 caps it below 2^64 bits)
};

/// FIPS 180-4, section 6.2.2: one 64-byte block into s.h. The rounds use only additions,
/// rotations and bitwise functions, and index K by the round number: no branch or memory
/// access depends on the data.
void sha256_block(Sha256State& s, const std::uint8_t* block) noexcept {
  std::uint32_t* w = s.w;
  for (int t = 0; t < 16; ++t) w[t] = load_be32(block + 4 * t);
  for (int t = 16; t < 64; ++t) {
    const std::uint32_t sigma0 = std::rotr(w[t - 15], 7) ^ std::rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t sigma1 = std::rotr(w[t - 2], 17) ^ std::rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = sigma1 + w[t - 7] + sigma0 + w[t - 16];
  }
  std::uint32_t a = s.h[0], b = s.h[1], c = s.h[2], d = s.h[3], e = s.h[4], f = s.h[5], g = s.h[6], h = s.h[7];
  for (int t = 0; t < 64; ++t) {
    const std::uint32_t big_sigma1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
    const std::uint32_t ch = (e & f) ^ (~e & g);
    const std::uint32_t t1 = h + big_sigma1 + ch + kSha256K[t] + w[t];
    const std::uint32_t big_sigma0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
    const std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    const std::uint32_t t2 = big_sigma0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  s.h[0] += a;
  s.h[1] += b;
  s.h[2] += c;
  s.h[3] += d;
  s.h[4] += e;
  s.h[5] += f;
  s.h[6] += g;
  s.h[7] += h;
}

void sha256_absorb(Sha256State& s, ByteView in) noexcept {
  const std::uint8_t* p = in.data();
  std::size_t len = in.size();
  s.bytes += len;
  while (len > 0) {
    const std::size_t n = len < 64 - s.pos ? len : 64 - s.pos;
    std::memcpy(s.block + s.pos, p, n);
    p += n;
    len -= n;
    s.pos += n;
    if (s.pos == 64) {
      sha256_block(s, s.block);
      s.pos = 0;
    }
  }
}

void one_shot(std::size_t rate, std::uint8_t ds, std::span<std::uint8_t> out,
              std::initializer_list<ByteView> in) noexcept {
  Sponge sponge(rate, ds);
  for (ByteView piece : in) sponge.absorb(piece);
  sponge.squeeze(out);
}

}  // namespace

// gcc 12 -O3 schedules the permutation best with the loop of 12 double rounds unrolled and
// without SLP vectorization, which packs lane pairs into SSE registers and back: 650 instead of
// 775 rdtsc ticks per permutation here, on par with OpenSSL's assembly (640). clang has no
// per-function optimize attribute.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-slp-vectorize", "unroll-loops")))
#endif
void keccak_f1600(std::uint64_t state[25]) noexcept {
  keccak::permute<keccak::U64Lane>(state);  // in place: no copy of the state to wipe
}

// Compiled as keccak_f1600 is (above), for the same reason.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-slp-vectorize", "unroll-loops")))
#endif
void keccak_p1600_12(std::uint64_t state[25]) noexcept {
  keccak::permute<keccak::U64Lane, 12>(state);
}

namespace {
template <int Rounds>
void permute_state(std::uint64_t state[25]) noexcept {
  if constexpr (Rounds == 24)
    keccak_f1600(state);
  else
    keccak_p1600_12(state);
}
}  // namespace

template <int Rounds>
void KeccakSponge<Rounds>::absorb(ByteView in) noexcept {
  const std::uint8_t* p = in.data();
  std::size_t len = in.size();
  while (len > 0) {
    std::size_t n = len < m_rate - m_pos ? len : m_rate - m_pos;
    len -= n;
    for (; n > 0 && m_pos % 8 != 0; --n, ++p, ++m_pos)  // up to a lane boundary
      m_state[m_pos / 8] ^= static_cast<std::uint64_t>(*p) << (8 * (m_pos % 8));
    for (; n >= 8; n -= 8, p += 8, m_pos += 8) m_state[m_pos / 8] ^= load_le64(p);  // whole lanes
    for (; n > 0; --n, ++p, ++m_pos) m_state[m_pos / 8] ^= static_cast<std::uint64_t>(*p) << (8 * (m_pos % 8));
    if (m_pos == m_rate) {
      permute_state<Rounds>(m_state);
      m_pos = 0;
    }
  }
}

template <int Rounds>
void KeccakSponge<Rounds>::store_state(std::uint64_t out[25]) const noexcept {
  std::memcpy(out, m_state, sizeof m_state);
}

template <int Rounds>
void KeccakSponge<Rounds>::load_state(const std::uint64_t in[25]) noexcept {
  std::memcpy(m_state, in, sizeof m_state);
}

template <int Rounds>
void KeccakSponge<Rounds>::squeeze(std::span<std::uint8_t> out) noexcept {
  if (!m_squeezing) {  // pad10*1 after the domain bits, then the first block is ready
    m_state[m_pos / 8] ^= static_cast<std::uint64_t>(m_ds) << (8 * (m_pos % 8));
    m_state[(m_rate - 1) / 8] ^= std::uint64_t{0x80} << (8 * ((m_rate - 1) % 8));
    permute_state<Rounds>(m_state);
    m_pos = 0;
    m_squeezing = true;
  }
  std::uint8_t* p = out.data();
  std::size_t len = out.size();
  while (len > 0) {
    if (m_pos == m_rate) {
      permute_state<Rounds>(m_state);
      m_pos = 0;
    }
    std::size_t n = len < m_rate - m_pos ? len : m_rate - m_pos;
    len -= n;
    for (; n > 0 && m_pos % 8 != 0; --n, ++p, ++m_pos)
      *p = static_cast<std::uint8_t>(m_state[m_pos / 8] >> (8 * (m_pos % 8)));
    for (; n >= 8; n -= 8, p += 8, m_pos += 8) store_le64(p, m_state[m_pos / 8]);
    for (; n > 0; --n, ++p, ++m_pos) *p = static_cast<std::uint8_t>(m_state[m_pos / 8] >> (8 * (m_pos % 8)));
  }
}

template class KeccakSponge<24>;
template class KeccakSponge<12>;

void sha3_256(std::span<std::uint8_t, 32> out, std::initializer_list<ByteView> in) noexcept {
  one_shot(kRate256, kDsSha3, out, in);
}
void sha3_512(std::span<std::uint8_t, 64> out, std::initializer_list<ByteView> in) noexcept {
  one_shot(kRate512, kDsSha3, out, in);
}
void shake128(std::span<std::uint8_t> out, std::initializer_list<ByteView> in) noexcept {
  one_shot(kRateShake128, kDsShake, out, in);
}
void shake256(std::span<std::uint8_t> out, std::initializer_list<ByteView> in) noexcept {
  one_shot(kRateShake256, kDsShake, out, in);
}
void turboshake128(std::span<std::uint8_t> out, std::initializer_list<ByteView> in, std::uint8_t d) noexcept {
  TurboShake xof(XofKind::shake128, d);
  for (ByteView piece : in) xof.absorb(piece);
  xof.squeeze(out);
}
void turboshake256(std::span<std::uint8_t> out, std::initializer_list<ByteView> in, std::uint8_t d) noexcept {
  TurboShake xof(XofKind::shake256, d);
  for (ByteView piece : in) xof.absorb(piece);
  xof.squeeze(out);
}

void keccak_jobs_ref(const KeccakJob* jobs, int n) noexcept {
  for (int i = 0; i < n; ++i) {
    const KeccakJob& job = jobs[i];
    Sponge sponge(job.rate, job.ds);  // wiped by its destructor
    if (job.state != nullptr) sponge.load_state(job.state);
    sponge.absorb({job.in[0], job.inlen[0]});
    sponge.absorb({job.in[1], job.inlen[1]});
    if (job.keep_state) {
      sponge.store_state(job.state);
      continue;
    }
    if (job.consume == nullptr) {
      sponge.squeeze({job.out, job.outlen});
      continue;
    }
    std::uint8_t block[kRateShake128 + 8] = {};  // the widest rate, readable 8 bytes past it
    do {
      sponge.squeeze({block, job.rate});
    } while (job.consume(job.ctx, block));
    secure_wipe(block, sizeof block);
  }
}

void sha256(std::span<std::uint8_t, 32> out, std::initializer_list<ByteView> in) noexcept {
  Sha256State s;
  std::memcpy(s.h, kSha256H0, sizeof s.h);
  for (ByteView piece : in) sha256_absorb(s, piece);
  // Section 5.1.1: a 1 bit, zeros up to 56 bytes mod 64, then the length in bits, big-endian.
  // The branch depends on the length only.
  const std::uint64_t bits = s.bytes * 8;
  s.block[s.pos++] = 0x80;
  if (s.pos > 56) {
    std::memset(s.block + s.pos, 0, 64 - s.pos);
    sha256_block(s, s.block);
    s.pos = 0;
  }
  std::memset(s.block + s.pos, 0, 56 - s.pos);
  store_be32(s.block + 56, static_cast<std::uint32_t>(bits >> 32));
  store_be32(s.block + 60, static_cast<std::uint32_t>(bits));
  sha256_block(s, s.block);
  for (int i = 0; i < 8; ++i) store_be32(out.data() + 4 * i, s.h[i]);
  secure_wipe(&s, sizeof s);  // the block and schedule hold input bytes, which may be secret
}

}  // namespace pqkem::hash
