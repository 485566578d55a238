// `pqkem bench`: the JSON is valid github-action-benchmark input with the expected entries.
// Benchmarks are never timed tests: only the format and the set of entries are checked.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "pqkem.hpp"
#include "simd/dispatch.hpp"
#include "util/json.hpp"

namespace {

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

/// Parses the output and checks every entry's shape; returns the names.
std::set<std::string> entries(const std::string& text) {
  const pqkem::json::Value doc = pqkem::json::parse(text);
  std::set<std::string> names;
  for (const auto& e : doc.as_array()) {
    EXPECT_EQ(e.size(), 4u);
    EXPECT_EQ(e.at("unit").as_string(), "ticks");
    EXPECT_GT(e.at("value").as_int(), 0);
    EXPECT_NE(e.at("extra").as_string().find("iterations=10;"), std::string::npos);
    EXPECT_TRUE(names.insert(e.at("name").as_string()).second) << "duplicate " << e.at("name").as_string();
  }
  return names;
}

TEST(Bench, OperationsJsonHasEveryAlgorithmAndOperation) {
  const Outcome r = run("bench --iterations 10 --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto names = entries(r.out);
  // Without --impl, bench measures the implementation `auto` picks on this CPU.
  const std::string impl(pqkem::simd::impl_name(pqkem::simd::best_impl()));
  std::set<std::string> expected;
  for (const auto& info : pqkem::all_schemes())
    for (const char* op : {"keypair", "encaps", "decaps"})
      expected.insert(std::string(info.name) + " " + op + " (" + impl + ")");
  EXPECT_EQ(names, expected);
}

TEST(Bench, KernelsJsonNamesTheMlKemKernels) {
  const Outcome r = run("bench --kernels -a ML-KEM-768 --iterations 10 --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto names = entries(r.out);
  for (const char* k : {"NTT", "inverse NTT", "basemul (MultiplyNTTs)", "SampleNTT", "CBD eta=2"})
    EXPECT_EQ(names.count(std::string("ML-KEM-768 kernel ") + k + " (portable)"), 1u) << k;
}

TEST(Bench, KernelsJsonNamesTheNtruKernels) {
  const Outcome r = run("bench --kernels -a ntruhps2048509 --iterations 10 --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto names = entries(r.out);
  for (const char* k : {"poly_Rq_mul", "poly_Rq_mul (shared scratch)", "poly_S3_mul (shared scratch)", "unpack_S3",
                        "pack_S3", "sample_fixed_type", "poly_Rq_inv"})
    EXPECT_EQ(names.count(std::string("ntruhps2048509 kernel ") + k + " (portable)"), 1u) << k;
}

TEST(Bench, NttPlansJsonHasAllFortyFourPlansBothWays) {
  const Outcome r = run("bench --ntt-plans --iterations 10 --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto names = entries(r.out);
  EXPECT_EQ(names.size(), 88u);
  EXPECT_EQ(names.count("ML-KEM NTT plans, forward 3211 (portable)"), 1u);
  EXPECT_EQ(names.count("ML-KEM NTT plans, inverse 1111111 (portable)"), 1u);
}

TEST(Bench, BaselineComparisonAndItsErrors) {
  const std::string base = testing::TempDir() + "pqkem_bench_base.json";
  const Outcome json = run("bench -a ML-KEM-512 --iterations 10 --json");
  ASSERT_EQ(json.exit_code, 0);
  std::ofstream(base) << json.out;
  const Outcome table = run("bench -a ML-KEM-512 --iterations 10 --baseline " + base);
  EXPECT_EQ(table.exit_code, 0);
  EXPECT_NE(table.out.find("vs baseline"), std::string::npos);
  // A baseline 1000x faster than anything possible: every row is a regression.
  const std::string fast = std::regex_replace(json.out, std::regex("\"value\": [0-9]+"), "\"value\": 1");
  ASSERT_NE(fast, json.out);
  std::ofstream(base) << fast;
  const Outcome regressed = run("bench -a ML-KEM-512 --iterations 10 --baseline " + base);
  EXPECT_EQ(regressed.exit_code, 0);
  EXPECT_NE(regressed.out.find("REGRESSION"), std::string::npos);
  EXPECT_EQ(run("bench -a ML-KEM-512 --iterations 10 --fail-on-regression --baseline " + base).exit_code, 1);
  std::ofstream(base) << "not json";
  EXPECT_EQ(run("bench -a ML-KEM-512 --iterations 10 --baseline " + base).exit_code, 1);
  EXPECT_EQ(run("bench --impl sse9").exit_code, 2);
  EXPECT_EQ(run("bench -a ML-KEM-513").exit_code, 2);
  EXPECT_EQ(run("bench --iterations 0").exit_code, 2);
}

}  // namespace
