// NTRU samplers: iid, iid plus, fixed type (see sample.hpp).
#include "ntru/sample.hpp"

#include <algorithm>
#include <array>

#include "ct.hpp"
#include "ntru/sort.hpp"

namespace pqkem::ntru {

namespace {
constexpr bool byte_div3_is_exact() {
  for (std::uint32_t x = 0; x < 256; ++x)
    if (((x * 171) >> 9) != x / 3) return false;
  return true;
}
static_assert(byte_div3_is_exact());
}  // namespace

template <class P>
void sample_iid(Poly<P>& r, std::span<const std::uint8_t, P::sample_iid_bytes> u) noexcept {
  // Pr[0] = 86/256, Pr[1] = Pr[2] = 85/256. For a byte x, floor(x / 3) = (x * 171) >> 9 (checked
  // above for all 256 values): a 16-bit product, so the loop vectorizes.
  for (std::size_t i = 0; i + 1 < P::n; ++i) {
    const std::uint16_t x = u[i];
    r.c[i] = static_cast<std::uint16_t>(x - 3 * static_cast<std::uint16_t>(static_cast<std::uint16_t>(x * 171) >> 9));
  }
  r.c[P::n - 1] = 0;
}

template <class P>
void sample_iid_plus(Poly<P>& r, std::span<const std::uint8_t, P::sample_iid_bytes> u) noexcept {
  sample_iid<P>(r, u);
  // Centered values v_i in {-1, 0, 1} (as int32); s = sum v_i v_{i+1}, |s| < n.
  // (16-bit lanes: the products and their sum stay within |s| < n < 2^15, so the loops vectorize.)
  std::array<std::int16_t, P::n> v{};
  for (std::size_t i = 0; i < P::n; ++i) {
    const std::int16_t c = static_cast<std::int16_t>(r.c[i]);
    v[i] = static_cast<std::int16_t>(c - 3 * (c >> 1));  // 0 -> 0, 1 -> 1, 2 -> -1
  }
  std::int16_t s16 = 0;
  for (std::size_t i = 0; i + 1 < P::n; ++i) s16 = static_cast<std::int16_t>(s16 + v[i] * v[i + 1]);
  const std::int32_t s = s16;
  // neg = all ones iff s < 0; negate v_i for even i then (v -> (v ^ neg) - neg).
  const std::int32_t neg = ct::value_barrier(static_cast<std::int32_t>(static_cast<std::uint32_t>(s) >> 31)) * -1;
  const auto neg16 = static_cast<std::int16_t>(neg);
  for (std::size_t i = 0; i < P::n; i += 2) v[i] = static_cast<std::int16_t>((v[i] ^ neg16) - neg16);
  for (std::size_t i = 0; i < P::n; ++i) r.c[i] = static_cast<std::uint16_t>(v[i] + (3 & (v[i] >> 15)));  // -1 -> 2
  secure_wipe(v.data(), sizeof v);
}

template <class P>
void sample_fixed_type_ref(Poly<P>& r, const std::uint8_t* u) noexcept {
  constexpr std::size_t m = P::n - 1;
  static_assert(P::sample_ft_bytes * 8 >= 30 * m);
  std::array<std::int32_t, m> s{};
  std::uint64_t acc = 0;  // < 8 + 30 pending bits
  unsigned bits = 0;
  std::size_t o = 0;
  for (std::size_t i = 0; i < m; ++i) {
    for (; bits < 30; bits += 8) acc |= static_cast<std::uint64_t>(u[o++]) << bits;
    const std::uint32_t w = static_cast<std::uint32_t>(acc & 0x3FFFFFFFu);
    acc >>= 30;
    bits -= 30;
    constexpr std::size_t half = static_cast<std::size_t>(P::weight / 2);
    const std::uint32_t label = i < half ? 1u : i < 2 * half ? 2u : 0u;  // public index test
    s[i] = static_cast<std::int32_t>((w << 2) | label);
  }
  sort_int32_ref(s);
  for (std::size_t i = 0; i < m; ++i) r.c[i] = static_cast<std::uint16_t>(s[i] & 3);
  r.c[P::n - 1] = 0;
  secure_wipe(s.data(), sizeof s);
}

template <class P>
using IidBytes = std::span<const std::uint8_t, P::sample_iid_bytes>;

void expand_coins(std::span<const std::uint8_t, kCoinSeedBytes> seed, std::span<std::uint8_t> out,
                  KeccakJobsFn run) noexcept {
  constexpr std::size_t rate = 136;  // SHAKE256
  static constexpr std::uint8_t kIndex[kCoinStreams] = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::size_t blocks = (out.size() + rate - 1) / rate;
  KeccakJob jobs[kCoinStreams];
  int n = 0;
  std::size_t offset = 0;
  for (std::size_t i = 0; i < kCoinStreams && offset < out.size(); ++i) {
    const std::size_t stream_blocks = blocks / kCoinStreams + (i < blocks % kCoinStreams ? 1 : 0);
    const std::size_t len = std::min(stream_blocks * rate, out.size() - offset);
    jobs[n++] = {rate, 0x1F, {seed.data(), &kIndex[i]}, {seed.size(), 1}, out.data() + offset, len, nullptr, nullptr};
    offset += len;
  }
  if (n > 0) run(jobs, n);
}

#define PQKEM_NTRU_INSTANTIATE_SAMPLE(P)                            \
  template void sample_iid<P>(Poly<P>&, IidBytes<P>) noexcept;      \
  template void sample_iid_plus<P>(Poly<P>&, IidBytes<P>) noexcept; \
  template void sample_fixed_type_ref<P>(Poly<P>&, const std::uint8_t*) noexcept;
PQKEM_NTRU_FOR_EACH_PARAMS(PQKEM_NTRU_INSTANTIATE_SAMPLE)

}  // namespace pqkem::ntru
