// The proof of ct.avx512_objects: compiled with the AVX-512 flags into a library of its own, this
// file has what check_avx512_ct.sh must refuse in an AVX-512 object: conditional branches on
// data in functions that are not on the allowlist, and a division by a run-time value; and one
// function it must accept. check_avx512_selftest.sh lists what it expects for each function.
//
// The check accepts one kind of conditional branch outside the allowlist: the back-edge of a
// counted loop (a counter that starts at a constant, steps by constants and is compared with a
// constant; branch_scan.awk). The leaky_*_loop functions are loops whose only conditional branch
// is their back-edge, so a rule that allowed every backward branch would accept them; each
// breaks one condition of the real rule and must be flagged for that reason:
//  - leaky_until_loop_avx512: the exit is a test of secret vector data (vptestm + kortest);
//  - leaky_bound_loop_avx512: a counter with constant steps, compared with a secret bound;
//  - leaky_start_loop_avx512: a counter compared with a constant, starting at a secret value;
//  - leaky_reload_loop_avx512 (assembly): a counter with a constant start, steps and bound, that
//    the body also overwrites with vector data;
//  - leaky_entry_loop_avx512 (assembly): a counter set to a constant just before the loop, but
//    the loop is entered by a jump that skips it, with a secret count in the counter;
//  - leaky_flags_loop_avx512 (assembly): a counted loop's compare just before the back-edge,
//    but the body jumps past it to the back-edge with the flags of a kortest of secret data.
// counted_loops_avx512 (assembly) is two nested counted loops: the check must accept it.
//
// GCC 12's AVX-512 intrinsics pass an "undefined" source that -Wuninitialized reports (GCC bug
// 105593, fixed in GCC 13; as in lib/simd/mlkem/mlkem_poly_avx512.cpp).
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)  // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
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

// Shifts the secret lanes right until all are zero: the trip count is the secret's bit length.
std::uint64_t leaky_until_loop_avx512(const std::uint64_t* secret) {
  __m512i v = _mm512_loadu_si512(secret);
  std::uint64_t n = 0;
  do {
    v = _mm512_srli_epi64(v, 1);
    ++n;
  } while (_mm512_test_epi64_mask(v, v) != 0);
  return n;
}

// Counts 1, 2, 3 ... up to a bound taken from secret vector data.
std::uint64_t leaky_bound_loop_avx512(const std::uint64_t* secret, std::uint64_t a) {
  const __m512i v = _mm512_loadu_si512(secret);
  const std::uint64_t n = (static_cast<std::uint64_t>(_mm512_reduce_add_epi64(v)) & 15) | 1;
  std::uint64_t i = 0;
  do {
    a = a * 3 + (a >> 7);
    __asm__ volatile("" : "+r"(a));  // one iteration per count: no closed form, no unrolling
  } while (++i < n);
  return a;
}

// Counts from a secret start up to the constant 16.
std::uint64_t leaky_start_loop_avx512(const std::uint64_t* secret, std::uint64_t a) {
  const __m512i v = _mm512_loadu_si512(secret);
  std::uint64_t i = static_cast<std::uint64_t>(_mm512_reduce_add_epi64(v)) & 7;
  do {
    a = a * 3 + (a >> 7);
    __asm__ volatile("" : "+r"(a));
  } while (++i != 16);
  return a;
}

}  // extern "C"

// Control flow the compiler would not reliably produce, written out (AT&T syntax). Arguments:
// %rdi a pointer to 64 secret bytes.
__asm__(R"(
  .pushsection .text
  .p2align 4
  .globl counted_loops_avx512
  .type counted_loops_avx512, @function
counted_loops_avx512:
  vpxorq %zmm0, %zmm0, %zmm0
  xor %eax, %eax
1:
  mov $-64, %rcx
2:
  vpaddq 64(%rdi,%rcx), %zmm0, %zmm0
  add $8, %rcx
  jne 2b
  inc %eax
  cmp $4, %eax
  jb 1b
  vmovdqu64 %zmm0, (%rdi)
  vzeroupper
  ret
  .size counted_loops_avx512, .-counted_loops_avx512

  .p2align 4
  .globl leaky_reload_loop_avx512
  .type leaky_reload_loop_avx512, @function
leaky_reload_loop_avx512:
  vmovdqu64 (%rdi), %zmm0
  xor %eax, %eax
1:
  vpaddq %zmm0, %zmm0, %zmm0
  vmovd %xmm0, %eax
  add $1, %rax
  cmp $16, %rax
  jb 1b
  vzeroupper
  ret
  .size leaky_reload_loop_avx512, .-leaky_reload_loop_avx512

  .p2align 4
  .globl leaky_entry_loop_avx512
  .type leaky_entry_loop_avx512, @function
leaky_entry_loop_avx512:
  vmovdqu64 (%rdi), %zmm0
  vmovq %xmm0, %rax
  and $15, %eax
  jmp 2f
  xor %eax, %eax
1:
  vpaddq %zmm0, %zmm0, %zmm0
  add $1, %rax
2:
  cmp $16, %rax
  jne 1b
  vzeroupper
  ret
  .size leaky_entry_loop_avx512, .-leaky_entry_loop_avx512

  .p2align 4
  .globl leaky_flags_loop_avx512
  .type leaky_flags_loop_avx512, @function
leaky_flags_loop_avx512:
  vmovdqu64 (%rdi), %zmm0
  xor %eax, %eax
1:
  vpsrlq $1, %zmm0, %zmm0
  vptestmq %zmm0, %zmm0, %k1
  kortestb %k1, %k1
  jmp 2f
  add $1, %rax
  cmp $16, %rax
2:
  jne 1b
  vzeroupper
  ret
  .size leaky_flags_loop_avx512, .-leaky_flags_loop_avx512
  .popsection
)");
