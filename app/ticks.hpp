// pqkem: the fenced time stamp counter that `pqkem bench` and the dudect-style timing test
// (tests/ct/dudect_test.cpp) both read.
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace pqkem::timing {

/// What ticks() counts, named in every table and JSON entry of `pqkem bench` so that no figure
/// is taken for another clock's: on x86, rdtsc "ticks" at the TSC's fixed reference rate (not
/// core cycles); elsewhere nanoseconds of the steady clock, clock_gettime(CLOCK_MONOTONIC).
#if defined(__x86_64__) || defined(__i386__)
inline constexpr bool kTsc = true;
inline constexpr const char* kUnit = "ticks";
inline constexpr const char* kClock = "rdtsc";
#else
inline constexpr bool kTsc = false;
inline constexpr const char* kUnit = "ns";
inline constexpr const char* kClock = "clock_gettime(CLOCK_MONOTONIC)";
#endif

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
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
#endif
}

}  // namespace pqkem::timing
