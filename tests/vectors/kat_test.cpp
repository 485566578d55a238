// NIST PQCgenKAT_kem known-answer tests: the first record of kat_rsp(s, 1) must hash (SHA-256)
// to the value published in the vectors README, for ML-KEM-512, -768 and -1024; the streaming
// kat_rsp hands the same text to its sink one record at a time.
#include "kat.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pqkem.hpp"
#include "support.hpp"

namespace pqkem::test {
namespace {

std::string sha256_hex(std::string_view text) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(text.data(), text.size(), md, &len, EVP_sha256(), nullptr) != 1 || len != 32)
    throw std::runtime_error("EVP_Digest(SHA-256) failed");
  return hex_encode(ByteView(md, len));
}

struct KatCase {
  Scheme scheme;
  const char* first_record_sha256;  // vectors README, "NIST KAT files"
};

constexpr KatCase kKat[] = {
    {Scheme::MlKem512, "c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782"},
    {Scheme::MlKem768, "5352539586b6c3df58be6158a6250aeff402bd73060b0a3de68850ac074c17c3"},
    {Scheme::MlKem1024, "f580d851e5fb27e6876e5e203fa18be4cdbfd49e05d48fec3d3992c8f43a13e6"},
};

void PrintTo(const KatCase& c, std::ostream* os) { *os << scheme_info(c.scheme).name; }

class NistKat : public ::testing::TestWithParam<KatCase> {};

std::string kat_name(const ::testing::TestParamInfo<KatCase>& info) { return scheme_test_name(info.param.scheme); }

// Layout: "# <name>\n\n", then the record "count = 0\n" ... "ss = <hex>\n", then "\n".
// The published hash covers the record alone: from "count = 0" through the newline ending
// the "ss = " line.
TEST_P(NistKat, FirstRecordSha256) {
  const KatCase& c = GetParam();
  const SchemeInfo& info = scheme_info(c.scheme);
  const std::string rsp = kat_rsp(c.scheme, 1);

  const std::string header = "# " + std::string(info.name) + "\n\n";
  ASSERT_EQ(rsp.substr(0, header.size()), header) << "header";
  ASSERT_GE(rsp.size(), header.size() + 1);
  ASSERT_EQ(rsp.back(), '\n');
  const std::string record = rsp.substr(header.size(), rsp.size() - header.size() - 1);
  ASSERT_EQ(rsp.substr(header.size() + record.size()), "\n") << "one blank line after the record";
  ASSERT_FALSE(record.empty());
  ASSERT_EQ(record.back(), '\n');

  // The record's lines, in NIST's order, upper-case hex of the scheme's sizes.
  const std::vector<std::string> lines = split_lines(record);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "count = 0");
  const struct {
    const char* key;
    std::size_t bytes;
  } fields[] = {
      {"seed", 48}, {"pk", info.pk_bytes}, {"sk", info.sk_bytes}, {"ct", info.ct_bytes}, {"ss", info.ss_bytes}};
  std::vector<Bytes> values;
  for (std::size_t i = 0; i < 5; ++i) {
    const std::string prefix = std::string(fields[i].key) + " = ";
    ASSERT_EQ(lines[i + 1].substr(0, prefix.size()), prefix);
    const std::string hex = lines[i + 1].substr(prefix.size());
    const Bytes v = hex_decode(hex);
    EXPECT_EQ(v.size(), fields[i].bytes) << fields[i].key;
    EXPECT_EQ(hex, hex_encode_upper(v)) << fields[i].key << " is not upper-case hex";
    values.push_back(v);
  }
  // The record is self-consistent: its secret key decapsulates its ciphertext to its secret.
  const SecretBytes ss = decaps(c.scheme, values[2], values[3]);
  EXPECT_TRUE(bytes_equal(ss.view(), values[4])) << "Decaps(sk, ct) != ss";
  EXPECT_TRUE(bytes_equal(public_key_from_secret_key(c.scheme, values[2]), values[1])) << "pk embedded in sk";

  EXPECT_EQ(sha256_hex(record), c.first_record_sha256);
}

// The streaming form: one sink call for the header, then one per record, each holding record i
// from "count = i" through its blank line. Together the chunks are kat_rsp(s, count), and the
// first record still hashes to NIST's value.
TEST_P(NistKat, StreamsHeaderThenOneChunkPerRecord) {
  const KatCase& c = GetParam();
  const SchemeInfo& info = scheme_info(c.scheme);
  constexpr int kCount = 3;
  std::vector<std::string> chunks;
  kat_rsp(c.scheme, kCount, [&chunks](std::string_view chunk) { chunks.emplace_back(chunk); });

  ASSERT_EQ(chunks.size(), 1u + kCount) << "one call for the header, one per record";
  EXPECT_EQ(chunks[0], "# " + std::string(info.name) + "\n\n");
  std::string joined = chunks[0];
  for (int i = 0; i < kCount; ++i) {
    const std::string& record = chunks[static_cast<std::size_t>(i) + 1];
    const std::vector<std::string> lines = split_lines(record);
    ASSERT_EQ(lines.size(), 7u) << "record " << i << ": six fields and the blank line";
    EXPECT_EQ(lines[0], "count = " + std::to_string(i));
    EXPECT_EQ(lines[3].size(), std::string("sk = ").size() + 2 * info.sk_bytes) << "record " << i;
    EXPECT_EQ(record.substr(record.size() - 2), "\n\n") << "record " << i;
    joined += record;
  }
  EXPECT_EQ(joined, kat_rsp(c.scheme, kCount));
  EXPECT_EQ(sha256_hex(std::string_view(chunks[1]).substr(0, chunks[1].size() - 1)), c.first_record_sha256);
}

INSTANTIATE_TEST_SUITE_P(Kat, NistKat, ::testing::ValuesIn(kKat), kat_name);

// An exception from the sink stops the generation there and reaches the caller.
TEST(KatStream, SinkExceptionStopsGeneration) {
  int calls = 0;
  const auto sink = [&calls](std::string_view) {
    if (++calls == 2) throw std::runtime_error("sink full");
  };
  EXPECT_THROW(kat_rsp(Scheme::MlKem512, 100, sink), std::runtime_error);
  EXPECT_EQ(calls, 2) << "header, then the first record, then nothing";
}

// A negative count is refused before anything is written; zero records is the header alone.
TEST(KatStream, CountPrecondition) {
  int calls = 0;
  const auto sink = [&calls](std::string_view) { ++calls; };
  EXPECT_THROW(kat_rsp(Scheme::MlKem768, -1, sink), Error);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(kat_rsp(Scheme::MlKem768, 0), "# ML-KEM-768\n\n");
}

}  // namespace
}  // namespace pqkem::test
