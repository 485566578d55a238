#include "bench_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "json.hpp"
#include "output.hpp"
#include "simd/cpu.hpp"

namespace pqkem::cli {
namespace {

double percent(const std::optional<double>& x) { return 100 * x.value_or(0.0); }

/// Operations per second of a call that takes `best` clock units at `rate` units per second:
/// whole numbers from 10 up; below, two significant digits (a 64 MiB seal under an emulator
/// takes seconds, and "0" would say it never finishes).
std::string ops_per_second(double rate, std::uint64_t best) {
  const double ops = rate / static_cast<double>(std::max<std::uint64_t>(best, 1));
  return ops >= 10 ? fmt::format("{:.0f}", ops) : fmt::format("{:.2g}", ops);
}

}  // namespace

void print_json(const std::vector<Row>& results, double rate, std::uint64_t granularity,
                const std::vector<Row>& references) {
  JsonValue reference = JsonValue::object();
  for (const Row& r : references) reference.add_number(r.item, r.best());
  JsonValue out = JsonValue::array();
  for (const Row& r : results) {
    const bench_stats::Summary s = r.summary();
    JsonValue rounds = JsonValue::array();
    for (const std::uint64_t m : r.rounds) rounds.push(JsonValue::number(m));
    out.push(JsonValue::object()
                 .add_string("name", r.name())
                 .add_string("unit", timing::kUnit)
                 .add_string("clock", timing::kClock)
                 .add_number("value", r.best())
                 .add_string("extra", fmt::format("p10={} {}; spread={:.1f}%; rounds={}; iterations={}; "
                                                  "ops_per_s={}; {}={:.3f}; timer_granularity={} {}",
                                                  r.p10(), timing::kUnit, percent(s.spread), r.rounds.size(),
                                                  r.iterations, ops_per_second(rate, r.best()),
                                                  timing::kTsc ? "tsc_ghz" : "clock_ghz", rate / 1e9, granularity,
                                                  timing::kUnit))
                 .add("rounds", std::move(rounds))
                 .add_number("timer_granularity", granularity)
                 .add("reference", reference));
  }
  write_stdout(out.dump());
}

std::string group_digits(std::uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), 1, ',');
  return s;
}

void print_table(const std::vector<Row>& results, double rate, const std::vector<Comparison>& compared,
                 const char* speedup_header) {
  const bool with_speedup = std::any_of(results.begin(), results.end(), [](const Row& r) { return r.speedup > 0; });
  // The text columns are as wide as their longest entry, so every row lines up.
  std::size_t group_width = std::string_view("algorithm").size();
  std::size_t item_width = std::string_view("operation").size();
  std::size_t impl_width = std::string_view("impl").size();
  for (const Row& r : results) {
    group_width = std::max(group_width, r.group.size());
    item_width = std::max(item_width, r.item.size());
    impl_width = std::max(impl_width, r.impl.size());
  }
  std::string out =
      fmt::format("{:<{}} {:<{}} {:<{}} {:>11} {:>7} {:>11} {:>10} {:>9}", "algorithm", group_width, "operation",
                  item_width, "impl", impl_width, "median", "spread", "p10", "ops/s", "rounds");
  if (with_speedup) out += fmt::format(" {:>9}", speedup_header);
  if (!compared.empty()) out += fmt::format(" {:>12} {:>8}", "vs baseline", "limit");
  out += '\n';
  std::string last_group;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Row& r = results[i];
    if (!last_group.empty() && r.group != last_group) out += '\n';
    last_group = r.group;
    out += fmt::format("{:<{}} {:<{}} {:<{}} {:>11} {:>6.1f}% {:>11} {:>10} {:>9}", r.group, group_width, r.item,
                       item_width, r.impl, impl_width, group_digits(r.best()), percent(r.summary().spread),
                       group_digits(r.p10()), ops_per_second(rate, r.best()),
                       fmt::format("{}x{}", r.rounds.size(), r.iterations));
    if (with_speedup) out += r.speedup > 0 ? fmt::format(" {:>8.2f}x", r.speedup) : fmt::format(" {:>9}", "");
    if (!compared.empty()) {
      const Comparison& c = compared[i];
      if (c.base == nullptr) {
        out += fmt::format(" {:>12}", "new");
      } else {
        out += fmt::format(" {:>11.3f}x {:>7.1f}%{}{}", c.verdict.ratio, 100 * c.verdict.limit,
                           c.verdict.regression ? "  REGRESSION" : "",
                           c.base_impl.empty() ? "" : fmt::format("  (vs {})", c.base_impl));
      }
    }
    out += '\n';
  }
  write_stdout(out);
}

/// The lines above the table: method, clock, references (and their change since the baseline).
std::string table_header(const std::vector<Row>& references, const Timing& timing, std::uint64_t granularity,
                         const std::optional<Baseline>& baseline, const std::string& coins) {
  std::vector<std::string> ref_text;
  for (const Row& r : references) {
    std::string t = fmt::format("{} {}", r.item, group_digits(r.best()));
    if (baseline) {
      const auto it = baseline->references.find(r.item);
      t += it == baseline->references.end()
               ? " (not in the baseline)"
               : fmt::format(" ({:+.1f}%)", 100 * (static_cast<double>(r.best()) / it->second - 1));
    }
    ref_text.push_back(t);
  }
  const std::string clock =
      timing::kTsc ? fmt::format("rdtsc ticks are reference-clock ticks (TSC measured at {:.3f} GHz), not core cycles.\n",
                                 timing.rate / 1e9)
                   : fmt::format("ns: nanoseconds of {} (this CPU, {}, has no rdtsc).\n", timing::kClock,
                                 simd::cpu_architecture());
  return fmt::format(
      "pqkem bench: {} {} per call. median: the lowest of {} round medians (rounds interleaved across rows);\n"
      "spread: how far the middle round median lies above it; p10: 10th percentile of all calls.\n"
      "{}{}"
      "timer granularity: {} {} (smallest nonzero difference of back-to-back reads).\n"
      "reference workloads, {}{}: {}{}\n"
      "CPU: {}; implementations usable: {}\n\n",
      timing::kTsc ? "rdtsc" : timing::kClock, timing::kUnit, timing.rounds, clock, coins, granularity, timing::kUnit,
      timing::kUnit, baseline ? " (change since the baseline)" : "",
      fmt::join(ref_text, ", "),
      baseline ? fmt::format("\nmachine drift: {:+.1f}% (the largest slow-down above; added to every limit)",
                             100 * machine_drift(*baseline, references))
               : "",
      simd::cpu_brand(), fmt::join(simd::usable_implementations(), ", "));
}

}  // namespace pqkem::cli
