#include "support.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "util/hex.hpp"

#ifndef PQKEM_VECTORS_DIR
#error "PQKEM_VECTORS_DIR must be defined (the CMake cache variable of the same name)"
#endif

namespace pqkem::test {

std::filesystem::path vectors_dir() {
  const std::filesystem::path dir(PQKEM_VECTORS_DIR);
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw std::runtime_error("PQKEM_VECTORS_DIR=" + dir.string() +
                             " is not a directory: the conformance vectors are missing "
                             "(configure with -DPQKEM_VECTORS_DIR=/path/to/shared/vectors)");
  return dir;
}

std::filesystem::path vector_file(std::string_view relative) {
  const std::filesystem::path p = vectors_dir() / std::filesystem::path(relative);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec)) throw std::runtime_error("missing vector file " + p.string());
  return p;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw std::runtime_error("cannot read " + path.string());
  return text;
}

nlohmann::json read_json_file(const std::filesystem::path& path) {
  const std::string text = read_file(path);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

std::string read_gzip_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw std::runtime_error("missing file " + path.string());
  // Single-quote the path for the shell ('\'' closes, escapes and reopens a quote).
  std::string quoted = "'";
  for (const char c : path.string()) {
    if (c == '\'')
      quoted += "'\\''";
    else
      quoted += c;
  }
  quoted += "'";
  const std::string cmd = "gzip -dc -- " + quoted;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("popen failed for: " + cmd);
  std::string out;
  char buf[65536];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  const bool read_error = std::ferror(pipe) != 0;
  const int status = ::pclose(pipe);
  if (read_error || status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("`" + cmd + "` failed (status " + std::to_string(status) + ")");
  return out;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    if (line.find('\r') != std::string_view::npos)
      throw std::runtime_error("unexpected carriage return in vector file");
    lines.emplace_back(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

std::map<std::string, std::string> parse_key_values(std::string_view text) {
  std::map<std::string, std::string> kv;
  for (const std::string& line : split_lines(text)) {
    if (line.empty()) continue;
    const auto eq = line.find(" = ");
    if (eq == std::string::npos || eq == 0)
      throw std::runtime_error("malformed line (expected `key = value`): " + line.substr(0, 60));
    std::string key = line.substr(0, eq);
    if (!kv.emplace(key, line.substr(eq + 3)).second) throw std::runtime_error("repeated key " + key);
  }
  return kv;
}

Bytes hex_decode(std::string_view text) {
  if (text.size() % 2 != 0) throw std::runtime_error("hex string of odd length " + std::to_string(text.size()));
  Bytes out(text.size() / 2);
  if (!hex::decode(text, out.data())) {
    std::size_t bad = 0;
    while (hex::digit_mask(static_cast<unsigned char>(text[bad])) != 0) ++bad;
    throw std::runtime_error("invalid hex digit at offset " + std::to_string(bad));
  }
  return out;
}

std::string hex_encode(ByteView bytes) {
  std::string s(2 * bytes.size(), '\0');
  hex::encode(bytes.data(), bytes.size(), s.data());
  return s;
}

std::string hex_encode_upper(ByteView bytes) {
  std::string s(2 * bytes.size(), '\0');
  hex::encode(bytes.data(), bytes.size(), s.data(), true);
  return s;
}

Scheme scheme_named(std::string_view name) {
  // The vector files spell the names canonically; require exactly that spelling here, then
  // let the library map it, so a typo in a file cannot select a scheme by accident.
  for (const SchemeInfo& info : all_schemes())
    if (info.name == name) return info.scheme;
  throw std::runtime_error("unknown parameter set \"" + std::string(name) + "\"");
}

std::string scheme_test_name(Scheme s) {
  switch (s) {
    case Scheme::MlKem512: return "MlKem512";
    case Scheme::MlKem768: return "MlKem768";
    case Scheme::MlKem1024: return "MlKem1024";
    default:  // the vector suites are ML-KEM's; NTRU has its own KAT tests (tests/ntru)
      return "Unknown";
  }
}

::testing::AssertionResult bytes_equal(ByteView got, ByteView want) {
  if (got.size() == want.size()) {
    std::size_t i = 0;
    while (i < got.size() && got[i] == want[i]) ++i;
    if (i == got.size()) return ::testing::AssertionSuccess();
    auto window = [i](ByteView b) {
      const std::size_t n = std::min<std::size_t>(16, b.size() - i);
      return hex_encode(b.subspan(i, n));
    };
    return ::testing::AssertionFailure() << "bytes differ (length " << got.size() << "), first at offset " << i
                                         << ": got " << window(got) << "..., want " << window(want) << "...";
  }
  return ::testing::AssertionFailure() << "length " << got.size() << ", want " << want.size()
                                       << (got.size() <= 64 ? " (got " + hex_encode(got) + ")" : std::string());
}

}  // namespace pqkem::test
