// The tool with --salvage: a database whose log has a damaged byte is read
// whole, each thing salvage repaired or recovered is named on standard
// error, and the exit status says that the answer is partial (6). Without
// --salvage the tool reads as LevelDB does.

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/write_batch.h"
#include "gtest/gtest.h"
#include "tests/log_only_database.h"
#include "tests/tool_test_util.h"

namespace bloomtable {
namespace {

using tool_test::RunTool;
using tool_test::ToolResult;

size_t Lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(ToolSalvage, ADamagedLogIsReadWholeAndTheAnswerIsPartial) {
  BLOOMTABLE_REQUIRE_TOOL();
  TempDir dir;
  test::WriteLogOnlyDatabase(dir.path(), "leveldb.BytewiseComparator", {});
  std::vector<std::string> records;
  for (int i = 0; i < 8; ++i) {
    WriteOp op;
    op.key = absl::StrFormat("k%d", i);
    op.value = "value";
    records.push_back(EncodeWriteBatch(i + 1, {op}));
  }
  test::WriteLogRecords(dir.File("000003.log"), records);
  std::string log = ReadFileToString(dir.File("000003.log")).value();
  log[7 + 15] ^= 0x10;  // in the first record's batch
  tool_test::WriteFile(dir.File("000003.log"), log);

  ToolResult plain = RunTool({"scan", dir.path()});
  EXPECT_EQ(plain.exit_status, 0) << plain.err;
  EXPECT_EQ(Lines(plain.out), 0u);  // LevelDB loses the whole block
  EXPECT_NE(plain.err.find("checksum mismatch"), std::string::npos);

  ToolResult salvaged = RunTool({"scan", dir.path(), "--salvage"});
  EXPECT_EQ(salvaged.exit_status, 6) << salvaged.err;
  EXPECT_EQ(Lines(salvaged.out), 8u);
  EXPECT_NE(salvaged.err.find("000003.log: at offset 0: record recovered"),
            std::string::npos)
      << salvaged.err;
  EXPECT_NE(salvaged.err.find("the answer is partial"), std::string::npos);

  ToolResult versions =
      RunTool({"scan", dir.path(), "--salvage", "--all_versions"});
  EXPECT_EQ(versions.exit_status, 6);
  EXPECT_NE(versions.out.find("\trecovered\t000003.log\t"), std::string::npos)
      << versions.out;
  ToolResult get = RunTool({"get", dir.path(), "k3", "--salvage"});
  EXPECT_EQ(get.exit_status, 6);
  EXPECT_EQ(get.out, "value\n");
}

}  // namespace
}  // namespace bloomtable
