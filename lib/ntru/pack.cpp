// NTRU encodings of Sq, Rq (sum zero) and S3 elements. The loops' shapes depend only on n and
// logq; coefficient values are only shifted, masked and multiplied (constant time).
#include "ntru/pack.hpp"

#include "ct.hpp"

namespace pqkem::ntru {

template <class P>
void poly_sq_tobytes(std::span<std::uint8_t, P::pack_q_bytes> out, const Poly<P>& a) noexcept {
  std::uint32_t acc = 0;  // holds < 8 + logq <= 21 pending bits
  unsigned bits = 0;
  std::size_t o = 0;
  for (std::size_t i = 0; i < P::pack_deg; ++i) {
    acc |= static_cast<std::uint32_t>(a.c[i] & (P::q - 1)) << bits;
    bits += P::logq;
    for (; bits >= 8; bits -= 8, acc >>= 8) out[o++] = static_cast<std::uint8_t>(acc);
  }
  if (bits > 0) out[o++] = static_cast<std::uint8_t>(acc);
}

template <class P>
void poly_sq_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
  std::uint32_t acc = 0;
  unsigned bits = 0;
  std::size_t o = 0;
  for (std::size_t i = 0; i < P::pack_deg; ++i) {
    for (; bits < static_cast<unsigned>(P::logq); bits += 8) acc |= static_cast<std::uint32_t>(in[o++]) << bits;
    r.c[i] = static_cast<std::uint16_t>(acc & (P::q - 1));
    acc >>= P::logq;
    bits -= P::logq;
  }
  r.c[P::n - 1] = 0;
}

template <class P>
void poly_rq_sum_zero_tobytes(std::span<std::uint8_t, P::pack_q_bytes> out, const Poly<P>& a) noexcept {
  poly_sq_tobytes<P>(out, a);
}

template <class P>
void poly_rq_sum_zero_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_q_bytes> in) noexcept {
  poly_sq_frombytes<P>(r, in);
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < P::pack_deg; ++i) sum += r.c[i];
  r.c[P::n - 1] = static_cast<std::uint16_t>((0u - sum) & (P::q - 1));
}

template <class P>
void poly_s3_tobytes(std::span<std::uint8_t, P::pack_trinary_bytes> out, const Poly<P>& a) noexcept {
  for (std::size_t j = 0; j < P::pack_trinary_bytes; ++j) {
    std::uint32_t byte = 0;
    for (std::size_t k = 5; k-- > 0;) {
      const std::size_t i = 5 * j + k;
      if (i < P::pack_deg) byte = 3 * byte + a.c[i];  // public index test
    }
    out[j] = static_cast<std::uint8_t>(byte);
  }
}

template <class P>
void poly_s3_frombytes(Poly<P>& r, std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept {
  for (std::size_t j = 0; j < P::pack_trinary_bytes; ++j) {
    std::uint32_t v = in[j];
    for (std::size_t k = 0; k < 5 && 5 * j + k < P::pack_deg; ++k) {
      r.c[5 * j + k] = static_cast<std::uint16_t>(mod3(v));
      v = div3(v);
    }
  }
  r.c[P::n - 1] = 0;
}

template <class P>
std::uint32_t s3_encoding_is_canonical(std::span<const std::uint8_t, P::pack_trinary_bytes> in) noexcept {
  constexpr std::size_t full = P::pack_deg / 5, rest = P::pack_deg % 5;
  std::uint32_t bad = 0;  // high bit set when a byte exceeds its limit
  for (std::size_t j = 0; j < full; ++j) bad |= 242u - in[j];
  if constexpr (rest != 0) {
    constexpr std::uint32_t limit = rest == 1 ? 3 : rest == 2 ? 9 : rest == 3 ? 27 : 81;
    bad |= (limit - 1) - in[full];
  }
  return ct::mask_is_zero(bad >> 31);
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

#define PQKEM_NTRU_INSTANTIATE_PACK(P)                                                                         \
  template void poly_sq_tobytes<P>(std::span<std::uint8_t, P::pack_q_bytes>, const Poly<P>&) noexcept;        \
  template void poly_sq_frombytes<P>(Poly<P>&, std::span<const std::uint8_t, P::pack_q_bytes>) noexcept;      \
  template void poly_rq_sum_zero_tobytes<P>(std::span<std::uint8_t, P::pack_q_bytes>, const Poly<P>&) noexcept; \
  template void poly_rq_sum_zero_frombytes<P>(Poly<P>&, std::span<const std::uint8_t, P::pack_q_bytes>) noexcept; \
  template void poly_s3_tobytes<P>(std::span<std::uint8_t, P::pack_trinary_bytes>, const Poly<P>&) noexcept;  \
  template void poly_s3_frombytes<P>(Poly<P>&, std::span<const std::uint8_t, P::pack_trinary_bytes>) noexcept; \
  template std::uint32_t s3_encoding_is_canonical<P>(std::span<const std::uint8_t, P::pack_trinary_bytes>) noexcept; \
  template std::uint32_t q_encoding_is_canonical<P>(std::span<const std::uint8_t, P::pack_q_bytes>) noexcept;
PQKEM_NTRU_FOR_EACH_PARAMS(PQKEM_NTRU_INSTANTIATE_PACK)

}  // namespace pqkem::ntru
