#include "kat.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <memory>
#include <string>

#include "ct.hpp"
#include "error.hpp"
#include "util/hex.hpp"

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
      EVP_CIPHER_CTX_set_padding(ctx.get(), 0) != 1 || EVP_EncryptUpdate(ctx.get(), out, &len, in, 16) != 1 ||
      len != 16)
    throw Error(Errc::openssl_failure, "AES-256-ECB encryption failed");
}

// V is a 128-bit big-endian counter.
void increment(std::uint8_t v[16]) noexcept {
  for (int j = 15; j >= 0; --j) {
    if (++v[j] != 0) break;
  }
}

/// One "name = HEX" line of a record.
struct Field {
  std::string_view name;
  ByteView bytes;
};

// Record `i` as PQCgenKAT_kem prints it: "count = i\n", a "name = HEX\n" line per field in
// upper-case hex, then a blank line. The buffer is allocated at its exact length, so it never
// reallocates (no copy is left behind), and it wipes itself: it holds the sk and ss hex.
SecretBytes record_text(int i, std::initializer_list<Field> fields) {
  constexpr std::string_view kEquals = " = ";
  const std::string head = "count = " + std::to_string(i) + "\n";
  std::size_t size = head.size() + 1;
  for (const Field& f : fields) size += f.name.size() + kEquals.size() + 2 * f.bytes.size() + 1;
  SecretBytes text(size);
  std::uint8_t* p = text.data();
  const auto put = [&p](std::string_view s) { p = std::copy(s.begin(), s.end(), p); };
  put(head);
  for (const Field& f : fields) {
    put(f.name);
    put(kEquals);
    hex::encode(f.bytes.data(), f.bytes.size(), p, true);  // sk and ss too: constant time
    p += 2 * f.bytes.size();
    put("\n");
  }
  put("\n");
  return text;
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

bool has_kat_procedure(Scheme s) noexcept { return scheme_info(s).has_nist_kat; }

void kat_rsp(Scheme s, int count, const std::function<void(std::string_view)>& sink) {
  if (count < 0) throw Error(Errc::bad_argument, "KAT count must not be negative");
  const SchemeInfo& info = scheme_info(s);
  if (!has_kat_procedure(s))
    throw Error(Errc::bad_argument, std::string(info.name) + " has no NIST known-answer-test procedure (" +
                                        std::string(info.standard) + " is not a NIST PQC submission)");
  std::array<std::uint8_t, 48> entropy{};
  for (std::size_t i = 0; i < entropy.size(); ++i) entropy[i] = static_cast<std::uint8_t>(i);
  KatDrbg master(entropy);

  sink("# " + std::string(info.name) + "\n\n");
  for (int i = 0; i < count; ++i) {
    std::array<std::uint8_t, 48> seed{};
    master.generate(seed);
    // Each record re-seeds the DRBG with its seed; the operations' randombytes calls read it.
    KatDrbg drbg(seed);
    auto draw = [&drbg](const std::size_t(&draws)[2], std::size_t total) {
      SecretBytes coins(total);
      std::size_t off = 0;
      for (std::size_t n : draws) {
        if (n == 0) continue;
        drbg.generate(coins.span().subspan(off, n));
        off += n;
      }
      return coins;
    };
    const SecretBytes kcoins = draw(info.keygen_draws, info.keygen_coin_bytes());
    KeyPair kp = keygen_derand(s, kcoins);
    const SecretBytes ecoins = draw(info.encaps_draws, info.encaps_coin_bytes());
    Encapsulation enc = encaps_derand(s, kp.pk, ecoins);
    SecretBytes ss = decaps(s, kp.sk, enc.ct);
    if (ss.size() != enc.ss.size() || ct::equal_mask(ss.data(), enc.ss.data(), ss.size()) != 0xFF)
      throw Error(Errc::bad_argument, "KAT: decapsulation did not recover the shared secret");

    const SecretBytes text =
        record_text(i, {{"seed", seed}, {"pk", kp.pk}, {"sk", kp.sk}, {"ct", enc.ct}, {"ss", enc.ss}});
    sink(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()));
  }
}

std::string kat_rsp(Scheme s, int count) {
  std::string out;
  kat_rsp(s, count, [&out](std::string_view chunk) { out += chunk; });
  return out;
}

}  // namespace pqkem
