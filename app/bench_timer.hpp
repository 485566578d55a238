// pqkem bench: the timer (fenced rdtsc), the rows it measures in interleaved rounds, and the
// reference workloads that show how fast the machine itself is in a run (bench_stats.hpp).
#pragma once

#include <openssl/evp.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench_stats.hpp"
#include "simd/dispatch.hpp"
#include "ticks.hpp"

namespace pqkem::cli {

using timing::ticks;

/// Ticks per second, measured against the steady clock over ~50 ms.
double tick_rate();

/// The timer's granularity: the smallest nonzero difference of two back-to-back ticks() over
/// many tries. It is the finest difference a measurement can show: the counter's step (some
/// VMs advance rdtsc in steps of tens of ticks) or the cost of one fenced read, whichever is
/// larger. Always at least 1.
std::uint64_t timer_granularity();

/// The reference loop (bench_stats.hpp, "drift"): a fixed workload no change to pqkem touches,
/// of the same kind as the kernels: four independent chains of loads from an L1-resident
/// table, 64-bit multiplies and shifts, about 10 microseconds per call.
std::uint64_t reference_loop() noexcept;

/// OpenSSL's SHA3-256 and AES-256-GCM of 4 KiB: fixed workloads outside pqkem, using other
/// execution units (OpenSSL's Keccak is scalar; its AES-GCM uses AES-NI and wide vectors).
class OpenSslReference {
public:
  OpenSslReference()
      : m_md(EVP_MD_fetch(nullptr, "SHA3-256", nullptr)),
        m_cipher(EVP_CIPHER_fetch(nullptr, "AES-256-GCM", nullptr)),
        m_ctx(EVP_CIPHER_CTX_new()) {
    for (std::size_t i = 0; i < m_in.size(); ++i) m_in[i] = static_cast<unsigned char>(i * 131);
  }
  ~OpenSslReference() {
    EVP_MD_free(m_md);
    EVP_CIPHER_free(m_cipher);
    EVP_CIPHER_CTX_free(m_ctx);
  }
  OpenSslReference(const OpenSslReference&) = delete;
  OpenSslReference& operator=(const OpenSslReference&) = delete;
  [[nodiscard]] bool usable() const { return m_md != nullptr && m_cipher != nullptr && m_ctx != nullptr; }
  void sha3() {
    unsigned int n = 0;
    EVP_Digest(m_in.data(), m_in.size(), m_out.data(), &n, m_md, nullptr);
  }
  void aes_gcm() {
    static const unsigned char key[32] = {1}, iv[12] = {2};
    int n = 0;
    EVP_EncryptInit_ex2(m_ctx, m_cipher, key, iv, nullptr);
    EVP_EncryptUpdate(m_ctx, m_out.data(), &n, m_in.data(), static_cast<int>(m_in.size()));
  }

private:
  EVP_MD* m_md;
  EVP_CIPHER* m_cipher;
  EVP_CIPHER_CTX* m_ctx;
  std::array<unsigned char, 4096> m_in{};
  std::array<unsigned char, 4096 + 64> m_out{};
};

/// One measurement: a row of the table.
struct Row {
  std::string group;                  ///< "ML-KEM-768", or "ML-KEM NTT plans, forward"
  std::string item;                   ///< "keypair", "NTT", "3211"
  std::string impl;                   ///< "portable"
  std::function<void()> run;          ///< one call
  std::optional<simd::Impl> engine;   ///< selected before each round (operations)
  std::size_t iterations = 0;         ///< calls per round (0: not chosen yet)
  std::vector<std::uint64_t> rounds;  ///< median ticks of each round, in the order measured
  std::vector<std::uint64_t> calls;   ///< every timed call, for the 10th percentile
  double speedup = 0;                 ///< vs the portable row / vs plan 1111111 (0: none)

  [[nodiscard]] std::string key() const { return group + " " + item; }
  [[nodiscard]] std::string name() const { return fmt::format("{} ({})", key(), impl); }
  [[nodiscard]] std::uint64_t best() const { return *std::min_element(rounds.begin(), rounds.end()); }
  [[nodiscard]] bench_stats::Summary summary() const {
    return bench_stats::summarize(std::vector<double>(rounds.begin(), rounds.end()));
  }
  [[nodiscard]] std::uint64_t p10() const {
    std::vector<std::uint64_t> c = calls;
    std::nth_element(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(c.size() / 10), c.end());
    return c[c.size() / 10];
  }
};

inline Row make_row(std::string group, std::string item, std::string impl, std::function<void()> run,
                    std::optional<simd::Impl> engine = std::nullopt) {
  Row r;
  r.group = std::move(group);
  r.item = std::move(item);
  r.impl = std::move(impl);
  r.run = std::move(run);
  r.engine = engine;
  return r;
}

struct Timing {
  int rounds = 5;
  std::size_t iterations = 0;  ///< --iterations: calls per round (0: from the time budget)
  double rate = 0;             ///< ticks per second
};

class Progress {
public:
  Progress() : m_tty(isatty(STDERR_FILENO) == 1) {}
  void show(const std::string& what) const {
    if (m_tty) fmt::print(stderr, "\r\033[Kbench: {}", what);
  }
  ~Progress() {
    if (m_tty) fmt::print(stderr, "\r\033[K");
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

private:
  bool m_tty;
};

/// Measures `timing.rounds` more rounds of every row, interleaved.
void measure_rounds(const std::vector<Row*>& rows, const Timing& timing, const Progress& progress);

std::vector<Row*> pointers(std::vector<Row>& rows);

}  // namespace pqkem::cli
