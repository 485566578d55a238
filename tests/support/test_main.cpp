// The main of every GoogleTest program of the suite: GoogleTest's own, after applying
// PQKEM_IMPL and PQKEM_NTT_PLAN from the environment as the tool does with them. The library
// reads no environment; ctest sets these variables to run one test program on each backend and
// NTT plan (tests/vectors, tests/ntru), and those runs must test what they say.
//
// A value that does not parse stops the program (exit 2): a typo in a test registration must
// not quietly test the default twice. An implementation this machine cannot run leaves the
// automatic choice in place, and the ImplSelection / NtruImpl tests of those runs skip, saying
// why (no AVX-512 here, say).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "mlkem/ntt.hpp"
#include "simd/dispatch.hpp"

namespace {

/// The variable's value, or empty when it is unset (or set to nothing).
std::string_view env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string_view(v) : std::string_view();
}

bool apply_environment() {
  namespace simd = pqkem::simd;
  if (const std::string_view v = env("PQKEM_IMPL"); !v.empty() && !simd::is_auto_impl(v)) {
    const auto impl = simd::parse_impl(v);
    if (!impl) {
      std::fprintf(stderr, "PQKEM_IMPL must be auto, portable, avx2 or avx512, not '%.*s'\n",
                   static_cast<int>(v.size()), v.data());
      return false;
    }
    if (simd::impl_usable(*impl)) simd::set_impl(*impl);
  }
  if (const std::string_view v = env("PQKEM_NTT_PLAN"); !v.empty()) {
    const auto plan = pqkem::mlkem::parse_ntt_plan(v);
    if (!plan) {
      std::fprintf(stderr, "PQKEM_NTT_PLAN: unknown NTT plan '%.*s'\n", static_cast<int>(v.size()), v.data());
      return false;
    }
    pqkem::mlkem::set_ntt_plan(*plan);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (!apply_environment()) return 2;
  return RUN_ALL_TESTS();
}
