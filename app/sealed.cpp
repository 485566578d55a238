// pqkem CLI: the sealed-file streams (sealed.hpp).
#include "sealed.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

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

/// Chunks are sealed and opened in batches of this many bytes (of plaintext, at least one
/// chunk): the size at which the library spreads a batch over two threads.
constexpr std::size_t kBatchBytes = hpke::kBatchParallelBytes;

/// Threads for a batch: two where the machine has them.
unsigned batch_threads() noexcept { return std::thread::hardware_concurrency() >= 2 ? 2 : 1; }

/// Memory for chunks, which hold plaintext: allocated without being written, so that a short
/// input touches only the pages it uses, and wiped on destruction as far as it was used.
class ChunkBuffer {
public:
  explicit ChunkBuffer(std::size_t size) : m_data(new std::uint8_t[size]), m_size(size) {}
  ChunkBuffer(const ChunkBuffer&) = delete;
  ChunkBuffer& operator=(const ChunkBuffer&) = delete;
  ~ChunkBuffer() { secure_wipe(m_data.get(), m_used); }

  [[nodiscard]] std::size_t size() const noexcept { return m_size; }
  /// [offset, offset + n): mark_used (or read) must cover what is written there.
  [[nodiscard]] std::span<std::uint8_t> at(std::size_t offset, std::size_t n) const noexcept {
    return {m_data.get() + offset, n};
  }
  /// The bytes below `end` are wiped on destruction.
  void mark_used(std::size_t end) noexcept { m_used = std::max(m_used, end); }
  /// Reads `n` bytes at most from `in` to `offset`; returns the bytes read.
  std::size_t read(InputStream& in, std::size_t offset, std::size_t n) {
    std::size_t got = 0;
    try {
      got = in.read(at(offset, n));
    } catch (...) {
      mark_used(offset + n);  // a read that fails part way has written some
      throw;
    }
    mark_used(offset + got);
    return got;
  }

private:
  std::unique_ptr<std::uint8_t[]> m_data;
  std::size_t m_size;
  std::size_t m_used = 0;
};

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

  // A batch of chunks at a time: each read into its slot of a buffer, sealed in place (the tag
  // goes after it), then written in order. While one batch is sealed and written, the next is
  // read into the other buffer on a second thread.
  const std::size_t tag = setup.context.tag_bytes();
  const std::size_t slot = header.chunk_bytes + tag;
  const std::size_t batch = std::max<std::size_t>(1, kBatchBytes / header.chunk_bytes);
  struct Batch {
    ChunkBuffer buffer;
    std::vector<hpke::BatchMessage> chunks;
  };
  std::array<Batch, 2> batches{Batch{ChunkBuffer(batch * slot), {}}, Batch{ChunkBuffer(batch * slot), {}}};
  // Reads a batch; true if it holds the final chunk (short, maybe empty).
  const auto fill = [&](Batch& b) {
    b.chunks.clear();
    for (std::size_t i = 0; i < batch; ++i) {
      const std::size_t n = b.buffer.read(in, i * slot, header.chunk_bytes);
      const bool final = n < header.chunk_bytes;
      b.buffer.mark_used(i * slot + n + tag);  // the tag goes after the plaintext
      b.chunks.push_back(
          {ByteView(final ? &kAadFinal : &kAadMore, 1), b.buffer.at(i * slot, n), b.buffer.at(i * slot, n + tag)});
      if (final) return true;
    }
    return false;
  };
  bool final = fill(batches[0]);
  for (std::size_t k = 0;; k ^= 1) {
    std::future<bool> next;
    if (!final) next = std::async(std::launch::async, fill, std::ref(batches[k ^ 1]));
    setup.context.seal_batch(batches[k].chunks, batch_threads());
    for (const hpke::BatchMessage& chunk : batches[k].chunks) {
      out.write(chunk.out);
      stats.plaintext_bytes += chunk.in.size();
      stats.sealed_bytes += chunk.out.size();
      ++stats.chunks;
    }
    if (final) return stats;
    final = next.get();
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

  // A batch of chunks is read whole (one byte more than the batch shows whether the input goes
  // on), opened in place, and only then written, as far as it authenticates. While one batch
  // is opened and written, the next is read into the other buffer on a second thread.
  const std::size_t tag = context.tag_bytes();
  const std::size_t full = header.chunk_bytes + tag;
  const std::size_t batch = std::max<std::size_t>(1, kBatchBytes / header.chunk_bytes);
  std::array<ChunkBuffer, 2> buffers{ChunkBuffer(batch * full + 1), ChunkBuffer(batch * full + 1)};
  std::vector<hpke::BatchMessage> chunks;
  chunks.reserve(batch);
  std::size_t have = buffers[0].read(in, 0, buffers[0].size());
  for (std::size_t k = 0;; k ^= 1) {
    ChunkBuffer& buffer = buffers[k];
    const bool at_end = have < buffer.size();
    std::future<std::size_t> next;
    if (!at_end) {  // the byte read past this batch starts the next one
      ChunkBuffer& ahead = buffers[k ^ 1];
      ahead.mark_used(1);
      ahead.at(0, 1)[0] = buffer.at(buffer.size() - 1, 1)[0];
      next = std::async(std::launch::async, [&ahead, &in] { return 1 + ahead.read(in, 1, ahead.size() - 1); });
    }
    chunks.clear();
    std::size_t offset = 0;
    for (; have - offset > full; offset += full)  // a full chunk with more after it
      chunks.push_back({ByteView(&kAadMore, 1), buffer.at(offset, full), buffer.at(offset, full - tag)});
    // At the end, what is left is the final chunk, which is short; a full one is opened as it
    // is, and then the final chunk is missing.
    const std::size_t rest = have - offset;
    const bool final = at_end && rest >= tag && rest < full;
    if (at_end && rest >= tag) {
      chunks.push_back({ByteView(final ? &kAadFinal : &kAadMore, 1), buffer.at(offset, rest),
                        buffer.at(offset, rest - tag)});
      offset += rest;
    }
    const std::uint64_t before = context.sequence();
    std::optional<Error> failure;
    try {
      context.open_batch(chunks, batch_threads());
    } catch (const Error& e) {
      if (e.code() != Errc::open_failure) throw;
      failure = e;
    }
    const std::size_t opened = static_cast<std::size_t>(context.sequence() - before);
    for (std::size_t i = 0; i < opened; ++i) {
      out.write(chunks[i].out);
      stats.plaintext_bytes += chunks[i].out.size();
      stats.sealed_bytes += chunks[i].in.size();
      ++stats.chunks;
    }
    if (failure)
      throw_failure(stats.chunks == 0 ? std::string("does not open: wrong secret key, --info or --psk, or the file "
                                                    "was altered")
                                      : fmt::format("chunk {} does not authenticate: the file was altered, cut or "
                                                    "reordered",
                                                    stats.chunks + 1),
                    file);
    if (final) return stats;
    if (at_end)
      throw_failure(rest == 0 || rest == full
                        ? fmt::format("truncated: the file ends after {} chunks, without its final chunk", stats.chunks)
                        : fmt::format("truncated: the file ends inside chunk {}", stats.chunks + 1),
                    file);
    have = next.get();
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
