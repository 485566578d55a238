// `pqkem bench`: the JSON is valid github-action-benchmark input with the expected entries, the
// kernel list follows --impl and the parameter set, and --baseline decides as bench_stats.hpp
// says. Benchmarks are never timed tests: only formats, entries and decisions on numbers far
// from any noise are checked.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_kernels.hpp"
#include "bench_stats.hpp"
#include "pqkem.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"

namespace {

/// The decimal number right after the first `before` in `text`, if digits follow it. (Not
/// std::regex: GCC 12 reports a false maybe-uninitialized inside <regex> at -O1 under the
/// sanitizers.)
std::optional<unsigned long> number_after(const std::string& text, std::string_view before) {
  const auto at = text.find(before);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t start = at + before.size();
  std::size_t end = start;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  if (end == start) return std::nullopt;
  return std::stoul(text.substr(start, end - start));
}

struct Outcome {
  int exit_code = -1;
  std::string out;
};

Outcome run(const std::string& args) {
  const std::string cmd = std::string(PQKEM_BINARY) + " " + args + " 2>/dev/null";
  Outcome r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Parses the output of `--iterations 10 --rounds R` and checks every entry's shape; returns
/// the names.
std::set<std::string> entries(const std::string& text, std::size_t rounds = 2) {
  const nlohmann::json doc = nlohmann::json::parse(text);
  std::set<std::string> names;
  for (const auto& e : doc.get_ref<const nlohmann::json::array_t&>()) {
    EXPECT_EQ(e.size(), 8u);
    // The clock is named: rdtsc ticks on x86-64, nanoseconds of the monotonic clock elsewhere.
#if defined(__x86_64__)
    EXPECT_EQ(e.at("unit").get<std::string>(), "ticks");
    EXPECT_EQ(e.at("clock").get<std::string>(), "rdtsc");
#else
    EXPECT_EQ(e.at("unit").get<std::string>(), "ns");
    EXPECT_EQ(e.at("clock").get<std::string>(), "clock_gettime(CLOCK_MONOTONIC)");
#endif
    EXPECT_GT(e.at("value").get<std::int64_t>(), 0);
    EXPECT_NE(e.at("extra").get<std::string>().find("iterations=10;"), std::string::npos);
    EXPECT_NE(e.at("extra").get<std::string>().find("rounds=" + std::to_string(rounds) + ";"), std::string::npos);
    // value is the lowest round median.
    const auto& r = e.at("rounds").get_ref<const nlohmann::json::array_t&>();
    EXPECT_EQ(r.size(), rounds);
    std::int64_t lowest = INT64_MAX;
    for (const auto& m : r) lowest = std::min(lowest, m.get<std::int64_t>());
    EXPECT_EQ(e.at("value").get<std::int64_t>(), lowest);
    EXPECT_GT(e.at("timer_granularity").get<std::int64_t>(), 0);
    EXPECT_GT(e.at("reference").at("loop").get<std::int64_t>(), 0);
    EXPECT_TRUE(names.insert(e.at("name").get<std::string>()).second)
        << "duplicate " << e.at("name").get<std::string>();
  }
  return names;
}

std::string usable_impl_other_than_portable() {
  for (const auto name : pqkem::simd::usable_implementations())
    if (name != "portable") return std::string(name);
  return {};
}

TEST(Bench, OperationsJsonHasEveryAlgorithmAndOperation) {
  const Outcome r = run("bench --iterations 10 --rounds 2 --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto names = entries(r.out);
  // Without --impl, bench measures the implementation `auto` picks on this CPU.
  const std::string impl(pqkem::simd::impl_name(pqkem::simd::best_impl()));
  std::set<std::string> expected;
  for (const auto& info : pqkem::all_schemes())
    for (const char* op : {"keypair", "encaps", "decaps"})
      expected.insert(std::string(info.name) + " " + op + " (" + impl + ")");
  // With a hybrid among them, X25519 alone, for comparison.
  for (const char* op : {"keypair", "encaps", "decaps"}) expected.insert(std::string("X25519 ") + op + " (libsodium)");
  // seal and open for the schemes with an HPKE KEM (draft-ietf-hpke-pq).
  for (const char* alg : {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024", "X-Wing"})
    for (const char* op : {"seal 1 KiB", "open 1 KiB", "seal 64 MiB", "open 64 MiB"})
      expected.insert(std::string(alg) + " " + op + " (" + impl + ")");
  EXPECT_EQ(names, expected);
}

// A hybrid's rows come with X25519's (what it adds to ML-KEM-768), and its kernels are the
// parts it adds: the X25519 calls and, for X-Wing, the SHA-3 expansion and combiner.
TEST(Bench, HybridsComeWithX25519RowsAndKernels) {
  const Outcome r = run("bench -a X25519MLKEM768 --impl portable --iterations 10 --rounds 2 --json");
  ASSERT_EQ(r.exit_code, 0);
  const std::set<std::string> expected = {"X25519MLKEM768 keypair (portable)", "X25519MLKEM768 encaps (portable)",
                                          "X25519MLKEM768 decaps (portable)",  "X25519 keypair (libsodium)",
                                          "X25519 encaps (libsodium)",         "X25519 decaps (libsodium)"};
  EXPECT_EQ(entries(r.out), expected);
  EXPECT_EQ(entries(run("bench -a ML-KEM-768 --impl portable --iterations 10 --rounds 2 --json").out)
                .count("X25519 keypair (libsodium)"),
            0u);
  const auto kernels = entries(run("bench --kernels -a X-Wing --impl portable --iterations 10 --rounds 2 --json").out);
  const std::set<std::string> want_kernels = {
      "X-Wing kernel X25519 base (libsodium) (portable)", "X-Wing kernel X25519 shared (libsodium) (portable)",
      "X-Wing kernel SHAKE256 expand (96 B) (portable)", "X-Wing kernel SHA3-256 combiner (134 B) (portable)"};
  EXPECT_EQ(kernels, want_kernels);
}

// --coins fixed: the keypair and encaps rows become keypair_derand and encaps_derand (X25519's
// too), decaps stays; the table's header says which coins the rows use.
TEST(Bench, FixedCoinsRowsAreTheDerandomizedEntryPoints) {
  const std::string impl(pqkem::simd::impl_name(pqkem::simd::best_impl()));
  const auto names = entries(run("bench -a ML-KEM-768 -a X-Wing --coins fixed --iterations 10 --rounds 2 --json").out);
  std::set<std::string> expected;
  for (const char* alg : {"ML-KEM-768", "X-Wing"}) {
    for (const char* op : {"keypair_derand", "encaps_derand", "decaps"})
      expected.insert(std::string(alg) + " " + op + " (" + impl + ")");
    for (const char* op : {"seal 1 KiB", "open 1 KiB", "seal 64 MiB", "open 64 MiB"})
      expected.insert(std::string(alg) + " " + op + " (" + impl + ")");
  }
  for (const char* op : {"keypair_derand", "encaps_derand", "decaps"})
    expected.insert(std::string("X25519 ") + op + " (libsodium)");
  EXPECT_EQ(names, expected);

  // The table's header names the coins, and only fixed coins give _derand rows.
  const std::pair<const char*, const char*> headers[] = {
      {"--coins FIXED", "coins: fixed. keypair_derand / encaps_derand rows run on 64 sets of coins drawn before timing"},
      {"--rng openssl", "coins: random. keypair / encaps rows include drawing their coins each call from OpenSSL"}};
  for (const auto& [option, header] : headers) {
    const Outcome r = run(std::string("bench -a ML-KEM-512 --impl portable --iterations 10 --rounds 1 ") + option);
    ASSERT_EQ(r.exit_code, 0) << option;
    EXPECT_NE(r.out.find(header), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(" keypair_derand ") != std::string::npos, header[7] == 'f') << r.out;
  }
  EXPECT_EQ(run("bench -a ML-KEM-512 --coins sometimes").exit_code, 2);
  EXPECT_EQ(run("bench --kernels --coins fixed").exit_code, 2);
  EXPECT_EQ(run("bench --ntt-plans --coins fixed").exit_code, 2);
}

/// How many getrandom(2) calls `pqkem args` makes, by strace. (LeakSanitizer cannot run under
/// ptrace and fails the process at exit: the ASan build's leak check is off for this run only.)
std::size_t getrandom_calls(const std::string& args) {
  const std::string log = testing::TempDir() + "pqkem_bench_getrandom.txt";
  const std::string cmd = "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -e trace=getrandom -o " +
                          log + " " + PQKEM_BINARY + " " + args + " >/dev/null 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(log);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) n += line.find("getrandom(") != std::string::npos ? 1 : 0;
  return n;
}

// The timed calls of --coins fixed draw nothing: 400 keypairs and 400 encapsulations (and their
// warm-up) make at least 800 getrandom calls with random coins, and with fixed coins only the
// setup's 2 x 64 coin sets and its key pair and ciphertext do (NTRU: no seal rows, which draw).
TEST(Bench, FixedCoinsDrawNothingWhileTiming) {
  const std::string args = "bench -a ntruhps2048509 --iterations 200 --rounds 2 --json";
  const std::size_t random = getrandom_calls(args), fixed = getrandom_calls(args + " --coins fixed");
  EXPECT_GE(random, 800u);
  EXPECT_LT(fixed, 140u);
  EXPECT_GE(fixed, 128u);
}

TEST(Bench, KernelsJsonNamesTheMlKemKernels) {
  const Outcome r = run("bench --kernels -a ML-KEM-768 --impl portable --iterations 10 --rounds 2 --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto names = entries(r.out);
  for (const char* k : {"NTT", "inverse NTT", "basemul (MultiplyNTTs)", "SampleNTT", "CBD eta=2"})
    EXPECT_EQ(names.count(std::string("ML-KEM-768 kernel ") + k + " (portable)"), 1u) << k;
}

TEST(Bench, KernelsJsonNamesTheNtruKernels) {
  const Outcome r = run("bench --kernels -a ntruhps2048509 --impl portable --iterations 10 --rounds 2 --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto names = entries(r.out);
  for (const char* k : {"poly_Rq_mul", "poly_Rq_mul (shared scratch)", "poly_S3_mul (shared scratch)", "unpack_S3",
                        "pack_S3", "sample_fixed_type", "poly_Rq_inv"})
    EXPECT_EQ(names.count(std::string("ntruhps2048509 kernel ") + k + " (portable)"), 1u) << k;
}

TEST(Bench, NttPlansJsonHasAllFortyFourPlansBothWays) {
  const Outcome r = run("bench --ntt-plans --iterations 10 --rounds 2 --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto names = entries(r.out);
  EXPECT_EQ(names.size(), 88u);
  EXPECT_EQ(names.count("ML-KEM NTT plans, forward 3211 (portable)"), 1u);
  EXPECT_EQ(names.count("ML-KEM NTT plans, inverse 1111111 (portable)"), 1u);
}

/// A baseline file naming `names`, every row with these round medians (no "rounds" member if
/// empty: a file from before rounds existed, read by its value).
void write_baseline(const std::string& path, const std::set<std::string>& names, std::int64_t value,
                    const std::vector<std::int64_t>& rounds, std::int64_t granularity = 3) {
  std::string out = "[\n";
  for (const auto& name : names) {
    if (out.size() > 2) out += ",\n";
    out +=
        "  {\"name\": \"" + name + "\", \"unit\": \"ticks\", \"value\": " + std::to_string(value) + ", \"extra\": \"\"";
    if (!rounds.empty()) {
      out += ", \"rounds\": [";
      for (std::size_t i = 0; i < rounds.size(); ++i) out += (i ? ", " : "") + std::to_string(rounds[i]);
      out += "], \"timer_granularity\": " + std::to_string(granularity);
    }
    out += "}";
  }
  std::ofstream(path) << out << "\n]\n";
}

const std::string kQuick = "bench -a ML-KEM-512 --iterations 10 --rounds 2 ";

TEST(Bench, BaselineComparisonDecidesOnRoundsFarFromNoise) {
  const std::string base = testing::TempDir() + "pqkem_bench_base.json";
  const Outcome json = run(kQuick + "--json");
  ASSERT_EQ(json.exit_code, 0);
  const auto names = entries(json.out);
  // A baseline 1000x slower than anything this machine does: no regression, exit 0.
  write_baseline(base, names, 1000000000, {1000000000, 1000000010, 1000000020});
  const Outcome slow = run(kQuick + "--fail-on-regression --baseline " + base);
  EXPECT_EQ(slow.exit_code, 0);
  EXPECT_NE(slow.out.find("vs baseline"), std::string::npos);
  EXPECT_NE(slow.out.find("limit"), std::string::npos);
  EXPECT_EQ(slow.out.find("REGRESSION"), std::string::npos);
  // A baseline 1000x faster than anything possible: every row is a regression.
  write_baseline(base, names, 10, {10, 10, 11});
  const Outcome fast = run(kQuick + "--baseline " + base);
  EXPECT_EQ(fast.exit_code, 0);
  EXPECT_NE(fast.out.find("REGRESSION"), std::string::npos);
  EXPECT_EQ(run(kQuick + "--fail-on-regression --baseline " + base).exit_code, 1);
  // Files from before rounds existed are still read, by their value.
  write_baseline(base, names, 10, {});
  EXPECT_EQ(run(kQuick + "--fail-on-regression --baseline " + base).exit_code, 1);
  write_baseline(base, names, 1000000000, {});
  EXPECT_EQ(run(kQuick + "--fail-on-regression --baseline " + base).exit_code, 0);
}

TEST(Bench, BaselineOfAnotherImplementationIsMatchedByMeasurement) {
  const std::string other = usable_impl_other_than_portable();
  if (other.empty()) GTEST_SKIP() << "only the portable implementation is usable here";
  const std::string base = testing::TempDir() + "pqkem_bench_base_impl.json";
  std::set<std::string> names;
  for (const char* op : {"keypair", "encaps", "decaps"})
    names.insert(std::string("ML-KEM-512 ") + op + " (" + other + ")");
  write_baseline(base, names, 10, {10, 10});
  const Outcome r = run(kQuick + "--impl portable --baseline " + base);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("REGRESSION  (vs " + other + ")"), std::string::npos) << r.out;
  EXPECT_EQ(run(kQuick + "--impl portable --fail-on-regression --baseline " + base).exit_code, 1);
}

TEST(Bench, BaselineErrors) {
  const std::string base = testing::TempDir() + "pqkem_bench_bad.json";
  std::ofstream(base) << "not json";
  EXPECT_EQ(run(kQuick + "--baseline " + base).exit_code, 1);
  std::ofstream(base) << R"J([{"name": "ML-KEM-512 keypair (portable)", "unit": "ticks", "value": 5, "rounds": []}])J";
  EXPECT_EQ(run(kQuick + "--baseline " + base).exit_code, 1);
  std::ofstream(base)
      << R"J([{"name": "ML-KEM-512 keypair (portable)", "unit": "ticks", "value": 5, "rounds": [5, -1]}])J";
  EXPECT_EQ(run(kQuick + "--baseline " + base).exit_code, 1);
  std::ofstream(base) << R"J([{"name": "ML-KEM-512 keypair (portable)", "unit": "ticks", "value": 0}])J";
  EXPECT_EQ(run(kQuick + "--baseline " + base).exit_code, 1);
  // Values below one tick would print every ratio as inf%.
  std::ofstream(base) << R"J([{"name": "ML-KEM-512 keypair (portable)", "unit": "ticks", "value": 1e-320}])J";
  EXPECT_EQ(run(kQuick + "--baseline " + base).exit_code, 1);
  std::ofstream(base) << R"J([{"name": "ML-KEM-512 keypair (portable)", "unit": "ticks", "value": 5, "rounds": [5],
                              "reference": {"keccak": 1e-320}}])J";
  const Outcome tiny = run(kQuick + "--baseline " + base);
  EXPECT_EQ(tiny.exit_code, 1);
  EXPECT_EQ(tiny.out.find("inf%"), std::string::npos);
  // A baseline in another clock's unit (rdtsc ticks against nanoseconds) is refused; the same
  // entry in this machine's unit is taken.
#if defined(__x86_64__)
  const std::string own = "ticks", other = "ns";
#else
  const std::string own = "ns", other = "ticks";
#endif
  for (const std::string& unit : {own, other}) {
    std::ofstream(base) << R"J([{"name": "ML-KEM-512 keypair (portable)", "unit": ")J" << unit
                        << R"J(", "value": 5000, "rounds": [5000]}])J";
    EXPECT_EQ(run(kQuick + "--impl portable --baseline " + base).exit_code, unit == own ? 0 : 1) << unit;
  }
  EXPECT_EQ(run("bench --impl sse9").exit_code, 2);
  EXPECT_EQ(run("bench -a ML-KEM-513").exit_code, 2);
  EXPECT_EQ(run("bench --iterations 0").exit_code, 2);
  EXPECT_EQ(run("bench --rounds 0").exit_code, 2);
  EXPECT_EQ(run("bench --rounds 101").exit_code, 2);
}

// The statistic itself, on made-up round medians (bench_stats.hpp).
TEST(BenchStats, SummaryIsTheLowestRoundAndTheMiddleRoundsExcess) {
  using pqkem::cli::bench_stats::summarize;
  const auto s = summarize({150, 100, 102, 200, 101});
  EXPECT_DOUBLE_EQ(s.best, 100);
  EXPECT_NEAR(*s.spread, 0.02, 1e-12);                               // middle round 102
  EXPECT_NEAR(*summarize({100, 100, 200, 200}).spread, 1.0, 1e-12);  // even: the upper middle
  EXPECT_DOUBLE_EQ(*summarize({7}).spread, 0);
}

TEST(BenchStats, RegressionOnlyBeyondBothSpreadsTheFloorAndTheTimerStep) {
  using pqkem::cli::bench_stats::compare;
  using pqkem::cli::bench_stats::kFloor;
  // Quiet runs: the limit is the 5% floor plus the small spreads.
  EXPECT_FALSE(compare({10000, 0.01}, {10600, 0.01}, 1).regression);
  EXPECT_TRUE(compare({10000, 0.01}, {11000, 0.01}, 1).regression);
  EXPECT_NEAR(compare({10000, 0.01}, {11000, 0.01}, 1).limit, kFloor + 0.02 + 0.0002, 1e-12);
  // Noisy runs widen the limit: 20% slower is within 5% + 10% + 10%.
  EXPECT_FALSE(compare({10000, 0.10}, {12000, 0.10}, 1).regression);
  EXPECT_TRUE(compare({10000, 0.10}, {13000, 0.10}, 1).regression);
  // A 200-tick kernel on a timer stepping 26 ticks: two steps are 26%.
  EXPECT_FALSE(compare({200, 0.0}, {250, 0.0}, 26).regression);
  EXPECT_TRUE(compare({200, 0.0}, {300, 0.0}, 26).regression);
  // A baseline without spread (older file) counts as noisy as this run.
  EXPECT_NEAR(compare({10000, std::nullopt}, {10000, 0.04}, 1).limit, kFloor + 0.08 + 0.0002, 1e-12);
  // A machine measured 8% slower (reference workloads) moves the limit by 8%; a faster one not.
  using pqkem::cli::bench_stats::drift;
  EXPECT_NEAR(drift(10000, 10800), 0.08, 1e-12);
  EXPECT_DOUBLE_EQ(drift(10000, 9000), 0);
  EXPECT_DOUBLE_EQ(drift(0, 9000), 0);
  EXPECT_FALSE(compare({10000, 0.01}, {11000, 0.01}, 1, drift(10000, 10800)).regression);
  EXPECT_TRUE(compare({10000, 0.01}, {12000, 0.01}, 1, drift(10000, 10800)).regression);
  // Faster is never a regression.
  EXPECT_FALSE(compare({10000, 0.0}, {5000, 0.0}, 1).regression);
}

// --kernels measures the implementation(s) --impl names, and only those.
TEST(Bench, KernelsFollowImpl) {
  for (const std::string_view impl_name : pqkem::simd::usable_implementations()) {
    const std::string impl(impl_name);
    for (const char* alg : {"ML-KEM-768", "ntruhps2048509"}) {
      const Outcome r =
          run(std::string("bench --kernels -a ") + alg + " --impl " + impl + " --iterations 10 --rounds 2 --json");
      ASSERT_EQ(r.exit_code, 0) << alg << " " << impl;
      const auto names = entries(r.out);
      EXPECT_FALSE(names.empty());
      for (const auto& n : names) EXPECT_TRUE(n.ends_with(" (" + impl + ")")) << n;
    }
  }
  // auto: the implementation auto picks.
  const std::string best(pqkem::simd::impl_name(pqkem::simd::best_impl()));
  for (const auto& n : entries(run("bench --kernels -a ML-KEM-512 --iterations 10 --rounds 2 --json").out))
    EXPECT_TRUE(n.ends_with(" (" + best + ")")) << n;
  // all: every usable one.
  std::set<std::string> seen;
  for (const auto& n : entries(run("bench --kernels -a ML-KEM-512 --impl all --iterations 10 --rounds 2 --json").out))
    seen.insert(n.substr(n.rfind(" (") + 2));
  EXPECT_EQ(seen.size(), pqkem::simd::usable_implementations().size());
  EXPECT_EQ(run("bench --ntt-plans --impl avx2 --iterations 1").exit_code, 2);
  // The library's list follows the same rule.
  for (const auto& info : pqkem::all_schemes())
    for (const auto& k : pqkem::bench::kernels(info.scheme, {pqkem::simd::Impl::portable}))
      EXPECT_EQ(k.impl, "portable");
}

// Labels that quote a size or a rank quote this parameter set's.
TEST(Bench, KernelLabelsFollowTheParameterSet) {
  const std::map<pqkem::Scheme, int> rank = {
      {pqkem::Scheme::MlKem512, 2}, {pqkem::Scheme::MlKem768, 3}, {pqkem::Scheme::MlKem1024, 4}};
  for (const auto& [scheme, k] : rank) {
    const auto& info = pqkem::scheme_info(scheme);
    std::vector<pqkem::simd::Impl> impls;
    for (const auto name : pqkem::simd::usable_implementations()) impls.push_back(*pqkem::simd::parse_impl(name));
    const auto kernels = pqkem::bench::kernels(scheme, impls);
    std::size_t h = 0, inner = 0;
    for (const auto& kern : kernels) {
      if (const auto bytes = number_after(kern.name, "of a "); bytes && kern.name.find(" B ek") != std::string::npos) {
        EXPECT_EQ(*bytes, info.pk_bytes) << info.name << ": " << kern.name;
        ++h;
      }
      if (const auto rank_in_name = number_after(kern.name, "k=")) {
        EXPECT_EQ(*rank_in_name, static_cast<unsigned long>(k)) << info.name << ": " << kern.name;
        ++inner;
      }
    }
    EXPECT_EQ(h, impls.size()) << info.name;
    EXPECT_EQ(inner, impls.size()) << info.name;
  }
  const auto names =
      entries(run("bench --kernels -a ML-KEM-512 --impl portable --iterations 10 --rounds 2 --json").out);
  EXPECT_EQ(names.count("ML-KEM-512 kernel H (SHA3-256 of a 800 B ek) (portable)"), 1u);
  EXPECT_EQ(names.count("ML-KEM-512 kernel inner product k=2 (+reduce) (portable)"), 1u);
}

// The timer's granularity is measured and reported (in the JSON: entries() checks it).
TEST(Bench, TableReportsTimerGranularity) {
  const Outcome r = run(kQuick);
  ASSERT_EQ(r.exit_code, 0);
  const auto granularity = number_after(r.out, "timer granularity: ");
  ASSERT_TRUE(granularity &&
              r.out.find("timer granularity: " + std::to_string(*granularity) + " ticks") != std::string::npos)
      << r.out;
  EXPECT_GT(*granularity, 0u);
}

// Every row of the table lines up with its header, whatever the length of its names: the
// spread column's '%' sits where the header's "spread" ends, in every row.
TEST(Bench, TableColumnsLineUpForEveryRowName) {
  const Outcome r = run("bench --kernels -a ML-KEM-768 -a ntruhps2048509 --impl all --iterations 1 --rounds 1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::istringstream lines(r.out);
  std::string line;
  std::size_t spread_end = std::string::npos;
  std::size_t rows = 0;
  while (std::getline(lines, line)) {
    if (spread_end == std::string::npos) {
      const auto at = line.find(" spread ");
      if (line.rfind("algorithm", 0) == 0 && at != std::string::npos) spread_end = at + 7;
      continue;
    }
    if (line.empty()) continue;
    if (line.find('%') == std::string::npos) break;  // the lines after the table
    ++rows;
    EXPECT_EQ(line.find('%') + 1, spread_end) << line;
  }
  ASSERT_NE(spread_end, std::string::npos) << r.out;
  EXPECT_GT(rows, 20u) << r.out;
}

}  // namespace
