// pqkem bench's output: the table (with the baseline's verdicts) or the JSON of
// github-action-benchmark's "customSmallerIsBetter", and the lines around the table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench_baseline.hpp"
#include "bench_timer.hpp"

namespace pqkem::cli {

/// 1234567 -> "1,234,567".
std::string group_digits(std::uint64_t v);

void print_json(const std::vector<Row>& results, double rate, std::uint64_t granularity,
                const std::vector<Row>& references);

/// The table; `compared` is empty without --baseline, else one entry per row.
void print_table(const std::vector<Row>& results, double rate, const std::vector<Comparison>& compared,
                 const char* speedup_header);

/// The lines above the table: method, clock, `coins` (where the operation rows' coins come
/// from; empty for kernels and plans), references (and their change since the baseline).
std::string table_header(const std::vector<Row>& references, const Timing& timing, std::uint64_t granularity,
                         const std::optional<Baseline>& baseline, const std::string& coins);

}  // namespace pqkem::cli
