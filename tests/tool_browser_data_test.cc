// The tool on the directories a new user opens first: a Chromium
// IndexedDB database (--comparator), Chrome Local Storage
// (--local_storage), and the small mistakes that deserve a clear message:
// a KEY in the escaped form scan prints, an empty directory, a Bedrock
// world's root, a log or MANIFEST given to scan, a database's own table
// scanned without --internal_keys.

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/log_only_database.h"
#include "tests/tool_test_util.h"

namespace bloomtable {
namespace {

using tool_test::RunTool;
using tool_test::ToolResult;

const std::string kIndexedDB =
    absl::StrCat(BLOOMTABLE_TEST_DATA_DIR, "/indexeddb/chromium_idb");

size_t Lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// A Local Storage database as Chrome writes it: an item with a Latin-1
// value, one with UTF-16LE key and value, the origin's metadata, VERSION.
class LocalStorageTest : public testing::Test {
 protected:
  void SetUp() override {
    // "h\u00e9" in UTF-16LE: 68 00 e9 00; U+1F600 as a surrogate pair.
    test::WriteLogOnlyDatabase(
        dir_.path(), "leveldb.BytewiseComparator",
        {{"VERSION", "1"},
         {std::string("META:file://"), std::string("\x08\x01\x10\x05", 4)},
         {std::string("_file://\0\x01message", 17), "\x01hello\xe9"},
         {std::string("_file://\0\x00h\x00\xe9\x00", 14),
          std::string("\x00\x3d\xd8\x00\xde", 5)}});
  }
  TempDir dir_;
};

TEST_F(LocalStorageTest, GetTakesTheKeyInTheEscapedFormScanPrints) {
  BLOOMTABLE_REQUIRE_TOOL();
  ToolResult scan = RunTool({"scan", dir_.path()});
  ASSERT_EQ(scan.exit_status, 0) << scan.err;
  EXPECT_NE(scan.out.find("_file://\\x00\\x01message\t\\x01hello\\xe9\n"),
            std::string::npos)
      << scan.out;
  ToolResult get = RunTool({"get", dir_.path(), "_file://\\x00\\x01message"});
  EXPECT_EQ(get.exit_status, 0) << get.err;
  EXPECT_EQ(get.out, "\\x01hello\\xe9\n");
  // A backslash not followed by an escape is a usage error, not a lookup.
  ToolResult bad = RunTool({"get", dir_.path(), "a\\q"});
  EXPECT_EQ(bad.exit_status, 2) << bad.err;
}

TEST_F(LocalStorageTest, ScanDecodesItemsAsText) {
  BLOOMTABLE_REQUIRE_TOOL();
  ToolResult scan = RunTool({"scan", dir_.path(), "--local_storage"});
  ASSERT_EQ(scan.exit_status, 0) << scan.err;
  EXPECT_EQ(scan.out,
            "META:file://\t\\x08\\x01\\x10\\x05\n"
            "VERSION\t1\n"
            "file://\th\xc3\xa9\t\xf0\x9f\x98\x80\n"
            "file://\tmessage\thello\xc3\xa9\n");
  ToolResult get = RunTool(
      {"get", dir_.path(), "_file://\\x00\\x01message", "--local_storage"});
  EXPECT_EQ(get.exit_status, 0) << get.err;
  EXPECT_EQ(get.out, "hello\xc3\xa9\n");
}

TEST_F(LocalStorageTest, JsonEntriesGetALocalStorageField) {
  BLOOMTABLE_REQUIRE_TOOL();
  ToolResult scan = RunTool({"scan", dir_.path(), "--local_storage", "--json"});
  ASSERT_EQ(scan.exit_status, 0) << scan.err;
  const nlohmann::json doc = nlohmann::json::parse(scan.out);
  const nlohmann::json& entries = doc.at("entries");
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].at("local_storage"),
            nlohmann::json({{"kind", "meta"}, {"origin", "file://"}}));
  EXPECT_EQ(entries[1].at("local_storage"),
            nlohmann::json({{"kind", "version"}}));
  EXPECT_EQ(entries[3].at("local_storage"),
            nlohmann::json({{"kind", "item"},
                            {"origin", "file://"},
                            {"key", "message"},
                            {"value", "hello\xc3\xa9"}}));
  // The raw bytes stay beside the decoded text.
  EXPECT_EQ(entries[3].at("value").at("hex"), "0168656c6c6fe9");
}

TEST_F(LocalStorageTest, LocalStorageAppliesToDirectoriesOnly) {
  BLOOMTABLE_REQUIRE_TOOL();
  ToolResult scan =
      RunTool({"scan", dir_.path() + "/000003.log", "--local_storage"});
  EXPECT_EQ(scan.exit_status, 2);
  ToolResult hex = RunTool({"scan", dir_.path(), "--local_storage", "--hex"});
  EXPECT_EQ(hex.exit_status, 2);
}

TEST(ToolIndexedDB, ScansAndGetsInChromiumsOrder) {
  BLOOMTABLE_REQUIRE_TOOL();
  ToolResult scan = RunTool({"scan", kIndexedDB});
  ASSERT_EQ(scan.exit_status, 0) << scan.err;
  EXPECT_GT(Lines(scan.out), 1000u);
  // The first line: global metadata, the schema version.
  EXPECT_EQ(scan.out.substr(0, scan.out.find('\n')),
            "\\x00\\x00\\x00\\x00\\x00\t\\x05");
  ToolResult get = RunTool({"get", kIndexedDB, "\\x00\\x00\\x00\\x00\\x00"});
  EXPECT_EQ(get.exit_status, 0) << get.err;
  EXPECT_EQ(get.out, "\\x05\n");
  ToolResult named =
      RunTool({"scan", kIndexedDB, "--comparator", "idb_cmp1", "--limit", "1"});
  EXPECT_EQ(named.exit_status, 0) << named.err;
}

TEST(ToolIndexedDB, AComparatorOfAnotherNameIsRefused) {
  BLOOMTABLE_REQUIRE_TOOL();
  ToolResult wrong = RunTool(
      {"scan", kIndexedDB, "--comparator", "leveldb.BytewiseComparator"});
  EXPECT_EQ(wrong.exit_status, 3);
  EXPECT_NE(wrong.err.find("the database's comparator is 'idb_cmp1', not "
                           "'leveldb.BytewiseComparator'"),
            std::string::npos)
      << wrong.err;
  ToolResult unknown =
      RunTool({"get", kIndexedDB, "k", "--comparator", "nosuch"});
  EXPECT_EQ(unknown.exit_status, 3);
  EXPECT_NE(unknown.err.find("not a built-in comparator"), std::string::npos)
      << unknown.err;
  // A key that is no IndexedDB key: a clear error, not "no such key".
  ToolResult plain = RunTool({"get", kIndexedDB, "plain"});
  EXPECT_EQ(plain.exit_status, 3);
  EXPECT_NE(plain.err.find("not valid for the database's comparator"),
            std::string::npos)
      << plain.err;
}

TEST(ToolFrictions, AnEmptyDirectoryGetsOneMessage) {
  BLOOMTABLE_REQUIRE_TOOL();
  TempDir dir;
  ToolResult scan = RunTool({"scan", dir.path()});
  EXPECT_EQ(scan.exit_status, 3);
  EXPECT_EQ(scan.err,
            absl::StrCat("bloomtable: ", dir.path(),
                         ": no CURRENT and no MANIFEST-* file: not a LevelDB "
                         "database\n"));
}

TEST(ToolFrictions, ABedrockWorldsRootPointsAtDb) {
  BLOOMTABLE_REQUIRE_TOOL();
  TempDir world;
  tool_test::WriteFile(world.File("level.dat"), "not a database");
  std::filesystem::create_directory(world.File("db"));
  test::WriteLogOnlyDatabase(world.File("db"), "leveldb.BytewiseComparator",
                             {{"k", "v"}});
  ToolResult scan = RunTool({"scan", world.path()});
  EXPECT_EQ(scan.exit_status, 3);
  EXPECT_EQ(scan.err,
            absl::StrCat("bloomtable: ", world.path(),
                         ": no CURRENT and no MANIFEST-* file: not a LevelDB "
                         "database; the database is in db/ (a Minecraft "
                         "Bedrock world): open ",
                         world.File("db"), "\n"));
  ToolResult inner = RunTool({"scan", world.File("db")});
  EXPECT_EQ(inner.exit_status, 0) << inner.err;
  EXPECT_EQ(inner.out, "k\tv\n");
}

TEST(ToolFrictions, ScanOfALogOrManifestPointsAtDump) {
  BLOOMTABLE_REQUIRE_TOOL();
  TempDir dir;
  test::WriteLogOnlyDatabase(dir.path(), "leveldb.BytewiseComparator",
                             {{"k", "v"}});
  for (const char* name : {"000003.log", "MANIFEST-000002"}) {
    const std::string path = dir.File(name);
    ToolResult scan = RunTool({"scan", path});
    EXPECT_EQ(scan.exit_status, 3) << name;
    EXPECT_NE(scan.err.find(absl::StrCat("'bloomtable dump ", path,
                                         "' lists its records")),
              std::string::npos)
        << scan.err;
    EXPECT_EQ(Lines(scan.err), 1u) << scan.err;
  }
}

TEST(ToolFrictions, ScanOfADatabasesOwnTableHintsAtInternalKeys) {
  BLOOMTABLE_REQUIRE_TOOL();
  const std::string table = kIndexedDB + "/000005.ldb";
  ToolResult scan = RunTool({"scan", table, "--limit", "1"});
  EXPECT_EQ(scan.exit_status, 0) << scan.err;
  EXPECT_NE(scan.err.find("--internal_keys"), std::string::npos) << scan.err;
  ToolResult internal =
      RunTool({"scan", table, "--limit", "1", "--internal_keys"});
  EXPECT_EQ(internal.exit_status, 0) << internal.err;
  EXPECT_EQ(internal.err.find("--internal_keys"), std::string::npos)
      << internal.err;
}

}  // namespace
}  // namespace bloomtable
