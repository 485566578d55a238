#include "hash.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <memory>

#include "error.hpp"

namespace pqkem::hash {
namespace {

// Fetched once per process (function-local statics are initialized thread-safely) and
// never freed: the provider keeps them alive for the life of the process anyway.
const EVP_MD* fetch(const char* name) {
  const EVP_MD* md = EVP_MD_fetch(nullptr, name, nullptr);
  if (md == nullptr) throw Error(Errc::openssl_failure, std::string("OpenSSL has no ") + name);
  return md;
}
const EVP_MD* md_sha3_256() { static const EVP_MD* md = fetch("SHA3-256"); return md; }
const EVP_MD* md_sha3_512() { static const EVP_MD* md = fetch("SHA3-512"); return md; }
const EVP_MD* md_shake128() { static const EVP_MD* md = fetch("SHAKE128"); return md; }
const EVP_MD* md_shake256() { static const EVP_MD* md = fetch("SHAKE256"); return md; }

[[noreturn]] void fail(const char* what) { throw Error(Errc::openssl_failure, what); }

struct CtxDeleter {
  void operator()(EVP_MD_CTX* c) const noexcept { EVP_MD_CTX_free(c); }
};
using CtxPtr = std::unique_ptr<EVP_MD_CTX, CtxDeleter>;

CtxPtr new_ctx(const EVP_MD* md, std::initializer_list<ByteView> in) {
  CtxPtr ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestInit_ex2(ctx.get(), md, nullptr) != 1) fail("EVP_DigestInit_ex2 failed");
  for (ByteView piece : in)
    if (!piece.empty() && EVP_DigestUpdate(ctx.get(), piece.data(), piece.size()) != 1)
      fail("EVP_DigestUpdate failed");
  return ctx;
}

void digest(const EVP_MD* md, std::span<std::uint8_t> out, std::initializer_list<ByteView> in) {
  CtxPtr ctx = new_ctx(md, in);
  unsigned len = 0;
  if (EVP_DigestFinal_ex(ctx.get(), out.data(), &len) != 1 || len != out.size())
    fail("EVP_DigestFinal_ex failed");
}

void xof(const EVP_MD* md, std::span<std::uint8_t> out, std::initializer_list<ByteView> in) {
  CtxPtr ctx = new_ctx(md, in);
  if (EVP_DigestFinalXOF(ctx.get(), out.data(), out.size()) != 1) fail("EVP_DigestFinalXOF failed");
}

}  // namespace

void sha3_256(std::span<std::uint8_t, 32> out, std::initializer_list<ByteView> in) { digest(md_sha3_256(), out, in); }
void sha3_512(std::span<std::uint8_t, 64> out, std::initializer_list<ByteView> in) { digest(md_sha3_512(), out, in); }
void shake128(std::span<std::uint8_t> out, std::initializer_list<ByteView> in) { xof(md_shake128(), out, in); }
void shake256(std::span<std::uint8_t> out, std::initializer_list<ByteView> in) { xof(md_shake256(), out, in); }

Xof::Xof(XofKind kind) {
  m_ctx = new_ctx(kind == XofKind::shake128 ? md_shake128() : md_shake256(), {}).release();
}

Xof::~Xof() {
  secure_wipe(m_out.data(), m_out.size());
  EVP_MD_CTX_free(m_ctx);
}

void Xof::absorb(ByteView in) {
  if (m_squeezing) throw Error(Errc::bad_argument, "Xof::absorb after squeeze");
  if (!in.empty() && EVP_DigestUpdate(m_ctx, in.data(), in.size()) != 1) fail("EVP_DigestUpdate failed");
}

void Xof::squeeze(std::span<std::uint8_t> out) {
  m_squeezing = true;
  const std::size_t need = m_pos + out.size();
  if (need > m_out.size()) {
    // Re-finalize a copy of the absorbed state to a longer output; the old output is its prefix.
    const std::size_t total = std::max({need, 2 * m_out.size(), m_reserve});
    CtxPtr copy(EVP_MD_CTX_new());
    if (!copy || EVP_MD_CTX_copy_ex(copy.get(), m_ctx) != 1) fail("EVP_MD_CTX_copy_ex failed");
    std::vector<std::uint8_t> longer(total);
    if (EVP_DigestFinalXOF(copy.get(), longer.data(), total) != 1) fail("EVP_DigestFinalXOF failed");
    secure_wipe(m_out.data(), m_out.size());
    m_out = std::move(longer);
  }
  std::copy_n(m_out.begin() + static_cast<std::ptrdiff_t>(m_pos), out.size(), out.begin());
  m_pos = need;
}

}  // namespace pqkem::hash
