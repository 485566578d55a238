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

void add_json_report(std::vector<PendingOutput>& outputs, const JsonValue& report) {
  const std::string text = report.dump();
  const auto* p = reinterpret_cast<const std::uint8_t*>(text.data());
  outputs.push_back({{"-", "--json"}, SecretBytes(ByteView(p, text.size())), false});
}

}  // namespace pqkem::cli
