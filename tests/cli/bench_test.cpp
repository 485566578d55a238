// `pqkem bench`: the JSON is valid github-action-benchmark input with the expected entries.
// Benchmarks are never timed tests: only the format and the set of entries are checked.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "bench_kernels.hpp"
#include "pqkem.hpp"
#include "simd/cpu.hpp"
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
  const Outcome r = run("bench --kernels -a ML-KEM-768 --impl portable --iterations 10 --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto names = entries(r.out);
  for (const char* k : {"NTT", "inverse NTT", "basemul (MultiplyNTTs)", "SampleNTT", "CBD eta=2"})
    EXPECT_EQ(names.count(std::string("ML-KEM-768 kernel ") + k + " (portable)"), 1u) << k;
}

TEST(Bench, KernelsJsonNamesTheNtruKernels) {
  const Outcome r = run("bench --kernels -a ntruhps2048509 --impl portable --iterations 10 --json");
  ASSERT_EQ(r.exit_code, 0);
  const auto names = entries(r.out);
  for (const char* k : {"poly_Rq_mul", "poly_Rq_mul (shared scratch)", "poly_S3_mul (shared scratch)", "unpack_S3",
                        "pack_S3", "sample_fixed_type", "poly_Rq_inv"})
    EXPECT_EQ(names.count(std::string("ntruhps2048509 kernel ") + k + " (portable)"), 1u) << k;
}

// --kernels measures the implementation --impl names, and only that one.
TEST(Bench, KernelsFollowImpl) {
  for (const auto impl : pqkem::simd::usable_implementations()) {
    const Outcome r = run("bench --kernels -a ML-KEM-768 -a ntruhps2048509 --impl " + std::string(impl) +
                          " --iterations 10 --json");
    ASSERT_EQ(r.exit_code, 0) << impl;
    const auto names = entries(r.out);
    EXPECT_FALSE(names.empty());
    for (const auto& n : names) EXPECT_TRUE(n.ends_with(" (" + std::string(impl) + ")")) << n;
  }
}

// Labels that quote a size or a rank quote this parameter set's.
TEST(Bench, KernelLabelsFollowTheParameterSet) {
  const std::map<pqkem::Scheme, int> rank = {
      {pqkem::Scheme::MlKem512, 2}, {pqkem::Scheme::MlKem768, 3}, {pqkem::Scheme::MlKem1024, 4}};
  for (const auto& [scheme, k] : rank) {
    const auto& info = pqkem::scheme_info(scheme);
    for (const auto& kern : pqkem::bench::kernels(scheme, {pqkem::simd::Impl::portable, pqkem::simd::Impl::avx2})) {
      std::smatch m;
      if (std::regex_search(kern.name, m, std::regex("of a ([0-9]+) B ek"))) {
        EXPECT_EQ(std::stoul(m[1]), info.pk_bytes) << info.name << ": " << kern.name;
      }
      if (std::regex_search(kern.name, m, std::regex("k=([0-9]+)"))) {
        EXPECT_EQ(std::stoi(m[1]), k) << info.name << ": " << kern.name;
      }
    }
  }
  const auto names = entries(run("bench --kernels -a ML-KEM-512 --impl portable --iterations 10 --json").out);
  EXPECT_EQ(names.count("ML-KEM-512 kernel H (SHA3-256 of a 800 B ek) (portable)"), 1u);
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
