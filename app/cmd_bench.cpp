// pqkem bench: rdtsc medians per operation, per kernel and per NTT merge plan, as a table or
// as github-action-benchmark "customSmallerIsBetter" JSON.
//
// Timing: each call is bracketed by lfence; rdtsc; lfence, after a warm-up; the statistic is
// the median (and 10th percentile) over many calls, which shrugs off interrupts and other
// tenants of a shared machine. rdtsc counts at the TSC's fixed reference rate, not core cycles.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <fmt/format.h>

#include "bench_kernels.hpp"
#include "commands.hpp"
#include "mlkem/ntt.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"
#include "util/json.hpp"

namespace pqkem::cli {
namespace {

// --- Timing ---------------------------------------------------------------------------------

inline std::uint64_t ticks() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  _mm_lfence();
  const std::uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
#else
  return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

/// Ticks per second, measured against the steady clock over ~50 ms.
double tick_rate() {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const std::uint64_t k0 = ticks();
  while (clock::now() - t0 < std::chrono::milliseconds(50)) {
  }
  const auto t1 = clock::now();
  const std::uint64_t k1 = ticks();
  return static_cast<double>(k1 - k0) / std::chrono::duration<double>(t1 - t0).count();
}

struct Stats {
  std::uint64_t median = 0;
  std::uint64_t p10 = 0;
  std::size_t iterations = 0;
};

/// Time budget per measurement when --iterations is not given: as many calls as fit in it,
/// between kMinAuto and kMaxAuto.
constexpr double kAutoSeconds = 0.25;
constexpr std::size_t kMinAuto = 11, kMaxAuto = 2000;

Stats measure(const std::function<void()>& f, std::size_t iterations, double rate) {
  // Warm-up: caches, branch predictors, lazily fetched OpenSSL objects, CPU frequency.
  const std::uint64_t w0 = ticks();
  std::size_t warm = 0;
  do {
    f();
    ++warm;
  } while (warm < 3 || (ticks() - w0 < static_cast<std::uint64_t>(rate * 0.02) && warm < 1000));
  if (iterations == 0) {
    const double per_call = static_cast<double>(ticks() - w0) / static_cast<double>(warm);
    iterations = static_cast<std::size_t>(kAutoSeconds * rate / std::max(per_call, 1.0));
    iterations = std::clamp(iterations, kMinAuto, kMaxAuto);
  }
  std::vector<std::uint64_t> samples(iterations);
  for (auto& s : samples) {
    const std::uint64_t t0 = ticks();
    f();
    s = ticks() - t0;
  }
  std::sort(samples.begin(), samples.end());
  return {samples[samples.size() / 2], samples[samples.size() / 10], iterations};
}

// --- Results ------------------------------------------------------------------------------

struct Result {
  std::string group;      ///< "ML-KEM-768", or "ML-KEM NTT plans (forward)"
  std::string item;       ///< "keypair", "NTT", "3211"
  std::string impl;       ///< "portable"
  Stats stats;
  double speedup = 0;     ///< vs the portable row / vs plan 1111111 (0: none)
  [[nodiscard]] std::string name() const { return fmt::format("{} {} ({})", group, item, impl); }
};

void print_json(const std::vector<Result>& results, double rate) {
  std::string out = "[\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result& r = results[i];
    out += fmt::format(
        "  {{\"name\": {}, \"unit\": \"ticks\", \"value\": {}, \"extra\": \"p10={} ticks; iterations={}; "
        "ops_per_s={:.0f}; tsc_ghz={:.3f}\"}}{}\n",
        json_string(r.name()), r.stats.median, r.stats.p10, r.stats.iterations,
        rate / static_cast<double>(std::max<std::uint64_t>(r.stats.median, 1)), rate / 1e9,
        i + 1 < results.size() ? "," : "");
  }
  out += "]\n";
  write_stdout(out);
}

/// name -> value from an earlier --json output. Exit 1 if unreadable (read_input's checks and
/// size limit, as for every input) or not in that format.
std::map<std::string, double> read_baseline(const std::string& path) {
  const SecretBytes content = read_input(path);
  try {
    const std::string_view text(reinterpret_cast<const char*>(content.data()), content.size());
    const json::Value doc = json::parse(text);
    std::map<std::string, double> m;
    for (const json::Value& e : doc.as_array()) m[e.at("name").as_string()] = e.at("value").as_double();
    return m;
  } catch (const std::exception& e) {
    throw_failure(fmt::format("cannot use as a baseline: {}", printable(e.what())), input_name(path));
  }
}

std::string group_digits(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), 1, ',');
  return s;
}

constexpr double kRegression = 1.05;  ///< flag a baseline ratio above this (5% slower)

void print_table(const std::vector<Result>& results, double rate, const std::map<std::string, double>& baseline,
                 const char* speedup_header) {
  const bool with_speedup = std::any_of(results.begin(), results.end(), [](const Result& r) { return r.speedup > 0; });
  std::string out = fmt::format("{:<28} {:<28} {:<9} {:>11} {:>11} {:>10} {:>6}", "algorithm", "operation", "impl",
                                "median", "p10", "ops/s", "iters");
  if (with_speedup) out += fmt::format(" {:>9}", speedup_header);
  if (!baseline.empty()) out += fmt::format(" {:>12}", "vs baseline");
  out += '\n';
  std::string last_group;
  for (const Result& r : results) {
    if (!last_group.empty() && r.group != last_group) out += '\n';
    last_group = r.group;
    out += fmt::format("{:<28} {:<28} {:<9} {:>11} {:>11} {:>10.0f} {:>6}", r.group, r.item, r.impl,
                       group_digits(r.stats.median), group_digits(r.stats.p10),
                       rate / static_cast<double>(std::max<std::uint64_t>(r.stats.median, 1)), r.stats.iterations);
    if (with_speedup) out += r.speedup > 0 ? fmt::format(" {:>8.2f}x", r.speedup) : fmt::format(" {:>9}", "");
    if (!baseline.empty()) {
      const auto it = baseline.find(r.name());
      if (it == baseline.end() || it->second <= 0) {
        out += fmt::format(" {:>12}", "new");
      } else {
        const double ratio = static_cast<double>(r.stats.median) / it->second;
        out += fmt::format(" {:>11.3f}x{}", ratio, ratio > kRegression ? "  REGRESSION" : "");
      }
    }
    out += '\n';
  }
  write_stdout(out);
}

// --- What is measured -----------------------------------------------------------------------

class Progress {
public:
  Progress() : m_tty(isatty(STDERR_FILENO) == 1) {}
  void show(const std::string& what) const {
    if (m_tty) fmt::print(stderr, "\r\033[Kbench: {}", what);
  }
  ~Progress() {
    if (m_tty) fmt::print(stderr, "\r\033[K");
  }

private:
  bool m_tty;
};

std::vector<Result> bench_operations(const std::vector<Scheme>& schemes, const std::vector<std::string>& impls,
                                     std::size_t iterations, double rate, const Progress& progress) {
  std::vector<Result> out;
  for (Scheme s : schemes) {
    const SchemeInfo& info = scheme_info(s);
    for (const std::string& impl : impls) {
      simd::set_impl(*simd::parse_impl(impl));
      // Fixed inputs: a key pair and a ciphertext made once, outside the timed calls.
      const KeyPair kp = keygen(s);
      const Encapsulation enc = encaps(s, kp.pk);
      const std::pair<const char*, std::function<void()>> ops[] = {
          {"keypair", [&] { const KeyPair k = keygen(s); }},
          {"encaps", [&] { const Encapsulation e = encaps(s, kp.pk); }},
          {"decaps", [&] { const SecretBytes k = decaps(s, kp.sk, enc.ct); }},
      };
      for (const auto& [op, f] : ops) {
        progress.show(fmt::format("{} {} ({})", info.name, op, impl));
        out.push_back({std::string(info.name), op, impl, measure(f, iterations, rate)});
      }
    }
  }
  return out;
}

/// Speed-up of every non-portable row over the portable row of the same measurement.
void add_speedups(std::vector<Result>& results) {
  for (Result& r : results) {
    if (r.impl == "portable") continue;
    const auto ref = std::find_if(results.begin(), results.end(), [&](const Result& x) {
      return x.group == r.group && x.item == r.item && x.impl == "portable";
    });
    if (ref != results.end())
      r.speedup = static_cast<double>(ref->stats.median) / static_cast<double>(std::max<std::uint64_t>(r.stats.median, 1));
  }
}

std::vector<Result> bench_kernels(const std::vector<Scheme>& schemes, const std::vector<std::string>& impl_names,
                                  std::size_t iterations, double rate, const Progress& progress) {
  std::vector<simd::Impl> impls;
  for (const std::string& name : impl_names) impls.push_back(*simd::parse_impl(name));
  std::vector<Result> out;
  for (Scheme s : schemes) {
    const SchemeInfo& info = scheme_info(s);
    for (const bench::Kernel& k : bench::kernels(s, impls)) {
      progress.show(fmt::format("{} {} ({})", info.name, k.name, k.impl));
      out.push_back({std::string(info.name) + " kernel", k.name, k.impl, measure(k.run, iterations, rate)});
    }
  }
  return out;
}

std::vector<Result> bench_ntt_plans(std::size_t iterations, double rate, const Progress& progress) {
  std::array<std::int16_t, mlkem::kN> input{};
  for (int i = 0; i < mlkem::kN; ++i) input[i] = static_cast<std::int16_t>((i * 1237) % mlkem::kQ - mlkem::kQ / 2);
  std::vector<Result> forward, inverse;
  for (const mlkem::NttPlanEntry& plan : mlkem::all_ntt_plans()) {
    std::array<std::int16_t, mlkem::kN> a{};
    progress.show(fmt::format("NTT plan {}", plan.name));
    const Stats f = measure([&] { a = input; plan.forward(a.data()); __asm__ volatile("" : : "r"(a.data()) : "memory"); },
                            iterations, rate);
    const Stats i = measure([&] { a = input; plan.inverse(a.data()); __asm__ volatile("" : : "r"(a.data()) : "memory"); },
                            iterations, rate);
    forward.push_back({"ML-KEM NTT plans, forward", std::string(plan.name), "portable", f});
    inverse.push_back({"ML-KEM NTT plans, inverse", std::string(plan.name), "portable", i});
  }
  std::vector<Result> out;
  for (auto* list : {&forward, &inverse}) {
    const auto ref = std::find_if(list->begin(), list->end(), [](const Result& r) { return r.item == "1111111"; });
    const double ref_ticks = static_cast<double>(ref->stats.median);
    for (Result& r : *list) r.speedup = ref_ticks / static_cast<double>(std::max<std::uint64_t>(r.stats.median, 1));
    std::stable_sort(list->begin(), list->end(),
                     [](const Result& a, const Result& b) { return a.stats.median < b.stats.median; });
    out.insert(out.end(), list->begin(), list->end());
  }
  return out;
}

}  // namespace

void run_bench(const BenchOptions& opts) {
  apply_engine_options({std::nullopt, opts.ntt_plan});
  std::vector<Scheme> schemes;
  for (const std::string& a : opts.algorithms) schemes.push_back(require_algorithm(a));
  if (schemes.empty())
    for (const SchemeInfo& info : all_schemes()) schemes.push_back(info.scheme);

  const std::vector<std::string_view> usable = simd::usable_implementations();
  std::vector<std::string> impls;
  const std::string impl_choice = lower_ascii(opts.impl);
  const auto named_impl = simd::parse_impl(impl_choice);
  if (impl_choice == "auto") {
    impls.emplace_back(simd::impl_name(simd::active_impl()));  // PQKEM_IMPL or the best usable
  } else if (impl_choice == "all") {
    impls.assign(usable.begin(), usable.end());
  } else if (named_impl) {
    const std::string_view name = simd::impl_name(*named_impl);
    if (std::find(usable.begin(), usable.end(), name) == usable.end())
      throw_failure(fmt::format("implementation '{}' is not usable on this CPU or in this build (usable: {})", name,
                                fmt::join(usable, ", ")));
    impls.emplace_back(name);
  } else {
    throw_usage(fmt::format("--impl must be auto, portable, avx2 or all, not '{}'", printable(opts.impl)));
  }
  if (opts.baseline && opts.json) throw_usage("--baseline compares in the table; it cannot be combined with --json");
  if (opts.fail_on_regression && !opts.baseline) throw_usage("--fail-on-regression needs --baseline");
  if (opts.kernels && opts.ntt_plans) throw_usage("--kernels and --ntt-plans are separate runs; give one of them");

  const std::map<std::string, double> baseline =
      opts.baseline ? read_baseline(*opts.baseline) : std::map<std::string, double>{};
  const double rate = tick_rate();
  const auto iterations = static_cast<std::size_t>(opts.iterations);
  std::vector<Result> results;
  {
    const Progress progress;
    if (opts.ntt_plans) results = bench_ntt_plans(iterations, rate, progress);
    else if (opts.kernels) results = bench_kernels(schemes, impls, iterations, rate, progress);
    else results = bench_operations(schemes, impls, iterations, rate, progress);
    if (!opts.ntt_plans) add_speedups(results);
  }

  if (opts.json) {
    print_json(results, rate);
    return;
  }
  write_stdout(fmt::format(
      "pqkem bench: median and 10th percentile of rdtsc ticks per call.\n"
      "rdtsc ticks are reference-clock ticks (TSC measured at {:.3f} GHz), not core cycles.\n"
      "CPU: {}; implementations usable: {}\n\n",
      rate / 1e9, simd::cpu_brand(), fmt::join(usable, ", ")));
  print_table(results, rate, baseline, opts.ntt_plans ? "vs 1111111" : "speed-up");

  if (!baseline.empty()) {
    const auto regressions = std::count_if(results.begin(), results.end(), [&](const Result& r) {
      const auto it = baseline.find(r.name());
      return it != baseline.end() && it->second > 0 && static_cast<double>(r.stats.median) / it->second > kRegression;
    });
    if (regressions > 0) {
      const std::string what = fmt::format("{} measurement(s) more than 5% slower than the baseline", regressions);
      if (opts.fail_on_regression) throw_failure(what, input_name(*opts.baseline));
      fmt::print(stderr, "pqkem: {} ({})\n", what, printable(input_name(*opts.baseline)));
    }
  }
}

}  // namespace pqkem::cli
