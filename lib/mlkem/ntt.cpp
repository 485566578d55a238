#include "mlkem/ntt.hpp"

#include <atomic>
#include <cstdlib>

namespace pqkem::mlkem {
namespace {

constexpr int bit_rev7(int i) noexcept {
  int r = 0;
  for (int b = 0; b < 7; ++b) r |= ((i >> b) & 1) << (6 - b);
  return r;
}

constexpr std::array<std::int16_t, 128> make_zetas() noexcept {
  std::array<std::int16_t, 128> z{};
  for (int i = 0; i < 128; ++i) {
    std::int64_t v = 1;
    for (int e = 0; e < bit_rev7(i); ++e) v = v * 17 % kQ;  // zeta^BitRev7(i)
    v = v * kMontR % kQ;                                    // Montgomery form
    if (v > kQ / 2) v -= kQ;                                // centered
    z[i] = static_cast<std::int16_t>(v);
  }
  return z;
}

constexpr std::array<std::int16_t, 128> kZ = make_zetas();
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

/// Fully unrolled group loops keep a group in registers; the loop over offsets is then a
/// plain loop over contiguous coefficients, which the compiler vectorizes.
#define PQKEM_UNROLL _Pragma("GCC unroll 16")

/// Inverse layers whose sums are Barrett-reduced (see NttPlanEntry::inverse for the bounds).
constexpr bool reduces_sums(int layer) noexcept { return layer == 5 || layer == 2; }

// Forward pass over layers L .. L+W-1 (layer m pairs a[j] with a[j + len_m], len_m = 128 >>
// (m-1), with zeta index 2^(m-1) + j / (2 len_m)). For each block of 2 len_L coefficients
// and each offset o < len_{L+W-1}, the 2^W coefficients a[b + o + i len_{L+W-1}] depend only
// on each other for these W layers: they are loaded once, transformed W times, stored once.
// All bounds are compile-time constants, so the group loops unroll and the offset loop
// vectorizes where it is long enough.
template <int W, int L>
void ntt_pass_unrolled(std::int16_t* __restrict a) noexcept {
  constexpr int kG = 1 << W;
  constexpr int kLenFirst = 128 >> (L - 1);
  constexpr int kLenLast = kLenFirst >> (W - 1);
  constexpr int kBlocks = 128 / kLenFirst;
  for (int blk = 0; blk < kBlocks; ++blk) {
    std::int16_t* p = a + blk * 2 * kLenFirst;
    for (int o = 0; o < kLenLast; ++o) {
      std::int16_t x[kG];
      PQKEM_UNROLL for (int i = 0; i < kG; ++i) x[i] = p[o + i * kLenLast];
      PQKEM_UNROLL for (int w = 0; w < W; ++w) {
        const int h = kG >> (w + 1);
        PQKEM_UNROLL for (int g = 0; g < (1 << w); ++g) {
          const int zi = (1 << (L + w - 1)) + (blk << w) + g;
          const std::int16_t z = kZ[zi], zt = kZTwisted[zi];
          PQKEM_UNROLL for (int i = 2 * h * g; i < 2 * h * g + h; ++i) {
            const std::int16_t t = mul_zeta(x[i + h], z, zt);
            x[i + h] = static_cast<std::int16_t>(x[i] - t);
            x[i] = static_cast<std::int16_t>(x[i] + t);
          }
        }
      }
      PQKEM_UNROLL for (int i = 0; i < kG; ++i) p[o + i * kLenLast] = x[i];
    }
  }
}

// Inverse pass over layers L .. L-W+1 (Gentleman-Sande: t = a; a = a + b; b = zeta (b - t),
// zeta index 2^m - 1 - j / (2 len_m), walking FIPS 203's i from 127 downwards).
template <int W, int L>
void inverse_ntt_pass_unrolled(std::int16_t* __restrict a) noexcept {
  constexpr int kG = 1 << W;
  constexpr int kLenFirst = 128 >> (L - 1);          // smallest len of this pass
  constexpr int kLenTop = kLenFirst << (W - 1);       // largest len of this pass
  constexpr int kBlocks = 128 / kLenTop;
  for (int blk = 0; blk < kBlocks; ++blk) {
    std::int16_t* p = a + blk * 2 * kLenTop;
    for (int o = 0; o < kLenFirst; ++o) {
      std::int16_t x[kG];
      PQKEM_UNROLL for (int i = 0; i < kG; ++i) x[i] = p[o + i * kLenFirst];
      PQKEM_UNROLL for (int w = 0; w < W; ++w) {
        const int m = L - w;
        const int h = 1 << w;
        PQKEM_UNROLL for (int g = 0; g < (kG >> (w + 1)); ++g) {
          const int zi = (1 << m) - 1 - (blk << (W - 1 - w)) - g;
          const std::int16_t z = kZ[zi], zt = kZTwisted[zi];
          PQKEM_UNROLL for (int i = 2 * h * g; i < 2 * h * g + h; ++i) {
            const std::int16_t t = x[i];
            const auto sum = static_cast<std::int16_t>(t + x[i + h]);
            x[i] = reduces_sums(m) ? barrett_reduce(sum) : sum;
            x[i + h] = mul_zeta(static_cast<std::int16_t>(x[i + h] - t), z, zt);
          }
        }
      }
      PQKEM_UNROLL for (int i = 0; i < kG; ++i) p[o + i * kLenFirst] = x[i];
    }
  }
}

// The same passes without the unrolling hints (see ntt_pass below).
// Forward pass over layers L .. L+W-1 (layer m pairs a[j] with a[j + len_m], len_m = 128 >>
// (m-1), with zeta index 2^(m-1) + j / (2 len_m)). For each block of 2 len_L coefficients
// and each offset o < len_{L+W-1}, the 2^W coefficients a[b + o + i len_{L+W-1}] depend only
// on each other for these W layers: they are loaded once, transformed W times, stored once.
// All bounds are compile-time constants, so the group loops unroll and the offset loop
// vectorizes where it is long enough.
template <int W, int L>
void ntt_pass_plain(std::int16_t* __restrict a) noexcept {
  constexpr int kG = 1 << W;
  constexpr int kLenFirst = 128 >> (L - 1);
  constexpr int kLenLast = kLenFirst >> (W - 1);
  constexpr int kBlocks = 128 / kLenFirst;
  for (int blk = 0; blk < kBlocks; ++blk) {
    std::int16_t* p = a + blk * 2 * kLenFirst;
    for (int o = 0; o < kLenLast; ++o) {
      std::int16_t x[kG];
      for (int i = 0; i < kG; ++i) x[i] = p[o + i * kLenLast];
      for (int w = 0; w < W; ++w) {
        const int h = kG >> (w + 1);
        for (int g = 0; g < (1 << w); ++g) {
          const int zi = (1 << (L + w - 1)) + (blk << w) + g;
          const std::int16_t z = kZ[zi], zt = kZTwisted[zi];
          for (int i = 2 * h * g; i < 2 * h * g + h; ++i) {
            const std::int16_t t = mul_zeta(x[i + h], z, zt);
            x[i + h] = static_cast<std::int16_t>(x[i] - t);
            x[i] = static_cast<std::int16_t>(x[i] + t);
          }
        }
      }
      for (int i = 0; i < kG; ++i) p[o + i * kLenLast] = x[i];
    }
  }
}

// Inverse pass over layers L .. L-W+1 (Gentleman-Sande: t = a; a = a + b; b = zeta (b - t),
// zeta index 2^m - 1 - j / (2 len_m), walking FIPS 203's i from 127 downwards).
template <int W, int L>
void inverse_ntt_pass_plain(std::int16_t* __restrict a) noexcept {
  constexpr int kG = 1 << W;
  constexpr int kLenFirst = 128 >> (L - 1);          // smallest len of this pass
  constexpr int kLenTop = kLenFirst << (W - 1);       // largest len of this pass
  constexpr int kBlocks = 128 / kLenTop;
  for (int blk = 0; blk < kBlocks; ++blk) {
    std::int16_t* p = a + blk * 2 * kLenTop;
    for (int o = 0; o < kLenFirst; ++o) {
      std::int16_t x[kG];
      for (int i = 0; i < kG; ++i) x[i] = p[o + i * kLenFirst];
      for (int w = 0; w < W; ++w) {
        const int m = L - w;
        const int h = 1 << w;
        for (int g = 0; g < (kG >> (w + 1)); ++g) {
          const int zi = (1 << m) - 1 - (blk << (W - 1 - w)) - g;
          const std::int16_t z = kZ[zi], zt = kZTwisted[zi];
          for (int i = 2 * h * g; i < 2 * h * g + h; ++i) {
            const std::int16_t t = x[i];
            const auto sum = static_cast<std::int16_t>(t + x[i + h]);
            x[i] = reduces_sums(m) ? barrett_reduce(sum) : sum;
            x[i + h] = mul_zeta(static_cast<std::int16_t>(x[i + h] - t), z, zt);
          }
        }
      }
      for (int i = 0; i < kG; ++i) p[o + i * kLenFirst] = x[i];
    }
  }
}

// Which code shape each pass gets was decided from per-pass timings with GCC 12 on x86-64
// (README, "NTT merge plans"). With the group loops unrolled, a pass whose smallest len is at
// least 8 vectorizes over the offsets (about 10 ticks per layer), and the deep merged passes
// (len 4 or 2) get 3-10x faster than plain. Single deep layers (len 4 or 2, and layer 5 alone in
// the inverse) are faster plain: unrolled, the compiler vectorizes them across blocks with
// transposes. Both shapes compute the same butterflies, so the outputs are identical.
template <int W, int L>
void ntt_pass(std::int16_t* __restrict a) noexcept {
  constexpr int kLenLast = 128 >> (L + W - 2);
  if constexpr (W == 1 && kLenLast < 8) ntt_pass_plain<W, L>(a);
  else ntt_pass_unrolled<W, L>(a);
}

template <int W, int L>
void inverse_ntt_pass(std::int16_t* __restrict a) noexcept {
  constexpr int kLenFirst = 128 >> (L - 1);
  if constexpr (W == 1 && (kLenFirst < 8 || L == 5)) inverse_ntt_pass_plain<W, L>(a);
  else inverse_ntt_pass_unrolled<W, L>(a);
}

/// A merge plan as a type: NttPlan<3, 2, 1, 1> is "3211".
template <int... W>
struct NttPlan {
  static_assert((W + ...) == 7, "a merge plan covers exactly the 7 NTT layers");
  static_assert(((W >= 1 && W <= 3) && ...), "a pass merges 1, 2 or 3 layers");
  static constexpr char kName[] = {static_cast<char>('0' + W)..., '\0'};

  static void forward(std::int16_t* a) noexcept { run_forward<1, W...>(a); }
  static void inverse(std::int16_t* a) noexcept {
    run_inverse<1, W...>(a);
    for (int i = 0; i < kN; ++i) a[i] = mul_zeta(a[i], kInvNttScale, kInvNttScaleTwisted);
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

/// nullptr until first use, which reads PQKEM_NTT_PLAN (an unparsable value falls back to
/// the default here; the CLI rejects it with a usage error).
std::atomic<const NttPlanEntry*> g_forward{nullptr};
std::atomic<const NttPlanEntry*> g_inverse{nullptr};

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
  const NttPlanEntry* f = g_forward.load(std::memory_order_acquire);
  if (f == nullptr) {
    const char* env = std::getenv("PQKEM_NTT_PLAN");
    std::optional<NttPlanChoice> chosen = env != nullptr ? parse_choice(env) : std::nullopt;
    if (!chosen) chosen = parse_choice(kDefaultNttPlan);
    const NttPlanEntry* expected = nullptr;
    if (g_forward.compare_exchange_strong(expected, chosen->forward, std::memory_order_acq_rel))
      g_inverse.store(chosen->inverse, std::memory_order_release);
    f = g_forward.load(std::memory_order_acquire);
  }
  const NttPlanEntry* i = g_inverse.load(std::memory_order_acquire);
  while (i == nullptr) i = g_inverse.load(std::memory_order_acquire);  // the first caller is storing it
  return {f, i};
}

void set_ntt_plan(NttPlanChoice choice) noexcept {
  g_inverse.store(choice.inverse, std::memory_order_release);
  g_forward.store(choice.forward, std::memory_order_release);
}
void set_ntt_plan(const NttPlanEntry& plan) noexcept { set_ntt_plan(NttPlanChoice{&plan, &plan}); }

NttPoly ntt(const Poly& f) noexcept {
  NttPoly r{f.c};
  current_ntt_plan().forward->forward(r.c.data());  // |r_i| < 8q = 26632 < 2^15
  reduce(r);
  return r;
}

Poly inverse_ntt(const NttPoly& f) noexcept {
  Poly r{f.c};
  current_ntt_plan().inverse->inverse(r.c.data());
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
void multiply_ntts_acc(NttPoly& r, const NttPoly& a, const NttPoly& b) noexcept {
  for (int i = 0; i < 128; ++i) {
    const std::int16_t a0 = a.c[2 * i], a1 = a.c[2 * i + 1], b0 = b.c[2 * i], b1 = b.c[2 * i + 1];
    const auto c0 = static_cast<std::int16_t>(mul_zeta(fqmul16(a1, b1), kGamma[i], kGammaTwisted[i]) + fqmul16(a0, b0));
    const auto c1 = static_cast<std::int16_t>(fqmul16(a0, b1) + fqmul16(a1, b0));
    r.c[2 * i] = static_cast<std::int16_t>(r.c[2 * i] + c0);
    r.c[2 * i + 1] = static_cast<std::int16_t>(r.c[2 * i + 1] + c1);
  }
}

}  // namespace pqkem::mlkem
