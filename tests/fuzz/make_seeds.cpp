// Writes the seed corpus of every fuzz target (tests/fuzz/corpus/<target>/), so each starts
// from valid inputs: real keys, ciphertexts and key files of every scheme, plain and odd hex,
// JSON documents, sealed files, and one input per kernel selector. Deterministic; run by
// `scripts/fuzz.sh --seeds` (the files are committed).
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz_util.hpp"
#include "hpke.hpp"
#include "io.hpp"
#include "keyfile/keyfile.hpp"
#include "output.hpp"
#include "pqkem.hpp"
#include "sealed.hpp"

using namespace pqkem;
namespace fs = std::filesystem;

namespace {

fs::path g_root;

Bytes pattern(std::size_t n, unsigned seed) {
  Bytes b(n);
  std::uint32_t x = 0x2545F491u * (seed + 1);
  for (auto& v : b) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    v = static_cast<std::uint8_t>(x);
  }
  return b;
}

void write(const std::string& target, const std::string& name, ByteView bytes) {
  const fs::path dir = g_root / target;
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

Bytes cat(std::initializer_list<ByteView> parts) {
  Bytes out;
  for (auto p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

std::string hex(ByteView b, bool spaced) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (spaced && i > 0) s += (i % 32 == 0) ? '\n' : ' ';
    s += d[b[i] >> 4];
    s += d[b[i] & 15];
  }
  return s + "\n";
}

}  // namespace

/// fuzz_open's seeds: sealed files to the fixed keys (fuzz::sealed_file_key), one suite per KEM,
/// with 64-KiB chunks (empty and short messages) and 1-KiB chunks (several chunks, and a message
/// of a whole number of chunks, which ends with an empty one), written by app/sealed.cpp itself.
void write_sealed_seeds() {
  const hpke::KdfId kdfs[] = {hpke::KdfId::HkdfSha256, hpke::KdfId::TurboShake256, hpke::KdfId::HkdfSha512,
                              hpke::KdfId::Shake128};
  const hpke::AeadId aeads[] = {hpke::AeadId::Aes256Gcm, hpke::AeadId::ChaCha20Poly1305, hpke::AeadId::Aes128Gcm,
                                hpke::AeadId::Aes256Gcm};
  std::size_t i = 0;
  for (const auto& kem : hpke::all_kems()) {
    const hpke::Suite suite{kem.id, kdfs[i % 4], aeads[i % 4]};
    ++i;
    for (const auto& [bytes, chunk] :
         {std::pair<std::size_t, std::uint32_t>{0, 65536}, {100, 65536}, {3000, 1024}, {2048, 1024}}) {
      const Bytes message = pattern(bytes, 500 + static_cast<unsigned>(i));
      const fuzz::MemFile in_file(message);
      cli::InputStream in(in_file.path());
      const fs::path dir = g_root / "fuzz_open";
      fs::create_directories(dir);
      const std::string name = std::string(kem.name) + "-" + std::to_string(bytes) + "-chunk" + std::to_string(chunk);
      cli::StreamOutput out({(dir / name).string(), "--out"}, false, true);
      Bytes enc;
      cli::sealed::seal_stream({suite, false, chunk}, fuzz::sealed_file_key(kem.id).pk, {}, std::nullopt, in, out, enc);
      out.commit();
    }
  }
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  g_root = argv[1];
  const auto schemes = all_schemes();
  for (std::size_t i = 0; i < schemes.size(); ++i) {
    const SchemeInfo& info = schemes[i];
    const std::string n(info.name);
    const auto idx = static_cast<std::uint8_t>(i);
    const Bytes kg = pattern(info.keygen_coin_bytes(), 2 * static_cast<unsigned>(i));
    const Bytes ec = pattern(info.encaps_coin_bytes(), 2 * static_cast<unsigned>(i) + 1);
    const KeyPair kp = keygen_derand(info.scheme, kg);
    const Encapsulation e = encaps_derand(info.scheme, kp.pk, ec);
    const std::uint8_t h0[2] = {idx, 0}, h1[2] = {idx, 1}, h[1] = {idx};

    write("fuzz_decaps", n + "-keygen", cat({h0, kg, e.ct}));
    write("fuzz_decaps", n + "-rawkey", cat({h1, kp.sk, e.ct}));
    write("fuzz_encaps", n, cat({h, ec, kp.pk}));
    write("fuzz_diff_kem", n, cat({h, kg, ec}));
    const std::uint8_t flip[3] = {0, 0, 4};
    write("fuzz_diff_kem", n + "-flip", cat({h, kg, ec, flip}));
    if (info.family == pqkem::Family::Ntru) {
      // Zero coins (the reader pads a short input with zeros): f = 0, which keygen refuses.
      write("fuzz_decaps", n + "-refused-coins", cat({h0}));
      write("fuzz_diff_kem", n + "-refused-coins", cat({h}));
    }

    // CLI inputs: selector bits 2-5 = the -a scheme (15 = none).
    const auto sel = [&](int reader, bool with_a) {
      return static_cast<std::uint8_t>(reader | ((with_a ? static_cast<int>(i) : 15) << 2));
    };
    const std::uint8_t pk_raw[1] = {sel(1, false)}, sk_hex[1] = {sel(2, false)}, ct_a[1] = {sel(3, true)};
    write("fuzz_cli_input", n + "-pk-raw", cat({pk_raw, kp.pk}));
    write("fuzz_cli_input", n + "-sk-hex",
          cat({sk_hex,
               ByteView(reinterpret_cast<const std::uint8_t*>(hex(kp.sk, true).data()), hex(kp.sk, true).size())}));
    write("fuzz_cli_input", n + "-ct-raw", cat({ct_a, e.ct}));
    if (info.seed_bytes != 0) {
      const std::uint8_t seed_a[1] = {sel(2, true)};
      const std::string s = hex(kg, false);
      write("fuzz_cli_input", n + "-seed-hex",
            cat({seed_a, ByteView(reinterpret_cast<const std::uint8_t*>(s.data()), s.size())}));
    }
    if (keyfile::has_key_files(info.scheme)) {
      const Bytes spki = keyfile::encode_spki(info.scheme, kp.pk);
      const keyfile::PrivateKey key = keyfile::private_key_from_seed(info.scheme, kg);
      write("fuzz_keyfile", n + "-spki.der", spki);
      write("fuzz_keyfile", n + "-spki.pem", keyfile::pem_encode(keyfile::kPemPublicKey, spki));
      std::vector<keyfile::PrivateKeyForm> forms = {keyfile::PrivateKeyForm::seed};
      if (!keyfile::key_file_holds_seed_only(info.scheme))  // X-Wing's file is its seed alone
        forms.insert(forms.end(), {keyfile::PrivateKeyForm::expanded, keyfile::PrivateKeyForm::both});
      for (auto form : forms) {
        const SecretBytes der = keyfile::encode_pkcs8(key, form);
        const std::string f(keyfile::form_name(form));
        write("fuzz_keyfile", n + "-pkcs8-" + f + ".der", der);
        const SecretBytes pem = keyfile::pem_encode(keyfile::kPemPrivateKey, der);
        write("fuzz_keyfile", n + "-pkcs8-" + f + ".pem", pem);
        const std::uint8_t s[1] = {sel(2, false)};
        write("fuzz_cli_input", n + "-pkcs8-" + f + ".pem", cat({s, pem}));
      }
      const std::uint8_t p[1] = {sel(1, false)};
      write("fuzz_cli_input", n + "-spki.pem", cat({p, keyfile::pem_encode(keyfile::kPemPublicKey, spki)}));
      write("fuzz_cli_input", n + "-spki.der", cat({p, spki}));
    }
  }
  const std::uint8_t h0[1] = {0};
  write("fuzz_cli_input", "hex-plain", cat({h0, ByteView(reinterpret_cast<const std::uint8_t*>("00ff\n"), 5)}));
  write("fuzz_cli_input", "hex-spaced",
        cat({h0, ByteView(reinterpret_cast<const std::uint8_t*>(" 0A bC\t\r\n1 2"), 12)}));
  // Hostile inputs (no -a): hex with a 0x prefix and other text as a public key, odd hex as a
  // ciphertext, and a raw secret key of a wrong length that starts like DER (0x30, then a
  // long-form length), which must be read as raw bytes and never as DER.
  const std::uint8_t pub[1] = {1 | 15 << 2}, sec[1] = {2 | 15 << 2}, ct[1] = {3 | 15 << 2};
  write("fuzz_cli_input", "hostile-0x-hex", cat({pub, ByteView(reinterpret_cast<const std::uint8_t*>("0x00ff\n"), 7)}));
  write("fuzz_cli_input", "hostile-text",
        cat({pub, ByteView(reinterpret_cast<const std::uint8_t*>("0123 not hex\n"), 13)}));
  write("fuzz_cli_input", "hostile-odd-hex", cat({ct, ByteView(reinterpret_cast<const std::uint8_t*>("abc\n"), 4)}));
  const std::uint8_t der_like[2] = {0x30, 0x83};
  write("fuzz_cli_input", "hostile-raw-sk-sequence", cat({sec, der_like, pattern(2397, 400)}));

  write_sealed_seeds();
  for (unsigned k = 0; k < 16; ++k) {
    const std::uint8_t s[1] = {static_cast<std::uint8_t>(k)};
    write("fuzz_diff_mlkem", "kernel-" + std::to_string(k), cat({s, pattern(2100, 100 + k)}));
  }
  for (unsigned k = 0; k < 36; ++k) {
    const std::uint8_t s[1] = {static_cast<std::uint8_t>(k)};
    write("fuzz_diff_ntru", "kernel-" + std::to_string(k >> 2) + "-params-" + std::to_string(k & 3),
          cat({s, pattern(3400, 200 + k)}));
  }
  for (unsigned p = 0; p < 44; p += 7) {
    const std::uint8_t s[1] = {static_cast<std::uint8_t>(p)};
    write("fuzz_ntt_plans", "plan-" + std::to_string(p), cat({s, pattern(512, 300 + p)}));
  }
  return 0;
}
