// pqkem: CPU feature detection (CPUID + XGETBV), done once per process.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pqkem::simd {

struct CpuFeatures {
  bool avx2 = false;    ///< AVX2 instructions present *and* YMM state enabled by the OS
  bool bmi1 = false;    ///< andn (the Keccak chi step)
  bool bmi2 = false;
  bool popcnt = false;
  bool pclmul = false;  ///< PCLMULQDQ (carry-less multiplication)
  bool avx512f = false; ///< reported only; pqkem has no AVX-512 code
};

/// Features of the CPU running this process (cached after the first call).
const CpuFeatures& cpu_features() noexcept;

/// The CPU's brand string ("AMD EPYC ..."), or "unknown".
std::string cpu_brand();

/// Names of the implementations usable on this CPU in this build, best first; "portable" is
/// always there, last (see simd/dispatch.hpp).
std::vector<std::string_view> usable_implementations();

}  // namespace pqkem::simd
