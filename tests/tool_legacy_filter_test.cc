// Tables whose filter is named "leveldb.BuiltinBloomFilter" (goleveldb and
// geth write that name): the tool reads the filter, checks it and reports
// it like LevelDB's current Bloom filter.

#include <string>

#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table_builder.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/tool_test_util.h"

namespace bloomtable {
namespace tool_test {
namespace {

using ::testing::HasSubstr;

TEST_F(ToolTest, GoleveldbFilterNameIsReadAndChecked) {
  Options options;
  options.filter_policy = NewLegacyLevelDBBloomFilterPolicy(10);
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(builder.Add("key" + std::to_string(1000 + i), "value").ok());
  }
  ASSERT_TRUE(builder.Finish().ok());
  const std::string path = dir_.File("goleveldb.ldb");
  WriteFile(path, file.contents());

  EXPECT_EQ(RunTool({"verify", path}).out, path + ": OK\n");
  const ToolResult dump = RunTool({"dump", path, "--json"});
  ASSERT_EQ(dump.exit_status, kSuccess) << dump;
  const nlohmann::json json = nlohmann::json::parse(dump.out);
  ASSERT_EQ(json["filters"].size(), 1u);
  EXPECT_EQ(json["filters"][0]["policy"], "leveldb.BuiltinBloomFilter");
  // Parsed with the policy: every key's filter accounted for.
  EXPECT_EQ(json["filters"][0]["keys_covered"], 500) << json["filters"][0];
  const ToolResult get = RunTool({"get", path, "key1000x"});
  EXPECT_EQ(get.exit_status, kKeyNotFound);
  EXPECT_THAT(get.err, HasSubstr("absent"));
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
