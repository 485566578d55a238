// pqkem: the internal kernels behind each scheme, packaged for `pqkem bench --kernels`.
// Each entry owns its (seeded, fixed) inputs; run() performs one call of the kernel.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pqkem.hpp"
#include "simd/dispatch.hpp"

namespace pqkem::bench {

/// Keeps the optimizer from deleting a kernel whose result is unused.
template <class T>
void keep(T& value) noexcept {
  __asm__ volatile("" : : "r"(&value) : "memory");
}

struct Kernel {
  std::string name;           ///< e.g. "NTT", "SampleNTT", "poly_Rq_mul"
  std::string impl;           ///< "portable", "avx2"
  std::function<void()> run;  ///< one call, on inputs prepared when the list was made
};

/// The kernels of scheme s for each implementation in `impls` that is usable on this CPU and in
/// this build, and only those: every entry's impl is one of them. Names and labels follow the
/// parameter set (key sizes, k, eta1, du).
std::vector<Kernel> kernels(Scheme s, const std::vector<simd::Impl>& impls);

}  // namespace pqkem::bench
