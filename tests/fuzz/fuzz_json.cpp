// The strict JSON reader (lib/util/json): test vectors and `bench --baseline` files.
// Property: only json::ParseError is thrown (TypeError is for accessors, not parsing).
#include <string_view>

#include "fuzz_util.hpp"
#include "util/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)pqkem::json::parse(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const pqkem::json::ParseError&) {
  }
  return 0;
}
