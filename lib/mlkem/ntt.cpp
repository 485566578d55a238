#include "mlkem/ntt.hpp"

#include <atomic>
#include <utility>

namespace pqkem::mlkem {
namespace {

constexpr std::array<std::int16_t, 128> kZ = std::to_array(kZetaTable.z);  // constants.hpp
static_assert(kZ[1] == -758 && kZ[127] == 1628, "FIPS 203 Appendix A, in Montgomery form");

/// "Twisted" zetas: zeta * q^-1 mod 2^16. With them a Montgomery product by a constant needs
/// one multiplication less (see mul_zeta).
constexpr std::array<std::int16_t, 128> make_twisted(const std::array<std::int16_t, 128>& z) noexcept {
  std::array<std::int16_t, 128> t{};
  for (int i = 0; i < 128; ++i) t[i] = static_cast<std::int16_t>(z[i] * kQInv);
  return t;
}
constexpr std::array<std::int16_t, 128> kZTwisted = make_twisted(kZ);

constexpr std::int16_t mulhi(std::int16_t a, std::int16_t b) noexcept {
  return static_cast<std::int16_t>((static_cast<std::int32_t>(a) * b) >> 16);
}
constexpr std::int16_t mullo(std::int16_t a, std::int16_t b) noexcept {
  return static_cast<std::int16_t>(static_cast<std::int32_t>(a) * b);
}

/// fqmul(a, zeta) with the twisted constant zt = zeta q^-1 mod 2^16: the low halves of
/// a zeta and t q agree, so (a zeta - t q) >> 16 = hi(a zeta) - hi(t q) exactly. Same result
/// as montgomery_reduce(a * zeta), bit for bit. In: |a zeta| < q 2^15. Out: |r| < q.
constexpr std::int16_t mul_zeta(std::int16_t a, std::int16_t zeta, std::int16_t zt) noexcept {
  return static_cast<std::int16_t>(mulhi(a, zeta) - mulhi(mullo(a, zt), kQ));
}
static_assert(mul_zeta(3000, kZ[5], kZTwisted[5]) == fqmul(3000, kZ[5]));
static_assert(mul_zeta(-26000, kZ[127], kZTwisted[127]) == fqmul(-26000, kZ[127]));

/// 128^-1 * R^2 mod q: the final scaling of NTT^-1, which also multiplies by R.
constexpr std::int16_t kInvNttScale = 1441;
constexpr std::int16_t kInvNttScaleTwisted = static_cast<std::int16_t>(kInvNttScale * kQInv);
static_assert((static_cast<std::int64_t>(kInvNttScale) * 128) % kQ == (std::int64_t{kMontR} * kMontR) % kQ);

/// Fully unrolled group loops keep a group of coefficients in registers. The g++ sanitizer build
/// (PQKEM_SANITIZE) goes without the hint: UBSan's checks in the loop conditions hide the inner
/// loops from GCC's unroller, which then warns "ignoring loop annotation", a warning GCC 12 has
/// no option to silence. Writing the bounds outside the loop headers avoids it, but changes the
/// Release code GCC makes from these loops; the hint changes no result.
#ifdef PQKEM_NO_UNROLL_HINTS
#define PQKEM_UNROLL
#else
#define PQKEM_UNROLL _Pragma("GCC unroll 16")
#endif

/// Inverse layers whose sums are Barrett-reduced (see NttPlanEntry::inverse for the bounds).
constexpr bool reduces_sums(int layer) noexcept { return layer == 5 || layer == 2; }

/// The zetas of one pass, laid out by block: z[w][g][blk] (and its twisted zt) belongs to the
/// g-th butterfly group of the pass's w-th layer in block blk. Consecutive blocks read
/// consecutive entries, so a loop over blocks vectorizes with plain vector loads of zetas.
template <int W, int kBlocks>
struct PassZetas {
  std::int16_t z[W][4][kBlocks];
  std::int16_t zt[W][4][kBlocks];
};

/// zeta_index(w, g, blk) gives the index into kZ for layer w of the pass, group g, block blk.
template <int W, int kBlocks, class F>
constexpr PassZetas<W, kBlocks> make_pass_zetas(F zeta_index) noexcept {
  PassZetas<W, kBlocks> t{};
  for (int w = 0; w < W; ++w)
    for (int g = 0; g < 4; ++g)
      for (int blk = 0; blk < kBlocks; ++blk) {
        const int zi = zeta_index(w, g, blk);
        t.z[w][g][blk] = zi >= 1 && zi < 128 ? kZ[zi] : 0;
        t.zt[w][g][blk] = zi >= 1 && zi < 128 ? kZTwisted[zi] : 0;
      }
  return t;
}

/// FIPS 203 Algorithm 9, one butterfly (Cooley-Tukey): (x, y) <- (x + zeta y, x - zeta y).
/// The product is < q, so each layer grows the bound by q.
inline void ct_butterfly(std::int16_t& x, std::int16_t& y, std::int16_t z, std::int16_t zt) noexcept {
  const std::int16_t t = mul_zeta(y, z, zt);
  y = static_cast<std::int16_t>(x - t);
  x = static_cast<std::int16_t>(x + t);
}

/// FIPS 203 Algorithm 10, one butterfly (Gentleman-Sande) of layer m: (x, y) <- (x + y,
/// zeta (y - x)), the sum Barrett-reduced where reduces_sums(m).
template <int m>
inline void gs_butterfly(std::int16_t& x, std::int16_t& y, std::int16_t z, std::int16_t zt) noexcept {
  const auto diff = static_cast<std::int16_t>(y - x);
  const auto sum = static_cast<std::int16_t>(x + y);
  y = mul_zeta(diff, z, zt);
  x = reduces_sums(m) ? barrett_reduce(sum) : sum;
}

// A pass does layers L .. L+W-1 of the forward NTT (layer m pairs a[j] with a[j + len_m],
// len_m = 128 >> (m-1), zeta index 2^(m-1) + j / (2 len_m)), or the same layers backwards
// for the inverse. It works on blocks of 2 len_top coefficients (len_top: the pass's largest
// len), which these W layers never mix. Two loop shapes, both keeping the data in registers
// between the W layers and both computing the same butterflies:
// - Wide passes (smallest len >= 8): for each block and each offset o < len_bottom, the 2^W
//   coefficients a[b + o + i len_bottom] are loaded once, transformed W times, stored once;
//   the loop over o vectorizes (8 offsets a vector) with one broadcast zeta per group. It is
//   kept rolled ("unroll 1"), or GCC unrolls it and vectorizes across blocks instead.
// - Deep passes (smallest len 4 or 2): the whole block (at most 32 coefficients) is loaded,
//   transformed and stored in order, and the loop over blocks vectorizes (8 blocks a vector,
//   transposed with SSE2 unpack instructions, zetas read from PassZetas). Merging pays off
//   most here: each deep pass pays for one transpose in and one out, whatever its W.
// The same per-layer butterflies and reductions run in every shape and every plan, so all
// plans give the layer-by-layer plan's output bit for bit.
/// The wide loop shape: calls transform(x, blk) on each group x of the 2^W coefficients
/// a[blk 2 len_top + o + i len_bottom], i < 2^W, loaded before and stored after.
template <int W, int kLenTop, class F>
inline void for_each_wide_group(std::int16_t* __restrict a, F transform) noexcept {
  constexpr int kG = 1 << W;
  constexpr int kLenBottom = kLenTop >> (W - 1);
  for (int blk = 0; blk < 128 / kLenTop; ++blk) {
    std::int16_t* p = a + blk * 2 * kLenTop;
    _Pragma("GCC unroll 1") for (int o = 0; o < kLenBottom; ++o) {
      std::int16_t x[kG];
      PQKEM_UNROLL for (int i = 0; i < kG; ++i) x[i] = p[o + i * kLenBottom];
      transform(x, blk);
      PQKEM_UNROLL for (int i = 0; i < kG; ++i) p[o + i * kLenBottom] = x[i];
    }
  }
}

template <int W, int L>
void ntt_pass(std::int16_t* __restrict a) noexcept {
  constexpr int kLenTop = 128 >> (L - 1);
  constexpr int kLenBottom = kLenTop >> (W - 1);
  constexpr int kBlocks = 128 / kLenTop;
  static constexpr PassZetas<W, kBlocks> kPz =
      make_pass_zetas<W, kBlocks>([](int w, int g, int blk) { return (1 << (L + w - 1)) + (blk << w) + g; });
  if constexpr (kLenBottom >= 8) {
    for_each_wide_group<W, kLenTop>(a, [](std::int16_t* x, int blk) {
      constexpr int kG = 1 << W;
      PQKEM_UNROLL for (int w = 0; w < W; ++w) {
        const int h = kG >> (w + 1);
        PQKEM_UNROLL for (int g = 0; g < (1 << w); ++g) PQKEM_UNROLL for (int i = 2 * h * g; i < 2 * h * g + h; ++i)
            ct_butterfly(x[i], x[i + h], kPz.z[w][g][blk], kPz.zt[w][g][blk]);
      }
    });
  } else {
    constexpr int kB = 2 * kLenTop;
    for (int blk = 0; blk < kBlocks; ++blk) {
      std::int16_t x[kB];
      PQKEM_UNROLL for (int j = 0; j < kB; ++j) x[j] = a[blk * kB + j];
      PQKEM_UNROLL for (int w = 0; w < W; ++w) {
        const int len = kLenTop >> w;
        PQKEM_UNROLL for (int g = 0; g < (1 << w); ++g)
            PQKEM_UNROLL for (int j = 2 * len * g; j < 2 * len * g + len; ++j)
                ct_butterfly(x[j], x[j + len], kPz.z[w][g][blk], kPz.zt[w][g][blk]);
      }
      PQKEM_UNROLL for (int j = 0; j < kB; ++j) a[blk * kB + j] = x[j];
    }
  }
}

// Inverse pass over layers L .. L-W+1 (Gentleman-Sande, zeta index 2^m - 1 - j / (2 len_m),
// walking FIPS 203's i from 127 downwards); the same two loop shapes as ntt_pass. Deep passes
// store through a block-transposed buffer: GCC cannot interleave the stores of sums and
// products (different operations) and would store them one lane at a time (pextrw).
template <int W, int L>
void inverse_ntt_pass(std::int16_t* __restrict a) noexcept {
  constexpr int kLenBottom = 128 >> (L - 1);
  constexpr int kLenTop = kLenBottom << (W - 1);
  constexpr int kBlocks = 128 / kLenTop;
  static constexpr PassZetas<W, kBlocks> kPz =
      make_pass_zetas<W, kBlocks>([](int w, int g, int blk) { return (1 << (L - w)) - 1 - (blk << (W - 1 - w)) - g; });
  if constexpr (kLenBottom >= 8) {
    for_each_wide_group<W, kLenTop>(a, [](std::int16_t* x, int blk) {
      constexpr int kG = 1 << W;
      [&]<int... w>(std::integer_sequence<int, w...>) {
        (([&] {
           constexpr int h = 1 << w;
           PQKEM_UNROLL for (int g = 0; g < (kG >> (w + 1)); ++g)
               PQKEM_UNROLL for (int i = 2 * h * g; i < 2 * h * g + h; ++i)
                   gs_butterfly<L - w>(x[i], x[i + h], kPz.z[w][g][blk], kPz.zt[w][g][blk]);
         }()),
         ...);
      }
      (std::make_integer_sequence<int, W>{});
      if constexpr (L - W + 1 == 1)  // the last pass: scale by R^2/128 while in registers
        PQKEM_UNROLL for (int i = 0; i < kG; ++i) x[i] = mul_zeta(x[i], kInvNttScale, kInvNttScaleTwisted);
    });
  } else {
    constexpr int kB = 2 * kLenTop;
    std::int16_t out[kB][kBlocks];
    for (int blk = 0; blk < kBlocks; ++blk) {
      std::int16_t x[kB];
      PQKEM_UNROLL for (int j = 0; j < kB; ++j) x[j] = a[blk * kB + j];
      [&]<int... w>(std::integer_sequence<int, w...>) {
        (([&] {
           constexpr int len = kLenBottom << w;
           PQKEM_UNROLL for (int g = 0; g < kB / (2 * len); ++g)
               PQKEM_UNROLL for (int j = 2 * len * g; j < 2 * len * g + len; ++j)
                   gs_butterfly<L - w>(x[j], x[j + len], kPz.z[w][g][blk], kPz.zt[w][g][blk]);
         }()),
         ...);
      }
      (std::make_integer_sequence<int, W>{});
      PQKEM_UNROLL for (int j = 0; j < kB; ++j) out[j][blk] = x[j];
    }
    for (int blk = 0; blk < kBlocks; ++blk) PQKEM_UNROLL for (int j = 0; j < kB; ++j) a[blk * kB + j] = out[j][blk];
  }
}

/// A merge plan as a type: NttPlan<3, 2, 1, 1> is "3211".
template <int... W>
struct NttPlan {
  static_assert((W + ...) == 7, "a merge plan covers exactly the 7 NTT layers");
  static_assert(((W >= 1 && W <= 3) && ...), "a pass merges 1, 2 or 3 layers");
  static constexpr char kName[] = {static_cast<char>('0' + W)..., '\0'};

  static void forward(std::int16_t* a) noexcept { run_forward<1, W...>(a); }
  static void inverse(std::int16_t* a) noexcept {
    run_inverse<1, W...>(a);  // its last pass (layer 1) also scales by R^2/128
  }

private:
  template <int L, int First, int... Rest>
  static void run_forward(std::int16_t* a) noexcept {
    ntt_pass<First, L>(a);
    if constexpr (sizeof...(Rest) > 0) run_forward<L + First, Rest...>(a);
  }
  // Mirrored: the last pass of the plan runs first, over the deepest layers. The pass that
  // covers forward layers L .. L+First-1 undoes them from L+First-1 down to L.
  template <int L, int First, int... Rest>
  static void run_inverse(std::int16_t* a) noexcept {
    if constexpr (sizeof...(Rest) > 0) run_inverse<L + First, Rest...>(a);
    inverse_ntt_pass<First, L + First - 1>(a);
  }
};

// All compositions of 7 into parts 1..3, depth first with parts in increasing order, which
// lists the names in lexicographic order.
constexpr std::size_t kPlanCount = 44;

template <int... W>
constexpr void collect_plans(std::array<NttPlanEntry, kPlanCount>& out, std::size_t& n) noexcept {
  constexpr int kSum = (0 + ... + W);
  if constexpr (kSum == 7) {
    using P = NttPlan<W...>;
    out[n++] = NttPlanEntry{std::string_view(P::kName), &P::forward, &P::inverse};
  } else {
    if constexpr (kSum + 1 <= 7) collect_plans<W..., 1>(out, n);
    if constexpr (kSum + 2 <= 7) collect_plans<W..., 2>(out, n);
    if constexpr (kSum + 3 <= 7) collect_plans<W..., 3>(out, n);
  }
}

constexpr std::array<NttPlanEntry, kPlanCount> make_plans() noexcept {
  std::array<NttPlanEntry, kPlanCount> plans{};
  std::size_t n = 0;
  collect_plans<>(plans, n);
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
  plan.forward->forward(r.c.data());  // |r_i| < 8q = 26632 < 2^15
  reduce(r);
  return r;
}

Poly inverse_ntt_ref(const NttPoly& f, NttPlanChoice plan) noexcept {
  Poly r{f.c};
  plan.inverse->inverse(r.c.data());
  return r;
}

namespace {

/// gamma_i = zeta^(2 BitRev7(i) + 1) in Montgomery form, i = 0..127: +kZ[64 + i/2] for even i,
/// -kZ[64 + i/2] for odd i; and the twisted constants for mul_zeta.
constexpr std::array<std::int16_t, 128> make_gammas() noexcept {
  std::array<std::int16_t, 128> g{};
  for (int i = 0; i < 128; ++i) g[i] = static_cast<std::int16_t>(i % 2 == 0 ? kZ[64 + i / 2] : -kZ[64 + i / 2]);
  return g;
}
constexpr std::array<std::int16_t, 128> kGamma = make_gammas();
constexpr std::array<std::int16_t, 128> kGammaTwisted = make_twisted(kGamma);

/// montgomery_reduce(a * b) written with 16-bit multiplications only (low and high halves),
/// which vectorizes: the low halves of a b and t q agree, so (a b - t q) >> 16 =
/// hi(a b) - hi(t q) exactly, t = lo(a b) q^-1 mod 2^16. Same result as fqmul, bit for bit.
constexpr std::int16_t fqmul16(std::int16_t a, std::int16_t b) noexcept {
  return static_cast<std::int16_t>(mulhi(a, b) - mulhi(mullo(mullo(a, b), kQInv), kQ));
}
static_assert(fqmul16(1234, -2345) == fqmul(1234, -2345) && fqmul16(-3328, -3328) == fqmul(-3328, -3328));

}  // namespace

// BaseCaseMultiply (Algorithm 12) on each of the 128 degree-1 pairs (c[2i], c[2i+1]), modulo
// X^2 - gamma_i: c0 = a0 b0 + a1 b1 gamma_i, c1 = a0 b1 + a1 b0 (times R^-1). One loop over
// the pairs with a table of gammas, so the compiler vectorizes it.
void multiply_ntts_acc_ref(NttPoly& r, const NttPoly& a, const NttPoly& b) noexcept {
  for (int i = 0; i < 128; ++i) {
    const std::int16_t a0 = a.c[2 * i], a1 = a.c[2 * i + 1], b0 = b.c[2 * i], b1 = b.c[2 * i + 1];
    const auto c0 = static_cast<std::int16_t>(mul_zeta(fqmul16(a1, b1), kGamma[i], kGammaTwisted[i]) + fqmul16(a0, b0));
    const auto c1 = static_cast<std::int16_t>(fqmul16(a0, b1) + fqmul16(a1, b0));
    r.c[2 * i] = static_cast<std::int16_t>(r.c[2 * i] + c0);
    r.c[2 * i + 1] = static_cast<std::int16_t>(r.c[2 * i + 1] + c1);
  }
}

}  // namespace pqkem::mlkem
