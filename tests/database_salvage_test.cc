// Database with SalvageOptions: a damaged log region's records are read
// (status recovered), a damaged table block is repaired or skipped, a
// MANIFEST that gives no version makes every file live; each named in
// warnings(), and salvaged() says the answers are partial. Without salvage
// the view reads as LevelDB does. tests/compat/salvage_repair_test.cc holds
// salvage to leveldb::RepairDB on every truncation and flipped byte.

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "gtest/gtest.h"
#include "tests/log_only_database.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

std::string Key(int i) { return absl::StrFormat("key%03d", i); }

// A log-only database whose log holds one batch per key (so that damage in
// one record leaves the others whole).
void WriteDatabase(const std::string& dir) {
  test::WriteLogOnlyDatabase(dir, "leveldb.BytewiseComparator", {});
  std::vector<std::string> records;
  for (int i = 0; i < 10; ++i) {
    WriteOp op;
    op.key = Key(i);
    op.value = absl::StrCat("value ", i, std::string(30, 'v'));
    records.push_back(EncodeWriteBatch(i + 1, {op}));
  }
  test::WriteLogRecords(dir + "/000003.log", records);
}

void FlipByte(const std::string& path, size_t at) {
  std::string bytes = ReadFileToString(path).value();
  bytes[at] ^= 0x5a;
  std::unique_ptr<WritableFile> out = NewWritableFile(path).value();
  ASSERT_TRUE(out->Append(bytes).ok());
  ASSERT_TRUE(out->Close().ok());
}

std::map<std::string, RecordStatus> Statuses(const Database& db) {
  std::map<std::string, RecordStatus> statuses;
  EXPECT_TRUE(db.ListVersions({}, [&statuses](const VersionRecord& r) {
                  statuses[r.user_key] = r.status;
                  return true;
                }).ok());
  return statuses;
}

TEST(DatabaseSalvage, RecordsAfterLogDamageAreRecovered) {
  TempDir dir;
  WriteDatabase(dir.path());
  // A byte of the third record's payload (each record: 7-byte header, a
  // batch of 12 + 1 + 1 + 6 + 1 + 37 bytes).
  FlipByte(dir.File("000003.log"), 2 * 65 + 7 + 30);

  absl::StatusOr<std::unique_ptr<Database>> plain =
      Database::OpenReadOnly(dir.path());
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_TRUE(absl::IsNotFound((*plain)->Get({}, Key(5)).status()));
  EXPECT_FALSE((*plain)->salvaged());

  DatabaseOptions options;
  options.salvage = SalvageOptions::All();
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path(), options);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_TRUE((*db)->salvaged());
  for (int i = 0; i < 10; ++i) {
    absl::StatusOr<std::string> got = (*db)->Get({}, Key(i));
    ASSERT_TRUE(got.ok()) << Key(i) << ": " << got.status();
    EXPECT_TRUE(absl::StartsWith(*got, absl::StrCat("value ", i)));
  }
  const std::map<std::string, RecordStatus> statuses = Statuses(**db);
  EXPECT_EQ(statuses.at(Key(1)), RecordStatus::kLive);
  EXPECT_EQ(statuses.at(Key(2)), RecordStatus::kRecovered);
  EXPECT_EQ(statuses.at(Key(9)), RecordStatus::kRecovered);
  EXPECT_EQ(RecordStatusName(RecordStatus::kRecovered), "recovered");
  bool named = false;
  for (const std::string& warning : (*db)->warnings()) {
    named = named || (absl::StrContains(warning, "000003.log: at offset 130") &&
                      absl::StrContains(warning, "recovered"));
  }
  EXPECT_TRUE(named);
}

TEST(DatabaseSalvage, AManifestThatGivesNoVersionMakesEveryFileLive) {
  TempDir dir;
  WriteDatabase(dir.path());
  std::unique_ptr<WritableFile> out =
      NewWritableFile(dir.File("MANIFEST-000002")).value();
  ASSERT_TRUE(out->Close().ok());  // empty: no version edit
  EXPECT_TRUE(absl::IsDataLoss(Database::OpenReadOnly(dir.path()).status()));
  DatabaseOptions options;
  options.salvage = SalvageOptions::All();
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path(), options);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_TRUE((*db)->salvaged());
  EXPECT_TRUE((*db)->Get({}, Key(7)).ok());
  EXPECT_EQ((*db)->last_sequence(), 10u);
}

TEST(DatabaseSalvage, AnUndamagedDatabaseIsNotSalvaged) {
  TempDir dir;
  WriteDatabase(dir.path());
  DatabaseOptions options;
  options.salvage = SalvageOptions::All();
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path(), options);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_FALSE((*db)->salvaged());
  EXPECT_TRUE((*db)->warnings().empty());
  for (const auto& [key, status] : Statuses(**db)) {
    EXPECT_EQ(status, RecordStatus::kLive) << key;
  }
}

}  // namespace
}  // namespace bloomtable
