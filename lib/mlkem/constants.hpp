// ML-KEM's constants, computed once at compile time: q and the Montgomery and Barrett factors,
// BitRev7 and the zeta table of FIPS 203 Appendix A.
//
// Included on both sides of the -mavx2 wall (lib/mlkem and lib/simd/mlkem), so it holds no
// intrinsics and nothing a compiler could emit as code: constants, and consteval generators
// that exist only at compile time.
#pragma once

#include <cstdint>

namespace pqkem::mlkem {

constexpr std::int16_t kQ = 3329;          ///< modulus q = 13 * 2^8 + 1
constexpr std::int32_t kMontR = 1 << 16;   ///< Montgomery radix R = 2^16
constexpr std::int16_t kQInv = -3327;      ///< q^-1 mod 2^16, as a signed value
constexpr std::int16_t kMontR2 = 1353;     ///< R^2 mod q (to_mont multiplies by it)
constexpr std::int16_t kBarrettV = 20159;  ///< round(2^26 / q)
static_assert(static_cast<std::int16_t>(kQ * kQInv) == 1);
static_assert(std::int64_t{kMontR} * kMontR % kQ == kMontR2);

/// BitRev7(i): the 7-bit reversal of i, 0 <= i < 128.
consteval int bit_rev7(int i) {
  int r = 0;
  for (int b = 0; b < 7; ++b) r |= ((i >> b) & 1) << (6 - b);
  return r;
}

/// zeta^BitRev7(i) for zeta = 17, in Montgomery form (times 2^16 mod q), centered.
struct ZetaTable {
  std::int16_t z[128];
};
consteval ZetaTable make_zeta_table() {
  ZetaTable t{};
  for (int i = 0; i < 128; ++i) {
    std::int64_t v = 1;
    for (int e = 0; e < bit_rev7(i); ++e) v = v * 17 % kQ;
    v = v * kMontR % kQ;
    if (v > kQ / 2) v -= kQ;
    t.z[i] = static_cast<std::int16_t>(v);
  }
  return t;
}
constexpr ZetaTable kZetaTable = make_zeta_table();
static_assert(kZetaTable.z[0] == -1044 && kZetaTable.z[1] == -758 && kZetaTable.z[64] == -1103 &&
                  kZetaTable.z[127] == 1628,
              "FIPS 203 Appendix A, in Montgomery form");

}  // namespace pqkem::mlkem
