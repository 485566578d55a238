// pqkem bench: the seal and open rows (bench_hpke.hpp).
#include "bench_hpke.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <thread>

#include "hpke.hpp"

namespace pqkem::cli {
namespace {

constexpr std::size_t kSmall = 1024, kChunk = 64 * 1024, kChunks = 1024, kTag = 16;
constexpr std::size_t kLarge = kChunks * kChunk;
constexpr std::size_t kSealedLarge = kLarge + (kChunks + 1) * kTag;  // and the empty final chunk
constexpr std::size_t kBatch = hpke::kBatchParallelBytes / kChunk;
const std::uint8_t kMore = 0x00, kFinal = 0x01;  // the tool's chunk aad

unsigned threads() noexcept { return std::thread::hardware_concurrency() >= 2 ? 2 : 1; }

/// The chunks of `in` (plaintext or sealed) and their places in `out`, `first` to `first + n`.
std::vector<hpke::BatchMessage> chunks(ByteView in, std::span<std::uint8_t> out, std::size_t first, std::size_t n,
                                       bool sealing) {
  std::vector<hpke::BatchMessage> m;
  for (std::size_t i = first; i < first + n; ++i) {
    const std::size_t body = i < kChunks ? kChunk : 0;
    const std::size_t in_at = i * (sealing ? kChunk : kChunk + kTag), out_at = i * (sealing ? kChunk + kTag : kChunk);
    const std::size_t in_n = sealing ? body : body + kTag, out_n = sealing ? body + kTag : body;
    m.push_back({ByteView(i < kChunks ? &kMore : &kFinal, 1), in.subspan(in_at, in_n), out.subspan(out_at, out_n)});
  }
  return m;
}

/// The chunk stream of `pt` (kLarge bytes) into `ct` (kSealedLarge); returns enc.
Bytes seal_large(const hpke::Suite& suite, ByteView pk, ByteView pt, std::span<std::uint8_t> ct) {
  hpke::SenderSetup setup = hpke::setup_sender(suite, pk, {});
  for (std::size_t first = 0; first <= kChunks; first += kBatch)
    setup.context.seal_batch(chunks(pt, ct, first, std::min(kBatch, kChunks + 1 - first), true), threads());
  return std::move(setup.enc);
}

void open_large(const hpke::Suite& suite, ByteView enc, ByteView sk, ByteView ct, std::span<std::uint8_t> pt) {
  hpke::RecipientContext context = hpke::setup_recipient(suite, enc, sk, {});
  for (std::size_t first = 0; first <= kChunks; first += kBatch)
    context.open_batch(chunks(ct, pt, first, std::min(kBatch, kChunks + 1 - first), false), threads());
}

}  // namespace

std::vector<Row> hpke_rows(const std::vector<Scheme>& schemes, const std::vector<simd::Impl>& impls) {
  std::vector<Row> out;
  // One plaintext and one output buffer for all the large rows (they run one at a time).
  std::shared_ptr<Bytes> large_pt, scratch;
  for (Scheme s : schemes) {
    const auto kems = hpke::all_kems();
    const auto kem = std::find_if(kems.begin(), kems.end(), [s](const hpke::KemInfo& k) { return k.scheme == s; });
    if (kem == kems.end()) continue;  // NTRU, X25519MLKEM768: no HPKE KEM
    if (!large_pt) {
      large_pt = std::make_shared<Bytes>(kLarge);
      for (std::size_t i = 0; i < kLarge; ++i) (*large_pt)[i] = static_cast<std::uint8_t>(i * 31 + 7);
      scratch = std::make_shared<Bytes>(kSealedLarge);
    }
    const hpke::Suite suite{kem->id, hpke::KdfId::HkdfSha256, hpke::AeadId::Aes256Gcm};
    struct Fixed {
      KeyPair kp;
      Bytes small_pt = Bytes(kSmall, 0x5c);
      hpke::Sealed small;
      Bytes large_enc, large_ct = Bytes(kSealedLarge);
    };
    auto f = std::make_shared<Fixed>();
    f->kp = hpke::generate_key_pair(suite.kem);
    f->small = hpke::seal(suite, f->kp.pk, {}, {}, f->small_pt);
    f->large_enc = seal_large(suite, f->kp.pk, *large_pt, f->large_ct);
    const std::pair<const char*, std::function<void()>> ops[] = {
        {"seal 1 KiB", [suite, f] { const hpke::Sealed x = hpke::seal(suite, f->kp.pk, {}, {}, f->small_pt); }},
        {"open 1 KiB",
         [suite, f] { const Bytes x = hpke::open(suite, f->small.enc, f->kp.sk, {}, {}, f->small.ct); }},
        {"seal 64 MiB", [suite, f, large_pt, scratch] { (void)seal_large(suite, f->kp.pk, *large_pt, *scratch); }},
        {"open 64 MiB",
         [suite, f, scratch] {
           open_large(suite, f->large_enc, f->kp.sk, f->large_ct, std::span(*scratch).first(kLarge));
         }},
    };
    for (const simd::Impl impl : impls)
      for (const auto& [op, run] : ops)
        out.push_back(make_row(std::string(scheme_info(s).name), op, std::string(simd::impl_name(impl)), run, impl));
  }
  return out;
}

}  // namespace pqkem::cli
