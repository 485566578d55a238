// pqkem: the SHA-3 family (FIPS 202) on pqkem's own Keccak-f[1600] (keccak_f1600.hpp),
// TurboSHAKE (RFC 9861) on its 12-round Keccak-p[1600, 12] (for HPKE's single-stage KDFs,
// hpke/kdf.cpp), and SHA-256 (FIPS 180-4) for key fingerprints.
//
// Why not OpenSSL's EVP interface: ML-KEM makes many short hash calls (about 20 per
// operation), and each EVP call allocates a context and walks OpenSSL's provider machinery;
// that overhead cost more than the permutations themselves (callgrind, ML-KEM-768 round trip:
// about 740k instructions of 1.4M outside Keccak-f). OpenSSL 3.0 also cannot squeeze an XOF
// incrementally. SHA-256 is here for the same reason at a larger scale: the first EVP call in a
// process loads and initializes OpenSSL's providers, which `pqkem info` and every `--json`
// output paid for one fingerprint (callgrind, `pqkem info` on an ML-KEM-768 public key: 5.3M of
// 12.1M instructions in EVP_Digest; sha256 here takes 78k). OpenSSL stays the reference:
// tests/keccak/hash_test.cpp compares every function here with EVP on random inputs of every
// length across several blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>

#include "keccak_job.hpp"
#include "secret.hpp"

namespace pqkem::hash {

/// Keccak-f[1600] (FIPS 202, section 3.3) on one state: lane (x, y) is state[x + 5 y], and
/// byte i of the state is byte (i mod 8) of lane i / 8, least significant first.
void keccak_f1600(std::uint64_t state[25]) noexcept;
/// Keccak-p[1600, 12] (FIPS 202, section 3.3; RFC 9861, section 2.2): the last 12 rounds of
/// Keccak-f[1600] (rounds 12 to 23), TurboSHAKE's permutation. Same state layout.
void keccak_p1600_12(std::uint64_t state[25]) noexcept;

/// SHA3-256 / SHA3-512 of the concatenation of the given pieces.
void sha3_256(std::span<std::uint8_t, 32> out, std::initializer_list<ByteView> in) noexcept;
void sha3_512(std::span<std::uint8_t, 64> out, std::initializer_list<ByteView> in) noexcept;
/// SHAKE-256 of the concatenation of the pieces, `out.size()` bytes.
void shake256(std::span<std::uint8_t> out, std::initializer_list<ByteView> in) noexcept;
/// SHAKE-128 of the concatenation of the pieces, `out.size()` bytes.
void shake128(std::span<std::uint8_t> out, std::initializer_list<ByteView> in) noexcept;

/// TurboSHAKE128 / TurboSHAKE256 (RFC 9861) of the concatenation of the pieces with domain
/// byte `d` (0x01 to 0x7F), `out.size()` bytes.
void turboshake128(std::span<std::uint8_t> out, std::initializer_list<ByteView> in, std::uint8_t d = 0x1F) noexcept;
void turboshake256(std::span<std::uint8_t> out, std::initializer_list<ByteView> in, std::uint8_t d = 0x1F) noexcept;

/// SHA-256 (FIPS 180-4) of the concatenation of the given pieces.
void sha256(std::span<std::uint8_t, 32> out, std::initializer_list<ByteView> in) noexcept;

/// A Keccak sponge (FIPS 202, section 4) on Keccak-p[1600, Rounds] with rate `rate` bytes and
/// the domain-separation bits `ds` (with the first padding bit: 0x06 for SHA-3, 0x1F for SHAKE;
/// TurboSHAKE's domain byte D, 0x01 to 0x7F, pads the same way): absorb any number of times,
/// then squeeze any number of times. The state is wiped on destruction, since it may hold
/// secrets (G on m, PRF on sigma). Rounds is 24 (Keccak-f[1600]: `Sponge`, every SHA-3
/// function) or 12 (TurboSHAKE); the two are separate instantiations, so the SHA-3 sponge runs
/// exactly the code it did before TurboSHAKE existed.
template <int Rounds>
class KeccakSponge {
public:
  KeccakSponge(std::size_t rate, std::uint8_t ds) noexcept : m_rate(rate), m_ds(ds) {}
  KeccakSponge(const KeccakSponge&) = delete;
  KeccakSponge& operator=(const KeccakSponge&) = delete;
  ~KeccakSponge() { secure_wipe(m_state, sizeof m_state); }

  /// Absorb more input. Precondition: nothing squeezed yet.
  void absorb(ByteView in) noexcept;
  /// Read the next out.size() bytes of the output stream (pads on the first call).
  void squeeze(std::span<std::uint8_t> out) noexcept;
  /// The 25 words of the state, to go on later with load_state (a sponge absorbed in parts, as
  /// ML-KEM key generation hashes ek row by row). Only at a block boundary, before squeezing:
  /// whole blocks absorbed since the start or the last load_state.
  void store_state(std::uint64_t out[25]) const noexcept;
  /// Starts from a state store_state gave, at a block boundary. Precondition: nothing absorbed.
  void load_state(const std::uint64_t in[25]) noexcept;

private:
  std::uint64_t m_state[25] = {};
  std::size_t m_pos = 0;  // bytes absorbed into, or squeezed from, the current block
  std::size_t m_rate;
  std::uint8_t m_ds;
  bool m_squeezing = false;
};
extern template class KeccakSponge<24>;
extern template class KeccakSponge<12>;
using Sponge = KeccakSponge<24>;

/// Runs n independent sponges one after another with the 1-way permutation: the portable twin of
/// the SIMD batch schedulers (simd::avx2::keccak_jobs_avx2, simd::avx512::keccak_jobs_avx512),
/// with the same contract (keccak_job.hpp) and the same bytes out. Every state and
/// buffer is wiped on return.
void keccak_jobs_ref(const KeccakJob* jobs, int n) noexcept;

enum class XofKind { shake128, shake256 };

/// SHAKE128 or SHAKE256 read incrementally: absorb, then squeeze the output stream in pieces of
/// any size; the bytes read are exactly SHAKE(input)[0..].
class Xof : public Sponge {
public:
  explicit Xof(XofKind kind) noexcept : Sponge(kind == XofKind::shake128 ? 168 : 136, 0x1F) {}
};

/// TurboSHAKE128 or TurboSHAKE256 (RFC 9861, section 2.2: SHAKE's rates on Keccak-p[1600, 12])
/// with domain byte `d` (0x01 to 0x7F; 0x1F is the default, and the one HPKE uses), read
/// incrementally like Xof.
class TurboShake : public KeccakSponge<12> {
public:
  explicit TurboShake(XofKind kind, std::uint8_t d = 0x1F) noexcept
      : KeccakSponge<12>(kind == XofKind::shake128 ? 168 : 136, d) {}
};

}  // namespace pqkem::hash
