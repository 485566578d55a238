// Secret hygiene: the wrappers wipe, and the public operations leave no copy of a
// secret behind, neither in freed heap blocks nor in the dead part of the stack.
//
// Heap: this binary replaces the global operator delete; a freed block is scanned for 16-byte
// windows of the secrets the test knows (coins, seeds, sigma, m, r, shared secrets). Stack:
// after an operation returns, the memory below the stack pointer (where its frames were) is
// scanned the same way. Every path the API offers is run (keygen, encaps, decaps with valid
// and invalid ciphertexts, and failing calls that throw), on every usable implementation.
// Under AddressSanitizer (own allocator, fake stacks) the scans are skipped.
#include <gtest/gtest.h>

#include <openssl/evp.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "hash.hpp"
#include "ntru/params.hpp"
#include "ntru/poly.hpp"
#include "pqkem.hpp"
#include "secret.hpp"
#include "simd/dispatch.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define PQKEM_WIPE_SCANS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PQKEM_WIPE_SCANS 0
#endif
#endif
#ifndef PQKEM_WIPE_SCANS
#define PQKEM_WIPE_SCANS 1
#endif

// Everything that scans memory for leftover secrets exists only where the scans run.
#if PQKEM_WIPE_SCANS
namespace {

// ---- the secrets to look for: 16-byte windows, fixed-size storage (no allocation) --------
constexpr int kMaxNeedles = 64;
std::array<std::array<std::uint8_t, 16>, kMaxNeedles> g_needles;
std::array<const char*, kMaxNeedles> g_needle_names;
int g_needle_count = 0;
bool g_scan_heap = false;
int g_heap_hits = 0;
const char* g_heap_hit_name = nullptr;

/// Index of the first needle found in [p, p + n), or -1. Byte loop: copies nothing.
int find_needle(const volatile std::uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i + 16 <= n; ++i) {
    for (int k = 0; k < g_needle_count; ++k) {
      if (p[i] != g_needles[k][0]) continue;
      int j = 1;
      while (j < 16 && p[i + j] == g_needles[k][j]) ++j;
      if (j == 16) return k;
    }
  }
  return -1;
}

void add_secret(const char* name, const std::uint8_t* s, std::size_t n) {
  for (std::size_t off = 0; off + 16 <= n && g_needle_count < kMaxNeedles; off += 16) {
    std::memcpy(g_needles[g_needle_count].data(), s + off, 16);
    g_needle_names[g_needle_count++] = name;
  }
}

void clear_secrets() {
  g_needle_count = 0;
  g_heap_hits = 0;
  g_heap_hit_name = nullptr;
}

void check_freed(void* p, std::size_t n) {
  if (!g_scan_heap || p == nullptr || n < 16) return;
  const int k = find_needle(static_cast<const volatile std::uint8_t*>(p), n);
  if (k >= 0) {
    ++g_heap_hits;
    g_heap_hit_name = g_needle_names[k];
  }
}

}  // namespace

// Sized and unsized deletes; the unsized one cannot know the size, so it asks malloc.
#include <malloc.h>
// gcc 12 flags std::free inside a replaced operator delete as a new/free mismatch; here the
// global operator new is the default one, which allocates with malloc.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept {
  if (p != nullptr) check_freed(p, malloc_usable_size(p));
  std::free(p);
}
void operator delete(void* p, std::size_t n) noexcept {
  check_freed(p, n);
  std::free(p);
}
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t n) noexcept { operator delete(p, n); }
#pragma GCC diagnostic pop
#endif

namespace {

std::vector<std::uint8_t> pattern(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> b(n);
  std::uint32_t x = 0x85EBCA6Bu + seed;
  for (auto& v : b) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    v = static_cast<std::uint8_t>(x);
  }
  return b;
}

#if PQKEM_WIPE_SCANS
constexpr std::size_t kStackScan = 256 * 1024;

/// Touches kStackScan bytes of stack so the region scanned later is mapped (and zero).
__attribute__((noinline)) void prefault_stack() {
  volatile std::uint8_t buf[kStackScan + 4096];
  for (std::size_t i = 0; i < sizeof buf; i += 64) buf[i] = 0;
  std::memset(const_cast<std::uint8_t*>(buf), 0, sizeof buf);
}

/// The name of a secret found in the dead stack below this frame, or nullptr.
__attribute__((noinline)) const char* scan_dead_stack() {
  const auto* top = static_cast<const volatile std::uint8_t*>(__builtin_frame_address(0)) - 512;
  const int k = find_needle(top - kStackScan, kStackScan);
  return k >= 0 ? g_needle_names[k] : nullptr;
}

/// Test-only: copies 32 secret bytes into a stack frame a few KiB deep and returns unwiped.
__attribute__((noinline)) void leave_on_stack_inner(const std::uint8_t* secret) {
  [[maybe_unused]] volatile std::uint8_t buf[64];
  for (int i = 0; i < 32; ++i) buf[i] = secret[i];
}
__attribute__((noinline)) void leave_on_stack(const std::uint8_t* secret) {
  volatile std::uint8_t pad[4096];
  pad[0] = 1;
  leave_on_stack_inner(secret);
  pad[1] = pad[0];
}

std::vector<std::uint8_t> sha3_512(std::initializer_list<pqkem::ByteView> parts) {
  std::vector<std::uint8_t> out(64);
  EVP_MD_CTX* c = EVP_MD_CTX_new();
  EVP_DigestInit_ex(c, EVP_sha3_512(), nullptr);
  for (auto p : parts) EVP_DigestUpdate(c, p.data(), p.size());
  unsigned len = 0;
  EVP_DigestFinal_ex(c, out.data(), &len);
  EVP_MD_CTX_free(c);
  return out;
}
std::vector<std::uint8_t> sha3_256(pqkem::ByteView in) {
  std::vector<std::uint8_t> out(32);
  unsigned len = 0;
  EVP_Digest(in.data(), in.size(), out.data(), &len, EVP_sha3_256(), nullptr);
  return out;
}

std::vector<pqkem::simd::Impl> usable_impls() {
  std::vector<pqkem::simd::Impl> v;
  for (auto i : {pqkem::simd::Impl::portable, pqkem::simd::Impl::avx2})
    if (pqkem::simd::impl_usable(i)) v.push_back(i);
  return v;
}
#endif

// ---- wrappers -------------------------------------------------------------------------------

TEST(SecretWipe, SecretArrayDestructorWipes) {
  alignas(pqkem::Secret<48>) unsigned char storage[sizeof(pqkem::Secret<48>)];
  auto* s = new (storage) pqkem::Secret<48>;
  std::memset(s->bytes, 0xA5, 48);
  s->~Secret();
  for (unsigned char b : storage) ASSERT_EQ(b, 0);
}

TEST(SecretWipe, NtruPolyDestructorWipes) {
  using Poly = pqkem::ntru::Poly<pqkem::ntru::NtruHps2048509>;
  alignas(Poly) unsigned char storage[sizeof(Poly)];
  auto* p = new (storage) Poly;
  p->c.fill(0x1234);
  p->~Poly();
  for (unsigned char b : storage) ASSERT_EQ(b, 0);
}

TEST(SecretWipe, SecretBytesWipeAndMove) {
  pqkem::SecretBytes a(pqkem::ByteView(pattern(40, 1)));
  pqkem::SecretBytes b = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT: moved-from state is specified (empty)
  EXPECT_EQ(b.size(), 40u);
  b.wipe();
  EXPECT_TRUE(b.empty());
}

#if PQKEM_WIPE_SCANS
TEST(SecretWipe, SecretBytesDestructorWipesHeap) {
  const auto secret = pattern(64, 2);
  clear_secrets();
  add_secret("SecretBytes content", secret.data(), secret.size());
  g_scan_heap = true;
  {
    pqkem::SecretBytes s{pqkem::ByteView(secret)};
    pqkem::SecretBytes t(64);
    t = s.clone();  // move assignment over a buffer
  }
  g_scan_heap = false;
  EXPECT_EQ(g_heap_hits, 0) << g_heap_hit_name;

  // The scan itself works: a plain vector is freed unwiped.
  g_scan_heap = true;
  { std::vector<std::uint8_t> v(secret); }
  g_scan_heap = false;
  EXPECT_EQ(g_heap_hits, 1) << "the heap scan missed an unwiped buffer";
}

TEST(SecretWipe, StackScanFindsALeftover) {
  const auto secret = pattern(32, 3);
  clear_secrets();
  add_secret("leftover", secret.data(), secret.size());
  prefault_stack();
  leave_on_stack(secret.data());
  EXPECT_NE(scan_dead_stack(), nullptr) << "the stack scan missed a leftover";
}

// ---- the operations ---------------------------------------------------------------------------

struct OpCase {
  pqkem::Scheme scheme;
  pqkem::simd::Impl impl;
};

class OperationWipe : public ::testing::TestWithParam<pqkem::Scheme> {};

/// Runs `op` with the heap scan on, then scans the dead stack; reports what was found.
template <class F>
void expect_no_leftovers(const char* what, F&& op) {
  prefault_stack();
  g_heap_hits = 0;
  g_scan_heap = true;
  op();
  g_scan_heap = false;
  const char* on_stack = scan_dead_stack();
  EXPECT_EQ(g_heap_hits, 0) << what << ": a freed heap block held " << g_heap_hit_name;
  EXPECT_EQ(on_stack, nullptr) << what << ": the dead stack holds " << on_stack;
}

TEST_P(OperationWipe, KeygenEncapsDecapsLeaveNoSecret) {
  const pqkem::Scheme s = GetParam();
  const pqkem::SchemeInfo& info = pqkem::scheme_info(s);
  const bool mlkem = info.family == pqkem::Family::MlKem;
  for (const auto impl : usable_impls()) {
    SCOPED_TRACE(std::string(pqkem::simd::impl_name(impl)));
    pqkem::simd::set_impl(impl);
    const auto kg = pattern(info.keygen_coin_bytes(), static_cast<std::uint8_t>(10 + static_cast<int>(s)));
    const auto ec = pattern(info.encaps_coin_bytes(), static_cast<std::uint8_t>(20 + static_cast<int>(s)));

    // Reference results, computed before the scans (their own buffers are the test's).
    const pqkem::KeyPair kp = pqkem::keygen_derand(s, kg);
    const pqkem::Encapsulation e = pqkem::encaps_derand(s, kp.pk, ec);

    clear_secrets();
    add_secret("keygen coins", kg.data(), kg.size() < 512 ? kg.size() : 512);
    add_secret("encaps coins (m)", ec.data(), ec.size() < 256 ? ec.size() : 256);
    add_secret("shared secret", e.ss.data(), e.ss.size());
    if (mlkem) {
      const std::uint8_t k_byte[1] = {static_cast<std::uint8_t>(info.pk_bytes / 384)};
      const auto rho_sigma = sha3_512({pqkem::ByteView(kg).first(32), k_byte});
      add_secret("sigma", rho_sigma.data() + 32, 32);
      const auto h = sha3_256(kp.pk);
      const auto kr = sha3_512({pqkem::ByteView(ec), h});
      add_secret("r", kr.data() + 32, 32);
    }
    // A hybrid's X25519 private key and ML-KEM seed (X-Wing: expanded from its seed by SHAKE256;
    // X25519MLKEM768: the seed is d || z || sk_X).
    std::array<std::uint8_t, 96> hybrid_seed{};
    if (info.family == pqkem::Family::Hybrid) {
      if (s == pqkem::Scheme::XWing)
        pqkem::hash::shake256(hybrid_seed, {pqkem::ByteView(kg)});
      else
        std::memcpy(hybrid_seed.data(), kg.data(), 96);
      add_secret("ML-KEM d", hybrid_seed.data(), 32);
      add_secret("X25519 private key", hybrid_seed.data() + 64, 32);
    }
    // The secret key's own bytes: its first 64 (s^ or f) and the last 32 (z / PRF key).
    add_secret("secret key (start)", kp.sk.data(), 64);
    // (A hybrid's key ends with the public pk_X: its ML-KEM z lies 2368 bytes into dk_M.)
    if (info.family == pqkem::Family::Hybrid)
      add_secret("secret key (ML-KEM z)", kp.sk.data() + info.seed_bytes + 2368, 32);
    else
      add_secret("secret key (end)", kp.sk.data() + kp.sk.size() - 32, 32);

    expect_no_leftovers("keygen_derand", [&] { const auto k2 = pqkem::keygen_derand(s, kg); });
    expect_no_leftovers("encaps_derand", [&] { const auto e2 = pqkem::encaps_derand(s, kp.pk, ec); });
    expect_no_leftovers("decaps (valid)", [&] { const auto ss = pqkem::decaps(s, kp.sk, e.ct); });
    auto bad = e.ct;
    bad[3] ^= 0x40;
    expect_no_leftovers("decaps (invalid ciphertext)", [&] { const auto ss = pqkem::decaps(s, kp.sk, bad); });
    expect_no_leftovers("decaps (wrong length, throws)", [&] {
      EXPECT_THROW(pqkem::decaps(s, kp.sk, pqkem::ByteView(bad).first(bad.size() - 1)), pqkem::Error);
    });
    expect_no_leftovers("public_key_from_secret_key",
                        [&] { const auto pk = pqkem::public_key_from_secret_key(s, kp.sk); });
    if (info.family == pqkem::Family::Hybrid) {
      // The seed given as the secret key: expanded into a temporary key, which must go too.
      const auto seed = pqkem::ByteView(kp.sk).first(info.seed_bytes);
      expect_no_leftovers("decaps (seed)", [&] { const auto ss = pqkem::decaps(s, seed, e.ct); });
      expect_no_leftovers("check_secret_key", [&] { pqkem::check_secret_key(s, kp.sk); });
    }
    if (s == pqkem::Scheme::X25519MlKem768) {
      // An all-zero X25519 secret throws from inside the operation.
      auto low = e.ct;
      std::memset(low.data() + 1088, 0, 32);
      expect_no_leftovers("decaps (small-order X25519 share, throws)",
                          [&] { EXPECT_THROW(pqkem::decaps(s, kp.sk, low), pqkem::Error); });
    }
  }
  pqkem::simd::set_impl_auto();
}

INSTANTIATE_TEST_SUITE_P(AllSchemes, OperationWipe,
                         ::testing::Values(pqkem::Scheme::MlKem512, pqkem::Scheme::MlKem768, pqkem::Scheme::MlKem1024,
                                           pqkem::Scheme::NtruHps2048509, pqkem::Scheme::NtruHps2048677,
                                           pqkem::Scheme::NtruHps4096821, pqkem::Scheme::NtruHrss701,
                                           pqkem::Scheme::XWing, pqkem::Scheme::X25519MlKem768),
                         [](const auto& p) {
                           std::string n(pqkem::scheme_info(p.param).name);
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });
#endif

}  // namespace
