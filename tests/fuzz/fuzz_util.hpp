// pqkem fuzzing helpers: a byte reader over the fuzzer's input, a crash that names what
// differed, a memfd for readers that open files, and the fixed keys of the sealed-file corpus. Every target is a
// libFuzzer target (LLVMFuzzerTestOneInput), built with -fsanitize=fuzzer,address,undefined; a pqkem::Error (expected
// rejection) is never a finding, anything else (another exception, a sanitizer report, a mismatch) is.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hpke.hpp"
#include "pqkem.hpp"

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

/// The fixed key of each HPKE KEM that fuzz_open opens with and make_seeds seals its seed
/// corpus to: DeriveKeyPair on 64 bytes of 0x5A.
inline const KeyPair& sealed_file_key(hpke::KemId kem) {
  static const std::vector<std::pair<hpke::KemId, KeyPair>> keys = [] {
    std::vector<std::pair<hpke::KemId, KeyPair>> k;
    const std::vector<std::uint8_t> ikm(64, 0x5A);
    for (const auto& info : hpke::all_kems()) k.emplace_back(info.id, hpke::derive_key_pair(info.id, ikm));
    return k;
  }();
  for (const auto& [id, kp] : keys)
    if (id == kem) return kp;
  fail("no key for this KEM");
}

/// A memfd holding `content`, named by path() (/proc/self/fd/N) for as long as the object
/// lives: the readers under test open real files.
class MemFile {
public:
  explicit MemFile(std::span<const std::uint8_t> content) {
    m_fd = memfd_create("pqkem-fuzz", 0);
    if (m_fd < 0) fail("memfd_create failed");
    for (std::size_t done = 0; done < content.size();) {
      const ssize_t n = write(m_fd, content.data() + done, content.size() - done);
      if (n <= 0) fail("write to memfd failed");
      done += static_cast<std::size_t>(n);
    }
    m_path = "/proc/self/fd/" + std::to_string(m_fd);
  }
  ~MemFile() { close(m_fd); }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  [[nodiscard]] const std::string& path() const { return m_path; }

private:
  int m_fd = -1;
  std::string m_path;
};

}  // namespace pqkem::fuzz
