// The bloomtable tool and sidecar filters: index builds them for a table
// file (golden file sidecar.golden, with dump and verify of the result and
// index's usage errors) and for a database directory (incrementally, with
// --json, --prune and a failure per unreadable table); get, scan and verify
// of the directory read them with --filters, and verify reports each
// sidecar as OK, MISSING, STALE or CORRUPT.

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/test_database_writer.h"
#include "tests/tool_test_util.h"

namespace bloomtable {
namespace tool_test {
namespace {

using test_db::TestDatabaseWriter;
using test_db::TestVersion;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

TEST_F(ToolTest, GoldenSidecarOfATableFile) {
  RunGoldenFile("sidecar.golden", dir_);
}

std::string Key(int i) { return absl::StrFormat("key%05d", i); }

class ToolSidecarTest : public ToolTest {
 protected:
  void SetUp() override {
    ToolTest::SetUp();
    db_ = dir_.File("db");
    filters_ = dir_.File("filters");
    std::filesystem::create_directory(db_);
    TestDatabaseWriter writer(db_);
    std::vector<TestVersion> older, newer;
    for (int i = 0; i < 400; i += 2) {
      older.push_back({Key(i), static_cast<uint64_t>(i + 1), false, "old"});
    }
    for (int i = 0; i < 400; i += 5) {
      newer.push_back({Key(i), static_cast<uint64_t>(1000 + i), i % 10 == 0,
                       i % 10 == 0 ? "" : "new"});
    }
    writer.AddTable(1, older);  // 000002.ldb
    writer.AddTable(0, newer);  // 000003.ldb
    writer.Finish();
  }

  std::string Sidecar(int number) const {
    return absl::StrFormat("%s/%06d.ldb.sidecar", filters_, number);
  }

  std::string db_;
  std::string filters_;
};

TEST_F(ToolSidecarTest, IndexBuildsOnePerTableThenKeepsThem) {
  ToolResult result = RunTool({"index", db_, "--into", filters_});
  EXPECT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_EQ(result.err, "");  // no progress bar off a terminal
  EXPECT_THAT(result.out,
              HasSubstr(db_ + ": 2 tables: 2 built, 0 up to date, 0 failed"));
  EXPECT_TRUE(std::filesystem::exists(Sidecar(2)));
  EXPECT_TRUE(std::filesystem::exists(Sidecar(3)));
  result = RunTool({"index", db_, "--into", filters_, "--json"});
  EXPECT_EQ(result.exit_status, kSuccess) << result;
  const nlohmann::json json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["tables"], 2);
  EXPECT_EQ(json["built"], 0);
  EXPECT_EQ(json["up_to_date"], 2);
  EXPECT_EQ(json["source"], db_);
  EXPECT_EQ(json["into"], filters_);
  EXPECT_TRUE(json["failed"].empty());
  EXPECT_TRUE(json["orphaned"].empty());
}

TEST_F(ToolSidecarTest, GetAndScanReadThroughTheSidecars) {
  ASSERT_EQ(RunTool({"index", db_, "--into", filters_,
                     "--range_filter_bits_per_key", "16"})
                .exit_status,
            kSuccess);
  ToolResult result = RunTool({"get", db_, Key(4), "--filters", filters_});
  EXPECT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_EQ(result.out, "old\n");
  EXPECT_THAT(result.err, HasSubstr("sidecar filters: 2 of 2 tables have one"));
  result = RunTool({"get", db_, Key(10), "--filters", filters_});
  EXPECT_EQ(result.exit_status, kKeyNotFound) << result;  // deleted
  result = RunTool({"get", db_, Key(3), "--filters", filters_});
  EXPECT_EQ(result.exit_status, kKeyNotFound) << result;
  EXPECT_THAT(result.err, HasSubstr("answered absent"));
  result = RunTool({"scan", db_, "--from", Key(101), "--to", Key(102),
                    "--filters", filters_});
  EXPECT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_EQ(result.out, "");
  EXPECT_THAT(result.err, HasSubstr("tables left out of the scan"));
  EXPECT_THAT(result.err, Not(HasSubstr(" 0 tables left out")));
  result = RunTool(
      {"scan", db_, "--from", Key(4), "--to", Key(7), "--filters", filters_});
  EXPECT_EQ(result.out, absl::StrCat(Key(4), "\told\n", Key(5), "\tnew\n",
                                     Key(6), "\told\n"));
}

TEST_F(ToolSidecarTest, VerifyReportsEachSidecar) {
  ASSERT_EQ(RunTool({"index", db_, "--into", filters_}).exit_status, kSuccess);
  ToolResult result = RunTool({"verify", db_, "--filters", filters_});
  EXPECT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_THAT(result.out, HasSubstr(Sidecar(2) + ": OK (200 keys)"));
  EXPECT_THAT(result.out, HasSubstr(Sidecar(3) + ": OK (80 keys)"));

  // Stale: table 3's sidecar in table 2's place. Missing: table 3's.
  std::filesystem::copy_file(Sidecar(3), Sidecar(2),
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::rename(Sidecar(3), dir_.File("saved"));
  result = RunTool({"verify", db_, "--filters", filters_});
  EXPECT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_THAT(result.out,
              HasSubstr(Sidecar(2) + ": STALE: it was built for table 3"));
  EXPECT_THAT(result.out, HasSubstr(Sidecar(3) + ": MISSING"));
  result = RunTool({"get", db_, Key(4), "--filters", filters_});
  EXPECT_EQ(result.out, "old\n");
  EXPECT_THAT(result.err, HasSubstr("warning: " + Sidecar(2) +
                                    ": sidecar filter not used (stale"));

  // Damaged: a byte of the filter flipped.
  std::filesystem::rename(dir_.File("saved"), Sidecar(3));
  std::string bytes = ReadFile(Sidecar(3));
  bytes[bytes.size() - 10] ^= 0x01;
  WriteFile(Sidecar(3), bytes);
  result = RunTool({"verify", db_, "--filters", filters_});
  EXPECT_EQ(result.exit_status, kDamaged) << result;
  EXPECT_THAT(result.out,
              HasSubstr(Sidecar(3) + ": CORRUPT at offset 0: sidecar file: "
                                     "checksum mismatch"));
  // The damaged file alone, told by its magic number.
  result = RunTool({"verify", Sidecar(3)});
  EXPECT_EQ(result.exit_status, kDamaged) << result;
  result = RunTool({"dump", Sidecar(3)});
  EXPECT_EQ(result.exit_status, kDamaged) << result;
  EXPECT_THAT(result.err, HasSubstr("checksum mismatch"));
}

TEST_F(ToolSidecarTest, IndexListsAndPrunesOrphans) {
  ASSERT_EQ(RunTool({"index", db_, "--into", filters_}).exit_status, kSuccess);
  std::filesystem::copy_file(Sidecar(2), Sidecar(9));
  ToolResult result = RunTool({"index", db_, "--into", filters_});
  EXPECT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_THAT(result.out, HasSubstr(Sidecar(9) + ": orphaned"));
  EXPECT_TRUE(std::filesystem::exists(Sidecar(9)));
  result = RunTool({"index", db_, "--into", filters_, "--prune"});
  EXPECT_THAT(result.out, HasSubstr(Sidecar(9) + ": pruned"));
  EXPECT_FALSE(std::filesystem::exists(Sidecar(9)));
}

TEST_F(ToolSidecarTest, UnreadableTableFailsOnlyItsSidecar) {
  const std::string table = absl::StrCat(db_, "/000002.ldb");
  std::string bytes = ReadFile(table);
  bytes[50] ^= 0x10;  // a data block
  WriteFile(table, bytes);
  const ToolResult result =
      RunTool({"index", db_, "--into", filters_, "--threads", "2"});
  EXPECT_EQ(result.exit_status, kDamaged) << result;
  EXPECT_THAT(result.out,
              HasSubstr("2 tables: 1 built, 0 up to date, 1 failed"));
  EXPECT_THAT(result.err,
              AllOf(HasSubstr("000002.ldb"), HasSubstr("checksum mismatch")));
  EXPECT_TRUE(std::filesystem::exists(Sidecar(3)));
}

TEST_F(ToolSidecarTest, IndexRefusesADirectoryInsideTheDatabase) {
  const ToolResult result =
      RunTool({"index", db_, "--into", absl::StrCat(db_, "/filters")});
  EXPECT_EQ(result.exit_status, kUsage) << result;
  EXPECT_THAT(result.err, HasSubstr("outside the database directory"));
  EXPECT_FALSE(std::filesystem::exists(absl::StrCat(db_, "/filters")));
}

TEST_F(ToolSidecarTest, HelpListsTheFlags) {
  const ToolResult result = RunTool({"help", "index"});
  EXPECT_EQ(result.exit_status, kSuccess);
  for (const char* flag :
       {"--into", "--policy", "--bits_per_key", "--threads", "--prune",
        "--json", "--prefix_extractor", "--range_filter_bits_per_key"}) {
    EXPECT_THAT(result.out, HasSubstr(absl::StrCat("\n  ", flag, " (default:")))
        << flag;
  }
  for (const char* subcommand : {"get", "scan", "verify"}) {
    EXPECT_THAT(RunTool({"help", subcommand}).out,
                HasSubstr("\n  --filters (default:"))
        << subcommand;
  }
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
