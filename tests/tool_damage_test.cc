// What the bloomtable tool says about a damaged table: every subcommand words
// the same damage the same way ("corrupt at offset N: KIND block (size S):
// what") and reports the first failure in the order every reader follows
// (footer, metaindex, filter, index, data); `dump` and `stats` still show the
// footer, and with --json a document with an `error` field, when the
// metaindex or index cannot be read.

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/tool_test_util.h"

namespace bloomtable {
namespace tool_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

struct Where {
  uint64_t offset = 0;
  uint64_t size = 0;
};

class ToolDamageTest : public ToolTest {
 protected:
  void SetUp() override {
    ToolTest::SetUp();
    if (IsSkipped()) return;
    good_ = Build("good", NumberedInput(60), {"--block_size", "256"});
    const ToolResult dump = RunTool({"dump", good_, "--json"});
    ASSERT_EQ(dump.exit_status, kSuccess) << dump;
    const nlohmann::json json = nlohmann::json::parse(dump.out);
    metaindex_ = BlockAt(json["metaindex_block"]);
    index_ = BlockAt(json["index_block"]);
    filter_ = BlockAt(json["filters"][0]["handle"]);
    data_ = BlockAt(json["index"][1]["handle"]);
    bytes_ = ReadFile(good_);
  }

  static Where BlockAt(const nlohmann::json& handle) {
    return Where{handle["offset"].get<uint64_t>(),
                 handle["size"].get<uint64_t>()};
  }

  // Flips a bit inside each of `blocks`: their checksums no longer match.
  std::string Damage(const std::vector<Where>& blocks) {
    std::string bytes = bytes_;
    for (const Where& block : blocks) bytes[block.offset + 1] ^= 0x04;
    const std::string path = dir_.File(absl::StrCat("bad", ++files_));
    WriteFile(path, bytes);
    return path;
  }

  static std::string ChecksumMismatch(const std::string& kind,
                                      const Where& block) {
    return absl::StrCat("corrupt at offset ", block.offset, ": ", kind,
                        " block (size ", block.size, "): checksum mismatch");
  }

  // Every subcommand that reads the file reports `expected` (verify on its
  // line, the others on standard error), exit status 3. Without
  // `readers_too`, scan and get (which read a table with a damaged filter
  // without it) are not asked.
  void ExpectEveryCommandSays(const std::string& path,
                              const std::string& expected,
                              bool readers_too = true) {
    const ToolResult verify = RunTool({"verify", path});
    EXPECT_EQ(verify.exit_status, kDamaged) << verify;
    EXPECT_EQ(verify.out, absl::StrCat(path, ": CORRUPT at offset ",
                                       expected.substr(18), "\n"));
    std::vector<std::vector<std::string>> commands = {
        {"dump", path},
        {"dump", path, "--json"},
        {"stats", path},
        {"stats", path, "--json"}};
    if (readers_too) {
      commands.push_back({"scan", path});
      commands.push_back({"get", path, "key030"});
    }
    for (const std::vector<std::string>& command : commands) {
      const ToolResult result = RunTool(command);
      EXPECT_EQ(result.exit_status, kDamaged) << command[0] << "\n" << result;
      EXPECT_THAT(result.err, HasSubstr(absl::StrCat("bloomtable: ", path, ": ",
                                                     expected, "\n")))
          << command[0];
    }
  }

  std::string good_;
  std::string bytes_;
  Where metaindex_, index_, filter_, data_;
  int files_ = 0;
};

TEST_F(ToolDamageTest, MetaindexDamageIsWordedAlikeByEveryCommand) {
  ExpectEveryCommandSays(Damage({metaindex_}),
                         ChecksumMismatch("metaindex", metaindex_));
}

TEST_F(ToolDamageTest, IndexDamageIsWordedAlikeByEveryCommand) {
  ExpectEveryCommandSays(Damage({index_}), ChecksumMismatch("index", index_));
}

TEST_F(ToolDamageTest, DataBlockDamageIsWordedAlikeByEveryCommand) {
  ExpectEveryCommandSays(Damage({data_}), ChecksumMismatch("data", data_));
}

TEST_F(ToolDamageTest, FilterDamageIsWordedAlikeAndGetSaysWhyItIsUnused) {
  const std::string bad = Damage({filter_});
  ExpectEveryCommandSays(bad, ChecksumMismatch("filter", filter_),
                         /*readers_too=*/false);
  // scan and get read a table with a damaged filter without it.
  EXPECT_EQ(RunTool({"scan", bad}).exit_status, kSuccess);
  const ToolResult get = RunTool({"get", bad, "key030"});
  EXPECT_EQ(get.exit_status, kSuccess) << get;
  EXPECT_EQ(get.out, "value030\n");
  EXPECT_THAT(get.err, StartsWith(absl::StrCat(
                           "filter: not used (",
                           ChecksumMismatch("filter", filter_), ")")));
}

TEST_F(ToolDamageTest, TheFirstFailureInReadingOrderIsReported) {
  // The metaindex is read before the index, the index before data blocks.
  ExpectEveryCommandSays(Damage({index_, metaindex_}),
                         ChecksumMismatch("metaindex", metaindex_));
  ExpectEveryCommandSays(Damage({data_, index_}),
                         ChecksumMismatch("index", index_));
  // The filter before the index, for the commands that check the filter.
  ExpectEveryCommandSays(Damage({index_, filter_}),
                         ChecksumMismatch("filter", filter_),
                         /*readers_too=*/false);
}

TEST_F(ToolDamageTest, DamageInsideADataBlockIsWordedAlike) {
  // A valid checksum over a restart array that points past the entries.
  std::string bytes = bytes_;
  std::string contents = bytes.substr(data_.offset, data_.size);
  contents[contents.size() - 8] = '\x7f';  // the last restart offset
  RewriteBlock(&bytes, data_.offset, contents, 0);
  const std::string bad = dir_.File("bad_entry");
  WriteFile(bad, bytes);
  const ToolResult verify = RunTool({"verify", bad});
  ASSERT_EQ(verify.exit_status, kDamaged) << verify;
  const std::string head = absl::StrCat(bad, ": CORRUPT at offset ");
  ASSERT_THAT(verify.out,
              StartsWith(absl::StrCat(head, data_.offset, ": data block (size ",
                                      data_.size, "): ")));
  // "corrupt at offset N: data block (size S): what", as verify words it.
  const std::string expected = absl::StrCat(
      "corrupt at offset ",
      verify.out.substr(head.size(), verify.out.size() - head.size() - 1));
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{
           {"scan", bad}, {"dump", bad}, {"stats", bad}}) {
    const ToolResult result = RunTool(command);
    EXPECT_EQ(result.exit_status, kDamaged) << result;
    EXPECT_EQ(result.err,
              absl::StrCat("bloomtable: ", bad, ": ", expected, "\n"))
        << command[0];
  }
}

TEST_F(ToolDamageTest, DumpShowsTheFooterWhenTheMetaindexCannotBeRead) {
  const std::string bad = Damage({metaindex_});
  const ToolResult text = RunTool({"dump", bad});
  EXPECT_EQ(text.exit_status, kDamaged);
  EXPECT_THAT(text.out, HasSubstr("footer: offset "));
  EXPECT_THAT(text.out, HasSubstr(absl::StrCat("  metaindex handle: offset ",
                                               metaindex_.offset, ", size ",
                                               metaindex_.size, "\n")));
  EXPECT_THAT(text.out, ::testing::Not(HasSubstr("metaindex block:")));

  const ToolResult json_result = RunTool({"dump", bad, "--json"});
  EXPECT_EQ(json_result.exit_status, kDamaged);
  const nlohmann::json json = nlohmann::json::parse(json_result.out);
  EXPECT_EQ(json["footer"]["metaindex_handle"]["offset"], metaindex_.offset);
  EXPECT_EQ(json["error"]["offset"], metaindex_.offset);
  EXPECT_EQ(json["error"]["message"],
            absl::StrCat("metaindex block (size ", metaindex_.size,
                         "): checksum mismatch"));
  EXPECT_FALSE(json.contains("metaindex"));
}

TEST_F(ToolDamageTest, DumpShowsTheMetaindexWhenTheIndexCannotBeRead) {
  const std::string bad = Damage({index_});
  const ToolResult text = RunTool({"dump", bad});
  EXPECT_EQ(text.exit_status, kDamaged);
  EXPECT_THAT(text.out, HasSubstr("\nmetaindex block: "));
  EXPECT_THAT(text.out, ::testing::Not(HasSubstr("\nindex block: ")));
  const nlohmann::json json =
      nlohmann::json::parse(RunTool({"dump", bad, "--json"}).out);
  EXPECT_EQ(json["metaindex"].size(), 1u);
  EXPECT_FALSE(json.contains("index"));
  EXPECT_EQ(json["error"]["offset"], index_.offset);
}

TEST_F(ToolDamageTest, StatsShowsTheFooterAndTheError) {
  const std::string bad = Damage({index_});
  const ToolResult text = RunTool({"stats", bad});
  EXPECT_EQ(text.exit_status, kDamaged);
  EXPECT_THAT(text.out,
              HasSubstr(absl::StrCat("index handle: offset ", index_.offset,
                                     ", size ", index_.size)));
  const ToolResult json_result = RunTool({"stats", bad, "--json"});
  EXPECT_EQ(json_result.exit_status, kDamaged);
  const nlohmann::json json = nlohmann::json::parse(json_result.out);
  EXPECT_EQ(json["file"], bad);
  EXPECT_EQ(json["footer"]["index_handle"]["offset"], index_.offset);
  EXPECT_EQ(json["error"]["offset"], index_.offset);
  EXPECT_FALSE(json.contains("entries"));
}

TEST_F(ToolDamageTest, JsonOfAFileWithoutAFooterIsADocumentWithAnError) {
  const std::string text_file = dir_.File("text");
  WriteFile(text_file, std::string(100, 'x'));
  for (const std::string subcommand : {"dump", "stats"}) {
    const ToolResult result = RunTool({subcommand, text_file, "--json"});
    EXPECT_EQ(result.exit_status, kDamaged);
    const nlohmann::json json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json["file"], text_file);
    EXPECT_EQ(json["error"]["offset"], 52);
    EXPECT_THAT(json["error"]["message"].get<std::string>(),
                StartsWith("not a table: bad magic number"));
  }
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
