// pqkem bench: rdtsc medians per operation, per kernel and per NTT merge plan, as a table or
// as github-action-benchmark "customSmallerIsBetter" JSON.
//
// Timing: each call is bracketed by lfence; rdtsc; lfence, after a warm-up. A measurement is
// R rounds of N calls; a round's statistic is the median of its calls, and the rounds of all
// rows are interleaved (round 1 of every row, then round 2 ...), so that a burst of load from
// another tenant of a shared machine spoils one round of many rows instead of one whole row.
// A row's figure is its lowest round median; bench_stats.hpp says why and how --baseline
// decides on a regression. rdtsc counts at the TSC's fixed reference rate, not core cycles.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>

#include "bench_kernels.hpp"
#include "hybrid/x25519.hpp"
#include "rng.hpp"
#include "bench_stats.hpp"
#include "commands.hpp"
#include "mlkem/ntt.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"

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

/// The timer's granularity: the smallest nonzero difference of two back-to-back ticks() over
/// many tries. It is the finest difference a measurement can show: the counter's step (some
/// VMs advance rdtsc in steps of tens of ticks) or the cost of one fenced read, whichever is
/// larger. Always at least 1.
std::uint64_t timer_granularity() {
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t a = ticks();
    const std::uint64_t b = ticks();
    if (b > a) best = std::min(best, b - a);
  }
  return best == std::numeric_limits<std::uint64_t>::max() ? 1 : best;
}

/// Time budget per row when --iterations is not given: as many calls as fit in kAutoSeconds,
/// split over the rounds, each round between kMinAuto and max(kMinAuto, kMaxAuto / rounds).
constexpr double kAutoSeconds = 0.25;
constexpr std::size_t kMinAuto = 11, kMaxAuto = 2000;
/// With --baseline, the rows over their limit are measured again, up to this many times, with
/// as many rounds each time; their figure is then the lowest median of all their rounds. Noise
/// only adds time, so re-measuring clears a row a passing disturbance flagged, but cannot make
/// truly slower code reach its baseline.
constexpr int kConfirmPasses = 2;

/// The reference loop's table: 4 KiB of xorshift64 output, made at compile time.
constexpr std::array<std::uint64_t, 512> kReferenceTable = [] {
  std::array<std::uint64_t, 512> t{};
  std::uint64_t x = 0x9E3779B97F4A7C15;
  for (auto& v : t) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v = x;
  }
  return t;
}();

/// The reference loop (bench_stats.hpp, "drift"): a fixed workload no change to pqkem touches,
/// of the same kind as the kernels: four independent chains of loads from an L1-resident
/// table, 64-bit multiplies and shifts, about 10 microseconds per call.
std::uint64_t reference_loop() noexcept {
  std::uint64_t a = 1, b = 2, c = 3, d = 4;
  for (int i = 0; i < 2048; ++i) {
    a = (a ^ kReferenceTable[a & 511]) * 0x9E3779B97F4A7C15ULL + (a >> 29);
    b = (b ^ kReferenceTable[b & 511]) * 0xBF58476D1CE4E5B9ULL + (b >> 31);
    c = (c ^ kReferenceTable[c & 511]) * 0x94D049BB133111EBULL + (c >> 27);
    d = (d ^ kReferenceTable[d & 511]) * 0xD6E8FEB86659FD93ULL + (d >> 33);
  }
  return a ^ b ^ c ^ d;
}

/// OpenSSL's SHA3-256 and AES-256-GCM of 4 KiB: fixed workloads outside pqkem, using other
/// execution units (OpenSSL's Keccak is scalar; its AES-GCM uses AES-NI and wide vectors).
class OpenSslReference {
public:
  OpenSslReference() : m_md(EVP_MD_fetch(nullptr, "SHA3-256", nullptr)), m_cipher(EVP_CIPHER_fetch(nullptr, "AES-256-GCM", nullptr)),
                       m_ctx(EVP_CIPHER_CTX_new()) {
    for (std::size_t i = 0; i < m_in.size(); ++i) m_in[i] = static_cast<unsigned char>(i * 131);
  }
  ~OpenSslReference() {
    EVP_MD_free(m_md);
    EVP_CIPHER_free(m_cipher);
    EVP_CIPHER_CTX_free(m_ctx);
  }
  OpenSslReference(const OpenSslReference&) = delete;
  OpenSslReference& operator=(const OpenSslReference&) = delete;
  [[nodiscard]] bool usable() const { return m_md != nullptr && m_cipher != nullptr && m_ctx != nullptr; }
  void sha3() {
    unsigned int n = 0;
    EVP_Digest(m_in.data(), m_in.size(), m_out.data(), &n, m_md, nullptr);
  }
  void aes_gcm() {
    static const unsigned char key[32] = {1}, iv[12] = {2};
    int n = 0;
    EVP_EncryptInit_ex2(m_ctx, m_cipher, key, iv, nullptr);
    EVP_EncryptUpdate(m_ctx, m_out.data(), &n, m_in.data(), static_cast<int>(m_in.size()));
  }

private:
  EVP_MD* m_md;
  EVP_CIPHER* m_cipher;
  EVP_CIPHER_CTX* m_ctx;
  std::array<unsigned char, 4096> m_in{};
  std::array<unsigned char, 4096 + 64> m_out{};
};

// --- Rows ------------------------------------------------------------------------------------

struct Row {
  std::string group;                   ///< "ML-KEM-768", or "ML-KEM NTT plans, forward"
  std::string item;                    ///< "keypair", "NTT", "3211"
  std::string impl;                    ///< "portable"
  std::function<void()> run;           ///< one call
  std::optional<simd::Impl> engine;    ///< selected before each round (operations)
  std::size_t iterations = 0;          ///< calls per round (0: not chosen yet)
  std::vector<std::uint64_t> rounds;   ///< median ticks of each round, in the order measured
  std::vector<std::uint64_t> calls;    ///< every timed call, for the 10th percentile
  double speedup = 0;                  ///< vs the portable row / vs plan 1111111 (0: none)

  [[nodiscard]] std::string key() const { return group + " " + item; }
  [[nodiscard]] std::string name() const { return fmt::format("{} ({})", key(), impl); }
  [[nodiscard]] std::uint64_t best() const { return *std::min_element(rounds.begin(), rounds.end()); }
  [[nodiscard]] bench_stats::Summary summary() const {
    return bench_stats::summarize(std::vector<double>(rounds.begin(), rounds.end()));
  }
  [[nodiscard]] std::uint64_t p10() const {
    std::vector<std::uint64_t> c = calls;
    std::nth_element(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(c.size() / 10), c.end());
    return c[c.size() / 10];
  }
};

Row make_row(std::string group, std::string item, std::string impl, std::function<void()> run,
             std::optional<simd::Impl> engine = std::nullopt) {
  Row r;
  r.group = std::move(group);
  r.item = std::move(item);
  r.impl = std::move(impl);
  r.run = std::move(run);
  r.engine = engine;
  return r;
}

struct Timing {
  int rounds = 5;
  std::size_t iterations = 0;  ///< --iterations: calls per round (0: from the time budget)
  double rate = 0;             ///< ticks per second
};

class Progress {
public:
  Progress() : m_tty(isatty(STDERR_FILENO) == 1) {}
  void show(const std::string& what) const {
    if (m_tty) fmt::print(stderr, "\r\033[Kbench: {}", what);
  }
  ~Progress() {
    if (m_tty) fmt::print(stderr, "\r\033[K");
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

private:
  bool m_tty;
};

/// Measures `timing.rounds` more rounds of every row, interleaved.
void measure_rounds(const std::vector<Row*>& rows, const Timing& timing, const Progress& progress) {
  const std::size_t per_round_max = std::max(kMinAuto, kMaxAuto / static_cast<std::size_t>(timing.rounds));
  std::vector<std::uint64_t> samples;
  for (int r = 0; r < timing.rounds; ++r) {
    for (Row* row : rows) {
      progress.show(fmt::format("round {}/{}: {}", r + 1, timing.rounds, row->name()));
      if (row->engine) simd::set_impl(*row->engine);
      // Warm-up: caches and branch predictors (other rows ran since this row's last round);
      // longer the first time, for lazily fetched objects and the CPU's clock.
      const double warm_seconds = row->rounds.empty() ? 0.02 : 0.002;
      const std::uint64_t w0 = ticks();
      std::size_t warm = 0;
      do {
        row->run();
        ++warm;
      } while (warm < 3 || (ticks() - w0 < static_cast<std::uint64_t>(timing.rate * warm_seconds) && warm < 1000));
      if (row->iterations == 0) {
        if (timing.iterations != 0) {
          row->iterations = timing.iterations;
        } else {
          const double per_call = static_cast<double>(ticks() - w0) / static_cast<double>(warm);
          const double budget = kAutoSeconds / timing.rounds * timing.rate;
          row->iterations = std::clamp(static_cast<std::size_t>(budget / std::max(per_call, 1.0)), kMinAuto, per_round_max);
        }
      }
      samples.resize(row->iterations);
      for (auto& s : samples) {
        const std::uint64_t t0 = ticks();
        row->run();
        s = ticks() - t0;
      }
      row->calls.insert(row->calls.end(), samples.begin(), samples.end());
      std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2), samples.end());
      row->rounds.push_back(samples[samples.size() / 2]);
    }
  }
}

std::vector<Row*> pointers(std::vector<Row>& rows) {
  std::vector<Row*> p;
  for (Row& r : rows) p.push_back(&r);
  return p;
}

// --- Baselines -------------------------------------------------------------------------------

struct BaselineRow {
  std::string name;
  bench_stats::Summary summary;
  std::uint64_t granularity = 0;  ///< 0: not recorded
};

struct Baseline {
  std::string path;
  std::vector<BaselineRow> rows;
  bool without_rounds = false;  ///< written by a pqkem without rounds: one median per row
  std::map<std::string, double> references;  ///< reference workload -> its ticks in that run
};

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

/// An earlier --json output. Exit 1 if unreadable (read_input's checks and size limit, as for
/// every input) or not in that format. Files from before rounds existed (no "rounds" member)
/// are read as one round with an unknown spread.
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
        row.granularity = static_cast<std::uint64_t>(std::max<std::int64_t>(tick_count(e.at("timer_granularity"), row.name), 0));
      if (e.contains("reference")) {
        const nlohmann::json& refs = e.at("reference");
        if (!refs.is_object()) throw std::runtime_error(fmt::format("'{}': reference must be an object", row.name));
        for (const auto& [name, ticks] : refs.items()) {
          const double t = ticks.get<double>();
          if (!(t >= 1) || !std::isfinite(t))
            throw std::runtime_error(fmt::format("'{}': reference '{}' must be a tick count of at least 1", row.name, name));
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

struct Comparison {
  const BaselineRow* base = nullptr;  ///< nullptr: no such row in the baseline
  std::string base_impl;              ///< set when matched to another implementation's row
  bench_stats::Verdict verdict;
};

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

/// The machine's slow-down since the baseline's run: the largest of the reference workloads'.
double machine_drift(const Baseline& baseline, const std::vector<Row>& references) {
  double d = 0;
  for (const Row& r : references) {
    const auto it = baseline.references.find(r.item);
    if (it != baseline.references.end()) d = std::max(d, bench_stats::drift(it->second, static_cast<double>(r.best())));
  }
  return d;
}

std::vector<Comparison> compare_all(const Baseline& baseline, const std::vector<Row>& results, std::uint64_t granularity,
                                    const std::vector<Row>& references) {
  const double drift = machine_drift(baseline, references);
  std::vector<Comparison> out;
  for (const Row& r : results) out.push_back(compare_row(baseline, r, results, granularity, drift));
  return out;
}

// --- Output ----------------------------------------------------------------------------------

double percent(const std::optional<double>& x) { return 100 * x.value_or(0.0); }

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
                 .add_string("unit", "ticks")
                 .add_number("value", r.best())
                 .add_string("extra", fmt::format("p10={} ticks; spread={:.1f}%; rounds={}; iterations={}; "
                                                  "ops_per_s={:.0f}; tsc_ghz={:.3f}; timer_granularity={} ticks",
                                                  r.p10(), percent(s.spread), r.rounds.size(), r.iterations,
                                                  rate / static_cast<double>(std::max<std::uint64_t>(r.best(), 1)),
                                                  rate / 1e9, granularity))
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
  std::string out = fmt::format("{:<{}} {:<{}} {:<{}} {:>11} {:>7} {:>11} {:>10} {:>9}", "algorithm", group_width,
                                "operation", item_width, "impl", impl_width, "median", "spread", "p10", "ops/s", "rounds");
  if (with_speedup) out += fmt::format(" {:>9}", speedup_header);
  if (!compared.empty()) out += fmt::format(" {:>12} {:>8}", "vs baseline", "limit");
  out += '\n';
  std::string last_group;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Row& r = results[i];
    if (!last_group.empty() && r.group != last_group) out += '\n';
    last_group = r.group;
    out += fmt::format("{:<{}} {:<{}} {:<{}} {:>11} {:>6.1f}% {:>11} {:>10.0f} {:>9}", r.group, group_width, r.item,
                       item_width, r.impl, impl_width,
                       group_digits(r.best()), percent(r.summary().spread), group_digits(r.p10()),
                       rate / static_cast<double>(std::max<std::uint64_t>(r.best(), 1)),
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

// --- What is measured -----------------------------------------------------------------------

std::vector<Row> operation_rows(const std::vector<Scheme>& schemes, const std::vector<simd::Impl>& impls) {
  std::vector<Row> out;
  for (Scheme s : schemes) {
    const SchemeInfo& info = scheme_info(s);
    for (const simd::Impl impl : impls) {
      simd::set_impl(impl);
      // Fixed inputs: a key pair and a ciphertext made once, outside the timed calls.
      auto kp = std::make_shared<const KeyPair>(keygen(s));
      auto enc = std::make_shared<const Encapsulation>(encaps(s, kp->pk));
      const std::pair<const char*, std::function<void()>> ops[] = {
          {"keypair", [s] { const KeyPair k = keygen(s); }},
          {"encaps", [s, kp] { const Encapsulation e = encaps(s, kp->pk); }},
          {"decaps", [s, kp, enc] { const SecretBytes k = decaps(s, kp->sk, enc->ct); }},
      };
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
    const std::pair<const char*, std::function<void()>> ops[] = {
        {"keypair", [x] { x25519::base(x->pk, x->sk); }},
        {"encaps",
         [x] {
           random_bytes(x->eph);
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
      out.push_back(make_row(std::string(info.name) + " kernel", std::move(k.name), std::move(k.impl), std::move(k.run)));
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
    if (std::find(usable.begin(), usable.end(), name) == usable.end())
      throw_failure(fmt::format("implementation '{}' is not usable on this CPU or in this build (usable: {})", name,
                                fmt::join(usable, ", ")));
    impls.push_back(*named);
  } else {
    throw_usage(fmt::format("--impl must be auto, portable, avx2, avx512 or all, not '{}'", printable(impl_option)));
  }
  return impls;
}

void check_bench_options(const BenchOptions& opts) {
  if (opts.baseline && opts.json) throw_usage("--baseline compares in the table; it cannot be combined with --json");
  if (opts.fail_on_regression && !opts.baseline) throw_usage("--fail-on-regression needs --baseline");
  if (opts.kernels && opts.ntt_plans) throw_usage("--kernels and --ntt-plans are separate runs; give one of them");
  const auto named = simd::parse_impl(lower_ascii(opts.impl));
  if (opts.ntt_plans && named && *named != simd::Impl::portable)
    throw_usage("--ntt-plans measures the portable NTT's merge plans only; the AVX2 NTT has one schedule (see --kernels)");
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

/// The lines above the table: method, clock, references (and their change since the baseline).
std::string table_header(const std::vector<Row>& references, const Timing& timing, std::uint64_t granularity,
                         const std::optional<Baseline>& baseline) {
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
  return fmt::format(
      "pqkem bench: rdtsc ticks per call. median: the lowest of {} round medians (rounds interleaved across rows);\n"
      "spread: how far the middle round median lies above it; p10: 10th percentile of all calls.\n"
      "rdtsc ticks are reference-clock ticks (TSC measured at {:.3f} GHz), not core cycles.\n"
      "timer granularity: {} ticks (smallest nonzero difference of back-to-back reads).\n"
      "reference workloads, ticks{}: {}{}\n"
      "CPU: {}; implementations usable: {}\n\n",
      timing.rounds, timing.rate / 1e9, granularity, baseline ? " (change since the baseline)" : "",
      fmt::join(ref_text, ", "),
      baseline ? fmt::format("\nmachine drift: {:+.1f}% (the largest slow-down above; added to every limit)",
                             100 * machine_drift(*baseline, references))
               : "",
      simd::cpu_brand(), fmt::join(simd::usable_implementations(), ", "));
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

}  // namespace

void run_bench(const BenchOptions& opts) {
  apply_engine_options({std::nullopt, opts.ntt_plan});
  apply_rng_option(opts.rng);
  use_openssl();  // the reference workloads; the KAT DRBG of the kernel rows
  std::vector<Scheme> schemes;
  for (const std::string& a : opts.algorithms) schemes.push_back(require_algorithm(a));
  if (schemes.empty())
    for (const SchemeInfo& info : all_schemes()) schemes.push_back(info.scheme);
  const std::vector<simd::Impl> impls = selected_impls(opts.impl);
  check_bench_options(opts);

  const std::optional<Baseline> baseline =
      opts.baseline ? std::optional<Baseline>(read_baseline(*opts.baseline)) : std::nullopt;
  const Timing timing{opts.rounds, static_cast<std::size_t>(opts.iterations), tick_rate()};
  const std::uint64_t granularity = timer_granularity();

  std::vector<Row> results = opts.ntt_plans ? ntt_plan_rows()
                             : opts.kernels ? kernel_rows(schemes, impls)
                                            : operation_rows(schemes, impls);
  OpenSslReference openssl;
  std::vector<Row> references = reference_rows(openssl);
  measure_all(results, references, timing, baseline, granularity);
  if (opts.ntt_plans) results = order_ntt_plans(std::move(results));
  else add_speedups(results);
  std::vector<Comparison> compared;
  if (baseline) compared = compare_all(*baseline, results, granularity, references);

  if (opts.json) {
    print_json(results, timing.rate, granularity, references);
    return;
  }
  write_stdout(table_header(references, timing, granularity, baseline));
  print_table(results, timing.rate, compared, opts.ntt_plans ? "vs 1111111" : "speed-up");
  if (baseline) report_regressions(*baseline, compared, opts.fail_on_regression);
}

void declare_bench(CommandBuilder& cmd, BenchOptions& opts) {
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
  cmd.flag("--fail-on-regression", opts.fail_on_regression,
           "With --baseline: exit 1 if any row is flagged as a regression");
  cmd.footer(
      "Each measurement is R rounds of N calls after a warm-up; a round's figure is the median of its\n"
      "calls, and rounds are interleaved across rows, so a burst of load spoils one round of many rows\n"
      "rather than a whole row. 'median' is the lowest round median (noise only adds time: the least\n"
      "disturbed round is the best estimate); 'spread' is how far the middle round median lies above it.\n"
      "The timer's granularity (smallest nonzero step of back-to-back rdtsc reads) is measured and shown.\n\n"
      "--baseline flags a row when its median exceeds the baseline's median by more than\n"
      "  limit = 5% + spread(baseline) + spread(this run) + drift + 2 x granularity / baseline median,\n"
      "that is, when even this run's best round is slower than the baseline's best by more than either\n"
      "run showed as noise. drift is how much slower the machine itself got: the largest slow-down of\n"
      "three fixed reference workloads outside pqkem (a loop, OpenSSL SHA3-256 and AES-256-GCM), timed\n"
      "in the same rounds and kept in the JSON; 5% covers what remains unmeasured. Each row's limit is\n"
      "shown, so a run too noisy to see a small slow-down says so. Flagged rows are measured again (up\n"
      "to twice, R rounds each) and keep their lowest round: a passing disturbance is cleared, a real\n"
      "slow-down is not. A row of another implementation matches when each side has exactly one of that\n"
      "measurement (a baseline of --impl avx2 against --impl portable, or a build without AVX2).\n"
      "Baselines from before rounds were recorded are read as one round, as noisy as this run.\n\n"
      "rdtsc ticks count at the TSC's fixed reference rate, not core clock cycles; the rate is measured\n"
      "and printed. Only ratios measured on one machine are comparable.\n\n"
      "Examples:\n"
      "  pqkem bench -a ML-KEM-768\n"
      "  pqkem bench --kernels --impl all\n"
      "  pqkem bench -a ML-KEM-512 --json > base.json\n"
      "  pqkem bench -a ML-KEM-512 --baseline base.json --fail-on-regression || echo \"slower than base.json\"\n");
}

}  // namespace pqkem::cli
