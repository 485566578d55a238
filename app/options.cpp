// The options several commands share: -a, --impl, --ntt-plan, --rng, --coins, --format for
// data files, and the environment variables standing in for them.
#include <openssl/crypto.h>

#include <cstdlib>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "keys.hpp"
#include "mlkem/ntt.hpp"
#include "options.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"
#include "text.hpp"

namespace pqkem::cli {

void require_data_format(Format format) {
  if (format == Format::pem || format == Format::der)
    throw_usage(
        fmt::format("--format {} is for key files (keygen, pubkey, convert); ciphertexts and shared "
                    "secrets are written as bin or hex",
                    format_name(format)));
}

namespace {

/// What --impl / --ntt-plan (else PQKEM_IMPL / PQKEM_NTT_PLAN) ask for, parsed strictly.
struct EngineChoice {
  bool impl_given = false;
  std::optional<simd::Impl> impl;  ///< none with impl_given: auto
  const char* impl_source = "";
  std::optional<mlkem::NttPlanChoice> plan;
};

/// The value of `option` if given (even empty: an error), else the environment variable `env`
/// if set and not empty (as `PQKEM_IMPL= pqkem ...` means in a shell); `source` names which.
std::optional<std::string> option_or_env(const OptString& option, const char* env, const char*& source,
                                         const char* option_name) {
  if (option) {
    source = option_name;
    return *option;
  }
  const char* value = std::getenv(env);
  if (value == nullptr || *value == '\0') return std::nullopt;
  source = env;
  return std::string(value);
}

EngineChoice parse_engine(const EngineOptions& engine) {
  EngineChoice choice;
  if (const auto impl = option_or_env(engine.impl, "PQKEM_IMPL", choice.impl_source, "--impl")) {
    choice.impl_given = true;
    if (!simd::is_auto_impl(*impl)) {
      choice.impl = simd::parse_impl(*impl);
      if (!choice.impl)
        throw_usage(
            fmt::format("{} must be auto, portable, avx2 or avx512, not '{}'", choice.impl_source, printable(*impl)));
    }
  }
  const char* plan_source = "";
  if (const auto plan = option_or_env(engine.ntt_plan, "PQKEM_NTT_PLAN", plan_source, "--ntt-plan")) {
    choice.plan = mlkem::parse_ntt_plan(*plan);
    if (!choice.plan) {
      std::string names;
      for (const auto& p : mlkem::all_ntt_plans()) {
        if (!names.empty()) names += ' ';
        names += p.name;
      }
      throw_usage(fmt::format("{}: unknown NTT plan '{}'; give a plan or FORWARD/INVERSE, the plans being: {}",
                              plan_source, printable(*plan), names));
    }
  }
  return choice;
}

}  // namespace

void apply_engine_options(const EngineOptions& engine) {
  const EngineChoice choice = parse_engine(engine);
  if (choice.impl_given && !choice.impl) simd::set_impl_auto();
  if (choice.impl) {
    if (!simd::impl_usable(*choice.impl)) {
      const std::string what = fmt::format("{} {}: not usable here: {}", choice.impl_source,
                                           simd::impl_name(*choice.impl), simd::impl_unusable_reason(*choice.impl));
      // Naming an x86 instruction set on another CPU architecture is a usage error, not a
      // missing feature of this machine.
      if (!PQKEM_X86_64) throw_usage(what);
      throw_failure(what);
    }
    simd::set_impl(*choice.impl);
  }
  if (choice.plan) mlkem::set_ntt_plan(*choice.plan);
}

void check_engine_environment() { (void)parse_engine({}); }

void apply_rng_option(const OptString& rng) {
  const char* from = "";
  const auto name = option_or_env(rng, "PQKEM_RNG", from, "--rng");
  if (!name) return;
  const auto source = parse_random_source(*name);
  if (!source) throw_usage(fmt::format("{} must be system or openssl, not '{}'", from, printable(*name)));
  if (*source == RandomSource::openssl) use_openssl();
  set_random_source(*source);
}

void use_openssl() {
  if (OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr) != 1) throw_failure("OpenSSL failed to initialize", {});
}

std::string random_source_text() {
  const RandomSource s = random_source();
  return fmt::format("{} ({})", random_source_description(s), random_source_name(s));
}

std::string algorithm_names() {
  std::string out;
  for (const auto& info : all_schemes()) {
    if (!out.empty()) out += ", ";
    out += info.name;
  }
  return out;
}

std::optional<Scheme> parse_algorithm(const OptString& name) {
  if (!name) return std::nullopt;
  if (const auto s = parse_scheme(*name)) return s;
  throw_usage(fmt::format("unknown algorithm '{}'; this build implements {} (see 'pqkem list')", printable(*name),
                          algorithm_names()));
}

Scheme require_algorithm(const OptString& name) {
  if (const auto s = parse_algorithm(name)) return *s;
  throw_usage(fmt::format("-a ALG is required; this build implements {} (see 'pqkem list')", algorithm_names()));
}

CoinsArg::CoinsArg(const OptString& spec) {
  if (!spec) return;
  m_given = true;
  if (spec->empty()) throw_usage("--coins is empty; give hex digits or @FILE (or leave --coins out for random coins)");
  if (spec->front() == '@') {
    m_file = spec->substr(1);
    if (m_file.empty()) throw_usage("--coins @FILE needs a file name (or @- for stdin)");
    return;
  }
  m_inline = parse_hex(*spec);
  if (!m_inline) throw_usage("--coins must be hex with an even number of digits, or @FILE");
}

SecretBytes CoinsArg::load(std::size_t needed, const std::string& operation) const {
  if (m_inline) {
    if (m_inline->size() != needed)
      throw_usage(fmt::format("--coins has {} bytes; {} needs exactly {} bytes ({} hex digits)", m_inline->size(),
                              operation, needed, 2 * needed));
    return m_inline->clone();
  }
  auto decoded = decode_input(read_input(m_file), input_name(m_file));
  if (decoded.bytes.size() != needed)
    throw_failure(fmt::format("coins have {} bytes ({}); {} needs exactly {} bytes", decoded.bytes.size(),
                              how_read(decoded.from_hex), operation, needed),
                  input_name(m_file));
  return std::move(decoded.bytes);
}

}  // namespace pqkem::cli
