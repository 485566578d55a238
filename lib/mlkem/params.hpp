// ML-KEM parameter sets (FIPS 203, section 8, Table 2) and the byte sizes derived from them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mlkem/constants.hpp"  // kQ

namespace pqkem::mlkem {

constexpr int kN = 256;                  ///< polynomial degree n
constexpr std::size_t kSymBytes = 32;    ///< seeds, hashes, messages and shared secrets
constexpr std::size_t kPolyBytes = 384;  ///< ByteEncode_12 of one polynomial

template <int K, int Eta1, int Du, int Dv>
struct ParamSet {
  static constexpr int k = K;
  static constexpr int eta1 = Eta1;
  static constexpr int eta2 = 2;
  static constexpr int du = Du;
  static constexpr int dv = Dv;

  static constexpr std::size_t ek_bytes = kPolyBytes * K + kSymBytes;               // FIPS 203 (ek)
  static constexpr std::size_t dk_pke_bytes = kPolyBytes * K;                       // K-PKE dk
  static constexpr std::size_t dk_bytes = dk_pke_bytes + ek_bytes + 2 * kSymBytes;  // dk_pke||ek||H(ek)||z
  static constexpr std::size_t c1_bytes = 32 * static_cast<std::size_t>(Du) * K;
  static constexpr std::size_t c2_bytes = 32 * static_cast<std::size_t>(Dv);
  static constexpr std::size_t ct_bytes = c1_bytes + c2_bytes;
  static constexpr std::size_t ss_bytes = kSymBytes;
};

using MlKem512 = ParamSet<2, 3, 10, 4>;
using MlKem768 = ParamSet<3, 2, 10, 4>;
using MlKem1024 = ParamSet<4, 2, 11, 5>;

// FIPS 203, Table 3.
static_assert(MlKem512::ek_bytes == 800 && MlKem512::dk_bytes == 1632 && MlKem512::ct_bytes == 768);
static_assert(MlKem768::ek_bytes == 1184 && MlKem768::dk_bytes == 2400 && MlKem768::ct_bytes == 1088);
static_assert(MlKem1024::ek_bytes == 1568 && MlKem1024::dk_bytes == 3168 && MlKem1024::ct_bytes == 1568);

}  // namespace pqkem::mlkem
