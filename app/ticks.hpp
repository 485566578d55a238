// pqkem: the fenced time stamp counter that `pqkem bench` and the dudect-style timing test
// (tests/ct/dudect_test.cpp) both read.
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace pqkem::timing {

/// rdtsc between lfences on both sides: the first lfence waits for earlier instructions (the
/// input copy) to finish, the second keeps later ones from starting before the counter is read.
/// Not rdtscp: some VMs lack it. The TSC runs at a fixed reference rate, so a "tick" is not a
/// core cycle. Elsewhere than x86, the steady clock.
inline std::uint64_t ticks() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  _mm_lfence();
  const std::uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
#else
  return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

}  // namespace pqkem::timing
