// Stack use of every operation: each one runs in a thread whose stack is painted beforehand and
// scanned afterwards for the deepest byte written. The README promises that threads with a
// 128 KB stack (musl's default) suffice, under every implementation this CPU can run.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/mman.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>

#include "pqkem.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"

namespace pqkem {
namespace {

constexpr std::size_t kThreadStack = 1 << 20;  // room to measure beyond the budget
#if defined(__SANITIZE_ADDRESS__)
// ASan's instrumentation (redzones around every local) enlarges the frames; the budget is that
// of the Release build the README measures, with room for the instrumentation.
constexpr std::size_t kBudget = 512 * 1024;
#else
constexpr std::size_t kBudget = 128 * 1024;
#endif
constexpr unsigned char kPaint = 0xA5;

/// The deepest stack use of fn, run alone in a thread with a painted stack of its own.
std::size_t peak_stack(const std::function<void()>& fn) {
  void* mem = mmap(nullptr, kThreadStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::runtime_error("mmap failed");
  auto* stack = static_cast<unsigned char*>(mem);
  std::memset(stack, kPaint, kThreadStack);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, stack, kThreadStack);
  pthread_t thread;
  const int rc = pthread_create(
      &thread, &attr,
      [](void* p) -> void* {
        (*static_cast<const std::function<void()>*>(p))();
        return nullptr;
      },
      const_cast<std::function<void()>*>(&fn));
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    munmap(mem, kThreadStack);
    throw std::runtime_error("pthread_create failed");
  }
  pthread_join(thread, nullptr);
  std::size_t untouched = 0;  // the stack grows down from stack + kThreadStack
  while (untouched < kThreadStack && stack[untouched] == kPaint) ++untouched;
  munmap(mem, kThreadStack);
  return kThreadStack - untouched;
}

TEST(Stack, EveryOperationFitsA128KbThreadStack) {
  for (const auto name : simd::usable_implementations()) {
    simd::set_impl(*simd::parse_impl(name));
    for (const SchemeInfo& info : all_schemes()) {
      const KeyPair kp = keygen(info.scheme);
      const Encapsulation enc = encaps(info.scheme, kp.pk);
      const std::size_t keygen_peak = peak_stack([&] { (void)keygen(info.scheme); });
      const std::size_t encaps_peak = peak_stack([&] { (void)encaps(info.scheme, kp.pk); });
      const std::size_t decaps_peak = peak_stack([&] { (void)decaps(info.scheme, kp.sk, enc.ct); });
      const std::string what = std::string(info.name) + " under " + std::string(name);
      EXPECT_LE(keygen_peak, kBudget) << what << ": keygen";
      EXPECT_LE(encaps_peak, kBudget) << what << ": encaps";
      EXPECT_LE(decaps_peak, kBudget) << what << ": decaps";
      EXPECT_GT(keygen_peak, 1024u) << what << ": the painted stack was not the one used";
    }
  }
  simd::set_impl_auto();
}

}  // namespace
}  // namespace pqkem
