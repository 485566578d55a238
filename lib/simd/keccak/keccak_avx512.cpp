// Keccak-f[1600] on four and eight states, and the sponge batch, for the AVX-512 backend (see
// keccak_avx512.hpp).
//
// Compiled with the AVX-512 flags (lib/CMakeLists.txt). Everything below the public functions
// has internal linkage (anonymous namespace) and uses no STL, so no code compiled with these
// flags can be picked by the linker for a caller on another path.
#include "simd/keccak/keccak_avx512.hpp"

#include <immintrin.h>

#include "keccak_f1600.hpp"
#include "simd/keccak/keccak_avx2.hpp"  // the 1-way permutation
#include "simd/keccak/keccak_jobs_impl.hpp"
#include "simd/vec_x86.hpp"

namespace pqkem::simd::avx512 {
namespace {

using keccak::kRc;

/// The vector type of Bits bits, with its attributes (as a template argument __m256i would lose
/// may_alias, and the permutation reads the states through it).
template <int Bits>
struct EvexVec;
template <>
struct EvexVec<256> {
  using V = __m256i;
};
template <>
struct EvexVec<512> {
  using V = __m512i;
};

/// Keccak lanes in the 64-bit lanes of a Bits-bit register: four states in a YMM register
/// (AVX-512VL), eight in a ZMM one. The rotations are vprolq, theta's five-way xor two vpternlogq
/// and chi one (vec_x86.hpp has the instructions of either width).
template <int Bits>
struct EvexLane {
  using V = typename EvexVec<Bits>::V;
  static V bxor(V a, V b) { return x86::bxor(a, b); }
  static V andn(V a, V b) { return x86::andnot(a, b); }
  static V xor3(V a, V b, V c) { return x86::ternlog<0x96>(a, b, c); }
  static V chi(V a, V b, V c) { return x86::ternlog<0xD2>(a, b, c); }  // a ^ (~b & c)
  template <int N>
  static V rol(V a) {
    return x86::rol64<N>(a);
  }
  static V rc(int i) {
    if constexpr (Bits == 512)
      return _mm512_set1_epi64(static_cast<long long>(kRc[i]));
    else
      return _mm256_set1_epi64x(static_cast<long long>(kRc[i]));
  }
};
using Ymm512Lane = EvexLane<256>;
using Zmm512Lane = EvexLane<512>;

// The chi truth table: bit (4a + 2b + c) of 0xD2 is a ^ (~b & c).
static_assert([] {
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int c = 0; c < 2; ++c)
        if (((0xD2 >> (4 * a + 2 * b + c)) & 1) != (a ^ ((1 - b) & c))) return false;
  return true;
}());

/// The lanes of each permutation for the batch scheduler (keccak_jobs_impl.hpp).
struct X4Perm {
  static constexpr int kVector = 4, kWidth = 4;
  static void permute(std::uint64_t* s) { keccak_f1600_x4_avx512(s); }
  static void permute1(std::uint64_t* s) { avx2::keccak_f1600_x1_avx2(s); }
};
struct X8Perm {
  static constexpr int kVector = 8, kWidth = 8;
  static void permute(std::uint64_t* s) { keccak_f1600_x8_avx512(s); }
  static void permute1(std::uint64_t* s) { avx2::keccak_f1600_x1_avx2(s); }
};

}  // namespace

void keccak_f1600_x4_avx512(std::uint64_t s[100]) noexcept {
  keccak::permute<Ymm512Lane>(reinterpret_cast<__m256i*>(s));
}

void keccak_f1600_x8_avx512(std::uint64_t s[200]) noexcept {
  keccak::permute<Zmm512Lane>(reinterpret_cast<__m512i*>(s));
}

void keccak_jobs_avx512(const KeccakJob* jobs, int n) noexcept { run_keccak_jobs<X8Perm, X4Perm>(jobs, n); }

void keccak_jobs_x4_avx512(const KeccakJob* jobs, int n) noexcept { run_keccak_jobs<X4Perm, X4Perm>(jobs, n); }

void sha3_256_x2_avx512(std::uint8_t out0[32], const std::uint8_t* a, std::size_t alen, std::uint8_t out1[32],
                        const std::uint8_t* b0, std::size_t b0len, const std::uint8_t* b1, std::size_t b1len) noexcept {
  run_sha3_256_pair<X4Perm, X4Perm>(out0, a, alen, out1, b0, b0len, b1, b1len);
}

}  // namespace pqkem::simd::avx512
