// pqkem CLI: the sealed-file streams (sealed.hpp).
#include "sealed.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "secret.hpp"
#include "text.hpp"

namespace pqkem::cli::sealed {
namespace {

constexpr std::array<std::uint8_t, 6> kMagic = {'P', 'Q', 'S', 'E', 'A', 'L'};
constexpr std::uint8_t kVersion = 1;
constexpr std::uint8_t kAadMore = 0x00;   ///< a chunk with more after it
constexpr std::uint8_t kAadFinal = 0x01;  ///< the last chunk

using Fixed = std::array<std::uint8_t, kFixedHeaderBytes>;

void put16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
}
std::uint16_t get16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }

Fixed encode_fixed(const Header& h) {
  Fixed f{};
  std::memcpy(f.data(), kMagic.data(), kMagic.size());
  f[6] = kVersion;
  f[7] = h.psk ? 1 : 0;
  put16(&f[8], static_cast<std::uint16_t>(h.suite.kem));
  put16(&f[10], static_cast<std::uint16_t>(h.suite.kdf));
  put16(&f[12], static_cast<std::uint16_t>(h.suite.aead));
  for (int i = 0; i < 4; ++i) f[14 + i] = static_cast<std::uint8_t>(h.chunk_bytes >> (24 - 8 * i));
  return f;
}

/// True if `id` is a value of the enum that the library knows (kem_info and friends throw
/// otherwise).
template <class Id, class Info>
bool known(Id id, std::span<const Info> table) {
  for (const auto& entry : table)
    if (entry.id == id) return true;
  return false;
}

Header parse_fixed(const Fixed& f, std::size_t got, const std::string& file) {
  if (got < kMagic.size() || std::memcmp(f.data(), kMagic.data(), kMagic.size()) != 0)
    throw_failure("not a file pqkem sealed (no PQSEAL header); for a --raw message use 'pqkem open --raw'", file);
  if (got < f.size()) throw_failure("truncated: the file ends inside its header", file);
  if (f[6] != kVersion)
    throw_failure(fmt::format("sealed-file version {} is not supported (this pqkem reads version {})", f[6], kVersion),
                  file);
  if (f[7] > 1) throw_failure(fmt::format("unknown sealed-file mode {}", f[7]), file);
  Header h;
  h.psk = f[7] == 1;
  h.suite.kem = static_cast<hpke::KemId>(get16(&f[8]));
  h.suite.kdf = static_cast<hpke::KdfId>(get16(&f[10]));
  h.suite.aead = static_cast<hpke::AeadId>(get16(&f[12]));
  if (!known(h.suite.kem, hpke::all_kems()) || !known(h.suite.kdf, hpke::all_kdfs()) ||
      !known(h.suite.aead, hpke::all_aeads()) || h.suite.aead == hpke::AeadId::ExportOnly)
    throw_failure(fmt::format("unknown HPKE suite: KEM 0x{:04x}, KDF 0x{:04x}, AEAD 0x{:04x}", get16(&f[8]),
                              get16(&f[10]), get16(&f[12])),
                  file);
  h.chunk_bytes = 0;
  for (int i = 0; i < 4; ++i) h.chunk_bytes = h.chunk_bytes << 8 | f[14 + i];
  if (h.chunk_bytes < kMinChunkBytes || h.chunk_bytes > kMaxChunkBytes)
    throw_failure(fmt::format("chunk size {} is outside {}..{} bytes", h.chunk_bytes, kMinChunkBytes, kMaxChunkBytes),
                  file);
  return h;
}

/// The HPKE info: the header's fixed bytes, then the user's.
Bytes context_info(const Fixed& fixed, ByteView info) {
  Bytes out(fixed.begin(), fixed.end());
  out.insert(out.end(), info.begin(), info.end());
  return out;
}

}  // namespace

StreamStats seal_stream(const Header& header, ByteView pk, ByteView info, const std::optional<hpke::Psk>& psk,
                        InputStream& in, StreamOutput& out, Bytes& enc_out) {
  const Fixed fixed = encode_fixed(header);
  auto setup = hpke::setup_sender(header.suite, pk, context_info(fixed, info), psk);
  out.write(fixed);
  out.write(setup.enc);
  StreamStats stats;
  stats.sealed_bytes = fixed.size() + setup.enc.size();
  enc_out = setup.enc;

  // One buffer: each chunk is read into it and sealed in place (the tag goes after it).
  const std::size_t tag = setup.context.tag_bytes();
  SecretBytes buffer(header.chunk_bytes + tag);
  for (;;) {
    const std::size_t n = in.read(std::span(buffer.data(), header.chunk_bytes));
    const bool final = n < header.chunk_bytes;
    const std::uint8_t aad = final ? kAadFinal : kAadMore;
    const auto sealed = std::span(buffer.data(), n + tag);
    setup.context.seal(ByteView(&aad, 1), ByteView(buffer.data(), n), sealed);
    out.write(sealed);
    stats.plaintext_bytes += n;
    stats.sealed_bytes += sealed.size();
    ++stats.chunks;
    if (final) return stats;
  }
}

ReadHeader read_header(InputStream& in) {
  ReadHeader h;
  h.header = parse_fixed(h.fixed, in.read(h.fixed), in.name());
  h.enc.resize(hpke::kem_info(h.header.suite.kem).n_enc);
  if (in.read(h.enc) < h.enc.size()) throw_failure("truncated: the file ends inside its header", in.name());
  return h;
}

StreamStats open_stream(const ReadHeader& read, hpke::KemId kem, ByteView sk, ByteView info,
                        const std::optional<hpke::Psk>& psk, InputStream& in, StreamOutput& out) {
  const std::string& file = in.name();
  const Header& header = read.header;
  if (header.suite.kem != kem)
    throw_failure(fmt::format("sealed for {}, but the secret key is {}", hpke::kem_info(header.suite.kem).name,
                              hpke::kem_info(kem).name),
                  file);
  if (header.psk != psk.has_value())
    throw_failure(header.psk ? "sealed with a pre-shared key: give --psk and --psk-id"
                             : "not sealed with a pre-shared key: leave out --psk and --psk-id",
                  file);
  auto context = hpke::setup_recipient(header.suite, read.enc, sk, context_info(read.fixed, info), psk);
  StreamStats stats;
  stats.sealed_bytes = read.fixed.size() + read.enc.size();

  // Each chunk is read whole (one byte more than a full chunk shows whether it is the last),
  // opened in place, and only then written.
  const std::size_t tag = context.tag_bytes();
  const std::size_t full = header.chunk_bytes + tag;
  SecretBytes buffer(full + 1);
  std::size_t have = in.read(std::span(buffer.data(), buffer.size()));
  for (;;) {
    const bool more = have > full;  // a byte of the next chunk was read too
    const std::size_t n = more ? full : have;
    if (n < tag)
      throw_failure(have == 0
                        ? fmt::format("truncated: the file ends after {} chunks, without its final chunk", stats.chunks)
                        : fmt::format("truncated: the file ends inside chunk {}", stats.chunks + 1),
                    file);
    const bool final = n < full;  // only the final chunk is short
    const std::uint8_t aad = final ? kAadFinal : kAadMore;
    try {
      context.open(ByteView(&aad, 1), ByteView(buffer.data(), n), std::span(buffer.data(), n - tag));
    } catch (const Error& e) {
      if (e.code() != Errc::open_failure) throw;
      throw_failure(stats.chunks == 0 ? std::string("does not open: wrong secret key, --info or --psk, or the file "
                                                    "was altered")
                                      : fmt::format("chunk {} does not authenticate: the file was altered, cut or "
                                                    "reordered",
                                                    stats.chunks + 1),
                    file);
    }
    out.write(ByteView(buffer.data(), n - tag));
    stats.plaintext_bytes += n - tag;
    stats.sealed_bytes += n;
    ++stats.chunks;
    if (final) return stats;
    if (!more)
      throw_failure(fmt::format("truncated: the file ends after {} chunks, without its final chunk", stats.chunks),
                    file);
    buffer[0] = buffer[full];
    have = 1 + in.read(std::span(buffer.data() + 1, full));
  }
}

SecretBytes read_message(InputStream& in, std::size_t max) {
  std::size_t capacity = 64 * 1024;
  if (in.known_size()) capacity = static_cast<std::size_t>(std::min<std::uint64_t>(*in.known_size(), max)) + 1;
  SecretBytes buffer(capacity);
  std::size_t used = 0;
  for (;;) {
    used += in.read(std::span(buffer.data() + used, buffer.size() - used));
    if (used < buffer.size()) break;  // the end of the input
    if (used > max)
      throw_failure(
          fmt::format("input is larger than {} bytes, the limit for --raw; seal without --raw for any size", max),
          in.name());
    SecretBytes bigger(std::min(2 * used, max + 1));
    std::memcpy(bigger.data(), buffer.data(), used);
    buffer = std::move(bigger);  // wipes the smaller one
  }
  return SecretBytes(ByteView(buffer.data(), used));
}

}  // namespace pqkem::cli::sealed
