// NTRU encodings of Sq, Rq (sum zero) and S3 elements. The loops' shapes depend only on n and
// logq; coefficient values are only shifted, masked, added and multiplied by constants
// (constant time: no secret-dependent branch, index, table or division).
//
// Speed (portable code; x86-64 baseline gets SSE2 from the auto-vectorizer):
//  - Sq / Rq0: whole groups of eight coefficients = logq bytes, read and written as two
//    overlapping 64-bit words (the group's first and last 8 bytes). Each half of a group (four
//    fields, 4 logq bits) moves to / from four 16-bit lanes of one word with shifts and masks,
//    in a separate loop over words that vectorizes.
//  - S3: tobytes weighs four coefficients at once with one multiplication (16-bit lanes);
//    frombytes computes the digits of all bytes with 16-bit high-half multiplications by
//    constants (a loop that vectorizes), then interleaves them.
//  - The partial last group goes through a zero-padded local buffer, so nothing is read or
//    written outside the encodings and polynomials. Temporaries are wiped.
// Byte order: the load/store helpers give the same result on any host (memcpy on little-endian
// hosts, shifts otherwise).
#include "ntru/pack.hpp"

#include <bit>
#include <cstring>

#include "ct.hpp"
#include "secret.hpp"
#include "util/le_bytes.hpp"

namespace pqkem::ntru {
namespace {

constexpr bool kLittle = std::endian::native == std::endian::little;

/// Four uint16 coefficients p[0..3] as the 16-bit lanes of one word (p[0] lowest).
inline std::uint64_t load_4x16(const std::uint16_t* p) noexcept {
  std::uint64_t v;
  if constexpr (kLittle) {
    std::memcpy(&v, p, 8);
  } else {
    v = std::uint64_t{p[0]} | std::uint64_t{p[1]} << 16 | std::uint64_t{p[2]} << 32 | std::uint64_t{p[3]} << 48;
  }
  return v;
}

/// The inverse of load_4x16.
inline void store_4x16(std::uint16_t* p, std::uint64_t v) noexcept {
  if constexpr (kLittle) {
    std::memcpy(p, &v, 8);
  } else {
    for (int k = 0; k < 4; ++k) p[k] = static_cast<std::uint16_t>(v >> (16 * k));
  }
}

// ---- Sq: groups of eight D-bit fields in D bytes ------------------------------------------
// A group is two halves of four fields (4 D <= 52 bits each). A half moves between its packed
// form (4 D bits) and four 16-bit lanes of one word in two steps of shifts and masks
// (fields 0, 1 | 2, 3 at bits 0 and 32, then each pair split at bits 0 and 16).

/// Four D-bit fields in the low 4 D bits of x (higher bits ignored) -> four 16-bit lanes.
template <int D>
inline std::uint64_t spread4(std::uint64_t x) noexcept {
  constexpr std::uint64_t m2 = (std::uint64_t{1} << (2 * D)) - 1;
  constexpr std::uint64_t m1 = (std::uint64_t{1} << D) - 1;
  constexpr std::uint64_t m1x2 = m1 | m1 << 32;
  const std::uint64_t a = (x & m2) | ((x << (32 - 2 * D)) & (m2 << 32));
  return (a & m1x2) | ((a << (16 - D)) & (m1x2 << 16));
}

/// Four 16-bit lanes (each reduced mod 2^D here) -> four D-bit fields in the low 4 D bits.
template <int D>
inline std::uint64_t compact4(std::uint64_t w) noexcept {
  constexpr std::uint64_t m2 = (std::uint64_t{1} << (2 * D)) - 1;
  constexpr std::uint64_t m1 = (std::uint64_t{1} << D) - 1;
  constexpr std::uint64_t m1x2 = m1 | m1 << 32;
  const std::uint64_t a = (w & m1x2) | ((w >> (16 - D)) & (m1x2 << D));
  return (a & m2) | ((a >> (32 - 2 * D)) & (m2 << (2 * D)));
}

/// Coefficients c[0..7] (reduced mod 2^D) into the D bytes at out: two overlapping 8-byte
/// stores, the first 8 and the last 8 bytes of the group (the same values where they overlap).
template <int D>
inline void encode_group(std::uint8_t* out, const std::uint16_t* c) noexcept {
  static_assert(D > 8 && D <= 16);
  constexpr int s = 64 - 4 * D;
  const std::uint64_t x0 = compact4<D>(load_4x16(c));
  const std::uint64_t x1 = compact4<D>(load_4x16(c + 4));
  store_le<8>(out, x0 | (x1 << (4 * D)));
  store_le<8>(out + D - 8, (x1 << s) | (x0 >> (4 * D - s)));
}

/// The D bytes at in into c[0..7]: the first 8 bytes hold fields 0..3, the last 8 bytes
/// fields 4..7 (above their lowest 64 - 4 D bits).
template <int D>
inline void decode_group(std::uint16_t* c, const std::uint8_t* in) noexcept {
  static_assert(D > 8 && D <= 16);
  store_4x16(c, spread4<D>(load_le<8>(in)));
  store_4x16(c + 4, spread4<D>(load_le<8>(in + D - 8) >> (64 - 4 * D)));
}

template <class P>
struct SqLayout {
  static constexpr int D = P::logq;
  static constexpr std::size_t groups = P::pack_deg / 8;  // whole groups of eight
  static constexpr std::size_t rest = P::pack_deg % 8;    // coefficients in the last group
  static constexpr std::size_t rest_bytes = P::pack_q_bytes - groups * D;
  static_assert(rest_bytes == (rest * D + 7) / 8 && rest_bytes < static_cast<std::size_t>(D));
};

/// Coefficients 0..pack_deg-1 of c, fields of one bit stream; pad bits 0. Two passes: every
/// four coefficients compacted into one word (a loop that vectorizes), then the words of each
/// group stored.
template <class P>
inline void sq_encode(std::uint8_t* out, const std::uint16_t* c) noexcept {
  using L = SqLayout<P>;
  constexpr int D = L::D;
  constexpr int s = 64 - 4 * D;
  alignas(16) std::uint64_t x[2 * L::groups];
  for (std::size_t w = 0; w < 2 * L::groups; ++w) x[w] = compact4<D>(load_4x16(c + 4 * w));
  for (std::size_t g = 0; g < L::groups; ++g) {
    const std::uint64_t x0 = x[2 * g], x1 = x[2 * g + 1];
    store_le<8>(out + g * D, x0 | (x1 << (4 * D)));
    store_le<8>(out + g * D + D - 8, (x1 << s) | (x0 >> (4 * D - s)));
  }
  secure_wipe(x, sizeof x);
  if constexpr (L::rest != 0) {
    std::uint16_t cc[8] = {};
    std::uint8_t buf[16] = {};
    for (std::size_t k = 0; k < L::rest; ++k) cc[k] = c[8 * L::groups + k];
    encode_group<D>(buf, cc);  // fields >= rest are 0: so are the pad bits
    std::memcpy(out + L::groups * D, buf, L::rest_bytes);
    secure_wipe(cc, sizeof cc);
    secure_wipe(buf, sizeof buf);
  }
}

/// The inverse of sq_encode (pad bits ignored); writes c[0..pack_deg-1] only. Two passes over
/// c: the packed halves (four fields in the low 4 D bits of a word) are first copied into
/// c's 64-bit words, then every word is spread in place (a loop that vectorizes).
template <class P>
inline void sq_decode(std::uint16_t* c, const std::uint8_t* in) noexcept {
  using L = SqLayout<P>;
  constexpr int D = L::D;
  for (std::size_t g = 0; g < L::groups; ++g) {
    store_4x16(c + 8 * g, load_le<8>(in + g * D));
    store_4x16(c + 8 * g + 4, load_le<8>(in + g * D + D - 8) >> (64 - 4 * D));
  }
  for (std::size_t w = 0; w < 2 * L::groups; ++w) store_4x16(c + 4 * w, spread4<D>(load_4x16(c + 4 * w)));
  if constexpr (L::rest != 0) {
    std::uint16_t cc[8];
    std::uint8_t buf[16] = {};
    std::memcpy(buf, in + L::groups * D, L::rest_bytes);
    decode_group<D>(cc, buf);  // pad bits land in fields >= rest, which are dropped
    for (std::size_t k = 0; k < L::rest; ++k) c[8 * L::groups + k] = cc[k];
    secure_wipe(cc, sizeof cc);
    secure_wipe(buf, sizeof buf);
  }
}

// ---- S3: five base-3 digits per byte -------------------------------------------------------

/// byte = c0 + 3 c1 + 9 c2 + 27 c3 + 81 c4 (mod 256) for c in {0, 1, 2}; c0..c3 are the lanes of
/// w. The top 16-bit lane of w * (27 + 9 << 16 + 3 << 32 + 1 << 48) is sum_k 3^k lane_k (no
/// carries reach it: every lower lane sum is below 2^16).
inline std::uint8_t s3_byte(std::uint64_t w, std::uint32_t c4) noexcept {
  constexpr std::uint64_t weights = 27u | std::uint64_t{9} << 16 | std::uint64_t{3} << 32 | std::uint64_t{1} << 48;
  return static_cast<std::uint8_t>(((w * weights) >> 48) + 81u * c4);
}

}  // namespace

template <class P>
void poly_sq_tobytes(std::span<std::uint8_t, P::pack_q_bytes> out, const Poly<P>& a) noexcept {
  sq_encode<P>(out.data(), a.c.data());
}

template <class P>
void poly_sq_frombytes_ref(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
  sq_decode<P>(r.c.data(), in.data());
  r.c[P::n - 1] = 0;
}

template <class P>
void poly_rq_sum_zero_tobytes(std::span<std::uint8_t, P::pack_q_bytes> out, const Poly<P>& a) noexcept {
  sq_encode<P>(out.data(), a.c.data());
}

template <class P>
void poly_rq_sum_zero_frombytes_ref(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
  sq_decode<P>(r.c.data(), in.data());
  // The sum mod 2^16 is enough (q divides 2^16); a 16-bit accumulator lets the loop vectorize.
  std::uint16_t sum = 0;
  for (std::size_t i = 0; i < P::pack_deg; ++i) sum = static_cast<std::uint16_t>(sum + r.c[i]);
  r.c[P::n - 1] = static_cast<std::uint16_t>((0u - sum) & (P::q - 1));
}

template <class P>
void poly_s3_tobytes_ref(std::span<std::uint8_t, P::pack_trinary_bytes> out, const Poly<P>& a) noexcept {
  constexpr std::size_t full = P::pack_deg / 5, rest = P::pack_deg % 5;
  const std::uint16_t* c = a.c.data();
  for (std::size_t j = 0; j < full; ++j) out[j] = s3_byte(load_4x16(c + 5 * j), c[5 * j + 4]);
  if constexpr (rest != 0) {
    std::uint32_t byte = 0;
    for (std::size_t k = rest; k-- > 0;) byte = 3 * byte + c[5 * full + k];
    out[full] = static_cast<std::uint8_t>(byte);
  }
}

template <class P>
void poly_s3_frombytes_ref(Poly<P>& r, std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept {
  constexpr std::size_t bytes = P::pack_trinary_bytes;
  // Digit k of every byte into t[k] (a loop of 16-bit lanes that vectorizes: q_k = floor(b / 3^k)
  // is a high-half product mulhi(b, M_k) for b < 256; M_5 = 270 gives q_5 = floor(b / 243),
  // so digit 4 = q_4 - 3 q_5 is 0 for b >= 243, as floor(b / 81) mod 3), then interleaved.
  alignas(16) std::uint32_t t01[bytes], t23[bytes];  // digits 0, 1 and 2, 3 as 16-bit halves
  alignas(16) std::uint16_t t4[bytes];
  const auto mulhi = [](std::uint16_t x, std::uint32_t m) noexcept {
    return static_cast<std::uint16_t>((std::uint32_t{x} * m) >> 16);
  };
  static_assert(3 * 21846 - 65536 < 256 && 9 * 7282 - 65536 < 256 && 27 * 2428 - 65536 < 256 &&
                81 * 810 - 65536 < 256 && 243 * 270 - 65536 < 256);
  for (std::size_t j = 0; j < bytes; ++j) {
    const std::uint16_t b = in[j];
    const std::uint16_t q1 = mulhi(b, 21846), q2 = mulhi(b, 7282), q3 = mulhi(b, 2428), q4 = mulhi(b, 810),
                        q5 = mulhi(b, 270);
    const auto d0 = static_cast<std::uint16_t>(b - 3 * q1), d1 = static_cast<std::uint16_t>(q1 - 3 * q2),
               d2 = static_cast<std::uint16_t>(q2 - 3 * q3), d3 = static_cast<std::uint16_t>(q3 - 3 * q4);
    t01[j] = std::uint32_t{d0} | std::uint32_t{d1} << 16;
    t23[j] = std::uint32_t{d2} | std::uint32_t{d3} << 16;
    t4[j] = static_cast<std::uint16_t>(q4 - 3 * q5);
  }
  constexpr std::size_t full = P::pack_deg / 5, rest = P::pack_deg % 5;
  std::uint16_t* c = r.c.data();
  for (std::size_t j = 0; j < full; ++j) {
    if constexpr (kLittle) {
      std::memcpy(c + 5 * j, &t01[j], 4);
      std::memcpy(c + 5 * j + 2, &t23[j], 4);
    } else {
      c[5 * j] = static_cast<std::uint16_t>(t01[j]);
      c[5 * j + 1] = static_cast<std::uint16_t>(t01[j] >> 16);
      c[5 * j + 2] = static_cast<std::uint16_t>(t23[j]);
      c[5 * j + 3] = static_cast<std::uint16_t>(t23[j] >> 16);
    }
    c[5 * j + 4] = t4[j];
  }
  const std::uint64_t last = std::uint64_t{t01[bytes - 1]} | std::uint64_t{t23[bytes - 1]} << 32;
  for (std::size_t k = 0; k < rest; ++k) c[5 * full + k] = static_cast<std::uint16_t>(last >> (16 * k));
  r.c[P::n - 1] = 0;
  secure_wipe(t01, sizeof t01);
  secure_wipe(t23, sizeof t23);
  secure_wipe(t4, sizeof t4);
}

template <class P>
std::uint32_t s3_encoding_is_canonical(std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept {
  constexpr std::size_t full = P::pack_deg / 5, rest = P::pack_deg % 5;
  // A byte above 242 sets bit 8 of byte + 13; or them all (a loop that vectorizes).
  std::uint16_t bad = 0;
  for (std::size_t j = 0; j < full; ++j) bad = static_cast<std::uint16_t>(bad | (in[j] + 13u));
  std::uint32_t over = bad >> 8;
  if constexpr (rest != 0) {
    constexpr std::uint32_t limit = rest == 1 ? 3 : rest == 2 ? 9 : rest == 3 ? 27 : 81;
    over |= ((limit - 1) - in[full]) >> 31;
  }
  return ct::mask_is_zero(over);
}

template <class P>
std::uint32_t q_encoding_is_canonical(std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
  if constexpr (P::pack_q_pad_bits == 0) {
    return 0xFFFFFFFFu;
  } else {
    constexpr std::uint32_t pad_mask = (0xFFu << (8 - P::pack_q_pad_bits)) & 0xFFu;
    return ct::mask_is_zero(in[P::pack_q_bytes - 1] & pad_mask);
  }
}

#define PQKEM_NTRU_INSTANTIATE_PACK(P)                                                                                \
  template void poly_sq_tobytes<P>(std::span<std::uint8_t, P::pack_q_bytes>, const Poly<P>&) noexcept;                \
  template void poly_sq_frombytes_ref<P>(Poly<P>&, std::span<const std::uint8_t, P::pack_q_bytes>) noexcept;          \
  template void poly_rq_sum_zero_tobytes<P>(std::span<std::uint8_t, P::pack_q_bytes>, const Poly<P>&) noexcept;       \
  template void poly_rq_sum_zero_frombytes_ref<P>(Poly<P>&, std::span<const std::uint8_t, P::pack_q_bytes>) noexcept; \
  template void poly_s3_tobytes_ref<P>(std::span<std::uint8_t, P::pack_trinary_bytes>, const Poly<P>&) noexcept;      \
  template void poly_s3_frombytes_ref<P>(Poly<P>&, std::span<const std::uint8_t, P::pack_trinary_bytes>) noexcept;    \
  template std::uint32_t s3_encoding_is_canonical<P>(std::span<const std::uint8_t, P::pack_trinary_bytes>) noexcept;  \
  template std::uint32_t q_encoding_is_canonical<P>(std::span<const std::uint8_t, P::pack_q_bytes>) noexcept;
PQKEM_NTRU_FOR_EACH_PARAMS(PQKEM_NTRU_INSTANTIATE_PACK)

}  // namespace pqkem::ntru
