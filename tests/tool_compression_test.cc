// bloomtable build --compression zstd [--compression_level N]: zstd tables
// that every subcommand reads and names, and the flag's usage errors; the
// corpus of other writers' tables (tests/data/) verifies and names its
// compression.

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/tool_test_util.h"

namespace bloomtable {
namespace tool_test {
namespace {

using ::testing::HasSubstr;

TEST_F(ToolTest, BuildWritesZstdTablesThatReadBack) {
  const std::string input = NumberedInput(500);
  const std::string zstd = Build("zstd", input, {"--compression", "zstd"});
  const std::string snappy = Build("snappy", input);
  EXPECT_EQ(RunTool({"verify", zstd}).out, zstd + ": OK\n");
  const ToolResult scan = RunTool({"scan", zstd});
  EXPECT_EQ(scan.exit_status, kSuccess);
  EXPECT_EQ(scan.out, RunTool({"scan", snappy}).out);
  const nlohmann::json json =
      nlohmann::json::parse(RunTool({"dump", zstd, "--json", "--blocks"}).out);
  ASSERT_FALSE(json["data_blocks"].empty());
  for (const nlohmann::json& block : json["data_blocks"]) {
    EXPECT_EQ(block["compression"], "zstd");
  }
  EXPECT_LT(ReadFile(zstd).size(), ReadFile(snappy).size());
}

TEST_F(ToolTest, CompressionLevelChangesTheZstdBytes) {
  const std::string input = NumberedInput(2000);
  const std::string fast = Build(
      "fast", input, {"--compression", "zstd", "--compression_level", "1"});
  const std::string strong = Build(
      "strong", input, {"--compression", "zstd", "--compression_level", "19"});
  EXPECT_NE(ReadFile(fast), ReadFile(strong));
  EXPECT_EQ(RunTool({"scan", fast}).out, RunTool({"scan", strong}).out);
}

TEST_F(ToolTest, CompressionLevelWithoutZstdOrOutOfRangeIsAUsageError) {
  WriteFile(dir_.File("in"), NumberedInput(3));
  const std::string out = dir_.File("out");
  const ToolResult without_zstd = RunTool(
      {"build", out, "--input", dir_.File("in"), "--compression_level", "3"});
  EXPECT_EQ(without_zstd.exit_status, kUsage);
  EXPECT_THAT(without_zstd.err, HasSubstr("needs --compression zstd"));
  const ToolResult too_high =
      RunTool({"build", out, "--input", dir_.File("in"), "--compression",
               "zstd", "--compression_level", "23"});
  EXPECT_EQ(too_high.exit_status, kUsage);
  EXPECT_THAT(too_high.err, HasSubstr("between -7 and 22"));
  const ToolResult unknown = RunTool(
      {"build", out, "--input", dir_.File("in"), "--compression", "lz4"});
  EXPECT_EQ(unknown.exit_status, kUsage);
  EXPECT_THAT(unknown.err, HasSubstr("none, snappy or zstd"));
}

TEST_F(ToolTest, OtherWritersTablesVerifyAndNameTheirCompression) {
  const std::string data = BLOOMTABLE_TEST_DATA_DIR;
  const struct {
    const char* file;
    const char* flag;
    const char* compression;
  } kFiles[] = {
      {"bedrock_zlib.ldb", "--internal_keys", "zlib"},
      {"bedrock_raw_deflate.ldb", "--internal_keys", "raw deflate"},
      {"upstream_zstd.ldb", nullptr, "zstd"},
      {"mojang_fork_zstd.ldb", "--internal_keys", "zstd"},
  };
  for (const auto& file : kFiles) {
    const std::string path = data + "/" + file.file;
    std::vector<std::string> verify = {"verify", path};
    std::vector<std::string> dump = {"dump", path, "--json"};
    if (file.flag != nullptr) {
      verify.push_back(file.flag);
      dump.push_back(file.flag);
    }
    EXPECT_EQ(RunTool(verify).out, path + ": OK\n");
    const ToolResult result = RunTool(dump);
    ASSERT_EQ(result.exit_status, kSuccess) << result;
    const nlohmann::json json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json["index_block"]["compression"], file.compression)
        << file.file;
  }
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
