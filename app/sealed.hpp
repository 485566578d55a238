// pqkem CLI: the sealed-file format of `pqkem seal` / `pqkem open` (docs/files.md), and the two
// streams that write and read it in bounded memory (sealed.cpp).
//
//   header  "PQSEAL" | version 1 | mode (0 base, 1 psk) | kem_id | kdf_id | aead_id (16 bits each)
//           | chunk size (32 bits; big-endian throughout) | enc (the KEM's Nenc bytes)
//   chunks  the input cut in pieces of the chunk size, each sealed by one HPKE context in order
//           (sequence number 0, 1, ...) with aad 0x00; the last piece is shorter than the chunk
//           size (possibly empty) and sealed with aad 0x01.
//
// The HPKE info is the header's first 18 bytes followed by the user's --info, so any change to
// the header (suite, mode, chunk size) changes the keys; enc is bound by the KEM itself. A
// dropped, repeated or reordered chunk fails its sequence number, a cut at a chunk boundary
// lacks the final chunk, and bytes after the final chunk are refused.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "hpke.hpp"
#include "io.hpp"
#include "output.hpp"

namespace pqkem::cli::sealed {

/// The chunk size seal writes, and the range open accepts (a header declaring more would make
/// open allocate it: refused before any allocation).
inline constexpr std::uint32_t kChunkBytes = 64 * 1024;
inline constexpr std::uint32_t kMinChunkBytes = 1024;
inline constexpr std::uint32_t kMaxChunkBytes = 16u << 20;
/// The header's bytes before enc.
inline constexpr std::size_t kFixedHeaderBytes = 18;

struct Header {
  hpke::Suite suite{};
  bool psk = false;
  std::uint32_t chunk_bytes = kChunkBytes;
};

/// What a stream wrote or read, for --json.
struct StreamStats {
  std::uint64_t plaintext_bytes = 0;
  std::uint64_t sealed_bytes = 0;  ///< the whole sealed file, header included
  std::uint64_t chunks = 0;
};

/// seal: the header for `header` and the enc of a new HPKE context to `pk` (info: the header's
/// first bytes, then `info`), then `in` chunk by chunk into `out`. `enc_out` receives enc.
StreamStats seal_stream(const Header& header, ByteView pk, ByteView info, const std::optional<hpke::Psk>& psk,
                        InputStream& in, StreamOutput& out, Bytes& enc_out);

/// A sealed file's header as read by open.
struct ReadHeader {
  Header header;
  std::array<std::uint8_t, kFixedHeaderBytes> fixed{};
  Bytes enc;
};

/// open, first step: the header of `in`. Exit 1 for a file pqkem did not seal, an unknown
/// version or suite, or a chunk size outside the range.
ReadHeader read_header(InputStream& in);

/// open, second step: checks the header against the key's KEM `kem` and the mode, then writes
/// each chunk's plaintext to `out` once that chunk authenticates. Exit 1, saying which chunk,
/// for one that does not (wrong key, --info or --psk; altered, dropped, repeated or reordered
/// chunks), for a file that ends before its final chunk, and for bytes after it.
StreamStats open_stream(const ReadHeader& header, hpke::KemId kem, ByteView sk, ByteView info,
                        const std::optional<hpke::Psk>& psk, InputStream& in, StreamOutput& out);

/// The whole of `in` for --raw, at most `max` bytes (exit 1 past that, saying to use the
/// sealed-file form). An empty input is an empty message.
SecretBytes read_message(InputStream& in, std::size_t max);

}  // namespace pqkem::cli::sealed
