// Helpers shared by the NTRU tests: parameter-set lists, hex/SHA-256, file access, a seeded RNG.
#pragma once

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ntru/params.hpp"
#include "pqkem.hpp"
#include "simd/cpu.hpp"
#include "simd/dispatch.hpp"

namespace pqkem::ntru::test {

using AllParams = ::testing::Types<NtruHps2048509, NtruHps2048677, NtruHps4096821, NtruHrss701>;

class ParamsName {
public:
  template <class P>
  static std::string GetName(int) {
    // Appended piece by piece: "n" + std::string trips GCC 12's false -Wrestrict (PR 105651).
    std::string name = "n";
    name += std::to_string(P::n);
    name += P::hps ? "hps" : "hrss";
    return name;
  }
};

/// Whether this CPU has everything the AVX2 kernels need (checked here independently of the
/// dispatcher, so a dispatcher that wrongly falls back to portable code fails the tests).
inline bool cpu_has_avx2_kernels() {
  const auto& f = simd::cpu_features();
  return f.avx2 && f.bmi1 && f.bmi2 && f.popcnt && f.pclmul;
}

/// Whether the SIMD kernel tests compare the AVX-512 backend's NTRU kernels (the AVX2 sources
/// compiled with the AVX-512 flags) rather than the AVX2 ones: ctest runs them again with
/// PQKEM_NTRU_SIMD=avx512 (tests/ntru/CMakeLists.txt).
inline bool testing_avx512_kernels() {
  const char* v = std::getenv("PQKEM_NTRU_SIMD");
  return v != nullptr && std::string_view(v) == "avx512";
}

/// The implementation whose kernel table the SIMD tests compare with the portable one: avx512
/// when asked for, else avx2 where the CPU has it, else portable (the comparison is then
/// trivial). The tests skip an avx512 run on a CPU without it, saying so.
inline simd::Impl simd_under_test() {
  if (testing_avx512_kernels()) return simd::Impl::avx512;
  return cpu_has_avx2_kernels() ? simd::Impl::avx2 : simd::Impl::portable;
}

inline std::string sha256_hex(std::string_view text) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(text.data(), text.size(), md, &len, EVP_sha256(), nullptr) != 1 || len != 32)
    throw std::runtime_error("EVP_Digest(SHA-256) failed");
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) {
    out.push_back(hex[md[i] >> 4]);
    out.push_back(hex[md[i] & 15]);
  }
  return out;
}

inline std::vector<std::uint8_t> sha3_256(std::initializer_list<std::span<const std::uint8_t>> parts) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  std::vector<std::uint8_t> out(32);
  unsigned int len = 0;
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha3_256(), nullptr) != 1) throw std::runtime_error("sha3 init");
  for (auto p : parts)
    if (EVP_DigestUpdate(ctx.get(), p.data(), p.size()) != 1) throw std::runtime_error("sha3 update");
  if (EVP_DigestFinal_ex(ctx.get(), out.data(), &len) != 1 || len != 32) throw std::runtime_error("sha3 final");
  return out;
}

/// The file's bytes; throws (failing the test) if it cannot be read.
inline std::string read_vector_file(const std::string& relative) {
  const std::string path = std::string(PQKEM_VECTORS_DIR) + "/" + relative;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open test vector file " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

}  // namespace pqkem::ntru::test
