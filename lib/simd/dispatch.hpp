// pqkem: which implementation (portable, AVX2 or AVX-512) the operations use.
//
// The choice is made once per process (and may be changed between operations): set_impl()
// wins; otherwise the best usable one (best_impl). The library reads no environment: the tool
// parses --impl / PQKEM_IMPL and calls set_impl. Operations read active_impl() once and run
// that backend's kernels for the whole operation. SIMD code lives only in files compiled with
// its flags (lib/simd/<subject>/*_avx2.cpp with -mavx2, *_avx512.cpp with the AVX-512 flags) and
// is reached only through this choice, so the binary runs on any x86-64 CPU.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "impl.hpp"

namespace pqkem::simd {

using pqkem::Impl;

std::string_view impl_name(Impl impl) noexcept;
/// "portable", "avx2" or "avx512" in any case; nullopt otherwise.
std::optional<Impl> parse_impl(std::string_view name) noexcept;
/// True for "auto" in any case: the CPUID choice.
bool is_auto_impl(std::string_view name) noexcept;

/// Whether this build has kernels for `impl` and this CPU (and OS) can run them.
bool impl_usable(Impl impl) noexcept;
/// Why `impl` is not usable ("this CPU has no AVX2", "this build has no AVX2 kernels"), or "".
std::string_view impl_unusable_reason(Impl impl) noexcept;

/// The automatic choice: AVX-512 where usable on a CPU family it is known faster on (AMD family
/// 1Ah, Zen 5, measured; 19h, Zen 4, by Keccak measurements of the same instructions), else AVX2
/// when usable, else portable.
Impl best_impl() noexcept;
/// The implementation operations use now.
Impl active_impl() noexcept;
/// Selects `impl` for the process. Throws pqkem::Error(Errc::bad_argument) if it is not usable.
void set_impl(Impl impl);
/// Back to the automatic choice (best_impl()).
void set_impl_auto() noexcept;

}  // namespace pqkem::simd
