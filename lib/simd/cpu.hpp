// pqkem: CPU feature detection (CPUID + XGETBV), done once per process.
#pragma once

#include <string>
#include <string_view>
#include <vector>

// PQKEM_X86_64: 1 when compiling for x86-64, where the CPUID probe, rdtsc and the AVX2 and
// AVX-512 kernels exist; elsewhere the portable backend is the only one.
#if defined(__x86_64__)
#define PQKEM_X86_64 1
#else
#define PQKEM_X86_64 0
#endif

namespace pqkem::simd {

struct CpuFeatures {
  bool avx2 = false;  ///< AVX2 instructions present *and* YMM state enabled by the OS
  bool bmi1 = false;  ///< andn (the Keccak chi step)
  bool bmi2 = false;
  bool popcnt = false;
  bool pclmul = false;  ///< PCLMULQDQ (carry-less multiplication)
  bool aesni = false;   ///< AES-NI (aesenc ...)
  /// AVX-512 foundation, with the opmask and ZMM state enabled by the OS (XCR0 bits 5-7).
  bool avx512f = false;
  bool avx512vl = false;  ///< the AVX-512 instructions on 128/256-bit registers
  bool avx512bw = false;  ///< 8/16-bit lanes
  bool avx512dq = false;
  bool avx512vbmi = false;   ///< vpermb
  bool avx512vbmi2 = false;  ///< vpcompressw (rejection sampling), vpshldv
  /// AMD's family (CPUID 1: base + extended family) on AMD CPUs, else 0: the AVX-512 backend is
  /// chosen automatically only on the families it was measured faster on (simd/dispatch.cpp).
  unsigned amd_family = 0;
};

/// Features of the CPU running this process (cached after the first call).
const CpuFeatures& cpu_features() noexcept;

/// The CPU's brand string ("AMD EPYC ..."), or "unknown"; elsewhere than x86-64 the architecture.
std::string cpu_brand();

/// The architecture this build is for: "x86-64", "aarch64", "s390x", "riscv64" or "unknown".
std::string_view cpu_architecture() noexcept;

/// Names of the implementations usable on this CPU in this build: the automatic choice first
/// (simd::best_impl()), then the others, widest first; "portable" is always there
/// (see simd/dispatch.hpp).
std::vector<std::string_view> usable_implementations();

}  // namespace pqkem::simd
