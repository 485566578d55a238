#include "simd/dispatch.hpp"

#include <atomic>
#include <string>

#include "error.hpp"
#include "pqkem.hpp"
#include "simd/cpu.hpp"
#include "util/ascii.hpp"

#ifndef PQKEM_HAVE_AVX2
#define PQKEM_HAVE_AVX2 0  // set by lib/CMakeLists.txt when AVX2 kernels are compiled in
#endif
#ifndef PQKEM_HAVE_AVX512
#define PQKEM_HAVE_AVX512 0  // likewise for the AVX-512 kernels
#endif

namespace pqkem::simd {
namespace {

/// -1: not chosen yet (the first use makes the automatic choice); otherwise an Impl value.
std::atomic<int> g_impl{-1};

}  // namespace

std::string_view impl_name(Impl impl) noexcept {
  switch (impl) {
    case Impl::avx2: return "avx2";
    case Impl::avx512: return "avx512";
    case Impl::portable: break;
  }
  return "portable";
}

std::optional<Impl> parse_impl(std::string_view name) noexcept {
  for (const Impl impl : {Impl::portable, Impl::avx2, Impl::avx512})
    if (util::equal_nocase(name, impl_name(impl))) return impl;
  return std::nullopt;
}

bool is_auto_impl(std::string_view name) noexcept { return util::equal_nocase(name, "auto"); }

std::string_view impl_unusable_reason(Impl impl) noexcept {
  if (impl == Impl::portable) return {};
  if (!PQKEM_X86_64) {
    static const std::string avx2 = "AVX2 is an x86-64 instruction set; this CPU is " +
                                    std::string(cpu_architecture()) + ", where only the portable implementation runs";
    static const std::string avx512 = "AVX-512 is an x86-64 instruction set; this CPU is " +
                                      std::string(cpu_architecture()) + ", where only the portable implementation runs";
    return impl == Impl::avx2 ? avx2 : avx512;
  }
  const CpuFeatures& f = cpu_features();
  if (impl == Impl::avx512) {
    // The AVX-512 backend also runs the AVX2 kernels it has no wider twin for.
    if (!PQKEM_HAVE_AVX512) return "this build has no AVX-512 kernels";
    if (!f.avx512f) return "this CPU (or its operating system) does not support AVX-512";
    if (!f.avx512vl || !f.avx512bw || !f.avx512dq || !f.avx512vbmi || !f.avx512vbmi2)
      return "this CPU lacks AVX512VL, AVX512BW, AVX512DQ, AVX512_VBMI or AVX512_VBMI2, which the AVX-512 kernels use";
    if (const std::string_view why = impl_unusable_reason(Impl::avx2); !why.empty()) return why;
    return {};
  }
  if (!PQKEM_HAVE_AVX2) return "this build has no AVX2 kernels";
  if (!f.avx2) return "this CPU (or its operating system) does not support AVX2";
  if (!f.bmi1 || !f.bmi2 || !f.popcnt || !f.pclmul)
    return "this CPU lacks BMI1, BMI2, POPCNT or PCLMULQDQ, which the AVX2 kernels use";
  return {};
}

bool impl_usable(Impl impl) noexcept { return impl_unusable_reason(impl).empty(); }

Impl best_impl() noexcept {
  // AVX-512 only where it is known faster than AVX2: AMD Zen 5 (family 1Ah, where pqkem's
  // backend was measured) and Zen 4 (19h, where the same Keccak instructions were measured at
  // 0.66x of AVX2; Zen 3, also 19h, has no AVX-512 and fails impl_usable). Intel CPUs lower their
  // clock for AVX-512 work on some generations and were not measured: they keep AVX2 unless asked.
  const unsigned fam = cpu_features().amd_family;
  if ((fam == 0x19 || fam == 0x1a) && impl_usable(Impl::avx512)) return Impl::avx512;
  return impl_usable(Impl::avx2) ? Impl::avx2 : Impl::portable;
}

Impl active_impl() noexcept {
  int v = g_impl.load(std::memory_order_acquire);
  if (v < 0) {
    int expected = -1;
    g_impl.compare_exchange_strong(expected, static_cast<int>(best_impl()), std::memory_order_acq_rel);
    v = g_impl.load(std::memory_order_acquire);
  }
  return static_cast<Impl>(v);
}

void set_impl(Impl impl) {
  if (!impl_usable(impl))
    throw Error(Errc::bad_argument, "implementation '" + std::string(impl_name(impl)) +
                                        "' is not usable: " + std::string(impl_unusable_reason(impl)));
  g_impl.store(static_cast<int>(impl), std::memory_order_release);
}

void set_impl_auto() noexcept { g_impl.store(static_cast<int>(best_impl()), std::memory_order_release); }

}  // namespace pqkem::simd

namespace pqkem {

void set_implementation(std::string_view name) {
  if (simd::is_auto_impl(name)) {
    simd::set_impl_auto();
    return;
  }
  const auto impl = simd::parse_impl(name);
  if (!impl) throw Error(Errc::bad_argument, "implementation must be auto, portable, avx2 or avx512");
  simd::set_impl(*impl);
}

std::string_view implementation() noexcept { return simd::impl_name(simd::active_impl()); }

}  // namespace pqkem
