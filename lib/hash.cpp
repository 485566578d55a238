#include "hash.hpp"

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

void one_shot(std::size_t rate, std::uint8_t ds, std::span<std::uint8_t> out,
              std::initializer_list<ByteView> in) noexcept {
  Sponge sponge(rate, ds);
  for (ByteView piece : in) sponge.absorb(piece);
  sponge.squeeze(out);
}

}  // namespace

// gcc 12 -O3 schedules the permutation best with the loop of 12 double rounds unrolled and
// without SLP vectorization, which packs lane pairs into SSE registers and back: 650 instead of
// 775 rdtsc ticks per permutation here, on par with OpenSSL's assembly (640).
__attribute__((optimize("no-tree-slp-vectorize", "unroll-loops")))
void keccak_f1600(std::uint64_t state[25]) noexcept {
  keccak::permute<keccak::U64Lane>(state);  // in place: no copy of the state to wipe
}

void Sponge::absorb(ByteView in) noexcept {
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
      keccak_f1600(m_state);
      m_pos = 0;
    }
  }
}

void Sponge::squeeze(std::span<std::uint8_t> out) noexcept {
  if (!m_squeezing) {  // pad10*1 after the domain bits, then the first block is ready
    m_state[m_pos / 8] ^= static_cast<std::uint64_t>(m_ds) << (8 * (m_pos % 8));
    m_state[(m_rate - 1) / 8] ^= std::uint64_t{0x80} << (8 * ((m_rate - 1) % 8));
    keccak_f1600(m_state);
    m_pos = 0;
    m_squeezing = true;
  }
  std::uint8_t* p = out.data();
  std::size_t len = out.size();
  while (len > 0) {
    if (m_pos == m_rate) {
      keccak_f1600(m_state);
      m_pos = 0;
    }
    std::size_t n = len < m_rate - m_pos ? len : m_rate - m_pos;
    len -= n;
    for (; n > 0 && m_pos % 8 != 0; --n, ++p, ++m_pos) *p = static_cast<std::uint8_t>(m_state[m_pos / 8] >> (8 * (m_pos % 8)));
    for (; n >= 8; n -= 8, p += 8, m_pos += 8) store_le64(p, m_state[m_pos / 8]);
    for (; n > 0; --n, ++p, ++m_pos) *p = static_cast<std::uint8_t>(m_state[m_pos / 8] >> (8 * (m_pos % 8)));
  }
}

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

}  // namespace pqkem::hash
