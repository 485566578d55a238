// Batcher's merge-exchange sorting network over int32 (see sort.hpp).
#include "ntru/sort.hpp"

#include "ct.hpp"

namespace pqkem::ntru {
namespace {

/// (a, b) <- (min, max) without branches: the sign of the 64-bit difference b - a (which
/// cannot overflow) gives an all-ones mask when b < a, and the pair is swapped through it.
inline void compare_exchange(std::int32_t& a, std::int32_t& b) noexcept {
  const std::int64_t diff = static_cast<std::int64_t>(b) - static_cast<std::int64_t>(a);
  const std::uint32_t swap = ct::value_barrier(static_cast<std::uint32_t>(static_cast<std::uint64_t>(diff) >> 63));
  const std::uint32_t mask = 0u - swap;
  const std::uint32_t t = (static_cast<std::uint32_t>(a) ^ static_cast<std::uint32_t>(b)) & mask;
  a = static_cast<std::int32_t>(static_cast<std::uint32_t>(a) ^ t);
  b = static_cast<std::int32_t>(static_cast<std::uint32_t>(b) ^ t);
}

}  // namespace

void sort_int32_ref(std::span<std::int32_t> x) noexcept {
  const std::size_t n = x.size();
  if (n < 2) return;
  std::size_t t = 0;  // t = ceil(log2 n)
  while ((std::size_t{1} << t) < n) ++t;
  // M1..M5: for p = 2^(t-1), ..., 1, merge with partners at distance d, restricted to the
  // indices whose bit p equals r. Branches test indices only.
  for (std::size_t p = std::size_t{1} << (t - 1); p > 0; p >>= 1) {
    std::size_t q = std::size_t{1} << (t - 1), r = 0, d = p;
    for (;;) {
      for (std::size_t i = 0; i + d < n; ++i)
        if ((i & p) == r) compare_exchange(x[i], x[i + d]);
      if (q == p) break;
      d = q - p;
      q >>= 1;
      r = p;
    }
  }
}

}  // namespace pqkem::ntru
