// pqkem fuzzing helpers: a byte reader over the fuzzer's input, and a crash that names what
// differed. Every target is a libFuzzer target (LLVMFuzzerTestOneInput), built with
// -fsanitize=fuzzer,address,undefined; a pqkem::Error (expected rejection) is never a finding,
// anything else (another exception, a sanitizer report, a mismatch) is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace pqkem::fuzz {

/// Consumes the input front to back; reads past the end give zeros.
class Reader {
public:
  Reader(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}
  std::uint8_t byte() { return m_pos < m_size ? m_data[m_pos++] : 0; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(byte() | (byte() << 8)); }
  /// Exactly n bytes (zero-padded).
  std::vector<std::uint8_t> bytes(std::size_t n) {
    std::vector<std::uint8_t> v(n, 0);
    for (std::size_t i = 0; i < n && m_pos < m_size; ++i) v[i] = m_data[m_pos++];
    return v;
  }
  /// Everything left.
  std::vector<std::uint8_t> rest() {
    std::vector<std::uint8_t> v(m_data + m_pos, m_data + m_size);
    m_pos = m_size;
    return v;
  }
  [[nodiscard]] std::size_t remaining() const { return m_size - m_pos; }

private:
  const std::uint8_t* m_data;
  std::size_t m_size;
  std::size_t m_pos = 0;
};

[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "pqkem fuzz: %s\n", what);
  std::abort();
}

inline void check(bool ok, const char* what) {
  if (!ok) fail(what);
}

inline bool same(const void* a, const void* b, std::size_t n) { return std::memcmp(a, b, n) == 0; }

}  // namespace pqkem::fuzz
