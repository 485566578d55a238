// pqkem: SHA-3 family over OpenSSL 3 EVP. Each EVP_MD is fetched once per process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "secret.hpp"

typedef struct evp_md_ctx_st EVP_MD_CTX;  // NOLINT: OpenSSL's own forward declaration

namespace pqkem::hash {

/// SHA3-256 / SHA3-512 of the concatenation of the given pieces.
void sha3_256(std::span<std::uint8_t, 32> out, std::initializer_list<ByteView> in);
void sha3_512(std::span<std::uint8_t, 64> out, std::initializer_list<ByteView> in);
/// SHAKE-256 of the concatenation of the pieces, `out.size()` bytes.
void shake256(std::span<std::uint8_t> out, std::initializer_list<ByteView> in);
/// SHAKE-128 of the concatenation of the pieces, `out.size()` bytes.
void shake128(std::span<std::uint8_t> out, std::initializer_list<ByteView> in);

enum class XofKind { shake128, shake256 };

/// An extendable-output function with absorb-then-incremental-squeeze semantics.
///
/// OpenSSL 3.0 finalizes an XOF context exactly once (no EVP_DigestSqueeze before 3.2), so
/// squeezing is done by keeping the absorbed state and finalizing a copy of it to a longer
/// length whenever more output is needed: SHAKE output of length L is a prefix of the output
/// of any length L' > L, so the stream read is exactly SHAKE(input)[0..]. The buffer at least
/// doubles each time, so reading N bytes costs O(N) permutations overall. Output buffers are
/// wiped on destruction (the stream may be secret).
class Xof {
public:
  explicit Xof(XofKind kind);
  Xof(const Xof&) = delete;
  Xof& operator=(const Xof&) = delete;
  ~Xof();

  /// Absorb more input; only before the first squeeze.
  void absorb(ByteView in);
  /// Read the next out.size() bytes of the output stream.
  void squeeze(std::span<std::uint8_t> out);
  /// Hint: finalize at least this many bytes on the first squeeze (avoid re-finalizing).
  void reserve(std::size_t n) noexcept { m_reserve = n; }

private:
  EVP_MD_CTX* m_ctx = nullptr;
  std::vector<std::uint8_t> m_out;
  std::size_t m_pos = 0;
  std::size_t m_reserve = 0;
  bool m_squeezing = false;
};

}  // namespace pqkem::hash
