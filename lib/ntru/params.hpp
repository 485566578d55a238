// NTRU parameter sets (NIST PQC round 3 submission, section 1.3 and the reference code's
// params.h) and every byte size derived from them.
//
// NTRU-HPS: q = 2^logq, f and r iid ternary, g and m of fixed type (q/8 - 2 nonzero
// coefficients, half +1 and half -1). NTRU-HRSS: q = 2^13, f and g "iid plus" (non-negative
// correlation), r and m iid; g is multiplied by (x - 1) and m is lifted through (x - 1).
#pragma once

#include <cstddef>
#include <cstdint>

namespace pqkem::ntru {

enum class Variant { hps, hrss };

namespace detail {
/// Multiplicative order of a modulo the prime n (compile time, public values only).
constexpr int multiplicative_order(int a, int n) {
  int x = a % n, k = 1;
  while (x != 1) {
    x = (x * a) % n;
    ++k;
  }
  return k;
}
}  // namespace detail

template <int N, int LogQ, Variant V>
struct ParamSet {
  static constexpr int n = N;  ///< ring degree: R = Z[x]/(x^n - 1)
  static constexpr int logq = LogQ;
  static constexpr std::uint32_t q = 1u << LogQ;  ///< a power of two: mod q is a mask
  static constexpr bool hps = V == Variant::hps;
  static constexpr bool hrss = V == Variant::hrss;
  /// HPS fixed-type weight: q/8 - 2 nonzero coefficients (half 1, half -1). 0 for HRSS.
  static constexpr int weight = hps ? static_cast<int>(q / 8) - 2 : 0;

  // Uniform bytes consumed by the samplers (reference code, params.h).
  static constexpr std::size_t sample_iid_bytes = N - 1;                  // one byte per coefficient
  static constexpr std::size_t sample_ft_bytes = (30 * (N - 1) + 7) / 8;  // 30 bits per coefficient
  static constexpr std::size_t sample_fg_bytes = hps ? sample_iid_bytes + sample_ft_bytes : 2 * sample_iid_bytes;
  static constexpr std::size_t sample_rm_bytes = hps ? sample_iid_bytes + sample_ft_bytes : 2 * sample_iid_bytes;

  // Encodings: only the first n - 1 coefficients are stored (coefficient n - 1 is implied).
  static constexpr std::size_t pack_deg = N - 1;
  static constexpr std::size_t pack_trinary_bytes = (pack_deg + 4) / 5;   // 5 trits per byte
  static constexpr std::size_t pack_q_bytes = (LogQ * pack_deg + 7) / 8;  // logq bits each, LSB first
  static constexpr unsigned pack_q_pad_bits = static_cast<unsigned>(8 * pack_q_bytes - LogQ * pack_deg);

  static constexpr std::size_t owcpa_msg_bytes = 2 * pack_trinary_bytes;                // packed r || m
  static constexpr std::size_t owcpa_pk_bytes = pack_q_bytes;                           // h
  static constexpr std::size_t owcpa_sk_bytes = 2 * pack_trinary_bytes + pack_q_bytes;  // f || f_3^-1 || h_q^-1
  static constexpr std::size_t owcpa_ct_bytes = pack_q_bytes;
  static constexpr std::size_t prf_key_bytes = 32;

  static constexpr std::size_t pk_bytes = owcpa_pk_bytes;
  static constexpr std::size_t sk_bytes = owcpa_sk_bytes + prf_key_bytes;  // ... || PRF key
  static constexpr std::size_t ct_bytes = owcpa_ct_bytes;
  static constexpr std::size_t ss_bytes = 32;

  // n is prime and 2 and 3 both have order n - 1 mod n, so Phi_n = 1 + x + ... + x^(n-1) is
  // irreducible mod 2 and mod 3: S2 and S3 are fields, inverses there are unique, and the
  // Frobenius maps x^i -> x^(2i), x^(3i) are coefficient permutations. (The inversions rely on it.)
  static_assert(detail::multiplicative_order(2, N) == N - 1, "2 must generate (Z/n)^*");
  static_assert(detail::multiplicative_order(3, N) == N - 1, "3 must generate (Z/n)^*");
  static_assert(LogQ > 8 && LogQ < 16, "coefficients are uint16_t and q > 256");
  static_assert(!hps || (weight % 2 == 0 && weight <= N - 1));
};

using NtruHps2048509 = ParamSet<509, 11, Variant::hps>;
using NtruHps2048677 = ParamSet<677, 11, Variant::hps>;
using NtruHps4096821 = ParamSet<821, 12, Variant::hps>;
using NtruHrss701 = ParamSet<701, 13, Variant::hrss>;

// Round-3 submission, Table 2 / api.h.
static_assert(NtruHps2048509::pk_bytes == 699 && NtruHps2048509::sk_bytes == 935 && NtruHps2048509::ct_bytes == 699);
static_assert(NtruHps2048677::pk_bytes == 930 && NtruHps2048677::sk_bytes == 1234 && NtruHps2048677::ct_bytes == 930);
static_assert(NtruHps4096821::pk_bytes == 1230 && NtruHps4096821::sk_bytes == 1590 && NtruHps4096821::ct_bytes == 1230);
static_assert(NtruHrss701::pk_bytes == 1138 && NtruHrss701::sk_bytes == 1450 && NtruHrss701::ct_bytes == 1138);
static_assert(NtruHps2048509::ss_bytes == 32 && NtruHrss701::ss_bytes == 32);
static_assert(NtruHps2048509::sample_fg_bytes == 508 + 1905 && NtruHrss701::sample_fg_bytes == 1400);

/// Calls PQKEM_NTRU_X(P) for each parameter set (explicit instantiations).
#define PQKEM_NTRU_FOR_EACH_PARAMS(X) \
  X(::pqkem::ntru::NtruHps2048509)    \
  X(::pqkem::ntru::NtruHps2048677)    \
  X(::pqkem::ntru::NtruHps4096821)    \
  X(::pqkem::ntru::NtruHrss701)

}  // namespace pqkem::ntru
