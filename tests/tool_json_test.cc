// The bloomtable tool's --json output, parsed back and checked field by
// field against what the file holds (the field names are a contract,
// listed in the README).

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/tool_test_util.h"

namespace bloomtable {
namespace tool_test {
namespace {

using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// ---------------------------------------------------------------------------
// JSON output, parsed back field by field.

TEST_F(ToolTest, DumpJsonFieldsDescribeTheFile) {
  const int kEntries = 200;
  const std::string table =
      Build("t", NumberedInput(kEntries), {"--block_size", "512"});
  const ToolResult result = RunTool({"dump", table, "--json", "--keys"});
  ASSERT_EQ(result.exit_status, kSuccess) << result;
  const nlohmann::json json = nlohmann::json::parse(result.out);

  const uint64_t file_size = std::filesystem::file_size(table);
  EXPECT_EQ(json["file"], table);
  EXPECT_EQ(json["file_size"], file_size);
  EXPECT_EQ(json["footer"]["offset"], file_size - 48);
  EXPECT_EQ(json["footer"]["padding_is_zero"], true);
  EXPECT_EQ(json["index_block"]["offset"],
            json["footer"]["index_handle"]["offset"]);
  EXPECT_EQ(json["index_block"]["size"],
            json["footer"]["index_handle"]["size"]);
  EXPECT_EQ(json["metaindex_block"]["offset"],
            json["footer"]["metaindex_handle"]["offset"]);
  EXPECT_EQ(json["metaindex_block"]["compression"], "none");

  ASSERT_EQ(json["metaindex"].size(), 1u);
  EXPECT_EQ(json["metaindex"][0]["key"]["text"],
            "filter.leveldb.BuiltinBloomFilter2");

  const size_t blocks = json["data"]["blocks"];
  EXPECT_GT(blocks, 3u);
  EXPECT_EQ(json["index"].size(), blocks);
  EXPECT_EQ(json["data_blocks"].size(), blocks);
  EXPECT_EQ(json["data"]["entries"], kEntries);

  uint64_t entries = 0;
  uint64_t expected_offset = 0;
  uint64_t raw_bytes = 0;
  int next_key = 0;
  for (size_t i = 0; i < blocks; ++i) {
    const nlohmann::json& block = json["data_blocks"][i];
    EXPECT_EQ(block["offset"], expected_offset);
    EXPECT_EQ(block["offset"], json["index"][i]["handle"]["offset"]);
    EXPECT_EQ(block["size"], json["index"][i]["handle"]["size"]);
    EXPECT_EQ(block["compression"], "snappy");  // numbered values compress
    EXPECT_LT(block["size"].get<uint64_t>(), block["raw_size"].get<uint64_t>());
    expected_offset += block["size"].get<uint64_t>() + 5;
    raw_bytes += block["raw_size"].get<uint64_t>();
    entries += block["entries"].get<uint64_t>();
    ASSERT_EQ(block["entry_list"].size(), block["entries"]);
    EXPECT_EQ(block["first_key"], block["entry_list"].front()["key"]);
    EXPECT_EQ(block["last_key"], block["entry_list"].back()["key"]);
    for (const nlohmann::json& entry : block["entry_list"]) {
      const std::string key = absl::StrFormat("key%03d", next_key);
      EXPECT_EQ(entry["key"]["text"], key);
      EXPECT_EQ(entry["key"]["hex"], Hex(key));
      EXPECT_EQ(entry["value"]["text"], absl::StrFormat("value%03d", next_key));
      ++next_key;
    }
  }
  EXPECT_EQ(entries, static_cast<uint64_t>(kEntries));
  EXPECT_EQ(json["data"]["raw_bytes"], raw_bytes);

  ASSERT_EQ(json["filters"].size(), 1u);
  const nlohmann::json& filter = json["filters"][0];
  EXPECT_EQ(filter["policy"], "leveldb.BuiltinBloomFilter2");
  EXPECT_EQ(filter["metaindex_key"], "filter.leveldb.BuiltinBloomFilter2");
  EXPECT_EQ(filter["layout"], "per_block");
  EXPECT_EQ(filter["handle"], json["metaindex"][0]["handle"]);
  EXPECT_EQ(filter["keys_covered"], kEntries);
  // One filter per 2 KiB of data-block offsets, up to the last block's start.
  EXPECT_EQ(
      filter["num_filters"],
      json["data_blocks"][blocks - 1]["offset"].get<uint64_t>() / 2048 + 1);
  // 10 bits per key, rounded up to whole bytes per filter: a little above 10.
  EXPECT_GE(filter["bits_per_key"].get<double>(), 10.0);
  EXPECT_LT(filter["bits_per_key"].get<double>(), 11.0);
  EXPECT_EQ(filter["min_probes"], 6);  // floor(10 * 0.69)
  EXPECT_EQ(filter["max_probes"], 6);
  // With k = 6 at 10 bits per key about 1 - e^(-0.6) = 45% of bits are set.
  EXPECT_GT(filter["fraction_bits_set"].get<double>(), 0.35);
  EXPECT_LT(filter["fraction_bits_set"].get<double>(), 0.55);
  // ... and the estimate 0.45^6 is about 0.8%.
  EXPECT_GT(filter["estimated_false_positive_rate"].get<double>(), 0.002);
  EXPECT_LT(filter["estimated_false_positive_rate"].get<double>(), 0.03);
  EXPECT_FALSE(filter.contains("problem"));
  EXPECT_FALSE(json.contains("error"));
}

TEST_F(ToolTest, DumpJsonWithoutBlocksOmitsTheBlockList) {
  const std::string table = Build("t", NumberedInput(10));
  const nlohmann::json json =
      nlohmann::json::parse(RunTool({"dump", table, "--json"}).out);
  EXPECT_FALSE(json.contains("data_blocks"));
  EXPECT_EQ(json["data"]["entries"], 10);
}

TEST_F(ToolTest, StatsJsonFieldsDescribeTheEntries) {
  std::string input;
  for (int i = 0; i < 100; ++i) {
    // Keys of 4 to 13 bytes, values of 0 to 99 bytes.
    absl::StrAppend(&input, std::string(4 + i % 10, 'a' + i % 26),
                    absl::StrFormat("%03d", i), "\t", std::string(i, 'v'),
                    "\n");
  }
  const std::string table = Build("t", input);
  const ToolResult result = RunTool({"stats", table, "--json"});
  ASSERT_EQ(result.exit_status, kSuccess) << result;
  const nlohmann::json json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["file"], table);
  EXPECT_EQ(json["file_size"], std::filesystem::file_size(table));
  EXPECT_EQ(json["entries"], 100);
  EXPECT_GE(json["data_blocks"].get<int>(), 1);
  EXPECT_EQ(json["key_size"]["min"], 7);
  EXPECT_EQ(json["key_size"]["max"], 16);
  EXPECT_EQ(json["key_size"]["total"], 100 * 7 + 10 * 45);
  EXPECT_DOUBLE_EQ(json["key_size"]["mean"].get<double>(), 11.5);
  EXPECT_EQ(json["value_size"]["min"], 0);
  EXPECT_EQ(json["value_size"]["max"], 99);
  EXPECT_EQ(json["value_size"]["p50"], 49);
  EXPECT_EQ(json["value_size"]["p90"], 89);
  EXPECT_EQ(json["value_size"]["p99"], 98);
  EXPECT_EQ(json["value_size"]["total"], 4950);
  // Runs of one letter compress well.
  EXPECT_GT(json["compression_ratio"].get<double>(), 2.0);
  EXPECT_LT(json["stored_data_bytes"].get<uint64_t>(),
            json["raw_data_bytes"].get<uint64_t>());
  EXPECT_GT(json["index_bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(json["index_bytes_per_key"].get<double>(), 0.0);
  ASSERT_EQ(json["filters"].size(), 1u);
  EXPECT_EQ(json["filters"][0]["policy"], "leveldb.BuiltinBloomFilter2");
  EXPECT_EQ(json["filters"][0]["layout"], "per_block");
  EXPECT_GT(json["filters"][0]["bytes_per_key"].get<double>(), 1.25);
  EXPECT_GE(json["filters"][0]["bits_per_key"].get<double>(), 10.0);
}

TEST_F(ToolTest, JsonStaysValidForBytesThatAreNotUTF8) {
  const std::string good = Build("good", NumberedInput(10));
  const nlohmann::json json =
      nlohmann::json::parse(RunTool({"dump", good, "--json"}).out);
  const uint64_t offset = json["metaindex_block"]["offset"];
  const uint64_t size = json["metaindex_block"]["size"];
  ASSERT_EQ(json["metaindex_block"]["compression"], "none");
  std::string bytes = ReadFile(good);
  // Rename the filter's policy in the metaindex to bytes that are not UTF-8.
  std::string metaindex = bytes.substr(offset, size);
  const size_t name = metaindex.find("leveldb.BuiltinBloomFilter2");
  ASSERT_NE(name, std::string::npos);
  metaindex.replace(name, 3, "\xff\xfe\x80");
  RewriteBlock(&bytes, offset, metaindex, 0);
  const std::string odd_path = dir_.File("odd-\xff-name.tbl");
  WriteFile(odd_path, bytes);

  for (const std::string subcommand : {"dump", "stats"}) {
    const ToolResult result = RunTool({subcommand, odd_path, "--json"});
    ASSERT_EQ(result.exit_status, kSuccess) << result;
    const nlohmann::json parsed = nlohmann::json::parse(result.out);
    EXPECT_EQ(parsed["filters"][0]["policy"],
              "\\xff\\xfe\\x80eldb.BuiltinBloomFilter2");
    // The path's invalid byte is replaced by U+FFFD.
    EXPECT_EQ(parsed["file"], dir_.File("odd-\xef\xbf\xbd-name.tbl"));
  }
  // A policy the tool does not know: read without a filter, still sound.
  EXPECT_EQ(RunTool({"verify", odd_path}).exit_status, kSuccess);
  const ToolResult get = RunTool({"get", odd_path, "key003"});
  EXPECT_EQ(get.out, "value003\n");
  EXPECT_THAT(get.err, StartsWith("filter: not used ("));
}

// --jsonl prints what --json does, one part per line as the file is read:
// the document rebuilt from the lines is the --json document.
TEST_F(ToolTest, DumpJsonLinesRebuildTheJsonDocument) {
  const std::string table = Build(
      "t", NumberedInput(300),
      {"--block_size", "512", "--filter", "cache_local_bloom",
       "--filter_layout", "whole_table", "--range_filter_bits_per_key", "12"});
  for (const std::vector<std::string>& flags :
       std::vector<std::vector<std::string>>{{}, {"--blocks"}, {"--keys"}}) {
    std::vector<std::string> json_args = {"dump", table, "--json"};
    std::vector<std::string> lines_args = {"dump", table, "--jsonl"};
    json_args.insert(json_args.end(), flags.begin(), flags.end());
    lines_args.insert(lines_args.end(), flags.begin(), flags.end());
    const ToolResult document = RunTool(json_args);
    const ToolResult lines = RunTool(lines_args);
    ASSERT_EQ(lines.exit_status, kSuccess) << lines;
    const nlohmann::json expected = nlohmann::json::parse(document.out);
    nlohmann::json rebuilt = nlohmann::json::object();
    for (const char* array :
         {"metaindex", "index", "filters", "scan_filters"}) {
      rebuilt[array] = nlohmann::json::array();
    }
    if (!flags.empty()) rebuilt["data_blocks"] = nlohmann::json::array();
    nlohmann::json entries = nlohmann::json::array();
    for (const absl::string_view line :
         absl::StrSplit(lines.out, '\n', absl::SkipEmpty())) {
      nlohmann::json part = nlohmann::json::parse(line);
      const std::string kind = part["kind"];
      part.erase("kind");
      if (kind == "table") {
        rebuilt["file"] = part["file"];
        rebuilt["file_size"] = part["file_size"];
      } else if (kind == "metaindex_entry") {
        rebuilt["metaindex"].push_back(part);
      } else if (kind == "index_entry") {
        rebuilt["index"].push_back(part);
      } else if (kind == "entry") {
        part.erase("block_offset");
        entries.push_back(part);
      } else if (kind == "data_block") {
        if (flags[0] == "--keys") part["entry_list"] = std::move(entries);
        entries = nlohmann::json::array();
        rebuilt["data_blocks"].push_back(part);
      } else if (kind == "filter") {
        rebuilt["filters"].push_back(part);
      } else if (kind == "prefix_filter" || kind == "range_filter") {
        part["kind"] = kind.substr(0, kind.find('_'));
        rebuilt["scan_filters"].push_back(part);
      } else {
        ASSERT_FALSE(rebuilt.contains(kind)) << kind;
        rebuilt[kind] = part;
      }
    }
    EXPECT_EQ(rebuilt, expected)
        << absl::StrJoin(flags, " ") << ": "
        << nlohmann::json::diff(rebuilt, expected).dump();
  }
}

TEST_F(ToolTest, ScanJsonLinesOfATableHoldEveryEntry) {
  const std::string table = Build("t", NumberedInput(50));
  const ToolResult text = RunTool({"scan", table, "--hex", "--from", "6b6579",
                                   "--reverse", "--limit", "20"});
  const ToolResult lines = RunTool({"scan", table, "--jsonl", "--from", "key",
                                    "--reverse", "--limit", "20"});
  ASSERT_EQ(lines.exit_status, kSuccess) << lines;
  std::vector<std::string> from_lines;
  for (const absl::string_view line :
       absl::StrSplit(lines.out, '\n', absl::SkipEmpty())) {
    const nlohmann::json entry = nlohmann::json::parse(line);
    from_lines.push_back(
        absl::StrCat(entry["key"]["hex"].get<std::string>(), "\t",
                     entry["value"]["hex"].get<std::string>()));
  }
  EXPECT_EQ(from_lines, std::vector<std::string>(
                            absl::StrSplit(text.out, '\n', absl::SkipEmpty())));
  EXPECT_EQ(from_lines.size(), 20u);
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
