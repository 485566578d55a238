// pqkem list: the algorithms of this build with their sizes, the random source and the usable
// implementations.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cmd_list.hpp"
#include "json.hpp"
#include "keys.hpp"
#include "options.hpp"
#include "output.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"

namespace pqkem::cli {
namespace {

const char* yes_no(bool b) noexcept { return b ? "yes" : "no"; }

/// The secret key as keygen writes it in bin or hex: a hybrid's is its seed (its expanded form,
/// scheme_info's sk_bytes, exists in memory only).
std::size_t secret_key_file_bytes(const SchemeInfo& info) {
  return secret_key_is_seed(info.scheme) ? info.seed_bytes : info.sk_bytes;
}

std::string list_text() {
  std::size_t name_width = 9;      // "algorithm"
  std::size_t standard_width = 8;  // "standard"
  for (const auto& info : all_schemes()) {
    name_width = std::max(name_width, info.name.size());
    standard_width = std::max(standard_width, info.standard.size());
  }
  std::string out = fmt::format("{:<{}}  {:<{}} {:>6} {:>6} {:>6} {:>4} {:>5}  {}\n", "algorithm", name_width,
                                "standard", standard_width, "pk", "sk", "ct", "ss", "seed", "coins keygen/encaps");
  for (const auto& info : all_schemes()) {
    out += fmt::format("{:<{}}  {:<{}} {:>6} {:>6} {:>6} {:>4} {:>5}  {}/{}\n", info.name, name_width, info.standard,
                       standard_width, info.pk_bytes, secret_key_file_bytes(info), info.ct_bytes, info.ss_bytes,
                       info.seed_bytes == 0 ? std::string("-") : std::to_string(info.seed_bytes),
                       info.keygen_coin_bytes(), info.encaps_coin_bytes());
  }
  std::vector<Scheme> seeded;
  std::string expanded;
  for (const auto& info : all_schemes()) {
    if (!secret_key_is_seed(info.scheme)) continue;
    seeded.push_back(info.scheme);
    expanded += fmt::format("{}{}", expanded.empty() ? "" : " and ", info.sk_bytes);
  }
  out += fmt::format(
      "(sizes in bytes: public key; secret key as keygen writes it in bin or hex, which for ML-KEM and\n"
      " NTRU is the expanded key and for {} the seed (expanded in memory only, to\n"
      " {} bytes); ciphertext; shared secret; private seed; and the coins keygen/encaps\n"
      " use, which --coins supplies (NTRU expands its coins from a 32-byte draw))\n\n",
      scheme_names(seeded, "and"), expanded);
  std::string impls;
  for (const auto name : simd::usable_implementations()) impls += (impls.empty() ? "" : ", ") + std::string(name);
  const auto& f = simd::cpu_features();
  out += fmt::format("random bytes: {}\n", random_source_text());
  out += fmt::format("implementations usable on this CPU: {}\n", impls);
  if (!PQKEM_X86_64) {
    out += fmt::format("CPU: {} (AVX2 and AVX-512 are x86-64 instruction sets: the portable implementation only)\n",
                       simd::cpu_architecture());
    return out;
  }
  out += fmt::format(
      "CPU: {} (AVX2 {}, BMI1 {}, BMI2 {}, POPCNT {}, PCLMULQDQ {}, AVX-512F {}, VL {}, BW {}, DQ {}, "
      "VBMI {}, VBMI2 {})\n",
      simd::cpu_brand(), yes_no(f.avx2), yes_no(f.bmi1), yes_no(f.bmi2), yes_no(f.popcnt), yes_no(f.pclmul),
      yes_no(f.avx512f), yes_no(f.avx512vl), yes_no(f.avx512bw), yes_no(f.avx512dq), yes_no(f.avx512vbmi),
      yes_no(f.avx512vbmi2));
  if (!simd::impl_usable(simd::Impl::avx512))
    out += fmt::format("avx512: not usable: {}\n", simd::impl_unusable_reason(simd::Impl::avx512));
  return out;
}

std::string list_json() {
  JsonValue algorithms = JsonValue::array();
  for (const auto& info : all_schemes()) {
    algorithms.push(JsonValue::object()
                        .add_string("name", info.name)
                        .add_string("family", family_name(info.family))
                        .add_string("standard", info.standard)
                        .add_number("public_key_bytes", info.pk_bytes)
                        .add_number("secret_key_bytes", secret_key_file_bytes(info))
                        .add_number("expanded_secret_key_bytes", info.sk_bytes)
                        .add_number("ciphertext_bytes", info.ct_bytes)
                        .add_number("shared_secret_bytes", info.ss_bytes)
                        .add_number("seed_bytes", info.seed_bytes)
                        .add_number("keygen_coin_bytes", info.keygen_coin_bytes())
                        .add_number("encaps_coin_bytes", info.encaps_coin_bytes()));
  }
  JsonValue impls = JsonValue::array();
  for (const auto name : simd::usable_implementations()) impls.push(JsonValue::string(name));
  const auto& f = simd::cpu_features();
  return JsonValue::object()
      .add_string("version", pqkem::version())
      .add("algorithms", std::move(algorithms))
      .add("random_source", JsonValue::object()
                                .add_string("name", random_source_name(random_source()))
                                .add_string("description", random_source_description(random_source())))
      .add("implementations", std::move(impls))
      .add("cpu", JsonValue::object()
                      .add_string("architecture", simd::cpu_architecture())
                      .add_string("brand", simd::cpu_brand())
                      .add_bool("avx2", f.avx2)
                      .add_bool("bmi1", f.bmi1)
                      .add_bool("bmi2", f.bmi2)
                      .add_bool("popcnt", f.popcnt)
                      .add_bool("pclmulqdq", f.pclmul)
                      .add_bool("avx512f", f.avx512f)
                      .add_bool("avx512vl", f.avx512vl)
                      .add_bool("avx512bw", f.avx512bw)
                      .add_bool("avx512dq", f.avx512dq)
                      .add_bool("avx512vbmi", f.avx512vbmi)
                      .add_bool("avx512vbmi2", f.avx512vbmi2))
      .dump();
}

}  // namespace

void run(const ListOptions& opts) {
  apply_rng_option({});  // PQKEM_RNG: say which source keygen and encaps would use
  check_engine_environment();
  write_stdout(opts.json ? list_json() : list_text());
}

void declare(CommandBuilder& cmd, ListOptions& opts) {
  cmd.flag("--json", opts.json, "Print JSON instead of a table");
  cmd.footer("Examples:\n  pqkem list\n  pqkem list --json\n");
}

}  // namespace pqkem::cli
