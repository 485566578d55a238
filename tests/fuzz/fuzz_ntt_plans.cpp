// Differential: every NTT merge plan (mlkem::all_ntt_plans(), forward and inverse) against
// the layer-by-layer plan "1111111", on inputs within the stated bounds (|a_i| < q).
// Input: [plan index][coefficients].
#include <array>
#include <cstring>

#include "fuzz_util.hpp"
#include "mlkem/ntt.hpp"
#include "mlkem/params.hpp"

using namespace pqkem;
using namespace pqkem::mlkem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Reader in(data, size);
  const auto plans = all_ntt_plans();
  const NttPlanEntry* ref = find_ntt_plan("1111111");
  fuzz::check(ref != nullptr, "no layer-by-layer plan 1111111");
  const NttPlanEntry& plan = plans[in.byte() % plans.size()];
  std::array<std::int16_t, kN> a;
  for (auto& x : a) x = static_cast<std::int16_t>(static_cast<int>(in.u16() % (2 * kQ - 1)) - (kQ - 1));

  auto f1 = a, f2 = a;
  ref->forward(f1.data());
  plan.forward(f2.data());
  fuzz::check(f1 == f2, "forward NTT plan differs from 1111111");
  auto i1 = a, i2 = a;
  ref->inverse(i1.data());
  plan.inverse(i2.data());
  fuzz::check(i1 == i2, "inverse NTT plan differs from 1111111");
  return 0;
}
