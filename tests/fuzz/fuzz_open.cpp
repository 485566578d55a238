// `pqkem open` on arbitrary bytes (app/sealed.cpp): the sealed-file header parser, then the
// chunk loop with a fixed key of the header's KEM (fuzz::sealed_file_key, the key the seed
// corpus was sealed to), so a valid header reaches HPKE's setup and every chunk path: full,
// final, cut, extended. The input is a real file (a memfd); the plaintext goes to /dev/null.
// Properties: a rejection is a CliError or pqkem::Error (exit 1 with one line), never a crash or
// a sanitizer report; a file that opens has exactly the size its header, chunk count and
// plaintext imply.
#include <string>

#include "fuzz_util.hpp"
#include "hpke.hpp"
#include "io.hpp"
#include "sealed.hpp"
#include "text.hpp"

using namespace pqkem;
using namespace pqkem::cli;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::MemFile file(ByteView(data, size));
  try {
    InputStream in(file.path());
    const sealed::ReadHeader header = sealed::read_header(in);
    const KeyPair& key = fuzz::sealed_file_key(header.header.suite.kem);
    StreamOutput out({"/dev/null", "--out"}, true, true);
    const auto stats = sealed::open_stream(header, header.header.suite.kem, key.sk, {}, std::nullopt, in, out);
    fuzz::check(stats.sealed_bytes == size, "an opened file's size differs from what it read");
    fuzz::check(
        stats.sealed_bytes == sealed::kFixedHeaderBytes + header.enc.size() + stats.plaintext_bytes + 16 * stats.chunks,
        "an opened file's size differs from its header, chunks and plaintext");
    out.commit();
  } catch (const CliError& e) {
    fuzz::check(e.exit_code() == 1 || e.exit_code() == 2, "a rejection with an exit code other than 1 or 2");
    fuzz::check(std::string(e.what()).find('\n') == std::string::npos, "a message of more than one line");
  } catch (const Error&) {
  }
  return 0;
}
