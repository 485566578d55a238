// The proof of ct.avx512_objects: compiled with the AVX-512 flags into a library of its own, this
// file has what check_avx512_ct.sh must refuse in an AVX-512 object: a conditional branch on
// data in a function that is not on the allowlist, and a division by a run-time value.
#include <immintrin.h>

#include <cstdint>

extern "C" {

std::uint64_t leaky_select_avx512(const std::uint64_t* secret, std::uint64_t a) {
  const __m512i v = _mm512_loadu_si512(secret);
  const std::uint64_t n = static_cast<std::uint64_t>(_mm512_reduce_add_epi64(v)) & 15;
  for (std::uint64_t i = 0; i < n; ++i) a = a * 3 + secret[i];  // a trip count set by a secret
  return a;
}

std::uint64_t leaky_divide_avx512(std::uint64_t x, std::uint64_t d) { return x / d; }

}  // extern "C"
