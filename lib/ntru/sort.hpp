// Constant-time sorting of int32 arrays (for sample_fixed_type).
#pragma once

#include <cstdint>
#include <span>

namespace pqkem::ntru {

/// Sorts x ascending as signed 32-bit integers with a data-oblivious sorting network
/// (Batcher's merge exchange, Knuth TAOCP vol. 3, 5.2.2 Algorithm M): which pairs are compared
/// depends only on x.size(), and each compare-exchange is branch-free. O(n log^2 n) comparators.
void sort_int32_ref(std::span<std::int32_t> x) noexcept;

}  // namespace pqkem::ntru
