// The command line's input parsing (app/io.cpp, app/keys.cpp), as `pqkem encaps/decaps/
// pubkey/info` run it on a file: format detection (PEM, DER, hex with any whitespace, raw
// bytes), then the public-key and secret-key readers with and without -a.
// Input: [selector][file content]. selector bits 0-1: which reader; bits 2-4: the -a scheme
// (7 = none). The content is handed over as a real file (a memfd, /proc/self/fd/N), so
// read_input's path is exercised too. Properties: only CliError / pqkem::Error are thrown
// (an exit code of 1 or 2, never a crash) with a one-line message; accepted keys have their
// scheme's exact size; parse_hex agrees with decode_input on what is hex and its bytes.
#include <optional>
#include <string>

#include "fuzz_util.hpp"
#include "io.hpp"
#include "keys.hpp"
#include "text.hpp"

using namespace pqkem;
using namespace pqkem::cli;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t sel = data[0];
  const ByteView content(data + 1, size - 1);
  const auto schemes = all_schemes();
  const unsigned a = (sel >> 2) & 15;  // bits 2-5: the -a scheme's index; past the list (15): none
  const std::optional<Scheme> algorithm = a < schemes.size() ? std::optional<Scheme>(schemes[a].scheme) : std::nullopt;

  try {
    switch (sel & 3) {
      case 0: {  // hex / text / raw detection
        const std::string_view text(reinterpret_cast<const char*>(content.data()), content.size());
        const auto hex = parse_hex(text);
        const Decoded d = decode_input(SecretBytes(content), "fuzz");
        fuzz::check(hex.has_value() == d.from_hex, "parse_hex and decode_input disagree on what is hex");
        if (hex)
          fuzz::check(hex->size() == d.bytes.size() && fuzz::same(hex->data(), d.bytes.data(), d.bytes.size()),
                      "parse_hex and decode_input disagree");
        if (d.from_hex) fuzz::check(2 * d.bytes.size() <= content.size(), "hex decoded to too many bytes");
        break;
      }
      case 1: {
        const fuzz::MemFile f(content);
        const PublicKeyInput pk = load_public_key(f.path(), algorithm);
        fuzz::check(pk.pk.size() == scheme_info(pk.scheme).pk_bytes, "accepted public key has the wrong size");
        break;
      }
      case 2: {
        const fuzz::MemFile f(content);
        const SecretKeyInput sk = load_secret_key(f.path(), algorithm, false);
        fuzz::check(sk.key.dk.size() == scheme_info(sk.key.scheme).sk_bytes, "accepted secret key has the wrong size");
        break;
      }
      default: {
        const fuzz::MemFile f(content);
        if (algorithm)
          (void)read_ciphertext(f.path(), *algorithm);
        else
          (void)read_public_key(f.path(), std::nullopt);
        break;
      }
    }
  } catch (const CliError& e) {
    fuzz::check(e.exit_code() == kExitFailure || e.exit_code() == kExitUsage, "CliError with an odd exit code");
    // One line, no control characters: nothing of the input is printed raw.
    for (const char c : std::string_view(e.what()))
      fuzz::check(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f, "control character in an error message");
  } catch (const Error&) {
  }
  return 0;
}
