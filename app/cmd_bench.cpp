// pqkem bench: rdtsc medians per operation, per kernel and per NTT merge plan, as a table or
// as github-action-benchmark "customSmallerIsBetter" JSON.
//
// Timing: each call is bracketed by lfence; rdtsc; lfence, after a warm-up. A measurement is
// R rounds of N calls; a round's statistic is the median of its calls, and the rounds of all
// rows are interleaved (round 1 of every row, then round 2 ...), so that a burst of load from
// another tenant of a shared machine spoils one round of many rows instead of one whole row.
// A row's figure is its lowest round median; bench_stats.hpp says why and how --baseline
// decides on a regression. rdtsc counts at the TSC's fixed reference rate, not core cycles.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "bench_baseline.hpp"
#include "bench_hpke.hpp"
#include "bench_kernels.hpp"
#include "bench_report.hpp"
#include "bench_timer.hpp"
#include "cmd_bench.hpp"
#include "hybrid/x25519.hpp"
#include "mlkem/ntt.hpp"
#include "options.hpp"
#include "output.hpp"
#include "rng.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"

namespace pqkem::cli {
namespace {

/// With --baseline, the rows over their limit are measured again, up to this many times, with
/// as many rounds each time; their figure is then the lowest median of all their rounds. Noise
/// only adds time, so re-measuring clears a row a passing disturbance flagged, but cannot make
/// truly slower code reach its baseline.
constexpr int kConfirmPasses = 2;

// --- What is measured -----------------------------------------------------------------------

/// With --coins fixed, the keypair and encaps rows cycle through this many sets of coins drawn
/// before timing (so that SampleNTT's rejections vary from call to call, as with random coins).
constexpr std::size_t kCoinSets = 64;

/// Coin sets drawn once, before timing, for the _derand rows; next() hands them out in turn.
class CoinPool {
public:
  CoinPool(Scheme s, bool keygen_coins) {
    for (std::size_t i = 0; i < kCoinSets; ++i) m_sets.push_back(keygen_coins ? random_keygen_coins(s) : random_encaps_coins(s));
  }
  ByteView next() noexcept {
    const SecretBytes& c = m_sets[m_next];
    m_next = m_next + 1 == m_sets.size() ? 0 : m_next + 1;
    return {c.data(), c.size()};
  }

private:
  std::vector<SecretBytes> m_sets;
  std::size_t m_next = 0;
};

std::vector<Row> operation_rows(const std::vector<Scheme>& schemes, const std::vector<simd::Impl>& impls,
                                bool fixed_coins) {
  std::vector<Row> out;
  for (Scheme s : schemes) {
    const SchemeInfo& info = scheme_info(s);
    for (const simd::Impl impl : impls) {
      simd::set_impl(impl);
      // Fixed inputs: a key pair and a ciphertext made once, outside the timed calls.
      auto kp = std::make_shared<const KeyPair>(keygen(s));
      auto enc = std::make_shared<const Encapsulation>(encaps(s, kp->pk));
      auto kc = std::make_shared<CoinPool>(s, true);
      auto ec = std::make_shared<CoinPool>(s, false);
      const std::pair<const char*, std::function<void()>> random_ops[] = {
          {"keypair", [s] { const KeyPair k = keygen(s); }},
          {"encaps", [s, kp] { const Encapsulation e = encaps(s, kp->pk); }},
          {"decaps", [s, kp, enc] { const SecretBytes k = decaps(s, kp->sk, enc->ct); }},
      };
      const std::pair<const char*, std::function<void()>> fixed_ops[] = {
          {"keypair_derand", [s, kc] { const KeyPair k = keygen_derand(s, kc->next()); }},
          {"encaps_derand", [s, kp, ec] { const Encapsulation e = encaps_derand(s, kp->pk, ec->next()); }},
          {"decaps", [s, kp, enc] { const SecretBytes k = decaps(s, kp->sk, enc->ct); }},
      };
      const auto& ops = fixed_coins ? fixed_ops : random_ops;
      for (const auto& [op, f] : ops)
        out.push_back(make_row(std::string(info.name), op, std::string(simd::impl_name(impl)), f, impl));
    }
  }
  // What a hybrid adds to ML-KEM-768, as X25519 alone would do each operation (keypair: a base
  // point multiplication; encaps: an ephemeral key and the shared secret; decaps: the shared
  // secret), so `bench -a X-Wing -a ML-KEM-768` shows every term of the comparison.
  if (std::any_of(schemes.begin(), schemes.end(), [](Scheme s) { return scheme_info(s).family == Family::Hybrid; })) {
    struct X {
      std::array<std::uint8_t, 32> sk{}, pk{}, eph{}, ct{}, ss{};
    };
    auto x = std::make_shared<X>();
    for (std::size_t i = 0; i < 32; ++i) x->sk[i] = static_cast<std::uint8_t>(7 * i + 1);
    x25519::base(x->pk, x->sk);
    random_bytes(x->eph);
    const std::pair<const char*, std::function<void()>> ops[] = {
        {fixed_coins ? "keypair_derand" : "keypair", [x] { x25519::base(x->pk, x->sk); }},
        {fixed_coins ? "encaps_derand" : "encaps",
         [x, fixed_coins] {
           if (!fixed_coins) random_bytes(x->eph);
           x25519::base(x->ct, x->eph);
           (void)x25519::shared(x->ss, x->eph, x->pk);
         }},
        {"decaps", [x] { (void)x25519::shared(x->ss, x->sk, x->ct); }},
    };
    for (const auto& [op, f] : ops) out.push_back(make_row("X25519", op, "libsodium", f));
  }
  return out;
}

/// Speed-up of every non-portable row over the portable row of the same measurement.
void add_speedups(std::vector<Row>& results) {
  for (Row& r : results) {
    if (r.impl == "portable") continue;
    const auto ref = std::find_if(results.begin(), results.end(),
                                  [&](const Row& x) { return x.key() == r.key() && x.impl == "portable"; });
    if (ref != results.end())
      r.speedup = static_cast<double>(ref->best()) / static_cast<double>(std::max<std::uint64_t>(r.best(), 1));
  }
}

std::vector<Row> kernel_rows(const std::vector<Scheme>& schemes, const std::vector<simd::Impl>& impls) {
  std::vector<Row> out;
  for (Scheme s : schemes) {
    const SchemeInfo& info = scheme_info(s);
    for (bench::Kernel& k : bench::kernels(s, impls))
      out.push_back(
          make_row(std::string(info.name) + " kernel", std::move(k.name), std::move(k.impl), std::move(k.run)));
  }
  return out;
}

constexpr const char* kForward = "ML-KEM NTT plans, forward";
constexpr const char* kInverse = "ML-KEM NTT plans, inverse";

std::vector<Row> ntt_plan_rows() {
  using Block = std::array<std::int16_t, mlkem::kN>;
  auto input = std::make_shared<Block>();
  for (int i = 0; i < mlkem::kN; ++i) (*input)[i] = static_cast<std::int16_t>((i * 1237) % mlkem::kQ - mlkem::kQ / 2);
  std::vector<Row> out;
  for (const mlkem::NttPlanEntry& plan : mlkem::all_ntt_plans()) {
    auto a = std::make_shared<Block>();
    const auto fwd = plan.forward;
    const auto inv = plan.inverse;
    out.push_back(make_row(kForward, std::string(plan.name), "portable", [a, input, fwd] {
      *a = *input;
      fwd(a->data());
      __asm__ volatile("" : : "r"(a->data()) : "memory");
    }));
    out.push_back(make_row(kInverse, std::string(plan.name), "portable", [a, input, inv] {
      *a = *input;
      inv(a->data());
      __asm__ volatile("" : : "r"(a->data()) : "memory");
    }));
  }
  return out;
}

/// Forward plans then inverse plans, each best first, with their speed-up over 1111111.
std::vector<Row> order_ntt_plans(std::vector<Row> rows) {
  std::vector<Row> out;
  for (const char* group : {kForward, kInverse}) {
    std::vector<Row> list;
    for (Row& r : rows)
      if (r.group == group) list.push_back(std::move(r));
    const auto ref = std::find_if(list.begin(), list.end(), [](const Row& r) { return r.item == "1111111"; });
    const double ref_ticks = static_cast<double>(ref->best());
    for (Row& r : list) r.speedup = ref_ticks / static_cast<double>(std::max<std::uint64_t>(r.best(), 1));
    std::stable_sort(list.begin(), list.end(), [](const Row& a, const Row& b) { return a.best() < b.best(); });
    std::move(list.begin(), list.end(), std::back_inserter(out));
  }
  return out;
}

/// The implementations --impl names (auto: the one in use; all: every usable one).
std::vector<simd::Impl> selected_impls(const std::string& impl_option) {
  const std::vector<std::string_view> usable = simd::usable_implementations();
  const std::string choice = lower_ascii(impl_option);
  std::vector<simd::Impl> impls;
  if (choice == "auto") {
    impls.push_back(simd::active_impl());  // --impl's choice (the tool's PQKEM_IMPL) or the best usable
  } else if (choice == "all") {
    for (const std::string_view name : usable) impls.push_back(*simd::parse_impl(name));
  } else if (const auto named = simd::parse_impl(choice)) {
    const std::string_view name = simd::impl_name(*named);
    if (std::find(usable.begin(), usable.end(), name) == usable.end()) {
      const std::string what = fmt::format("implementation '{}' is not usable here: {} (usable: {})", name,
                                           simd::impl_unusable_reason(*named), fmt::join(usable, ", "));
      if (!PQKEM_X86_64) throw_usage(what);  // an x86 instruction set on another architecture
      throw_failure(what);
    }
    impls.push_back(*named);
  } else {
    throw_usage(fmt::format("--impl must be auto, portable, avx2, avx512 or all, not '{}'", printable(impl_option)));
  }
  return impls;
}

/// --coins: whether the keypair and encaps rows run on coins drawn before timing.
bool fixed_coins(const BenchOptions& opts) {
  const std::string choice = lower_ascii(opts.coins);
  if (choice != "random" && choice != "fixed")
    throw_usage(fmt::format("--coins must be random or fixed, not '{}'", printable(opts.coins)));
  if (choice == "fixed" && (opts.kernels || opts.ntt_plans))
    throw_usage("--coins fixed changes the keypair and encaps rows; --kernels and --ntt-plans have none");
  return choice == "fixed";
}

/// The header line that says where the keypair and encaps rows' coins come from.
std::string coins_line(bool fixed) {
  if (fixed)
    return fmt::format("coins: fixed. keypair_derand / encaps_derand rows run on {} sets of coins drawn before timing\n"
                       "(no random draw in the timed calls), as other implementations' derandomized benchmarks do.\n",
                       kCoinSets);
  return fmt::format("coins: random. keypair / encaps rows include drawing their coins each call from {}, as "
                     "keygen() and encaps() do\n(--coins fixed leaves the draw out).\n",
                     random_source_text());
}

void check_bench_options(const BenchOptions& opts) {
  if (opts.baseline && opts.json) throw_usage("--baseline compares in the table; it cannot be combined with --json");
  if (opts.fail_on_regression && !opts.baseline) throw_usage("--fail-on-regression needs --baseline");
  if (opts.kernels && opts.ntt_plans) throw_usage("--kernels and --ntt-plans are separate runs; give one of them");
  const auto named = simd::parse_impl(lower_ascii(opts.impl));
  if (opts.ntt_plans && named && *named != simd::Impl::portable)
    throw_usage(
        "--ntt-plans measures the portable NTT's merge plans only; the AVX2 NTT has one schedule (see --kernels)");
}

/// The reference workloads: they run in every round, with the rows, but are no rows of the output.
std::vector<Row> reference_rows(OpenSslReference& openssl) {
  std::vector<Row> references;
  references.push_back(make_row("reference", "loop", "-", [] {
    const std::uint64_t v = reference_loop();
    __asm__ volatile("" : : "r"(v));
  }));
  if (openssl.usable()) {
    references.push_back(make_row("reference", "openssl_sha3_256", "-", [&openssl] { openssl.sha3(); }));
    references.push_back(make_row("reference", "openssl_aes_256_gcm", "-", [&openssl] { openssl.aes_gcm(); }));
  }
  return references;
}

/// Every row and reference, interleaved over the rounds; with a baseline, the rows it flags are
/// measured again (up to kConfirmPasses times), so that one noisy round does not flag a row.
void measure_all(std::vector<Row>& results, std::vector<Row>& references, const Timing& timing,
                 const std::optional<Baseline>& baseline, std::uint64_t granularity) {
  const Progress progress;
  std::vector<Row*> all = pointers(references);
  for (Row* r : pointers(results)) all.push_back(r);
  measure_rounds(all, timing, progress);
  if (!baseline) return;
  for (int pass = 0; pass < kConfirmPasses; ++pass) {
    const std::vector<Comparison> compared = compare_all(*baseline, results, granularity, references);
    std::vector<Row*> flagged = pointers(references);
    for (std::size_t i = 0; i < results.size(); ++i)
      if (compared[i].verdict.regression) flagged.push_back(&results[i]);
    if (flagged.size() == references.size()) break;
    measure_rounds(flagged, timing, progress);
  }
}

}  // namespace

void run(const BenchOptions& opts) {
  apply_engine_options({std::nullopt, opts.ntt_plan});
  apply_rng_option(opts.rng);
  use_openssl();  // the reference workloads; the KAT DRBG of the kernel rows
  std::vector<Scheme> schemes;
  for (const std::string& a : opts.algorithms) schemes.push_back(require_algorithm(a));
  if (schemes.empty())
    for (const SchemeInfo& info : all_schemes()) schemes.push_back(info.scheme);
  const std::vector<simd::Impl> impls = selected_impls(opts.impl);
  check_bench_options(opts);
  const bool fixed = fixed_coins(opts);

  const std::optional<Baseline> baseline =
      opts.baseline ? std::optional<Baseline>(read_baseline(*opts.baseline)) : std::nullopt;
  const Timing timing{opts.rounds, static_cast<std::size_t>(opts.iterations), tick_rate()};
  const std::uint64_t granularity = timer_granularity();

  std::vector<Row> results = opts.ntt_plans ? ntt_plan_rows()
                             : opts.kernels ? kernel_rows(schemes, impls)
                                            : operation_rows(schemes, impls, fixed);
  if (!opts.ntt_plans && !opts.kernels) {
    std::vector<Row> hpke = hpke_rows(schemes, impls);
    results.insert(results.end(), std::make_move_iterator(hpke.begin()), std::make_move_iterator(hpke.end()));
  }
  OpenSslReference openssl;
  std::vector<Row> references = reference_rows(openssl);
  measure_all(results, references, timing, baseline, granularity);
  if (opts.ntt_plans)
    results = order_ntt_plans(std::move(results));
  else
    add_speedups(results);
  std::vector<Comparison> compared;
  if (baseline) compared = compare_all(*baseline, results, granularity, references);

  if (opts.json) {
    print_json(results, timing.rate, granularity, references);
    return;
  }
  write_stdout(table_header(references, timing, granularity, baseline,
                            opts.kernels || opts.ntt_plans ? std::string() : coins_line(fixed)));
  print_table(results, timing.rate, compared, opts.ntt_plans ? "vs 1111111" : "speed-up");
  if (baseline) report_regressions(*baseline, compared, opts.fail_on_regression);
}

/// What `pqkem bench --help` shows after the options, {clock} and {clock_note} filled in for this
/// build's clock (ticks.hpp). Its examples run as written, in order, in an empty directory
/// (ctest -L docs).
constexpr const char* kFooter =
    R"(Each measurement is R rounds of N calls after a warm-up; a round's figure is the median of its
calls, and rounds are interleaved across rows, so a burst of load spoils one round of many rows
rather than a whole row. 'median' is the lowest round median (noise only adds time: the least
disturbed round is the best estimate); 'spread' is how far the middle round median lies above it.
The timer's granularity (smallest nonzero step of back-to-back {clock} reads) is measured and shown.

--baseline flags a row when its median exceeds the baseline's median by more than
  limit = 5% + spread(baseline) + spread(this run) + drift + 2 x granularity / baseline median,
that is, when even this run's best round is slower than the baseline's best by more than either
run showed as noise. drift is how much slower the machine itself got: the largest slow-down of
three fixed reference workloads outside pqkem (a loop, OpenSSL SHA3-256 and AES-256-GCM), timed
in the same rounds and kept in the JSON; 5% covers what remains unmeasured. Each row's limit is
shown, so a run too noisy to see a small slow-down says so. Flagged rows are measured again (up
to twice, R rounds each) and keep their lowest round: a passing disturbance is cleared, a real
slow-down is not. A row of another implementation matches when each side has exactly one of that
measurement (a baseline of --impl avx2 against --impl portable, or a build without AVX2).
Baselines from before rounds were recorded are read as one round, as noisy as this run.

{clock_note} Only ratios measured on one machine are comparable.

Examples:
  pqkem bench -a ML-KEM-768
  pqkem bench -a ML-KEM-768 --coins fixed --rounds 7
  pqkem bench --kernels --impl all
  pqkem bench -a ML-KEM-512 --json > base.json
  pqkem bench -a ML-KEM-512 --baseline base.json --fail-on-regression || echo "slower than base.json"
)";

void declare(CommandBuilder& cmd, BenchOptions& opts) {
  cmd.strings("-a,--algorithm", opts.algorithms, "Algorithms to measure (repeatable; default: all)", "ALG ...");
  cmd.string("--impl", opts.impl, "Implementation: auto (the one used by default), portable, avx2, avx512, or all",
             "auto|portable|avx2|avx512|all");
  cmd.integer("--iterations", opts.iterations,
              "Timed calls per round (default: as many as fit in about 0.25 s per measurement, split over "
              "the rounds; 11 to max(11, 2000/rounds) per round)",
              IntRange(1, 10000000, "N"));
  cmd.integer("--rounds", opts.rounds,
              "Rounds per measurement, 1 to 100 (default 5), interleaved across all rows; each round is the "
              "median of its calls",
              IntRange(1, 100, "R").with_default());
  cmd.flag("--json", opts.json, "Print github-action-benchmark 'customSmallerIsBetter' JSON instead of a table");
  cmd.flag("--kernels", opts.kernels,
           "Measure the kernels behind each algorithm instead of whole operations, of the --impl "
           "implementation(s) only");
  cmd.flag("--ntt-plans", opts.ntt_plans,
           "Measure every ML-KEM NTT merge plan (forward and inverse, portable path), best first");
  cmd.string("--baseline", opts.baseline,
             "Compare with an earlier --json output; flag rows slower beyond their noise limit (below)", "FILE");
  cmd.string("--ntt-plan", opts.ntt_plan,
             "ML-KEM NTT merge plan of the portable path for the operations and kernels (default: "
             "$PQKEM_NTT_PLAN, else the built-in default)",
             "PLAN");
  cmd.rng(opts.rng, "the keypair and encaps rows' random bytes");
  cmd.string("--coins", opts.coins,
             "random (default): the keypair and encaps rows draw their coins each call, as keygen() and "
             "encaps() do; fixed: keypair_derand and encaps_derand rows on coins drawn before timing, "
             "comparable with other implementations' derandomized benchmarks",
             "random|fixed");
  cmd.flag("--fail-on-regression", opts.fail_on_regression,
           "With --baseline: exit 1 if any row is flagged as a regression");
  cmd.footer(fmt::format(
      kFooter, fmt::arg("clock", timing::kTsc ? "rdtsc" : "clock"),
      fmt::arg("clock_note", timing::kTsc ? std::string("rdtsc ticks count at the TSC's fixed reference rate, not "
                                                        "core clock cycles; the rate is measured\nand printed.")
                                          : fmt::format("The figures are nanoseconds of {}: this CPU has no rdtsc.",
                                                        timing::kClock))));
}

}  // namespace pqkem::cli
