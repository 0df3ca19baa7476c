// The bloomtable tool on a LevelDB database directory that leveldb::DB
// wrote: get, scan (bounds, reverse, limit, --sequence, --json,
// --all_versions), stats, verify and dump take the directory, print what
// the database holds, and give the exit statuses the README states.

#include <leveldb/comparator.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "bloomtable/file.h"
#include "db/log_writer.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/compat/leveldb_database.h"
#include "tests/tool_test_util.h"

namespace bloomtable {
namespace tool_test {
namespace {

using compat_test::CopyDirectory;
using compat_test::DirectoryBytes;
using compat_test::WriteLevelDBDatabase;
using compat_test::WrittenDatabase;

std::string Hex(const std::string& bytes) {
  return absl::BytesToHexString(bytes);
}
// The model's keys and values are printable ASCII without backslashes: the
// escaped form is the bytes themselves.
std::string Text(const std::string& bytes) { return bytes; }

class ToolDatabaseTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    source_ = new TempDir;
    written_ = new WrittenDatabase(
        WriteLevelDBDatabase(source_->File("db"), 9, nullptr, 5000));
  }
  static void TearDownTestSuite() {
    delete written_;
    delete source_;
  }
  void SetUp() override { BLOOMTABLE_REQUIRE_TOOL(); }

  static std::string Db() { return source_->File("db"); }

  // The model's lines as `scan --hex` prints them.
  static std::vector<std::string> ModelLines(bool reverse = false) {
    std::vector<std::string> lines;
    for (const auto& [key, value] : written_->model) {
      lines.push_back(absl::StrCat(Hex(key), "\t", Hex(value)));
    }
    if (reverse) std::reverse(lines.begin(), lines.end());
    return lines;
  }

  static std::vector<std::string> Lines(const std::string& out) {
    std::vector<std::string> lines = absl::StrSplit(out, '\n');
    if (!lines.empty() && lines.back().empty()) lines.pop_back();
    return lines;
  }

  static TempDir* source_;
  static WrittenDatabase* written_;
};

TempDir* ToolDatabaseTest::source_ = nullptr;
WrittenDatabase* ToolDatabaseTest::written_ = nullptr;

TEST_F(ToolDatabaseTest, ScanPrintsTheLiveKeysInOrder) {
  const auto before = DirectoryBytes(Db());
  ToolResult result = RunTool({"scan", Db(), "--hex"});
  ASSERT_EQ(result.exit_status, 0) << result;
  EXPECT_EQ(Lines(result.out), ModelLines());
  result = RunTool({"scan", Db(), "--hex", "--reverse"});
  ASSERT_EQ(result.exit_status, 0) << result;
  EXPECT_EQ(Lines(result.out), ModelLines(true));
  EXPECT_EQ(DirectoryBytes(Db()), before);  // nothing written, no LOCK
}

TEST_F(ToolDatabaseTest, ScanKeepsToBoundsAndLimit) {
  ToolResult result = RunTool(
      {"scan", Db(), "--from", "key01000", "--to", "key01100", "--limit", "5"});
  ASSERT_EQ(result.exit_status, 0) << result;
  std::vector<std::string> expected;
  for (auto it = written_->model.lower_bound("key01000");
       it != written_->model.end() && it->first < "key01100" &&
       expected.size() < 5;
       ++it) {
    expected.push_back(absl::StrCat(Text(it->first), "\t", Text(it->second)));
  }
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(Lines(result.out), expected);
}

TEST_F(ToolDatabaseTest, ScanJsonAndAsOfSequence) {
  ToolResult result = RunTool({"scan", Db(), "--json"});
  ASSERT_EQ(result.exit_status, 0) << result;
  const nlohmann::json document = nlohmann::json::parse(result.out);
  EXPECT_EQ(document["entries"].size(), written_->model.size());
  EXPECT_EQ(document["comparator"], "leveldb.BytewiseComparator");

  // Before the "zz" keys were written, none of them existed.
  result = RunTool({"scan", Db(), "--from", "zz", "--sequence",
                    std::to_string(written_->checkpoint_sequence - 600)});
  ASSERT_EQ(result.exit_status, 0) << result;
  EXPECT_EQ(result.out, "");
  result = RunTool({"scan", Db(), "--from", "zz", "--sequence",
                    std::to_string(written_->checkpoint_sequence)});
  EXPECT_EQ(Lines(result.out).size(), 600u) << result;
}

TEST_F(ToolDatabaseTest, GetPrintsTheNewestValueOrExitsOne) {
  const auto& [key, value] = *written_->model.begin();
  ToolResult result = RunTool({"get", Db(), key});
  ASSERT_EQ(result.exit_status, 0) << result;
  EXPECT_EQ(result.out, absl::StrCat(Text(value), "\n"));
  result = RunTool({"get", Db(), "--hex", Hex(key)});
  EXPECT_EQ(result.out, absl::StrCat(Hex(value), "\n"));
  result = RunTool({"get", Db(), "no-such-key"});
  EXPECT_EQ(result.exit_status, 1) << result;
  EXPECT_NE(result.err.find("no such key"), std::string::npos);
}

TEST_F(ToolDatabaseTest, AllVersionsCarryStatusAndOrigin) {
  ToolResult result = RunTool({"scan", Db(), "--all_versions", "--hex"});
  ASSERT_EQ(result.exit_status, 0) << result;
  std::map<std::string, int> statuses;
  std::vector<std::string> live;
  for (const std::string& line : Lines(result.out)) {
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    ASSERT_EQ(fields.size(), 7u) << line;
    ++statuses[fields[4]];
    if (fields[4] == "live") live.push_back(fields[0] + "\t" + fields[3]);
    EXPECT_TRUE(fields[5].find(".ldb") != std::string::npos ||
                fields[5].find(".log") != std::string::npos)
        << line;
  }
  EXPECT_EQ(live, ModelLines());
  EXPECT_GT(statuses["overwritten"], 0);
  EXPECT_GT(statuses["deleted"], 0);
}

TEST_F(ToolDatabaseTest, StatsDumpAndVerify) {
  ToolResult result = RunTool({"stats", Db(), "--json"});
  ASSERT_EQ(result.exit_status, 0) << result;
  nlohmann::json stats = nlohmann::json::parse(result.out);
  EXPECT_GT(stats["log_records"].get<uint64_t>(), 0u);
  EXPECT_FALSE(stats["levels"].empty());

  result = RunTool({"dump", Db(), "--json"});
  ASSERT_EQ(result.exit_status, 0) << result;
  nlohmann::json dump = nlohmann::json::parse(result.out);
  uint64_t files = 0;
  for (const auto& level : stats["levels"])
    files += level["files"].get<uint64_t>();
  EXPECT_EQ(dump["tables"].size(), files);

  result = RunTool({"verify", Db()});
  ASSERT_EQ(result.exit_status, 0) << result;
  EXPECT_EQ(result.out.find("CORRUPT"), std::string::npos);
  EXPECT_NE(result.out.find(".log: OK"), std::string::npos);
}

TEST_F(ToolDatabaseTest, VerifyNamesTheFirstDamage) {
  TempDir dir;
  const std::string db = dir.File("db");
  CopyDirectory(Db(), db);
  nlohmann::json dump =
      nlohmann::json::parse(RunTool({"dump", db, "--json"}).out);
  const std::string table = dump["tables"][0]["file"];
  std::filesystem::resize_file(db + "/" + table, 100);
  ToolResult result = RunTool({"verify", db});
  EXPECT_EQ(result.exit_status, 3) << result;
  EXPECT_NE(result.out.find(absl::StrCat(table, ": CORRUPT")),
            std::string::npos)
      << result;
  // The lookups that need it fail rather than answer from older files.
  result = RunTool({"scan", db});
  EXPECT_EQ(result.exit_status, 3) << result;
}

TEST_F(ToolDatabaseTest, ADirectoryThatIsNotADatabase) {
  TempDir dir;
  ToolResult result = RunTool({"scan", dir.path()});
  EXPECT_EQ(result.exit_status, 3) << result;
  EXPECT_NE(result.err.find("not a LevelDB database"), std::string::npos);
  result = RunTool({"verify", dir.path()});
  EXPECT_EQ(result.exit_status, 3) << result;
  // Flags of directories only are usage errors on a table file.
  result = RunTool({"scan", dir.File("x.ldb"), "--all_versions"});
  EXPECT_EQ(result.exit_status, 2) << result;
}

// The MANIFEST's file name in `db`.
std::string ManifestOf(const std::string& db) {
  return nlohmann::json::parse(RunTool({"dump", db, "--json"}).out)["manifest"];
}

// A damaged MANIFEST edit: refused as LevelDB refuses it (exit 3, saying
// that salvage reads past it); --salvage reads past it with a warning.
TEST_F(ToolDatabaseTest, SalvageReadsPastADamagedManifestEdit) {
  TempDir dir;
  const std::string db = dir.File("db");
  CopyDirectory(Db(), db);
  const std::string manifest = db + "/" + ManifestOf(db);
  // A record after the last edit whose checksum is right but which is no
  // version edit (tag 99): LevelDB refuses the MANIFEST.
  std::string bytes = ReadFile(manifest);
  StringWritableFile appended;
  LogWriter writer(&appended, bytes.size());
  ASSERT_TRUE(writer.AddRecord(std::string("\x63garbage", 8)).ok());
  WriteFile(manifest, bytes + appended.contents());
  const std::string key = written_->universe.front();
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{
           {"get", db, key}, {"scan", db}, {"stats", db}, {"dump", db}}) {
    SCOPED_TRACE(command[0]);
    ToolResult result = RunTool(command);
    EXPECT_EQ(result.exit_status, 3) << result;
    EXPECT_NE(result.err.find("not a version edit"), std::string::npos)
        << result;
    EXPECT_NE(result.err.find("salvage"), std::string::npos) << result;
    std::vector<std::string> salvaged = command;
    salvaged.push_back("--salvage");
    result = RunTool(salvaged);
    // get and scan say that the answer is partial (exit 6).
    EXPECT_EQ(result.exit_status,
              command[0] == "get" || command[0] == "scan" ? 6 : 0)
        << result;
    EXPECT_NE(result.err.find("salvage skipped"), std::string::npos) << result;
  }
  // verify names the damage, and with --salvage checks the tables too.
  ToolResult result = RunTool({"verify", db});
  EXPECT_EQ(result.exit_status, 3) << result;
  EXPECT_NE(result.out.find("MANIFEST-"), std::string::npos) << result;
  result = RunTool({"verify", db, "--salvage"});
  EXPECT_EQ(result.exit_status, 3) << result;
  EXPECT_NE(result.out.find(".log: OK"), std::string::npos) << result;
  // A table file has no MANIFEST to salvage.
  result = RunTool({"get", dir.File("x.ldb"), "k", "--salvage"});
  EXPECT_EQ(result.exit_status, 2) << result;
}

// A FIFO in place of CURRENT, the MANIFEST, the live log or a table, or
// given as a file: the tool never blocks on it (a watchdog would end the
// test), and says what it is.
bool SaysFifo(const ToolResult& result) {
  constexpr char kFifo[] = "not a regular file (a FIFO)";
  return result.err.find(kFifo) != std::string::npos ||
         result.out.find(kFifo) != std::string::npos;
}

TEST_F(ToolDatabaseTest, FifosNeverBlockTheTool) {
  ::alarm(120);
  TempDir dir;
  auto fifo_in_place_of = [&](const std::string& name) {
    const std::string db = dir.File("db-" + name);
    CopyDirectory(Db(), db);
    std::filesystem::remove(db + "/" + name);
    EXPECT_EQ(::mkfifo((db + "/" + name).c_str(), 0600), 0);
    return db;
  };
  const std::string key = written_->universe.front();
  for (const std::string& name : {std::string("CURRENT"), ManifestOf(Db())}) {
    const std::string db = fifo_in_place_of(name);
    for (const char* subcommand : {"scan", "stats", "dump", "verify"}) {
      ToolResult result = RunTool({subcommand, db});
      EXPECT_EQ(result.exit_status, 4) << subcommand << " " << result;
      EXPECT_TRUE(SaysFifo(result)) << subcommand << " " << result;
    }
  }
  nlohmann::json dump =
      nlohmann::json::parse(RunTool({"dump", Db(), "--json"}).out);
  const std::string log = dump["logs"][0]["file"];
  ToolResult result = RunTool({"scan", fifo_in_place_of(log)});
  EXPECT_EQ(result.exit_status, 0) << result;
  EXPECT_NE(result.err.find("not a regular file (a FIFO)"), std::string::npos)
      << result;
  const std::string table = dump["tables"][0]["file"];
  result = RunTool({"scan", fifo_in_place_of(table)});
  EXPECT_EQ(result.exit_status, 4) << result;
  EXPECT_NE(result.err.find(table), std::string::npos) << result;
  const std::string fifo = dir.File("fifo.ldb");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const char* subcommand : {"dump", "stats", "scan", "verify"}) {
    result = RunTool({subcommand, fifo});
    EXPECT_EQ(result.exit_status, 4) << subcommand << " " << result;
  }
  ::alarm(0);
}

class ReverseOrder final : public leveldb::Comparator {
 public:
  int Compare(const leveldb::Slice& a, const leveldb::Slice& b) const override {
    return b.compare(a);
  }
  const char* Name() const override { return "test.Reverse"; }
  void FindShortestSeparator(std::string*,
                             const leveldb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

TEST(ToolDatabaseComparatorTest, UnknownComparatorIsUnsupportedForGet) {
  BLOOMTABLE_REQUIRE_TOOL();
  TempDir dir;
  ReverseOrder reverse;
  const WrittenDatabase written =
      WriteLevelDBDatabase(dir.File("db"), 3, &reverse, 800);
  ToolResult result = RunTool({"get", dir.File("db"), "key00001"});
  EXPECT_EQ(result.exit_status, 5) << result;
  EXPECT_NE(result.err.find("test.Reverse"), std::string::npos);
  result = RunTool({"scan", dir.File("db"), "--all_versions"});
  ASSERT_EQ(result.exit_status, 0) << result;
  size_t live = 0;
  for (const std::string& line :
       std::vector<std::string>(absl::StrSplit(result.out, '\n'))) {
    if (line.find("\tlive\t") != std::string::npos) ++live;
  }
  EXPECT_EQ(live, written.model.size());
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
