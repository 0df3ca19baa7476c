// The bloomtable tool and scan filters: build writes them, dump and stats
// show them, scan asks them and says on standard error what they answered
// (golden file scan_filters.golden); verify checks every key against them
// and reports one that denies a key, or a block that does not parse.

#include <algorithm>
#include <map>
#include <string>

#include "fuzz/fix_checksums.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/table_layout.h"
#include "tests/tool_test_util.h"

namespace bloomtable {
namespace tool_test {
namespace {

using ::testing::HasSubstr;

TEST_F(ToolTest, GoldenScanFilters) {
  RunGoldenFile("scan_filters.golden", dir_);
}

// The block of the metaindex entry whose key starts with `prefix`.
BlockHandle MetaBlock(const std::string& table, const std::string& prefix) {
  const table_test::TableLayout layout = table_test::ReadTableLayout(table);
  for (const auto& [key, value] :
       table_test::ReadBlockEntries(table, layout.metaindex)) {
    if (key.rfind(prefix, 0) == 0) return table_test::DecodeHandle(value);
  }
  ADD_FAILURE() << "no meta block " << prefix;
  return BlockHandle();
}

TEST_F(ToolTest, VerifyReportsAScanFilterThatDeniesAKey) {
  const std::string table = Build(
      "users.tbl", NumberedInput(200),
      {"--prefix_extractor", "fixed:6", "--range_filter_bits_per_key", "12"});
  EXPECT_EQ(RunTool({"verify", table}).exit_status, kSuccess);
  const std::string intact = ReadFile(table);

  // LevelDB's Bloom with every bit cleared (its last byte, k, kept) answers
  // "absent" for every key; the checksum is made right again.
  std::string damaged = intact;
  const BlockHandle prefix = MetaBlock(intact, "prefixfilter.");
  const size_t name_size = std::string("bloomtable.FixedPrefix.6").size();
  const size_t bloom_size = prefix.size() - name_size - 6 - 1;
  std::fill_n(damaged.begin() + prefix.offset(), bloom_size, '\0');
  fuzz_internal::FixBlockChecksum(&damaged, prefix);
  WriteFile(table, damaged);
  ToolResult result = RunTool({"verify", table});
  EXPECT_EQ(result.exit_status, kDamaged) << result;
  EXPECT_THAT(result.out, HasSubstr("CORRUPT at offset " +
                                    std::to_string(prefix.offset())));
  EXPECT_THAT(result.out,
              HasSubstr("prefix filter, leveldb.BuiltinBloomFilter2"));
  EXPECT_THAT(result.out, HasSubstr("answers \"absent\""));

  // A range filter block that does not parse.
  damaged = intact;
  const BlockHandle range = MetaBlock(intact, "rangefilter.");
  std::fill_n(damaged.begin() + range.offset(), range.size(), '\0');
  fuzz_internal::FixBlockChecksum(&damaged, range);
  WriteFile(table, damaged);
  result = RunTool({"verify", table});
  EXPECT_EQ(result.exit_status, kDamaged) << result;
  EXPECT_THAT(result.out, HasSubstr("scan filter block:"));
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
