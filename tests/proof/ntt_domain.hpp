// An abstract coefficient for the NTT code of lib/mlkem/ntt_code.hpp: an interval of int16
// values and a power of the Montgomery radix R. Instantiating the library's own templates
// (NttPlan<W...>::forward_on / inverse_on, multiply_ntts_acc) on Abs runs every butterfly of a
// plan once, on all inputs of the contract at the same time, as a bounded-model checker would:
//   - each operation checks its precondition where the code calls it (no int16 overflow in a sum
//     or difference, |a zeta| < q 2^15 for a Montgomery product, operands inside the domain on
//     which mlkem_scalar_proof.cpp checked the primitive for every input);
//   - its result is the primitive's postcondition, as proven for every input by
//     mlkem_scalar_proof.cpp (the function contracts of a CBMC proof): |mul_zeta(a, z)| <=
//     (|a| |z| + q 2^15) >> 16, |fqmul16(a, b)| <= (|a| |b| + q 2^15) >> 16, |barrett| <= (q-1)/2;
//   - the power of R is bookkeeping of the Montgomery factors: a product by a constant
//     z = c R^e (mod q) multiplies by R^(e-1), fqmul16 by R^-1, and a sum of two values with
//     different powers of R is an error.
// The interval is a bound, not the set of reachable values: a result is proven to lie inside it.
// Failures name the check's context (plan and direction), the layer, the coefficient indices
// and the bound that broke; the layer of a sum or difference follows from its two coefficients
// (layer m pairs j with j + 2^(8-m)), that of a product from its zeta's index.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "mlkem/ntt_code.hpp"

namespace pqkem::mlkem::proof {

/// The Montgomery exponent of zero, which any sum accepts.
inline constexpr int kAnyMont = 1 << 20;

struct Abs {
  std::int32_t lo = 0, hi = 0;  ///< every value this coefficient can take lies in [lo, hi]
  int mont = kAnyMont;          ///< it stands for x R^mont (mod q), x the true coefficient
  int slot = -1;                ///< the array index it was loaded from, for messages
  [[nodiscard]] std::int32_t mag() const { return std::max(std::abs(lo), std::abs(hi)); }
};

inline Abs input(std::int32_t bound, int mont, int slot) { return Abs{-bound, bound, mont, slot}; }

/// What one abstract run saw: the failures (the first kMaxFailures, with their count) and the
/// largest magnitude of each kind of value at each layer (index 1..7; 0 for values of no layer).
struct Record {
  static constexpr int kMaxFailures = 8;
  std::string where;  ///< "plan 3211, forward" (set by the caller)
  std::vector<std::string> failures;
  int failure_count = 0;
  std::array<std::int32_t, 8> sum{}, diff{}, product{}, reduced{};
  /// A coefficient (result index) where each of those largest values was reached.
  std::array<int, 8> sum_at{}, diff_at{}, product_at{}, reduced_at{};
  int layer = 0;  ///< the layer of the last sum or difference (Barrett reduces the sum just made)
  /// Keeps the largest magnitude seen of one kind at one layer, and where it was.
  static void note(std::array<std::int32_t, 8>& most, std::array<int, 8>& at, int layer, const Abs& v) {
    if (v.mag() > most[layer]) {
      most[layer] = v.mag();
      at[layer] = v.slot;
    }
  }
  void fail(const std::string& what) {
    if (++failure_count <= kMaxFailures) failures.push_back(where + ": " + what);
  }
};

/// The run being recorded (one at a time; the proof tests are single-threaded).
inline Record*& current() {
  static Record* r = nullptr;
  return r;
}

inline std::string interval(const Abs& a) {
  std::ostringstream s;
  s << "[" << a.lo << ", " << a.hi << "]";
  return s.str();
}

/// Layer m of both transforms pairs coefficient j with j + 2^(8-m): the layer of an operation on
/// two coefficients of one polynomial, or 0.
inline int layer_of_pair(int s1, int s2) {
  const int d = std::abs(s1 - s2);
  if (s1 < 0 || s2 < 0 || d < 2 || d > 128 || !std::has_single_bit(static_cast<unsigned>(d))) return 0;
  return 8 - std::countr_zero(static_cast<unsigned>(d));
}

inline std::string pair_text(const Abs& a, const Abs& b) {
  std::ostringstream s;
  const int layer = layer_of_pair(a.slot, b.slot);
  if (layer != 0) s << "layer " << layer << ", ";
  s << "coefficients " << std::min(a.slot, b.slot) << " and " << std::max(a.slot, b.slot);
  return s.str();
}

/// The sum or difference's Montgomery power: both operands must agree (zero agrees with any).
inline int join_mont(const Abs& a, const Abs& b, const char* op) {
  if (a.mont == kAnyMont) return b.mont;
  if (b.mont == kAnyMont || a.mont == b.mont) return a.mont;
  current()->fail(pair_text(a, b) + ": " + op + " of a value times R^" + std::to_string(a.mont) + " and one times R^" +
                  std::to_string(b.mont));
  return a.mont;
}

inline Abs checked_int16(Abs r, const std::string& what) {
  if (r.lo < INT16_MIN || r.hi > INT16_MAX) {
    current()->fail(what + " in " + interval(r) + " leaves int16 [-32768, 32767]");
    r.lo = std::max<std::int32_t>(r.lo, INT16_MIN);  // go on with the wrapped-free part
    r.hi = std::min<std::int32_t>(r.hi, INT16_MAX);
  }
  return r;
}

/// a + b: the sum is stored at the lower index of the pair (both butterflies).
inline Abs add16(const Abs& a, const Abs& b) {
  Record& rec = *current();
  const int layer = layer_of_pair(a.slot, b.slot);
  rec.layer = layer;
  Abs r{a.lo + b.lo, a.hi + b.hi, join_mont(a, b, "sum"), std::min(a.slot, b.slot)};
  r = checked_int16(r, pair_text(a, b) + ": sum");
  Record::note(rec.sum, rec.sum_at, layer, r);
  return r;
}

/// a - b: the difference is stored at the higher index of the pair (both butterflies).
inline Abs sub16(const Abs& a, const Abs& b) {
  Record& rec = *current();
  const int layer = layer_of_pair(a.slot, b.slot);
  rec.layer = layer;
  Abs r{a.lo - b.hi, a.hi - b.lo, join_mont(a, b, "difference"), std::max(a.slot, b.slot)};
  r = checked_int16(r, pair_text(a, b) + ": difference");
  Record::note(rec.diff, rec.diff_at, layer, r);
  return r;
}

/// The constants the code multiplies by, and their Montgomery exponents e (z = c R^e mod q for
/// the plain constant c: a zeta power or 1/128). mlkem_scalar_proof.cpp checks every entry.
struct ConstantInfo {
  int exponent = 0;  ///< 0: not a known constant
  int layer = 0;     ///< the NTT layer of a zeta, else 0
  const char* what = "";
};
inline ConstantInfo constant_info(std::int16_t z) {
  for (int k = 1; k < 128; ++k)
    if (ntt_code::kZ[k] == z) return {1, static_cast<int>(std::bit_width(static_cast<unsigned>(k))), "zeta"};
  for (int i = 0; i < 128; ++i)
    if (ntt_code::kGamma[i] == z) return {1, 0, "gamma"};
  if (z == ntt_code::kInvNttScale) return {2, 0, "the scaling R^2/128"};
  return {};
}

/// mul_zeta(a, z, zt) = montgomery_reduce(a z), zt = z q^-1 mod 2^16.
inline Abs mul_zeta(const Abs& a, std::int16_t z, std::int16_t zt) {
  Record& rec = *current();
  const ConstantInfo c = constant_info(z);
  std::ostringstream at;
  if (c.layer != 0) at << "layer " << c.layer << ", ";
  at << "coefficient " << a.slot << ": product by " << (c.exponent != 0 ? c.what : "the constant") << " " << z;
  if (c.exponent == 0) rec.fail(at.str() + ": not a constant whose Montgomery factor is known");
  if (static_cast<std::int16_t>(z * kQInv) != zt) rec.fail(at.str() + ": twisted constant " + std::to_string(zt) + " is not z q^-1");
  const std::int64_t az = std::int64_t{a.mag()} * std::abs(z);
  if (az >= std::int64_t{kQ} << 15)
    rec.fail(at.str() + ": |a zeta| = " + std::to_string(az) + " breaks |a zeta| < q 2^15, a in " + interval(a));
  const auto bound = static_cast<std::int32_t>((az + (std::int64_t{kQ} << 15)) >> 16);
  Abs r{-bound, bound, a.mont == kAnyMont ? kAnyMont : a.mont + c.exponent - 1, a.slot};
  Record::note(rec.product, rec.product_at, c.layer, r);
  return r;
}

/// fqmul16(a, b) = montgomery_reduce(a b), checked for every pair with |a|, |b| < q.
inline Abs fqmul16(const Abs& a, const Abs& b) {
  Record& rec = *current();
  if (a.mag() >= kQ || b.mag() >= kQ)
    rec.fail("coefficients " + std::to_string(a.slot) + " and " + std::to_string(b.slot) + ": fqmul16 of " + interval(a) +
             " and " + interval(b) + " outside its checked domain |a|, |b| < q");
  const std::int64_t ab = std::int64_t{a.mag()} * b.mag();
  const auto bound = static_cast<std::int32_t>((ab + (std::int64_t{kQ} << 15)) >> 16);
  const int mont = a.mont == kAnyMont || b.mont == kAnyMont ? kAnyMont : a.mont + b.mont - 1;
  Abs r{-bound, bound, mont, a.slot};
  Record::note(rec.product, rec.product_at, 0, r);
  return r;
}

/// barrett_reduce: any int16 in, |r| <= (q-1)/2 out.
inline Abs barrett_reduce(const Abs& a) {
  Record& rec = *current();
  constexpr std::int32_t kHalf = (kQ - 1) / 2;
  Abs r{-kHalf, kHalf, a.mont, a.slot};
  if (a.mag() <= kHalf) r = a;  // Barrett leaves these values unchanged (checked in the scalar proof)
  Record::note(rec.reduced, rec.reduced_at, rec.layer, r);
  return r;
}

}  // namespace pqkem::mlkem::proof
