#include "contract.hpp"

#include <cstdio>
#include <cstdlib>

namespace pqkem::contract {

void violated(const char* kernel, const char* condition) noexcept {
  std::fprintf(stderr, "pqkem: contract violated: %s: %s\n", kernel, condition);
  std::abort();
}

}  // namespace pqkem::contract
