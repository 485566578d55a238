// The --json report of keygen, encaps and decaps: what was written, with fingerprints, never
// secret material; queued with the outputs so that it is all-or-nothing with them.
#include "report.hpp"
#include "keyfile/keyfile.hpp"
#include "util/hex.hpp"

namespace pqkem::cli {

JsonValue json_files(const std::vector<PendingOutput>& outputs, const std::vector<std::string_view>& kinds) {
  JsonValue files = JsonValue::array();
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    files.push(JsonValue::object()
                   .add_string("option", outputs[i].target.option)
                   .add_string("path", outputs[i].target.path)
                   .add_string("kind", i < kinds.size() ? kinds[i] : std::string_view{})
                   .add_number("bytes", outputs[i].data.size()));
  }
  return files;
}

std::string sha256_hex(ByteView data) {
  const auto digest = keyfile::sha256(data);
  std::string out(2 * digest.size(), '\0');
  hex::encode(digest.data(), digest.size(), out.data());
  return out;
}

JsonValue json_report(std::string_view command, const SchemeInfo& info, Format format) {
  JsonValue j = JsonValue::object();
  j.add_string("command", command).add_string("algorithm", info.name).add_string("format", format_name(format));
  return j;
}

JsonValue json_hpke_report(std::string_view command, Scheme s, const hpke::Suite& suite, bool raw, bool psk) {
  JsonValue j = JsonValue::object();
  j.add_string("command", command)
      .add_string("algorithm", scheme_info(s).name)
      .add_string("form", raw ? "raw" : "sealed")
      .add_string("mode", psk ? "psk" : "base")
      .add_string("kem", hpke::kem_info(suite.kem).name)
      .add_string("kdf", hpke::kdf_info(suite.kdf).name)
      .add_string("aead", hpke::aead_info(suite.aead).name);
  return j;
}

void add_hpke_sizes(JsonValue& report, std::uint64_t plaintext_bytes, std::uint64_t sealed_bytes,
                    std::uint32_t chunk_bytes, std::uint64_t chunks, ByteView enc) {
  report.add_number("plaintext_bytes", plaintext_bytes).add_number("sealed_bytes", sealed_bytes);
  if (chunk_bytes != 0) report.add_number("chunk_bytes", chunk_bytes).add_number("chunks", chunks);
  report.add_number("enc_bytes", enc.size()).add_string("enc_sha256", sha256_hex(enc));
}

void add_json_report(std::vector<PendingOutput>& outputs, const JsonValue& report) {
  const std::string text = report.dump();
  const auto* p = reinterpret_cast<const std::uint8_t*>(text.data());
  outputs.push_back({{"-", "--json"}, SecretBytes(ByteView(p, text.size())), false});
}

}  // namespace pqkem::cli
