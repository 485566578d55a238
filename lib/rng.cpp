#include "rng.hpp"

#include <openssl/rand.h>
#include <sys/random.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <string>

#include "error.hpp"
#include "pqkem.hpp"
#include "util/ascii.hpp"

namespace pqkem {
namespace {

// The kernel's CSPRNG, not OpenSSL's DRBG, by default: a process that draws once (pqkem keygen)
// would otherwise spend about 8 M instructions loading OpenSSL's provider and instantiating its
// DRBG, some 30 times the key generation itself.
std::atomic<RandomSource> g_source{RandomSource::system};

/// getrandom(2) with flags 0: blocks only until the kernel's pool is first initialized (early
/// boot), then never. A call may return fewer bytes than asked (signals, or more than 256
/// bytes at a time), so loop until `out` is full.
void getrandom_bytes(std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::getrandom(out.data() + done, out.size() - done, 0);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      const int err = n < 0 ? errno : EIO;
      throw Error(Errc::rng_failure,
                  std::string("the system random number generator failed (getrandom: ") + std::strerror(err) + ")");
    }
  }
}

void openssl_bytes(std::span<std::uint8_t> out) {
  if (out.size() > static_cast<std::size_t>(INT_MAX) || RAND_bytes(out.data(), static_cast<int>(out.size())) != 1)
    throw Error(Errc::rng_failure, "the system random number generator failed (RAND_bytes)");
}

}  // namespace

void set_random_source(RandomSource source) noexcept { g_source.store(source, std::memory_order_relaxed); }

RandomSource random_source() noexcept { return g_source.load(std::memory_order_relaxed); }

std::string_view random_source_name(RandomSource source) noexcept {
  return source == RandomSource::openssl ? "openssl" : "system";
}

std::string_view random_source_description(RandomSource source) noexcept {
  return source == RandomSource::openssl ? "OpenSSL RAND_bytes" : "getrandom(2)";
}

std::optional<RandomSource> parse_random_source(std::string_view name) noexcept {
  for (const RandomSource s : {RandomSource::system, RandomSource::openssl})
    if (util::equal_nocase(name, random_source_name(s))) return s;
  return std::nullopt;
}

void random_bytes(std::span<std::uint8_t> out) {
  try {
    if (random_source() == RandomSource::openssl) {
      openssl_bytes(out);
    } else {
      getrandom_bytes(out);
    }
  } catch (const Error&) {
    secure_wipe(out.data(), out.size());  // no partial draw survives a failure
    throw;
  }
}

}  // namespace pqkem
