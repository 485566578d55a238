// pqkem: run-time checks of the backends' contracts (the bounds that mlkem/backend.hpp and
// ntru/backend.hpp state for each kernel). A build configured with PQKEM_CONTRACTS=ON (the
// sanitizer and fuzz builds) runs every operation on Checked<B> (mlkem/checked_backend.hpp,
// ntru/checked_backend.hpp), which checks each kernel's inputs at its entry and its outputs at its exit;
// Release builds leave the option off, and then no check exists in the binary.
//
// The checks branch on coefficient values, some of them secret: they are for tests, never for a
// build that handles real keys, and the constant-time suite builds without them. A violation
// names the kernel and the condition, never a value, and aborts.
#pragma once

#include <cstddef>

#ifndef PQKEM_CONTRACTS
#define PQKEM_CONTRACTS 0
#endif

namespace pqkem::contract {

inline constexpr bool kEnabled = PQKEM_CONTRACTS != 0;

/// Prints "pqkem: contract violated: <kernel>: <condition>" to stderr and aborts.
[[noreturn]] void violated(const char* kernel, const char* condition) noexcept;

inline void expect(bool ok, const char* kernel, const char* condition) noexcept {
  if (!ok) violated(kernel, condition);
}

/// Whether lo <= c[i] <= hi for every i < n.
template <class T>
bool all_between(const T* c, std::size_t n, long lo, long hi) noexcept {
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok &= static_cast<long>(c[i]) >= lo && static_cast<long>(c[i]) <= hi;
  return ok;
}

}  // namespace pqkem::contract
