// NIST round-3 KATs for NTRU, through pqkem::kat_rsp (the generator `pqkem kat` prints):
// PQCkemKAT_935.rsp byte for byte, and the first-record SHA-256 of all four sets (vectors README).
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "kat.hpp"
#include "pqkem.hpp"
#include "test_util.hpp"

namespace pqkem::ntru::test {
namespace {

TEST(NtruKat, Hps2048509FullFileByteForByte) {
  const std::string want = read_vector_file("ntru/PQCkemKAT_935.rsp");
  const std::string got = kat_rsp(Scheme::NtruHps2048509, 100);
  ASSERT_EQ(got.size(), want.size());
  if (got != want) {
    std::size_t i = 0;
    while (got[i] == want[i]) ++i;
    const std::size_t line_start = want.rfind('\n', i) + 1;
    FAIL() << "first difference at offset " << i << ", in the line starting " << want.substr(line_start, 40);
  }
}

// The streaming form cuts NIST's file at record boundaries: the header, then record i from
// "count = i" through its blank line, each chunk equal to that slice of the file.
TEST(NtruKat, Hps2048509StreamsTheFileRecordByRecord) {
  const std::string want = read_vector_file("ntru/PQCkemKAT_935.rsp");
  std::vector<std::string> chunks;
  kat_rsp(Scheme::NtruHps2048509, 100, [&chunks](std::string_view chunk) { chunks.emplace_back(chunk); });
  ASSERT_EQ(chunks.size(), 101u);
  EXPECT_EQ(chunks[0], "# ntruhps2048509\n\n");
  std::size_t offset = 0;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (i > 0) {
      EXPECT_EQ(chunks[i].rfind("count = " + std::to_string(i - 1) + "\n", 0), 0u) << "chunk " << i;
    }
    EXPECT_EQ(want.compare(offset, chunks[i].size(), chunks[i]), 0) << "chunk " << i << " at offset " << offset;
    offset += chunks[i].size();
  }
  EXPECT_EQ(offset, want.size());
}

// README: SHA-256 of the 100 records without the "# name" line, the blank line after it and the
// final blank line.
TEST(NtruKat, Hps2048509FullFileReadmeHash) {
  const std::string got = kat_rsp(Scheme::NtruHps2048509, 100);
  const std::string header = "# ntruhps2048509\n\n";
  ASSERT_EQ(got.substr(0, header.size()), header);
  ASSERT_GE(got.size(), header.size() + 2);
  ASSERT_EQ(got.substr(got.size() - 2), "\n\n");
  const std::string body = got.substr(header.size(), got.size() - header.size() - 1);
  EXPECT_EQ(sha256_hex(body), "d204a151fd8d10e0f6fe484d55362d779fbcb468ac5ae2cd18409b1fd76b4641");
}

// The other three sets' full files are not in the vectors directory; their 100-record hashes
// (same convention as above) are published in liboqs, tests/KATs/kem/kats.json ("all"), and
// match the files of the round-3 submission package.
struct FullFile {
  Scheme scheme;
  const char* name;
  const char* sha256;
};

class NtruKatFullFile : public ::testing::TestWithParam<FullFile> {};

TEST_P(NtruKatFullFile, HundredRecordsSha256) {
  const FullFile& c = GetParam();
  const std::string got = kat_rsp(c.scheme, 100);
  const std::string header = "# " + std::string(c.name) + "\n\n";
  ASSERT_EQ(got.substr(0, header.size()), header);
  ASSERT_EQ(got.substr(got.size() - 2), "\n\n");
  EXPECT_EQ(sha256_hex(got.substr(header.size(), got.size() - header.size() - 1)), c.sha256);
}

INSTANTIATE_TEST_SUITE_P(All, NtruKatFullFile,
                         ::testing::Values(FullFile{Scheme::NtruHps2048509, "ntruhps2048509",
                                                    "d204a151fd8d10e0f6fe484d55362d779fbcb468ac5ae2cd18409b1fd76b4641"},
                                           FullFile{Scheme::NtruHps2048677, "ntruhps2048677",
                                                    "3489450d349454bf4914f7947a33ebc6bc5e16d15d19da6820a8168e125a1084"},
                                           FullFile{Scheme::NtruHps4096821, "ntruhps4096821",
                                                    "143f43534b9705f6485b4a3f1cefda3283f12550e88e294c743b72a9f7d3fcba"},
                                           FullFile{
                                               Scheme::NtruHrss701, "ntruhrss701",
                                               "684d7e77641399b136fbb4b9261bdca6e83887453a0565e2aef3540821138ada"}),
                         [](const ::testing::TestParamInfo<FullFile>& p) { return std::string(p.param.name); });

struct FirstRecord {
  Scheme scheme;
  const char* name;
  const char* sha256;
};

class NtruKatFirstRecord : public ::testing::TestWithParam<FirstRecord> {};

// From "count = 0" through the newline ending its "ss = " line.
TEST_P(NtruKatFirstRecord, Sha256) {
  const FirstRecord& c = GetParam();
  const std::string rsp = kat_rsp(c.scheme, 1);
  const std::string header = "# " + std::string(c.name) + "\n\n";
  ASSERT_EQ(rsp.substr(0, header.size()), header);
  ASSERT_EQ(rsp.substr(rsp.size() - 2), "\n\n");
  const std::string record = rsp.substr(header.size(), rsp.size() - header.size() - 1);
  EXPECT_EQ(sha256_hex(record), c.sha256);
}

INSTANTIATE_TEST_SUITE_P(
    All, NtruKatFirstRecord,
    ::testing::Values(FirstRecord{Scheme::NtruHps2048509, "ntruhps2048509",
                                  "fc314366fbe795e2db6d29abb9f5b2ff43f0f608d0bd66161f9450364f0d271b"},
                      FirstRecord{Scheme::NtruHps2048677, "ntruhps2048677",
                                  "33e2cad6c2a2f17991517050d7a1b745908c84b8283a4e0f07dbe6f62d166507"},
                      FirstRecord{Scheme::NtruHps4096821, "ntruhps4096821",
                                  "1a8382ae0c801a43cf461c98d22743f5b2d8a1ffed1b1df0dd767de2c2874597"},
                      FirstRecord{Scheme::NtruHrss701, "ntruhrss701",
                                  "501e000c3eb374ffbfb81b0f16673a6282116465936608d7d164b05635e769e8"}),
    [](const ::testing::TestParamInfo<FirstRecord>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace pqkem::ntru::test
