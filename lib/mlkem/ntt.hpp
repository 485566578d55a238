// FIPS 203 Algorithms 9, 10, 11, 12: NTT, NTT^-1 and multiplication in T_q.
//
// Merge plans. Both transforms run as a sequence of passes; each pass does 1, 2 or 3
// consecutive layers on groups of 2, 4 or 8 coefficients held in registers, loading and
// storing each coefficient once per pass (vectorized over offsets, or across blocks for the
// deep layers; see ntt.cpp). A plan is a split of the 7 layers into such passes,
// named by its digits ("1111111", "3211", "331"); there are 44. Every plan performs exactly
// the same butterflies with the same reductions (which are fixed per *layer*, not per pass),
// so every plan is bit-for-bit identical to the layer-by-layer one; only the memory traffic
// and the instruction schedule differ. The inverse runs the plan's passes mirrored.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "mlkem/poly.hpp"

namespace pqkem::mlkem {

/// zeta^BitRev7(i) * R mod q (centered), zeta = 17, for i = 0..127 (FIPS 203, Appendix A,
/// in Montgomery form). Entry 0 is unused by the transforms.
extern const std::array<std::int16_t, 128> kZetas;

/// A merge plan, usable at run time.
struct NttPlanEntry {
  std::string_view name;  ///< the pass widths as digits, first pass first: "3211"
  /// Forward NTT, layers 1..7, no reduction. In: |a_i| < q. Out: |a_i| <= 16180 < 5q; after
  /// layers 1..7 the bounds are 5030, 6810, 8539, 10401, 12296, 14164, 16180 (each layer adds
  /// less than 0.61q). Every bound in this file is proven for every plan and every input of the
  /// contract by tests/proof (label proof; docs/security.md).
  void (*forward)(std::int16_t* a) noexcept;
  /// Inverse NTT, layers 7..1, including the final scaling by R^2/128 (so it returns
  /// f * R for input NTT(f), cancelling the R^-1 of multiply_ntts_acc_ref).
  /// In: |a_i| < q. Out: |a_i| <= 1747 < q. Sums are Barrett-reduced at layers 5 and 2 only:
  /// bounds after layers 7, 6, 5(red.), 4, 3, 2(red.), 1 are 6656, 13312, 2315, 4257, 8289,
  /// 2036, 3788 (< 2q, 4q, q, 2q, 3q, q, 2q), and every difference (< 8q) is multiplied by a
  /// zeta (< q after). The scaling is done by the
  /// last pass (the one holding layer 1) on the values in registers.
  void (*inverse)(std::int16_t* a) noexcept;
};

/// All 44 plans, in lexicographic order of their names.
std::span<const NttPlanEntry> all_ntt_plans() noexcept;
/// The plan with this name, or nullptr.
const NttPlanEntry* find_ntt_plan(std::string_view name) noexcept;

/// The plans of a transform: one for each direction. The portable backend (mlkem/backend.hpp)
/// reads current_ntt_plan() at each transform; the SIMD backends have one fixed schedule.
struct NttPlanChoice {
  const NttPlanEntry* forward;
  const NttPlanEntry* inverse;
  /// "3211" when both directions use 3211, else "FORWARD/INVERSE" ("11212/22111").
  [[nodiscard]] std::string name() const;
};

/// The default for x86-64 GCC: among the fastest plans of both directions measured with `pqkem
/// bench --ntt-plans` (docs/performance.md, "NTT merge plans"). Other targets set theirs here.
inline constexpr std::string_view kDefaultNttPlan = "11212";

/// "3211" (both directions) or "11212/22111" (forward/inverse); nullopt if a name is unknown.
std::optional<NttPlanChoice> parse_ntt_plan(std::string_view spec) noexcept;

/// The plans in use (process-wide): set_ntt_plan's choice, else kDefaultNttPlan. The library
/// reads no environment: the tool parses --ntt-plan / PQKEM_NTT_PLAN and calls set_ntt_plan.
NttPlanChoice current_ntt_plan() noexcept;
/// Selects the plans for the whole process (entries of all_ntt_plans(), as parse_ntt_plan and
/// find_ntt_plan return them). Not meant to race with running operations.
void set_ntt_plan(NttPlanChoice choice) noexcept;
/// Selects `plan` for both directions.
void set_ntt_plan(const NttPlanEntry& plan) noexcept;

/// NTT (Algorithm 9) with plan.forward, followed by Barrett reduction.
/// In: |f_i| < q. Out: |f^_i| <= (q-1)/2.
NttPoly ntt_ref(const Poly& f, NttPlanChoice plan) noexcept;

/// NTT^-1 (Algorithm 10), times R (the Montgomery factor that multiply_ntts_acc_ref leaves
/// behind): returns f when the input is the product computed by multiply_ntts_acc_ref.
/// Runs plan.inverse. In: |f^_i| < q. Out: |f_i| < q.
Poly inverse_ntt_ref(const NttPoly& f, NttPlanChoice plan) noexcept;

/// MultiplyNTTs (Algorithm 11) accumulated: r += a * b * R^-1 in T_q.
/// In: |a_i|, |b_i| < q. Each call adds at most 3666 (< 1.1q) in absolute value to every r_i,
/// so the callers' up to 4 calls (k <= 4) starting from r = 0 stay below 4.5q, and up to 8
/// would stay inside int16.
void multiply_ntts_acc_ref(NttPoly& r, const NttPoly& a, const NttPoly& b) noexcept;

}  // namespace pqkem::mlkem
