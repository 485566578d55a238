#include "simd/cpu.hpp"

#include "simd/dispatch.hpp"

#if PQKEM_X86_64
#include <cpuid.h>
#endif

#include <cstdint>
#include <cstring>

namespace pqkem::simd {
namespace {

#if PQKEM_X86_64

std::uint64_t read_xcr0() noexcept {
  std::uint32_t eax = 0, edx = 0;
  // xgetbv with ecx = 0; encoded as bytes so no -mxsave is needed for this file.
  __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<std::uint64_t>(edx) << 32) | eax;
}

CpuFeatures detect() noexcept {
  CpuFeatures f;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0) return f;
  const bool osxsave = (c & bit_OSXSAVE) != 0;
  const bool avx = (c & bit_AVX) != 0;
  f.popcnt = (c & bit_POPCNT) != 0;
  f.pclmul = (c & bit_PCLMUL) != 0;
  f.aesni = (c & bit_AES) != 0;
  bool ymm_enabled = false, zmm_enabled = false;
  if (osxsave) {
    const std::uint64_t xcr0 = read_xcr0();
    ymm_enabled = (xcr0 & 0x6) == 0x6;    // SSE and AVX state
    zmm_enabled = (xcr0 & 0xe6) == 0xe6;  // plus opmask and ZMM state
  }
  if (__get_cpuid_max(0, nullptr) >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    f.avx2 = avx && ymm_enabled && (b & bit_AVX2) != 0;
    f.bmi1 = (b & bit_BMI) != 0;
    f.bmi2 = (b & bit_BMI2) != 0;
    f.avx512f = zmm_enabled && (b & bit_AVX512F) != 0;
    f.avx512vl = f.avx512f && (b & bit_AVX512VL) != 0;
    f.avx512bw = f.avx512f && (b & bit_AVX512BW) != 0;
    f.avx512dq = f.avx512f && (b & bit_AVX512DQ) != 0;
    f.avx512vbmi = f.avx512f && (c & bit_AVX512VBMI) != 0;
    f.avx512vbmi2 = f.avx512f && (c & bit_AVX512VBMI2) != 0;
  }
  if (__get_cpuid(0, &a, &b, &c, &d) != 0 && b == 0x68747541u && c == 0x444d4163u && d == 0x69746e65u) {
    __get_cpuid(1, &a, &b, &c, &d);  // "AuthenticAMD": family = base (bits 8-11) + extended (20-27)
    f.amd_family = ((a >> 8) & 0xf) + ((a >> 20) & 0xff);
  }
  return f;
}
#else
CpuFeatures detect() noexcept { return {}; }  // no x86 features: the portable backend alone
#endif

}  // namespace

const CpuFeatures& cpu_features() noexcept {
  static const CpuFeatures features = detect();
  return features;
}

std::string_view cpu_architecture() noexcept {
#if PQKEM_X86_64
  return "x86-64";
#elif defined(__aarch64__)
  return "aarch64";
#elif defined(__s390x__)
  return "s390x";
#elif defined(__riscv) && __riscv_xlen == 64
  return "riscv64";
#else
  return "unknown";
#endif
}

std::string cpu_brand() {
#if PQKEM_X86_64
  unsigned regs[12] = {};
  // GCC's <cpuid.h> returns the highest leaf as unsigned, clang's as int.
  const unsigned max_leaf = static_cast<unsigned>(__get_cpuid_max(0x80000000u, nullptr));
  if (max_leaf < 0x80000004u) return "unknown";
  for (unsigned i = 0; i < 3; ++i)
    __get_cpuid(0x80000002u + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2], &regs[4 * i + 3]);
  char brand[49] = {};
  std::memcpy(brand, regs, 48);
  std::string s(brand);
  const auto first = s.find_first_not_of(' ');
  const auto last = s.find_last_not_of(' ');
  return first == std::string::npos ? "unknown" : s.substr(first, last - first + 1);
#else
  return std::string(cpu_architecture());  // no portable brand string (and qemu-user shows the host's)
#endif
}

std::vector<std::string_view> usable_implementations() {
  std::vector<std::string_view> out{impl_name(best_impl())};
  for (const Impl impl : {Impl::avx512, Impl::avx2, Impl::portable})
    if (impl != best_impl() && impl_usable(impl)) out.push_back(impl_name(impl));
  return out;
}

}  // namespace pqkem::simd
