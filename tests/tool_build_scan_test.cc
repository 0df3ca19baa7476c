// bloomtable build and scan: round trips of arbitrary bytes through hex and
// through scan's escaping (whose output build reads back into the identical
// file), input errors naming their line, durable writes that leave nothing
// at OUT on error, and scan ranges against a model.

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

std::map<std::string, std::string> AwkwardEntries(uint32_t seed, int count) {
  std::mt19937 rng(seed);
  std::map<std::string, std::string> entries = {
      {"plain", "value"},          {std::string("nul\0key", 7), ""},
      {"tab\tkey", "line\nbreak"}, {"back\\slash", "cr\r"},
      {"\xff\xfe", "\x80\x7f"},    {"-dash", "x\\x41"},
  };
  while (static_cast<int>(entries.size()) < count) {
    std::string key = RandomBytes(&rng, 12);
    if (key.empty()) continue;
    entries[key] = RandomBytes(&rng, 40);
  }
  return entries;
}

// Lines of `key TAB value` in the given text form.
std::string InputLines(const std::map<std::string, std::string>& entries,
                       bool hex) {
  std::string text;
  for (const auto& [key, value] : entries) {
    absl::StrAppend(&text, hex ? Hex(key) : Escape(key), "\t",
                    hex ? Hex(value) : Escape(value), "\n");
  }
  return text;
}

// The numbered keys most tests use: key000 ... with values value000 ...
// ---------------------------------------------------------------------------
// build, and round trips through scan.

TEST_F(ToolTest, BuildThenScanHexRoundTripsBinaryKeysAndValues) {
  const std::map<std::string, std::string> entries = AwkwardEntries(7, 300);
  const std::string table =
      Build("t", InputLines(entries, /*hex=*/true),
            {"--input_format", "hex", "--block_size", "256"});
  const ToolResult result = RunTool({"scan", table, "--hex"});
  ASSERT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_EQ(result.out, InputLines(entries, /*hex=*/true));
}

TEST_F(ToolTest, ScanEscapesEveryByteAsPromised) {
  const std::map<std::string, std::string> entries = AwkwardEntries(8, 300);
  const std::string table =
      Build("t", InputLines(entries, /*hex=*/true), {"--input_format", "hex"});
  const ToolResult result = RunTool({"scan", table});
  ASSERT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_EQ(result.out, InputLines(entries, /*hex=*/false));
}

TEST_F(ToolTest, ScanOutputBuildsTheIdenticalFile) {
  const std::map<std::string, std::string> entries = AwkwardEntries(9, 500);
  for (const std::vector<std::string>& options :
       std::vector<std::vector<std::string>>{
           {},
           {"--block_size", "100", "--block_restart_interval", "3"},
           {"--compression", "none", "--filter", "none"},
           {"--filter_layout", "whole_table", "--bits_per_key", "14"}}) {
    std::vector<std::string> flags = {"--input_format", "hex"};
    flags.insert(flags.end(), options.begin(), options.end());
    const std::string original =
        Build("original", InputLines(entries, true), flags);
    const ToolResult scan = RunTool({"scan", original});
    ASSERT_EQ(scan.exit_status, kSuccess);
    std::vector<std::string> args = {"build", dir_.File("copy"), "--input",
                                     "-"};
    args.insert(args.end(), options.begin(), options.end());
    ASSERT_EQ(RunTool(args, scan.out).exit_status, kSuccess);
    EXPECT_EQ(ReadFile(dir_.File("copy")), ReadFile(original))
        << absl::StrJoin(options, " ");
  }
}

TEST_F(ToolTest, BuildAcceptsCarriageReturnsAndRawBytes) {
  const std::string table =
      Build("t", "b\t2\r\nc\xc3\xa9\tcaf\xc3\xa9\na\t1");  // no final newline
  const ToolResult result = RunTool({"scan", table});
  EXPECT_EQ(result.out, "a\t1\nb\t2\nc\\xc3\\xa9\tcaf\\xc3\\xa9\n");
}

TEST_F(ToolTest, BuildSortsUnsortedInput) {
  const std::string table = Build("t", "m\t1\nz\t2\na\t3\nb\\x00\t4\nb\t5\n");
  EXPECT_EQ(RunTool({"scan", table}).out,
            "a\t3\nb\t5\nb\\x00\t4\nm\t1\nz\t2\n");
}

TEST_F(ToolTest, DuplicateKeyIsAnErrorNamingBothLines) {
  const std::string input = dir_.File("in");
  WriteFile(input, "a\t1\nb\t2\nc\t3\nb\\x62\t4\nb\t5\n");  // line 2 and 5
  const std::string out = dir_.File("out");
  const ToolResult result = RunTool({"build", out, "--input", input});
  EXPECT_EQ(result.exit_status, kDamaged);
  EXPECT_EQ(result.err, "bloomtable: " + input +
                            ": line 5: duplicate key 'b' (first on line 2)\n");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST_F(ToolTest, MalformedInputLinesAreErrorsNamingTheLine) {
  const std::map<std::string, std::string> bad_inputs = {
      {"a\t1\nno tab here\n", "line 2: no tab"},
      {"a\t1\n\n", "line 2: no tab"},
      {"a\tb\tc\n", "line 1: more than one tab"},
      {"a\t1\nb\\q\t2\n", "line 2: key: bad escape"},
      {"a\t1\nb\t\\x4\n", "line 2: value: bad escape"},
  };
  for (const auto& [input, message] : bad_inputs) {
    const ToolResult result =
        RunTool({"build", dir_.File("out"), "--input", "-"}, input);
    EXPECT_EQ(result.exit_status, kDamaged) << input;
    EXPECT_THAT(result.err, HasSubstr("standard input: " + message)) << input;
  }
  const ToolResult hex = RunTool(
      {"build", dir_.File("out"), "--input", "-", "--input_format", "hex"},
      "6161\t62\n616\t62\n");
  EXPECT_EQ(hex.exit_status, kDamaged);
  EXPECT_THAT(hex.err, HasSubstr("line 2: key: odd number of hex digits"));
  EXPECT_FALSE(std::filesystem::exists(dir_.File("out")));
}

TEST_F(ToolTest, FailedBuildLeavesNothingAtOutAndNoTemporaryFile) {
  const std::string out = dir_.File("out");
  WriteFile(out, "previous contents");
  const ToolResult result =
      RunTool({"build", out, "--input", "-"}, "a\t1\na\t2\n");
  EXPECT_EQ(result.exit_status, kDamaged);
  EXPECT_EQ(ReadFile(out), "previous contents");

  // OUT is a directory: the rename fails after the table was written.
  const std::string out_dir = dir_.File("outdir");
  std::filesystem::create_directory(out_dir);
  const ToolResult into_directory =
      RunTool({"build", out_dir, "--input", "-"}, "a\t1\n");
  EXPECT_EQ(into_directory.exit_status, kIoError);
  EXPECT_TRUE(std::filesystem::is_directory(out_dir));

  // OUT's directory does not exist.
  EXPECT_EQ(RunTool({"build", dir_.File("nodir/out"), "--input", "-"}, "a\t1\n")
                .exit_status,
            kIoError);

  // Missing input.
  EXPECT_EQ(RunTool({"build", dir_.File("out2"), "--input", dir_.File("none")})
                .exit_status,
            kIoError);

  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
    names.push_back(entry.path().filename());
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"out", "outdir"}));
}

TEST_F(ToolTest, BuildReplacesAnExistingOut) {
  const std::string out = dir_.File("out");
  WriteFile(out, "old");
  ASSERT_EQ(RunTool({"build", out, "--input", "-"}, "k\tv\n").exit_status,
            kSuccess);
  EXPECT_EQ(RunTool({"get", out, "k"}).out, "v\n");
}

TEST_F(ToolTest, ZeroBitsPerKeyBuildsNoFilter) {
  const std::string table =
      Build("t", NumberedInput(20), {"--bits_per_key", "0"});
  const nlohmann::json json =
      nlohmann::json::parse(RunTool({"dump", table, "--json"}).out);
  EXPECT_TRUE(json["filters"].empty());
  EXPECT_TRUE(json["metaindex"].empty());
  EXPECT_EQ(ReadFile(table),
            ReadFile(Build("none", NumberedInput(20), {"--filter", "none"})));
}

TEST_F(ToolTest, BuildOptionsShowInDump) {
  const std::string table =
      Build("t", NumberedInput(100),
            {"--compression", "none", "--block_size", "200", "--bits_per_key",
             "20", "--filter_layout", "whole_table"});
  const nlohmann::json json =
      nlohmann::json::parse(RunTool({"dump", table, "--json", "--blocks"}).out);
  for (const nlohmann::json& block : json["data_blocks"]) {
    EXPECT_EQ(block["compression"], "none");
    EXPECT_EQ(block["size"], block["raw_size"]);
    EXPECT_LT(block["raw_size"].get<int>(), 200 + 30);  // one entry past 200
  }
  ASSERT_EQ(json["filters"].size(), 1u);
  EXPECT_EQ(json["filters"][0]["layout"], "whole_table");
  EXPECT_EQ(json["filters"][0]["metaindex_key"],
            "fullfilter.leveldb.BuiltinBloomFilter2");
  EXPECT_EQ(json["filters"][0]["num_filters"], 1);
  EXPECT_EQ(json["filters"][0]["min_probes"], 13);  // floor(20 * 0.69)
  EXPECT_EQ(RunTool({"verify", table}).out, table + ": OK\n");
  EXPECT_EQ(RunTool({"get", table, "key042"}).out, "value042\n");
}

// ---------------------------------------------------------------------------
// scan ranges, against a model.

std::string ModelScan(const std::map<std::string, std::string>& entries,
                      const std::string* from, const std::string* to,
                      int64_t limit, bool reverse) {
  std::vector<std::string> lines;
  for (const auto& [key, value] : entries) {
    if (from != nullptr && key < *from) continue;
    if (to != nullptr && key >= *to) continue;
    lines.push_back(key + "\t" + value + "\n");
  }
  if (reverse) std::reverse(lines.begin(), lines.end());
  if (limit >= 0 && lines.size() > static_cast<size_t>(limit)) {
    lines.resize(static_cast<size_t>(limit));
  }
  return absl::StrJoin(lines, "");
}

TEST_F(ToolTest, ScanRangesMatchAModel) {
  std::map<std::string, std::string> entries;
  for (int i = 0; i < 200; i += 2) {
    entries[absl::StrFormat("key%03d", i)] = absl::StrFormat("value%03d", i);
  }
  std::string input;
  for (const auto& [key, value] : entries)
    absl::StrAppend(&input, key, "\t", value, "\n");
  const std::string table = Build(
      "t", input, {"--block_size", "128", "--block_restart_interval", "4"});

  // Bounds on keys present and absent, before and after everything; unset.
  const std::vector<std::optional<std::string>> froms = {std::nullopt, "a",
                                                         "key100", "key101"};
  const std::vector<std::optional<std::string>> tos = {std::nullopt, "key000",
                                                       "key100", "key199"};
  int cases = 0;
  for (bool reverse : {false, true}) {
    for (int64_t limit : {-1, 7}) {
      for (const std::optional<std::string>& from : froms) {
        for (const std::optional<std::string>& to : tos) {
          std::vector<std::string> args = {"scan", table};
          if (from) args.insert(args.end(), {"--from", *from});
          if (to) args.insert(args.end(), {"--to", *to});
          if (limit >= 0)
            args.insert(args.end(), {"--limit", std::to_string(limit)});
          if (reverse) args.push_back("--reverse");
          const ToolResult result = RunTool(args);
          ASSERT_EQ(result.exit_status, kSuccess) << result;
          EXPECT_EQ(result.out, ModelScan(entries, from ? &*from : nullptr,
                                          to ? &*to : nullptr, limit, reverse))
              << absl::StrJoin(args, " ");
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 64);
}

TEST_F(ToolTest, ScanFromIsInclusiveAndToExclusive) {
  const std::string table = Build("t", NumberedInput(10));
  EXPECT_EQ(RunTool({"scan", table, "--from", "key003", "--to", "key005"}).out,
            "key003\tvalue003\nkey004\tvalue004\n");
  EXPECT_EQ(RunTool({"scan", table, "--from", "key003", "--to", "key005",
                     "--reverse"})
                .out,
            "key004\tvalue004\nkey003\tvalue003\n");
  EXPECT_EQ(RunTool({"scan", table, "--from", "key005", "--to", "key005"}).out,
            "");
  EXPECT_EQ(RunTool({"scan", table, "--limit", "0"}).out, "");
  EXPECT_EQ(RunTool({"scan", table, "--limit", "2", "--reverse"}).out,
            "key009\tvalue009\nkey008\tvalue008\n");
  EXPECT_EQ(RunTool({"scan", table, "--hex", "--from", Hex("key008")}).out,
            Hex("key008") + "\t" + Hex("value008") + "\n" + Hex("key009") +
                "\t" + Hex("value009") + "\n");
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
