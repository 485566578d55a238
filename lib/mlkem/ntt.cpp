#include "mlkem/ntt.hpp"

#include <atomic>

#include "mlkem/ntt_code.hpp"

namespace pqkem::mlkem {
namespace {

using namespace ntt_code;  // NOLINT(google-build-using-namespace): the code this file instantiates

constexpr std::size_t kPlanCount = 44;

constexpr std::array<NttPlanEntry, kPlanCount> make_plans() noexcept {
  std::array<NttPlanEntry, kPlanCount> plans{};
  std::size_t n = 0;
  auto add = [&]<class P>() {
    if (n < kPlanCount) plans[n] = NttPlanEntry{std::string_view(P::kName), &P::forward, &P::inverse};
    ++n;
  };
  for_each_ntt_plan(add);
  return n == kPlanCount ? plans : std::array<NttPlanEntry, kPlanCount>{};
}

constexpr std::array<NttPlanEntry, kPlanCount> kPlans = make_plans();
static_assert(kPlans.front().name == "1111111" && kPlans.back().name == "331");

constexpr const NttPlanEntry* find_plan(std::string_view name) noexcept {
  for (const NttPlanEntry& p : kPlans)
    if (p.name == name) return &p;
  return nullptr;
}
static_assert(find_plan(kDefaultNttPlan.substr(0, kDefaultNttPlan.find('/'))) != nullptr &&
                  find_plan(kDefaultNttPlan.substr(kDefaultNttPlan.find('/') + 1)) != nullptr,
              "kDefaultNttPlan must name a plan (or FORWARD/INVERSE plans)");

/// The plans in use, as indices into kPlans: forward in the low 16 bits, inverse in the high
/// 16. One word, so that a reader never sees one direction of one choice and the other of
/// another; set at compile time to kDefaultNttPlan, so the first use has nothing to set up.
constexpr std::uint32_t pack_plans(const NttPlanEntry* forward, const NttPlanEntry* inverse) noexcept {
  const auto index = [](const NttPlanEntry* p) { return static_cast<std::uint32_t>(p - kPlans.data()); };
  return index(forward) | index(inverse) << 16;
}
constexpr std::uint32_t kDefaultPlans = [] {
  const auto slash = kDefaultNttPlan.find('/');
  const std::string_view f = kDefaultNttPlan.substr(0, slash);
  const std::string_view i = slash == std::string_view::npos ? f : kDefaultNttPlan.substr(slash + 1);
  return pack_plans(find_plan(f), find_plan(i));
}();
std::atomic<std::uint32_t> g_plans{kDefaultPlans};

std::optional<NttPlanChoice> parse_choice(std::string_view spec) noexcept {
  const auto slash = spec.find('/');
  const std::string_view f = spec.substr(0, slash);
  const std::string_view i = slash == std::string_view::npos ? f : spec.substr(slash + 1);
  const NttPlanEntry* fp = find_plan(f);
  const NttPlanEntry* ip = find_plan(i);
  if (fp == nullptr || ip == nullptr) return std::nullopt;
  return NttPlanChoice{fp, ip};
}

}  // namespace

const std::array<std::int16_t, 128> kZetas = kZ;

std::span<const NttPlanEntry> all_ntt_plans() noexcept { return kPlans; }
const NttPlanEntry* find_ntt_plan(std::string_view name) noexcept { return find_plan(name); }
std::string NttPlanChoice::name() const {
  if (forward == inverse) return std::string(forward->name);
  return std::string(forward->name) + "/" + std::string(inverse->name);
}

std::optional<NttPlanChoice> parse_ntt_plan(std::string_view spec) noexcept { return parse_choice(spec); }

NttPlanChoice current_ntt_plan() noexcept {
  const std::uint32_t v = g_plans.load(std::memory_order_relaxed);
  return {&kPlans[v & 0xffff], &kPlans[v >> 16]};
}

void set_ntt_plan(NttPlanChoice choice) noexcept {
  g_plans.store(pack_plans(choice.forward, choice.inverse), std::memory_order_relaxed);
}
void set_ntt_plan(const NttPlanEntry& plan) noexcept { set_ntt_plan(NttPlanChoice{&plan, &plan}); }

NttPoly ntt_ref(const Poly& f, NttPlanChoice plan) noexcept {
  NttPoly r{f.c};
  plan.forward->forward(r.c.data());  // |r_i| < 5q
  reduce(r);
  return r;
}

Poly inverse_ntt_ref(const NttPoly& f, NttPlanChoice plan) noexcept {
  Poly r{f.c};
  plan.inverse->inverse(r.c.data());
  return r;
}

void multiply_ntts_acc_ref(NttPoly& r, const NttPoly& a, const NttPoly& b) noexcept {
  multiply_ntts_acc(r, a, b);
}

}  // namespace pqkem::mlkem
