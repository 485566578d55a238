#include "kat.hpp"

#include <openssl/evp.h>

#include <array>
#include <algorithm>
#include <memory>

#include "ct.hpp"
#include "error.hpp"

namespace pqkem {
namespace {

// AES-256 on one 16-byte block (ECB, no padding): the block cipher call of NIST's rng.c.
void aes256_block(const std::uint8_t key[32], const std::uint8_t in[16], std::uint8_t out[16]) {
  static const EVP_CIPHER* cipher = [] {
    const EVP_CIPHER* c = EVP_CIPHER_fetch(nullptr, "AES-256-ECB", nullptr);
    if (c == nullptr) throw Error(Errc::openssl_failure, "OpenSSL has no AES-256-ECB");
    return c;
  }();
  std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  int len = 0;
  if (!ctx || EVP_EncryptInit_ex2(ctx.get(), cipher, key, nullptr, nullptr) != 1 ||
      EVP_CIPHER_CTX_set_padding(ctx.get(), 0) != 1 ||
      EVP_EncryptUpdate(ctx.get(), out, &len, in, 16) != 1 || len != 16)
    throw Error(Errc::openssl_failure, "AES-256-ECB encryption failed");
}

// V is a 128-bit big-endian counter.
void increment(std::uint8_t v[16]) noexcept {
  for (int j = 15; j >= 0; --j) {
    if (++v[j] != 0) break;
  }
}

constexpr char kHex[] = "0123456789ABCDEF";

void append_hex(std::string& s, ByteView bytes) {
  for (std::uint8_t b : bytes) {
    s.push_back(kHex[b >> 4]);
    s.push_back(kHex[b & 15]);
  }
}

void append_field(std::string& s, const char* name, ByteView bytes) {
  s += name;
  s += " = ";
  append_hex(s, bytes);
  s += '\n';
}

}  // namespace

KatDrbg::KatDrbg(std::span<const std::uint8_t, 48> entropy) : m_key{}, m_v{} { update(entropy.data()); }

KatDrbg::~KatDrbg() {
  secure_wipe(m_key, sizeof m_key);
  secure_wipe(m_v, sizeof m_v);
}

// CTR_DRBG_Update (SP 800-90A 10.2.1.2) with seedlen = 48.
void KatDrbg::update(const std::uint8_t* provided) {
  std::uint8_t temp[48];
  for (int i = 0; i < 3; ++i) {
    increment(m_v);
    aes256_block(m_key, m_v, temp + 16 * i);
  }
  if (provided != nullptr)
    for (int i = 0; i < 48; ++i) temp[i] ^= provided[i];
  std::copy_n(temp, 32, m_key);
  std::copy_n(temp + 32, 16, m_v);
  secure_wipe(temp, sizeof temp);
}

void KatDrbg::generate(std::span<std::uint8_t> out) {
  std::uint8_t block[16];
  for (std::size_t off = 0; off < out.size(); off += 16) {
    increment(m_v);
    aes256_block(m_key, m_v, block);
    std::copy_n(block, std::min<std::size_t>(16, out.size() - off), out.begin() + static_cast<std::ptrdiff_t>(off));
  }
  secure_wipe(block, sizeof block);
  update(nullptr);
}

std::string kat_rsp(Scheme s, int count) {
  if (count < 0) throw Error(Errc::bad_argument, "KAT count must not be negative");
  const SchemeInfo& info = scheme_info(s);
  std::array<std::uint8_t, 48> entropy{};
  for (std::size_t i = 0; i < entropy.size(); ++i) entropy[i] = static_cast<std::uint8_t>(i);
  KatDrbg master(entropy);

  std::string out = "# " + std::string(info.name) + "\n\n";
  for (int i = 0; i < count; ++i) {
    std::array<std::uint8_t, 48> seed{};
    master.generate(seed);
    // Each record re-seeds the DRBG with its seed; the operations' randombytes calls read it.
    KatDrbg drbg(seed);
    auto draw = [&drbg](const std::size_t (&draws)[2], std::size_t total) {
      Bytes coins(total);
      std::size_t off = 0;
      for (std::size_t n : draws) {
        if (n == 0) continue;
        drbg.generate(std::span(coins).subspan(off, n));
        off += n;
      }
      return coins;
    };
    Bytes kcoins = draw(info.keygen_draws, info.keygen_coin_bytes());
    KeyPair kp = keygen_derand(s, kcoins);
    secure_wipe(kcoins.data(), kcoins.size());
    Bytes ecoins = draw(info.encaps_draws, info.encaps_coin_bytes());
    Encapsulation enc = encaps_derand(s, kp.pk, ecoins);
    SecretBytes ss = decaps(s, kp.sk, enc.ct);
    if (ss.size() != enc.ss.size() || ct::equal_mask(ss.data(), enc.ss.data(), ss.size()) != 0xFF)
      throw Error(Errc::bad_argument, "KAT: decapsulation did not recover the shared secret");

    out += "count = " + std::to_string(i) + "\n";
    append_field(out, "seed", seed);
    append_field(out, "pk", kp.pk);
    append_field(out, "sk", kp.sk);
    append_field(out, "ct", enc.ct);
    append_field(out, "ss", enc.ss);
    out += '\n';
  }
  return out;
}

}  // namespace pqkem
