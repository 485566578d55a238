#include "bench_baseline.hpp"

#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "io.hpp"
#include "text.hpp"
#include "ticks.hpp"

namespace pqkem::cli {
namespace {

/// "ML-KEM-768 keypair (avx2)" -> "ML-KEM-768 keypair": the name without its implementation.
std::string_view without_impl(std::string_view name) {
  const auto open = name.rfind(" (");
  return open != std::string_view::npos && name.ends_with(')') ? name.substr(0, open) : name;
}

/// A tick count of a baseline file: an integer, not a fraction that would be cut.
std::int64_t tick_count(const nlohmann::json& v, const std::string& row) {
  if (!v.is_number_integer()) throw std::runtime_error(fmt::format("'{}': tick counts must be integers", row));
  return v.get<std::int64_t>();
}

/// `v` as an array; `what` names it in the error.
const nlohmann::json::array_t& array_of(const nlohmann::json& v, const std::string& what) {
  if (!v.is_array()) throw std::runtime_error(fmt::format("{} must be an array, not {}", what, v.type_name()));
  return v.get_ref<const nlohmann::json::array_t&>();
}

/// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string_view json_message(const nlohmann::json::exception& e) {
  const std::string_view what = e.what();
  const auto end = what.find("] ");
  return what.starts_with("[json.exception.") && end != std::string_view::npos ? what.substr(end + 2) : what;
}

/// The baseline row for `row`: the one of the same name, or else, when the baseline and this
/// run each have exactly one row of the same measurement (name without the implementation),
/// that one. So a baseline of one build compares with a build whose default implementation
/// differs (AVX2 compiled out), and `--impl portable` with a baseline of `--impl avx2`.
Comparison compare_row(const Baseline& baseline, const Row& row, const std::vector<Row>& results,
                       std::uint64_t granularity, double drift) {
  Comparison c;
  const std::string name = row.name();
  for (const BaselineRow& b : baseline.rows)
    if (b.name == name) c.base = &b;
  if (c.base == nullptr) {
    const std::string key = row.key();
    const auto same_key = [&](std::string_view n) { return without_impl(n) == key; };
    const auto in_base = std::count_if(baseline.rows.begin(), baseline.rows.end(),
                                       [&](const BaselineRow& b) { return same_key(b.name); });
    const auto in_run = std::count_if(results.begin(), results.end(), [&](const Row& r) { return r.key() == key; });
    if (in_base == 1 && in_run == 1) {
      c.base = &*std::find_if(baseline.rows.begin(), baseline.rows.end(),
                              [&](const BaselineRow& b) { return same_key(b.name); });
      const std::string_view rest = std::string_view(c.base->name).substr(key.size());
      if (rest.size() > 3) c.base_impl = std::string(rest.substr(2, rest.size() - 3));
    }
  }
  if (c.base != nullptr)
    c.verdict = bench_stats::compare(c.base->summary, row.summary(),
                                     static_cast<double>(std::max(granularity, c.base->granularity)), drift);
  return c;
}

}  // namespace

Baseline read_baseline(const std::string& path) {
  const SecretBytes content = read_input(path);
  Baseline b{path, {}, false, {}};
  const auto refuse = [&](std::string_view why) {
    throw_failure(fmt::format("cannot use as a baseline: {}", printable(why)), input_name(path));
  };
  try {
    const nlohmann::json doc = nlohmann::json::parse(content.view().begin(), content.view().end());
    for (const nlohmann::json& e : array_of(doc, "the file (the output of bench --json)")) {
      if (!e.is_object()) throw std::runtime_error(fmt::format("an entry must be an object, not {}", e.type_name()));
      BaselineRow row{e.at("name").get<std::string>(), {}, 0};
      // Figures of another clock (x86's rdtsc ticks against nanoseconds elsewhere) do not compare.
      if (e.contains("unit") && e.at("unit").get<std::string>() != timing::kUnit)
        throw std::runtime_error(fmt::format("'{}' is in {}, and this machine measures in {} ({})", row.name,
                                             e.at("unit").get<std::string>(), timing::kUnit, timing::kClock));
      if (e.contains("rounds")) {
        std::vector<double> medians;
        for (const nlohmann::json& m : array_of(e.at("rounds"), fmt::format("'{}': rounds", row.name)))
          medians.push_back(static_cast<double>(tick_count(m, row.name)));
        if (medians.empty() || *std::min_element(medians.begin(), medians.end()) <= 0)
          throw std::runtime_error(fmt::format("'{}': rounds must be positive tick counts", row.name));
        row.summary = bench_stats::summarize(medians);
      } else {
        row.summary = {e.at("value").get<double>(), std::nullopt};
        b.without_rounds = true;
      }
      // A median of tick counts is at least 1: a smaller value (1e-320) would make every ratio inf.
      if (!(row.summary.best >= 1) || !std::isfinite(row.summary.best))
        throw std::runtime_error(fmt::format("'{}': value must be a tick count of at least 1", row.name));
      if (e.contains("timer_granularity"))
        row.granularity =
            static_cast<std::uint64_t>(std::max<std::int64_t>(tick_count(e.at("timer_granularity"), row.name), 0));
      if (e.contains("reference")) {
        const nlohmann::json& refs = e.at("reference");
        if (!refs.is_object()) throw std::runtime_error(fmt::format("'{}': reference must be an object", row.name));
        for (const auto& [name, ticks] : refs.items()) {
          const double t = ticks.get<double>();
          if (!(t >= 1) || !std::isfinite(t))
            throw std::runtime_error(
                fmt::format("'{}': reference '{}' must be a tick count of at least 1", row.name, name));
          b.references[name] = t;
        }
      }
      b.rows.push_back(std::move(row));
    }
  } catch (const nlohmann::json::exception& e) {
    refuse(json_message(e));
  } catch (const std::exception& e) {
    refuse(e.what());
  }
  return b;
}

double machine_drift(const Baseline& baseline, const std::vector<Row>& references) {
  double d = 0;
  for (const Row& r : references) {
    const auto it = baseline.references.find(r.item);
    if (it != baseline.references.end()) d = std::max(d, bench_stats::drift(it->second, static_cast<double>(r.best())));
  }
  return d;
}

std::vector<Comparison> compare_all(const Baseline& baseline, const std::vector<Row>& results,
                                    std::uint64_t granularity, const std::vector<Row>& references) {
  const double drift = machine_drift(baseline, references);
  std::vector<Comparison> out;
  for (const Row& r : results) out.push_back(compare_row(baseline, r, results, granularity, drift));
  return out;
}

/// After the table: a note on an old baseline, and the regressions (exit 1 with
/// --fail-on-regression).
void report_regressions(const Baseline& baseline, const std::vector<Comparison>& compared, bool fail) {
  if (baseline.without_rounds)
    fmt::print(stderr,
               "pqkem: note: this baseline has no rounds (an older pqkem wrote it); its noise is taken to be "
               "this run's; write it again for a fairer comparison ({})\n",
               printable(input_name(baseline.path)));
  const auto regressions =
      std::count_if(compared.begin(), compared.end(), [](const Comparison& c) { return c.verdict.regression; });
  if (regressions == 0) return;
  const std::string what =
      fmt::format("{} measurement(s) slower than the baseline by more than their noise limit", regressions);
  if (fail) throw_failure(what, input_name(baseline.path));
  fmt::print(stderr, "pqkem: {} ({})\n", what, printable(input_name(baseline.path)));
}

}  // namespace pqkem::cli
