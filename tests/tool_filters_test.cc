// The tool with bloomtable's own filter policies: build with each, then
// verify, get, dump and stats read the table with its filter.

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

struct FilterCase {
  std::string filter;
  std::string layout;
  std::string stored_name;  // the metaindex key the table must carry
};

class ToolFilterTest : public ToolTest,
                       public ::testing::WithParamInterface<FilterCase> {};

TEST_P(ToolFilterTest, BuiltTableVerifiesAndItsFilterIsUsed) {
  const FilterCase& c = GetParam();
  const std::string table = Build("t", NumberedInput(500),
                                  {"--filter", c.filter, "--bits_per_key",
                                   "9.5", "--filter_layout", c.layout});

  ToolResult verify = RunTool({"verify", table});
  EXPECT_EQ(verify.exit_status, kSuccess) << verify;
  EXPECT_THAT(verify.out, HasSubstr(": OK"));

  ToolResult found = RunTool({"get", table, "key123"});
  EXPECT_EQ(found.exit_status, kSuccess) << found;
  EXPECT_EQ(found.out, "value123\n");

  // Absent keys: the filter answers for most of them without a block read.
  int rejected = 0;
  for (int i = 0; i < 40; ++i) {
    ToolResult absent =
        RunTool({"get", table, "key" + std::to_string(i) + "x"});
    EXPECT_EQ(absent.exit_status, kKeyNotFound) << absent;
    if (absent.err.find("filter: absent") != std::string::npos) ++rejected;
  }
  EXPECT_GE(rejected, 30);

  ToolResult dump = RunTool({"dump", table, "--json"});
  ASSERT_EQ(dump.exit_status, kSuccess) << dump;
  const nlohmann::json json = nlohmann::json::parse(dump.out);
  ASSERT_EQ(json["filters"].size(), 1u);
  EXPECT_EQ(json["filters"][0]["metaindex_key"], c.stored_name);
  EXPECT_EQ(json["filters"][0]["layout"], c.layout);

  ToolResult stats = RunTool({"stats", table, "--json"});
  ASSERT_EQ(stats.exit_status, kSuccess) << stats;
  const nlohmann::json stats_json = nlohmann::json::parse(stats.out);
  EXPECT_EQ(stats_json["entries"], 500);
  ASSERT_EQ(stats_json["filters"].size(), 1u);
  EXPECT_GT(stats_json["filters"][0]["bits_per_key"].get<double>(), 5.0);
}

INSTANTIATE_TEST_SUITE_P(
    Policies, ToolFilterTest,
    ::testing::Values(FilterCase{"cache_local_bloom", "per_block",
                                 "filter.bloomtable.CacheLocalBloom"},
                      FilterCase{"cache_local_bloom", "whole_table",
                                 "fullfilter.bloomtable.CacheLocalBloom"},
                      FilterCase{"ribbon", "whole_table",
                                 "fullfilter.bloomtable.Ribbon"}),
    [](const ::testing::TestParamInfo<FilterCase>& info) {
      return info.param.filter + "_" + info.param.layout;
    });

TEST_F(ToolTest, LevelDBBloomRefusesFractionalBitsPerKey) {
  const std::string input = dir_.File("in.tsv");
  WriteFile(input, NumberedInput(10));
  ToolResult result = RunTool({"build", dir_.File("t"), "--input", input,
                               "--filter", "bloom", "--bits_per_key", "9.5"});
  EXPECT_EQ(result.exit_status, kUsage) << result;
}

TEST_F(ToolTest, UnknownFilterNamesTheKnownOnes) {
  const std::string input = dir_.File("in.tsv");
  WriteFile(input, NumberedInput(10));
  ToolResult result = RunTool(
      {"build", dir_.File("t"), "--input", input, "--filter", "cuckoo"});
  EXPECT_EQ(result.exit_status, kUsage) << result;
  EXPECT_THAT(result.err, HasSubstr("cache_local_bloom"));
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
