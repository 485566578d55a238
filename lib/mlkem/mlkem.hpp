// FIPS 203 sections 6 and 7: ML-KEM's internal algorithms and input checks, per parameter set P
// and backend B (mlkem/backend.hpp). lib/scheme.cpp picks the instantiation once per operation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "kem.hpp"
#include "mlkem/params.hpp"

namespace pqkem::mlkem {

template <class P, class B>
struct Kem {
  static constexpr std::size_t pk_bytes = P::ek_bytes;
  static constexpr std::size_t sk_bytes = P::dk_bytes;
  static constexpr std::size_t ct_bytes = P::ct_bytes;
  static constexpr std::size_t ss_bytes = 32;
  static constexpr std::size_t keygen_coin_bytes = 64;  ///< d || z
  static constexpr std::size_t encaps_coin_bytes = 32;  ///< m
  /// dk = dk_pke || ek || H(ek) || z: dk_pke and z are secret, ek and H(ek) public (SampleNTT's
  /// rejection sampling branches on rho, part of ek).
  static constexpr std::size_t secret_prefix_bytes = P::dk_pke_bytes;
  static constexpr std::size_t secret_suffix_bytes = 32;
  /// decaps runs the hash check of section 7.3 beside J(z || c).
  static constexpr bool decaps_checks_sk = true;
  static constexpr std::string_view keygen_coins_what = "key generation coins (d || z)";
  static constexpr std::string_view encaps_coins_what = "encapsulation coins (m)";
  static constexpr std::string_view invalid_pk_why =
      " encapsulation key is invalid: a coefficient is not reduced modulo q (FIPS 203 section 7.2)";
  static constexpr std::string_view invalid_sk_why =
      " decapsulation key is invalid: its stored H(ek) does not match its encapsulation key "
      "(FIPS 203 section 7.3)";

  /// ML-KEM.KeyGen_internal (Algorithm 16) from d || z: ek and dk = dk_pke || ek || H(ek) || z.
  static void keygen_derand(In<keygen_coin_bytes> coins, Out<pk_bytes> ek, Out<sk_bytes> dk);
  /// ML-KEM.Encaps_internal (Algorithm 17) with message m. The caller has run check_pk.
  static void encaps_derand(In<pk_bytes> ek, In<encaps_coin_bytes> m, Out<ct_bytes> c, Out<32> shared_key);
  /// The hash check of section 7.3 and Decaps_internal (Algorithm 18) in one pass: H(ek) runs
  /// beside J(z || c) and the re-encryption's A^T (one batch of sponges: on AVX2, the lanes of
  /// the 4-way Keccak). Returns the check's verdict;
  /// shared_key is only meaningful when it is true. Implicit rejection: when re-encryption does
  /// not reproduce c, the key is J(z || c), chosen with masks, not branches.
  static bool decaps(In<sk_bytes> dk, In<ct_bytes> c, Out<32> shared_key);
  /// Encapsulation key check (section 7.2): ByteEncode_12(ByteDecode_12(ek)) == ek, i.e. every
  /// 12-bit coefficient is below q. (The length is checked by the type.)
  static bool check_pk(In<pk_bytes> ek) noexcept;
  /// Decapsulation key check (section 7.3): H(ek) stored in dk matches the ek stored in dk.
  static bool check_sk(In<sk_bytes> dk);
  /// The ek stored in dk.
  static void pk_from_sk(In<sk_bytes> dk, Out<pk_bytes> ek) noexcept;
};

}  // namespace pqkem::mlkem
