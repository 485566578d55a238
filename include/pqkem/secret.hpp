// pqkem: byte buffers that hold secrets and wipe themselves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <pqkem/export.hpp>  // PQKEM_API: the symbols libpqkem.so exports

namespace pqkem {

using Bytes = std::vector<std::uint8_t>;
using ByteView = std::span<const std::uint8_t>;

/// Overwrites memory with zeros in a way the compiler cannot elide (memset, then a compiler
/// barrier that takes the pointer and clobbers memory).
PQKEM_API void secure_wipe(void* p, std::size_t n) noexcept;

/// Move-only, heap-allocated secret byte string, wiped on destruction and on move-from.
/// Copying must be explicit (`clone()`), so secrets are not duplicated by accident.
class SecretBytes {
public:
  SecretBytes() = default;
  explicit SecretBytes(std::size_t n) : m_data(n) {}
  explicit SecretBytes(ByteView bytes) : m_data(bytes.begin(), bytes.end()) {}
  SecretBytes(const SecretBytes&) = delete;
  SecretBytes& operator=(const SecretBytes&) = delete;
  SecretBytes(SecretBytes&& other) noexcept : m_data(std::move(other.m_data)) { other.m_data.clear(); }
  SecretBytes& operator=(SecretBytes&& other) noexcept {
    if (this != &other) {
      wipe();
      m_data = std::move(other.m_data);
      other.m_data.clear();
    }
    return *this;
  }
  ~SecretBytes() { wipe(); }

  [[nodiscard]] SecretBytes clone() const { return SecretBytes(view()); }
  void wipe() noexcept {
    secure_wipe(m_data.data(), m_data.size());
    m_data.clear();
  }

  [[nodiscard]] std::uint8_t* data() noexcept { return m_data.data(); }
  [[nodiscard]] const std::uint8_t* data() const noexcept { return m_data.data(); }
  [[nodiscard]] std::size_t size() const noexcept { return m_data.size(); }
  [[nodiscard]] bool empty() const noexcept { return m_data.empty(); }
  [[nodiscard]] ByteView view() const noexcept { return {m_data.data(), m_data.size()}; }
  [[nodiscard]] std::span<std::uint8_t> span() noexcept { return {m_data.data(), m_data.size()}; }
  std::uint8_t& operator[](std::size_t i) noexcept { return m_data[i]; }
  const std::uint8_t& operator[](std::size_t i) const noexcept { return m_data[i]; }
  operator ByteView() const noexcept { return view(); }  // NOLINT: implicit view is intended

private:
  std::vector<std::uint8_t> m_data;
};

/// Fixed-size secret on the stack, wiped on destruction.
template <std::size_t N>
struct Secret {
  std::uint8_t bytes[N] = {};
  Secret() = default;
  Secret(const Secret&) = delete;
  Secret& operator=(const Secret&) = delete;
  ~Secret() { secure_wipe(bytes, N); }
  std::span<std::uint8_t, N> span() noexcept { return std::span<std::uint8_t, N>(bytes); }
  std::span<const std::uint8_t, N> view() const noexcept { return std::span<const std::uint8_t, N>(bytes); }
};

}  // namespace pqkem
