// pqkem list: the algorithms of this build with their sizes, the random source and the usable
// implementations.
#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "simd/cpu.hpp"

namespace pqkem::cli {
namespace {

const char* yes_no(bool b) noexcept { return b ? "yes" : "no"; }
const char* json_bool(bool b) noexcept { return b ? "true" : "false"; }

std::string list_text() {
  std::size_t name_width = 9;  // "algorithm"
  std::size_t standard_width = 8;  // "standard"
  for (const auto& info : all_schemes()) {
    name_width = std::max(name_width, info.name.size());
    standard_width = std::max(standard_width, info.standard.size());
  }
  std::string out = fmt::format("{:<{}}  {:<{}} {:>6} {:>6} {:>6} {:>4} {:>5}  {}\n", "algorithm", name_width,
                                "standard", standard_width, "pk", "sk", "ct", "ss", "seed", "coins keygen/encaps");
  for (const auto& info : all_schemes()) {
    out += fmt::format("{:<{}}  {:<{}} {:>6} {:>6} {:>6} {:>4} {:>5}  {}/{}\n", info.name, name_width, info.standard,
                       standard_width,
                       info.pk_bytes, info.sk_bytes, info.ct_bytes, info.ss_bytes,
                       info.seed_bytes == 0 ? std::string("-") : std::to_string(info.seed_bytes),
                       info.keygen_coin_bytes(), info.encaps_coin_bytes());
  }
  out +=
      "(sizes in bytes: public key, expanded secret key, ciphertext, shared secret, private seed,\n"
      " and the random bytes keygen/encaps draw, which --coins supplies)\n\n";
  std::string impls;
  for (const auto name : simd::usable_implementations()) impls += (impls.empty() ? "" : ", ") + std::string(name);
  const auto& f = simd::cpu_features();
  out += fmt::format("random bytes: {}\n", random_source_text());
  out += fmt::format("implementations usable on this CPU: {}\n", impls);
  out += fmt::format("CPU: {} (AVX2 {}, BMI2 {}, POPCNT {}, PCLMULQDQ {}, AVX-512F {})\n", simd::cpu_brand(),
                     yes_no(f.avx2), yes_no(f.bmi2), yes_no(f.popcnt), yes_no(f.pclmul), yes_no(f.avx512f));
  return out;
}

std::string list_json() {
  std::string out = fmt::format("{{\n  \"version\": {},\n  \"algorithms\": [\n", json_string(pqkem::version()));
  bool first = true;
  for (const auto& info : all_schemes()) {
    out += first ? "" : ",\n";
    first = false;
    out += fmt::format(
        "    {{\"name\": {}, \"family\": {}, \"standard\": {}, \"public_key_bytes\": {}, \"secret_key_bytes\": {}, "
        "\"ciphertext_bytes\": {}, \"shared_secret_bytes\": {}, \"seed_bytes\": {}, \"keygen_coin_bytes\": {}, "
        "\"encaps_coin_bytes\": {}}}",
        json_string(info.name), json_string(info.family), json_string(info.standard), info.pk_bytes, info.sk_bytes,
        info.ct_bytes, info.ss_bytes, info.seed_bytes, info.keygen_coin_bytes(), info.encaps_coin_bytes());
  }
  out += fmt::format("\n  ],\n  \"random_source\": {{\"name\": {}, \"description\": {}}}",
                     json_string(random_source_name(random_source())),
                     json_string(random_source_description(random_source())));
  out += ",\n  \"implementations\": [";
  first = true;
  for (const auto name : simd::usable_implementations()) {
    out += (first ? "" : ", ") + json_string(name);
    first = false;
  }
  const auto& f = simd::cpu_features();
  out += fmt::format(
      "],\n  \"cpu\": {{\"brand\": {}, \"avx2\": {}, \"bmi2\": {}, \"popcnt\": {}, \"pclmulqdq\": {}, \"avx512f\": {}}}\n}}\n",
      json_string(simd::cpu_brand()), json_bool(f.avx2), json_bool(f.bmi2), json_bool(f.popcnt), json_bool(f.pclmul),
      json_bool(f.avx512f));
  return out;
}

}  // namespace

void run_list(const ListOptions& opts) {
  apply_rng_option({});  // PQKEM_RNG: say which source keygen and encaps would use
  write_stdout(opts.json ? list_json() : list_text());
}

}  // namespace pqkem::cli
