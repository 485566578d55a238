// pqkem: the internal kernels behind each scheme, packaged for `pqkem bench --kernels`.
// Each entry owns its (seeded, fixed) inputs; run() performs one call of the kernel.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pqkem.hpp"

namespace pqkem::bench {

struct Kernel {
  std::string name;            ///< e.g. "NTT", "SampleNTT", "poly_Rq_mul"
  std::string impl;            ///< "portable" (later "avx2")
  std::function<void()> run;   ///< one call, on inputs prepared when the list was made
};

/// The kernels of scheme s, for every implementation usable on this CPU.
std::vector<Kernel> kernels(Scheme s);

}  // namespace pqkem::bench
