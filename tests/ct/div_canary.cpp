// Test-only: a translation unit that divides by a run-time value, so the division check
// (check_no_div.sh) can show that it finds one (ct.no_division.selftest).
#include <cstdint>

std::uint32_t pqkem_ct_div_canary(std::uint32_t a, std::uint32_t b) { return a / b + a % (b | 1u); }
