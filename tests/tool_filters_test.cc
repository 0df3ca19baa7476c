// The tool with bloomtable's own filter policies: build with each, then
// verify, get, dump and stats read the table with its filter.

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table_builder.h"
#include "filter/cache_local_bloom.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/table_layout.h"
#include "tests/tool_test_util.h"
#include "util/coding.h"
#include "util/crc32c.h"

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
  EXPECT_FALSE(json["filters"][0].contains("problem")) << json["filters"][0];

  ToolResult stats = RunTool({"stats", table, "--json"});
  ASSERT_EQ(stats.exit_status, kSuccess) << stats;
  const nlohmann::json stats_json = nlohmann::json::parse(stats.out);
  EXPECT_EQ(stats_json["entries"], 500);
  ASSERT_EQ(stats_json["filters"].size(), 1u);
  EXPECT_GT(stats_json["filters"][0]["bits_per_key"].get<double>(), 5.0);
}

INSTANTIATE_TEST_SUITE_P(
    Policies, ToolFilterTest,
    ::testing::Values(
        FilterCase{"cache_local_bloom", "per_block",
                   "filter.bloomtable.CacheLocalBloom"},
        FilterCase{"cache_local_bloom", "whole_table",
                   "fullfilter.bloomtable.CacheLocalBloom"},
        FilterCase{"ribbon", "whole_table", "fullfilter.bloomtable.Ribbon"},
        FilterCase{"ribbon", "partitioned",
                   "partitionedfilter.bloomtable.Ribbon"},
        FilterCase{"cache_local_bloom", "partitioned",
                   "partitionedfilter.bloomtable.CacheLocalBloom"}),
    [](const ::testing::TestParamInfo<FilterCase>& info) {
      return info.param.filter + "_" + info.param.layout;
    });

// A table of many filter partitions (written by the library: the tool's
// build cuts partitions of 4096 keys): verify checks every key against its
// partition and the partitions' place in the file; dump and stats count them.
TEST_F(ToolTest, PartitionedFilterIsVerifiedAndDescribed) {
  Options options;
  options.filter_policy = NewCacheLocalBloomFilterPolicy(10);
  options.filter_layout = FilterLayout::kPartitioned;
  options.filter_partition_keys = 50;
  StringWritableFile out;
  TableBuilder builder(options, &out);
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(
        builder.Add(absl::StrFormat("key%04d", i), absl::StrCat("value", i))
            .ok());
  }
  ASSERT_TRUE(builder.Finish().ok());
  const std::string table = dir_.File("partitioned");
  WriteFile(table, out.contents());

  ToolResult verify = RunTool({"verify", table});
  EXPECT_EQ(verify.exit_status, kSuccess) << verify;
  ToolResult dump = RunTool({"dump", table, "--json"});
  ASSERT_EQ(dump.exit_status, kSuccess) << dump;
  const nlohmann::json json = nlohmann::json::parse(dump.out);
  ASSERT_EQ(json["filters"].size(), 1u);
  EXPECT_EQ(json["filters"][0]["layout"], "partitioned");
  EXPECT_EQ(json["filters"][0]["num_filters"], 10);
  EXPECT_FALSE(json["filters"][0].contains("problem")) << json["filters"][0];
  const double bits = json["filters"][0]["bits_per_key"].get<double>();
  EXPECT_GT(bits, 9.0);
  EXPECT_LT(bits, 14.0);
  ToolResult stats = RunTool({"stats", table, "--json"});
  ASSERT_EQ(stats.exit_status, kSuccess) << stats;
  const nlohmann::json stats_json = nlohmann::json::parse(stats.out);
  EXPECT_EQ(stats_json["filters"][0]["layout"], "partitioned");
  // The top-level index and the 10 partitions, each of at least 500 bits
  // (50 keys at 10 bits per key).
  EXPECT_GE(
      stats_json["filters"][0]["bytes"].get<uint64_t>(),
      json["filters"][0]["handle"]["size"].get<uint64_t>() + 10 * (500 / 8));

  // Every bit of the first partition cleared, its checksum made to match:
  // verify finds keys its partition calls absent.
  std::string damaged = out.contents();
  const table_test::TableLayout layout =
      table_test::ReadTableLayout(out.contents());
  const auto top_level =
      table_test::ReadBlockEntries(out.contents(), layout.filter.value());
  ASSERT_EQ(top_level.size(), 10u);
  const BlockHandle partition = table_test::DecodeHandle(top_level[0].second);
  // The line, not the trailer byte that describes it (50 keys at 10 bits per
  // key are one line, in the compact form).
  for (uint64_t i = 0; i + 1 < partition.size(); ++i) {
    damaged[partition.offset() + i] = 0;
  }
  const uint32_t crc =
      crc32c::Value(damaged.data() + partition.offset(), partition.size() + 1);
  EncodeFixed32(&damaged[partition.offset() + partition.size() + 1],
                crc32c::Mask(crc));
  const std::string damaged_table = dir_.File("damaged");
  WriteFile(damaged_table, damaged);
  ToolResult damaged_verify = RunTool({"verify", damaged_table});
  EXPECT_EQ(damaged_verify.exit_status, kDamaged) << damaged_verify;
  EXPECT_THAT(damaged_verify.out, HasSubstr("answers \"absent\""));
}

// The per-block filters of uncompressed 4 KiB blocks holding about 35
// entries each (16-byte keys, 100-byte values) are one line each, in the
// compact form (1-byte trailer): verify checks every key against its filter,
// dump and stats describe the filter block, and a filter whose line is cleared
// is caught.
TEST_F(ToolTest, CompactPerBlockFiltersAreVerifiedAndDescribed) {
  Options options;
  options.filter_policy = NewCacheLocalBloomFilterPolicy(10);
  options.filter_layout = FilterLayout::kPerBlock;
  // Uncompressed, so that each block starts in a 2 KiB range of its own.
  options.compression = CompressionType::kNone;
  StringWritableFile out;
  TableBuilder builder(options, &out);
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE(builder
                    .Add(absl::StrFormat("key%013d", i),
                         std::string(100, static_cast<char>('a' + i % 26)))
                    .ok());
  }
  ASSERT_TRUE(builder.Finish().ok());
  const std::string contents = out.contents();
  const table_test::TableLayout layout = table_test::ReadTableLayout(contents);
  ASSERT_TRUE(layout.filter.has_value());
  // [filters][fixed32 offset of each][fixed32 array offset][base_lg]
  const std::string_view block(contents.data() + layout.filter->offset(),
                               layout.filter->size());
  const uint32_t array_offset = DecodeFixed32(block.data() + block.size() - 5);
  const size_t num_filters = (block.size() - 5 - array_offset) / 4;
  size_t compact = 0;
  uint32_t first_start = 0;
  uint32_t first_limit = 0;
  for (size_t i = 0; i < num_filters; ++i) {
    const uint32_t start = DecodeFixed32(block.data() + array_offset + 4 * i);
    const uint32_t limit =
        i + 1 < num_filters
            ? DecodeFixed32(block.data() + array_offset + 4 * i + 4)
            : array_offset;
    if (limit == start) continue;  // no data block starts in this range
    const CacheLocalBloomView view(block.substr(start, limit - start));
    EXPECT_TRUE(view.compact()) << i;
    if (compact++ == 0) {
      first_start = start;
      first_limit = limit;
    }
  }
  EXPECT_EQ(compact, layout.data.size());
  const std::string table = dir_.File("compact");
  WriteFile(table, contents);

  ToolResult verify = RunTool({"verify", table});
  EXPECT_EQ(verify.exit_status, kSuccess) << verify;
  ToolResult dump = RunTool({"dump", table, "--json"});
  ASSERT_EQ(dump.exit_status, kSuccess) << dump;
  const nlohmann::json json = nlohmann::json::parse(dump.out);
  ASSERT_EQ(json["filters"].size(), 1u);
  EXPECT_EQ(json["filters"][0]["layout"], "per_block");
  EXPECT_EQ(json["filters"][0]["num_filters"], num_filters);
  EXPECT_FALSE(json["filters"][0].contains("problem")) << json["filters"][0];
  ToolResult stats = RunTool({"stats", table, "--json"});
  ASSERT_EQ(stats.exit_status, kSuccess) << stats;
  const nlohmann::json stats_json = nlohmann::json::parse(stats.out);
  ASSERT_EQ(stats_json["filters"].size(), 1u);
  // The filters alone: 10 bits per key and more (each line rounds up to
  // whole bytes and gets the 5 bytes the compact trailer saves), plus the
  // trailer byte: about 11.4.
  const double bits = stats_json["filters"][0]["bits_per_key"].get<double>();
  EXPECT_GT(bits, 10.5);
  EXPECT_LT(bits, 12.5);

  // The first filter's line cleared (its trailer byte kept), the block's
  // checksum made to match: verify finds keys that filter calls absent.
  std::string damaged = contents;
  for (uint32_t i = first_start; i + 1 < first_limit; ++i) {
    damaged[layout.filter->offset() + i] = 0;
  }
  const uint32_t crc = crc32c::Value(damaged.data() + layout.filter->offset(),
                                     layout.filter->size() + 1);
  EncodeFixed32(&damaged[layout.filter->offset() + layout.filter->size() + 1],
                crc32c::Mask(crc));
  const std::string damaged_table = dir_.File("damaged");
  WriteFile(damaged_table, damaged);
  ToolResult damaged_verify = RunTool({"verify", damaged_table});
  EXPECT_EQ(damaged_verify.exit_status, kDamaged) << damaged_verify;
  EXPECT_THAT(damaged_verify.out, HasSubstr("answers \"absent\""));
}

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
