#include "bench_timer.hpp"

#include <limits>

namespace pqkem::cli {
namespace {

/// Time budget per row when --iterations is not given: as many calls as fit in kAutoSeconds,
/// split over the rounds, each round between kMinAuto and max(kMinAuto, kMaxAuto / rounds).
constexpr double kAutoSeconds = 0.25;
constexpr std::size_t kMinAuto = 11, kMaxAuto = 2000;
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

}  // namespace

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

std::uint64_t timer_granularity() {
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t a = ticks();
    const std::uint64_t b = ticks();
    if (b > a) best = std::min(best, b - a);
  }
  return best == std::numeric_limits<std::uint64_t>::max() ? 1 : best;
}

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
          row->iterations =
              std::clamp(static_cast<std::size_t>(budget / std::max(per_call, 1.0)), kMinAuto, per_round_max);
        }
      }
      samples.resize(row->iterations);
      for (auto& s : samples) {
        const std::uint64_t t0 = ticks();
        row->run();
        s = ticks() - t0;
      }
      row->calls.insert(row->calls.end(), samples.begin(), samples.end());
      std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2),
                       samples.end());
      row->rounds.push_back(samples[samples.size() / 2]);
    }
  }
}

std::vector<Row*> pointers(std::vector<Row>& rows) {
  std::vector<Row*> p;
  for (Row& r : rows) p.push_back(&r);
  return p;
}

}  // namespace pqkem::cli
