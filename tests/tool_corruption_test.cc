// Damaged tables through the bloomtable tool: every truncation and every
// single-byte flip of a small table is reported CORRUPT by verify, and the
// reading subcommands exit cleanly on a sample of them (never a crash, no
// sanitizer report: the sanitizer tree runs its own sanitized binary).

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
// Damaged tables: never a crash, always a clear error. The binary under
// test is the sanitizer build's in that tree.

class ToolCorruptionTest : public ToolTest {
 protected:
  // A small table with several Snappy data blocks, a filter, and every
  // block type, about 1 KiB.
  std::string SmallTable() {
    std::string input;
    for (int i = 0; i < 40; ++i) {
      absl::StrAppend(&input,
                      absl::StrFormat("key%03d\t%s\n", i,
                                      std::string(10 + i % 7, 'a' + i % 5)));
    }
    const std::string table =
        Build("small", input,
              {"--block_size", "128", "--block_restart_interval", "4"});
    EXPECT_EQ(RunTool({"verify", table}).exit_status, kSuccess);
    return ReadFile(table);
  }

  // Writes each variant to its own file; returns the paths.
  std::vector<std::string> WriteVariants(
      const std::string& prefix, const std::vector<std::string>& variants) {
    std::vector<std::string> paths;
    for (size_t i = 0; i < variants.size(); ++i) {
      paths.push_back(dir_.File(absl::StrCat(prefix, i)));
      WriteFile(paths.back(), variants[i]);
    }
    return paths;
  }

  // Every file must be reported CORRUPT by one verify run.
  void ExpectAllCorrupt(const std::vector<std::string>& paths) {
    std::vector<std::string> args = {"verify"};
    args.insert(args.end(), paths.begin(), paths.end());
    const ToolResult result = RunTool(args);
    ASSERT_FALSE(HasSanitizerReport(result)) << result.err;
    EXPECT_EQ(result.signal, 0);
    EXPECT_EQ(result.exit_status, kDamaged);
    const std::vector<std::string> lines =
        absl::StrSplit(result.out, '\n', absl::SkipEmpty());
    ASSERT_EQ(lines.size(), paths.size());
    const std::regex corrupt(".*: CORRUPT at offset [0-9]+: .+");
    for (size_t i = 0; i < paths.size(); ++i) {
      EXPECT_THAT(lines[i], StartsWith(paths[i] + ": CORRUPT at offset "));
      EXPECT_TRUE(std::regex_match(lines[i], corrupt)) << lines[i];
    }
  }

  // Runs `dump --keys --json` (the widest walk) on every file of `dump_at`
  // and every reading subcommand on every file of `all_at`: each must exit
  // cleanly with an allowed status and no sanitizer report. One process per
  // run, so these are samples.
  void ExpectNoCrash(const std::vector<std::string>& paths,
                     const std::vector<size_t>& dump_at,
                     const std::vector<size_t>& all_at) {
    for (size_t i : dump_at) {
      ExpectCleanExit({"dump", paths[i], "--keys", "--json"}, paths[i]);
    }
    for (size_t i : all_at) {
      for (std::vector<std::string> args :
           std::vector<std::vector<std::string>>{{"dump", paths[i], "--keys"},
                                                 {"stats", paths[i], "--json"},
                                                 {"scan", paths[i]},
                                                 {"get", paths[i], "key017"}}) {
        ExpectCleanExit(args, paths[i]);
      }
    }
  }

  void ExpectCleanExit(const std::vector<std::string>& args,
                       const std::string& path) {
    const ToolResult result = RunTool(args);
    ASSERT_FALSE(HasSanitizerReport(result)) << args[0] << " " << result;
    ASSERT_EQ(result.signal, 0) << args[0] << " " << path;
    // Damage that readers may step around (a filter block, which is then
    // unused; the footer's padding, which only verify checks) leaves the
    // reading subcommands successful.
    if (result.exit_status == kDamaged) {
      EXPECT_THAT(result.err, StartsWith("bloomtable: " + path + ": "));
    } else if (args[0] == "get") {
      EXPECT_THAT(result.exit_status, AnyOf(kSuccess, kKeyNotFound))
          << path << "\n"
          << result;
    } else {
      EXPECT_EQ(result.exit_status, kSuccess)
          << absl::StrJoin(args, " ") << "\n"
          << result;
    }
  }

  // Every `stride`-th index below `size`, and every `tail_stride`-th of the
  // last `tail` (the footer and the blocks it points to).
  static std::vector<size_t> Sample(size_t size, size_t stride, size_t tail,
                                    size_t tail_stride) {
    std::vector<size_t> indexes;
    for (size_t i = 0; i + tail < size; i += stride) indexes.push_back(i);
    for (size_t i = size - tail; i < size; i += tail_stride)
      indexes.push_back(i);
    return indexes;
  }
};

TEST_F(ToolCorruptionTest, EveryTruncationIsCorruptAndNeverCrashes) {
  const std::string table = SmallTable();
  ASSERT_GT(table.size(), 500u);
  std::vector<std::string> variants;
  for (size_t length = 0; length < table.size(); ++length) {
    variants.push_back(table.substr(0, length));
  }
  const std::vector<std::string> paths = WriteVariants("truncated", variants);
  ExpectAllCorrupt(paths);
  // Reading subcommands run one process per file: sample, with the
  // interesting end (the footer and index) covered densely.
  ExpectNoCrash(paths, Sample(paths.size(), 19, 60, 5),
                Sample(paths.size(), 97, 60, 20));
}

TEST_F(ToolCorruptionTest, EveryByteFlipIsCorruptAndNeverCrashes) {
  const std::string table = SmallTable();
  std::vector<std::string> variants;
  for (size_t i = 0; i < table.size(); ++i) {
    std::string flipped = table;
    flipped[i] = static_cast<char>(flipped[i] ^ (1 << (i % 8)));
    variants.push_back(flipped);
  }
  const std::vector<std::string> paths = WriteVariants("flipped", variants);
  ExpectAllCorrupt(paths);
  ExpectNoCrash(paths, Sample(paths.size(), 17, 60, 5),
                Sample(paths.size(), 89, 60, 20));
}

TEST_F(ToolCorruptionTest, RandomGarbageIsNotATable) {
  std::mt19937 rng(11);
  std::vector<std::string> variants;
  for (size_t size : {48, 49, 100, 1000}) {
    std::string bytes = RandomBytes(&rng, 0);
    bytes.resize(size);
    for (char& c : bytes) c = static_cast<char>(rng());
    variants.push_back(bytes);
  }
  const std::vector<std::string> paths = WriteVariants("garbage", variants);
  ExpectAllCorrupt(paths);
  ExpectNoCrash(paths, {0, 1, 2, 3}, {0, 1, 2, 3});
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
