// The options several commands share: -a, --impl, --ntt-plan, --rng, --coins, --format for
// data files, and the environment variables standing in for them.
#include <openssl/crypto.h>

#include <cstdlib>

#include <fmt/format.h>

#include "commands.hpp"
#include "mlkem/ntt.hpp"
#include "simd/dispatch.hpp"

namespace pqkem::cli {

void require_data_format(Format format) {
  if (format == Format::pem || format == Format::der)
    throw_usage(fmt::format("--format {} is for key files (keygen, pubkey, convert); ciphertexts and shared "
                            "secrets are written as bin or hex",
                            format_name(format)));
}

void apply_engine_options(const EngineOptions& engine) {
  // A given option wins, even when empty (an error); an empty environment variable counts as
  // unset, as `PQKEM_IMPL= pqkem ...` means in a shell.
  const char* env_impl = std::getenv("PQKEM_IMPL");
  const bool impl_from_env = !engine.impl && env_impl != nullptr && *env_impl != '\0';
  if (engine.impl || impl_from_env) {
    const std::string impl = impl_from_env ? std::string(env_impl) : *engine.impl;
    const char* source = impl_from_env ? "PQKEM_IMPL" : "--impl";
    if (simd::is_auto_impl(impl)) {
      simd::set_impl_auto();
    } else {
      const auto parsed = simd::parse_impl(impl);
      if (!parsed) throw_usage(fmt::format("{} must be auto, portable, avx2 or avx512, not '{}'", source, printable(impl)));
      if (!simd::impl_usable(*parsed))
        throw_failure(fmt::format("{} {}: not usable here: {}", source, simd::impl_name(*parsed),
                                  simd::impl_unusable_reason(*parsed)));
      simd::set_impl(*parsed);
    }
  }

  const char* env_plan = std::getenv("PQKEM_NTT_PLAN");
  const bool plan_from_env = !engine.ntt_plan && env_plan != nullptr && *env_plan != '\0';
  if (engine.ntt_plan || plan_from_env) {
    const std::string plan = plan_from_env ? std::string(env_plan) : *engine.ntt_plan;
    const auto choice = mlkem::parse_ntt_plan(plan);
    if (!choice) {
      std::string names;
      for (const auto& p : mlkem::all_ntt_plans()) {
        if (!names.empty()) names += ' ';
        names += p.name;
      }
      throw_usage(fmt::format("{}: unknown NTT plan '{}'; give a plan or FORWARD/INVERSE, the plans being: {}",
                              plan_from_env ? "PQKEM_NTT_PLAN" : "--ntt-plan", printable(plan), names));
    }
    mlkem::set_ntt_plan(*choice);
  }
}

void apply_rng_option(const OptString& rng) {
  // As for --impl: a given option wins, even when empty (an error); an empty variable is unset.
  const char* env = std::getenv("PQKEM_RNG");
  const bool from_env = !rng && env != nullptr && *env != '\0';
  if (!rng && !from_env) return;
  const std::string name = from_env ? std::string(env) : *rng;
  const auto source = parse_random_source(name);
  if (!source)
    throw_usage(fmt::format("{} must be system or openssl, not '{}'", from_env ? "PQKEM_RNG" : "--rng", printable(name)));
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
