// Hostile directories for the read-only database view, made by damaging a
// database that leveldb::DB wrote: a torn log tail, tables deleted,
// truncated or with a flipped byte, CURRENT missing or naming a missing
// MANIFEST, a directory that is not a database, an unknown comparator, a
// leftover table. Always a clear status, everything still readable read,
// no crash, and never a wrong or stale value.

#include <leveldb/comparator.h>
#include <leveldb/db.h>
#include <leveldb/iterator.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "bloomtable/db_files.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_database.h"
#include "tests/reverse_comparator.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace compat_test {
namespace {

namespace fs = std::filesystem;

class DatabaseDamageTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    source_ = new TempDir;
    written_ = new WrittenDatabase(
        WriteLevelDBDatabase(source_->File("db"), 42, nullptr, 6000));
  }
  static void TearDownTestSuite() {
    delete written_;
    delete source_;
  }

  // A fresh copy of the database to damage.
  std::string Copy(const std::string& name = "db") {
    const std::string path = dir_.File(name);
    CopyDirectory(source_->File("db"), path);
    return path;
  }

  static std::vector<std::string> FilesOfType(const std::string& dir,
                                              DbFileType type) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      std::optional<DbFileName> parsed = ParseDbFileName(name);
      if (parsed && parsed->type == type) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  // The table files the MANIFEST lists (the directory may hold others).
  static std::vector<std::string> LiveTables() {
    absl::StatusOr<std::unique_ptr<Database>> db =
        Database::OpenReadOnly(source_->File("db"));
    EXPECT_TRUE(db.ok());
    std::vector<std::string> names;
    if (!db.ok()) return names;
    for (const DatabaseTableFile& file : (*db)->tables()) {
      names.push_back(file.name);
    }
    return names;
  }

  // Every key read through the view is right or an error: never another
  // value, never NotFound for a key the database holds unless the read
  // failed. Returns how many reads failed.
  static int CheckNoWrongValue(const Database& db) {
    int errors = 0;
    for (const std::string& key : written_->universe) {
      absl::StatusOr<std::string> got = db.Get(DatabaseReadOptions(), key);
      auto expected = written_->model.find(key);
      if (got.ok()) {
        EXPECT_NE(expected, written_->model.end()) << key;
        if (expected != written_->model.end()) {
          EXPECT_EQ(*got, expected->second) << key;
        }
      } else if (absl::IsNotFound(got.status())) {
        EXPECT_EQ(expected, written_->model.end()) << key;
      } else {
        ++errors;
      }
    }
    return errors;
  }

  // A full scan yields only right entries, in order; returns its status.
  static absl::Status ScanChecked(const Database& db) {
    std::unique_ptr<Iterator> it = db.NewIterator(DatabaseReadOptions());
    std::string previous;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string key(it->key());
      EXPECT_LT(previous, key);
      previous = key;
      auto expected = written_->model.find(key);
      EXPECT_NE(expected, written_->model.end()) << key;
      if (expected != written_->model.end()) {
        EXPECT_EQ(it->value(), expected->second) << key;
      }
    }
    return it->status();
  }

  static void ExpectWhole(const Database& db) {
    EXPECT_EQ(CheckNoWrongValue(db), 0);
    std::unique_ptr<Iterator> it = db.NewIterator(DatabaseReadOptions());
    size_t count = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++count;
    EXPECT_TRUE(it->status().ok()) << it->status();
    EXPECT_EQ(count, written_->model.size());
  }

  static TempDir* source_;
  static WrittenDatabase* written_;
  TempDir dir_;
};

TempDir* DatabaseDamageTest::source_ = nullptr;
WrittenDatabase* DatabaseDamageTest::written_ = nullptr;

TEST_F(DatabaseDamageTest, TornLogTailReadsAsLevelDBRecoversIt) {
  const std::vector<std::string> logs =
      FilesOfType(source_->File("db"), DbFileType::kLog);
  ASSERT_FALSE(logs.empty());
  const std::string log = logs.back();
  const uint64_t size = fs::file_size(source_->File("db") + "/" + log);
  ASSERT_GT(size, 1000u);
  const std::vector<uint64_t> cuts = {
      0, 1, 6, 7, 100, size / 3, size / 2, size - 1, size - 7};
  int n = 0;
  for (uint64_t cut : cuts) {
    const std::string ours = Copy(absl::StrCat("ours", n));
    const std::string theirs = Copy(absl::StrCat("theirs", n));
    ++n;
    fs::resize_file(ours + "/" + log, cut);
    fs::resize_file(theirs + "/" + log, cut);
    absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(ours);
    ASSERT_TRUE(db.ok()) << cut << " " << db.status();
    std::unique_ptr<leveldb::DB> reference = OpenReference(theirs);
    ASSERT_NE(reference, nullptr);
    for (const std::string& key : written_->universe) {
      std::string expected;
      leveldb::Status s =
          reference->Get(leveldb::ReadOptions(), key, &expected);
      absl::StatusOr<std::string> got = (*db)->Get(DatabaseReadOptions(), key);
      if (s.IsNotFound()) {
        EXPECT_TRUE(absl::IsNotFound(got.status()))
            << "cut " << cut << " " << key;
      } else {
        ASSERT_TRUE(got.ok()) << "cut " << cut << " " << got.status();
        EXPECT_EQ(*got, expected) << "cut " << cut << " " << key;
      }
    }
  }
}

TEST_F(DatabaseDamageTest, MissingTableFailsTheLookupsThatNeedIt) {
  const std::vector<std::string> tables = LiveTables();
  ASSERT_GE(tables.size(), 2u);
  for (const std::string& table : {tables.front(), tables.back()}) {
    const std::string dir = Copy(absl::StrCat("missing-", table));
    fs::remove(dir + "/" + table);
    absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(dir);
    ASSERT_TRUE(db.ok()) << db.status();  // reported, not fatal
    EXPECT_FALSE((*db)->warnings().empty());
    EXPECT_GT(CheckNoWrongValue(**db), 0) << table;
    const absl::Status scan = ScanChecked(**db);
    EXPECT_TRUE(absl::IsDataLoss(scan)) << scan;
    EXPECT_NE(scan.message().find(table), std::string_view::npos) << scan;
  }
}

TEST_F(DatabaseDamageTest, TruncatedTableFailsTheLookupsThatNeedIt) {
  const std::vector<std::string> tables = LiveTables();
  for (const std::string& table : {tables.front(), tables.back()}) {
    const std::string dir = Copy(absl::StrCat("short-", table));
    const std::string path = dir + "/" + table;
    fs::resize_file(path, fs::file_size(path) / 2);
    absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(dir);
    ASSERT_TRUE(db.ok()) << db.status();
    EXPECT_GT(CheckNoWrongValue(**db), 0) << table;
    const absl::Status scan = ScanChecked(**db);
    EXPECT_TRUE(absl::IsDataLoss(scan)) << scan;
    EXPECT_NE(scan.message().find("shorter"), std::string_view::npos) << scan;
  }
}

TEST_F(DatabaseDamageTest, FlippedByteInATableIsAnErrorNotAWrongValue) {
  const std::vector<std::string> tables = LiveTables();
  const std::string dir = Copy();
  const std::string path = dir + "/" + tables.back();
  std::string bytes = *ReadFileToString(path);
  for (size_t i = 100; i + 200 < bytes.size(); i += 997) bytes[i] ^= 0x40;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(dir);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_GT(CheckNoWrongValue(**db), 0);
  EXPECT_FALSE(ScanChecked(**db).ok());
}

TEST_F(DatabaseDamageTest, MissingCurrentReadsTheNewestManifest) {
  const std::string dir = Copy();
  fs::remove(dir + "/CURRENT");
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(dir);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_FALSE((*db)->warnings().empty());
  EXPECT_NE((*db)->warnings()[0].find("CURRENT"), std::string::npos);
  ExpectWhole(**db);
}

TEST_F(DatabaseDamageTest, CurrentNamingAMissingManifestReadsTheNewest) {
  const std::string dir = Copy();
  std::ofstream(dir + "/CURRENT", std::ios::trunc) << "MANIFEST-999999\n";
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(dir);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_FALSE((*db)->warnings().empty());
  ExpectWhole(**db);
}

TEST_F(DatabaseDamageTest, NoManifestAtAllIsNotADatabase) {
  const std::string dir = Copy();
  for (const std::string& name : FilesOfType(dir, DbFileType::kManifest)) {
    fs::remove(dir + "/" + name);
  }
  fs::remove(dir + "/CURRENT");
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(dir);
  EXPECT_TRUE(absl::IsNotFound(db.status())) << db.status();

  const std::string empty = dir_.File("empty");
  fs::create_directory(empty);
  EXPECT_TRUE(absl::IsNotFound(Database::OpenReadOnly(empty).status()));
}

TEST_F(DatabaseDamageTest, LeftoverTableIsListedOnlyWhenAsked) {
  const std::string dir = Copy();
  const std::vector<std::string> tables = LiveTables();
  fs::copy_file(dir + "/" + tables.front(), dir + "/999999.ldb");
  // The unfinished output of a compaction LevelDB closed during: not a table.
  fs::copy_file(dir + "/" + tables.front(), dir + "/999998.ldb");
  fs::resize_file(dir + "/999998.ldb", 100);
  DatabaseOptions options;
  absl::StatusOr<std::unique_ptr<Database>> plain =
      Database::OpenReadOnly(dir, options);
  ASSERT_TRUE(plain.ok());
  ExpectWhole(**plain);
  size_t leftovers = 0;
  size_t live = 0;
  auto count = [&](const VersionRecord& record) {
    if (record.status == RecordStatus::kLeftover &&
        record.file == "999999.ldb") {
      ++leftovers;
    }
    if (record.status == RecordStatus::kLive) ++live;
    return true;
  };
  ASSERT_TRUE((*plain)->ListVersions(DatabaseReadOptions(), count).ok());
  EXPECT_EQ(leftovers, 0u);
  EXPECT_EQ(live, written_->model.size());

  options.read_leftovers = true;
  absl::StatusOr<std::unique_ptr<Database>> with =
      Database::OpenReadOnly(dir, options);
  ASSERT_TRUE(with.ok());
  live = 0;
  absl::Status listed = (*with)->ListVersions(DatabaseReadOptions(), count);
  ASSERT_TRUE(listed.ok()) << listed;
  EXPECT_GT(leftovers, 0u);
  EXPECT_EQ(live, written_->model.size());  // leftovers change no status
}

// An open that blocked (a plain open of a FIFO with no writer) would hang
// the test: SIGALRM ends the binary instead; leaving the scope disarms it.
class OpenWatchdog {
 public:
  OpenWatchdog() { ::alarm(60); }
  ~OpenWatchdog() { ::alarm(0); }
};

void ReplaceWithFifo(const std::string& path) {
  ASSERT_TRUE(fs::remove(path)) << path;
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << path;
}

bool NamesAFifo(absl::string_view message, absl::string_view file) {
  return absl::StrContains(message, file) &&
         absl::StrContains(message, "not a regular file (a FIFO)");
}

// A FIFO in place of CURRENT, the MANIFEST, the live log or a table: no
// open blocks. CURRENT and the MANIFEST fail the open, naming the file; a
// log that cannot be read is left out with a warning (as LevelDB leaves out
// a log it cannot open); a table fails the lookups that need it.
TEST_F(DatabaseDamageTest, FifosAreRefusedWithoutBlocking) {
  OpenWatchdog watchdog;
  std::string dir = Copy("fifo-current");
  ReplaceWithFifo(dir + "/CURRENT");
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(dir);
  EXPECT_TRUE(absl::IsFailedPrecondition(db.status())) << db.status();
  EXPECT_TRUE(NamesAFifo(db.status().message(), "CURRENT")) << db.status();

  dir = Copy("fifo-manifest");
  const std::string manifest = FilesOfType(dir, DbFileType::kManifest).back();
  ReplaceWithFifo(dir + "/" + manifest);
  db = Database::OpenReadOnly(dir);
  EXPECT_TRUE(absl::IsFailedPrecondition(db.status())) << db.status();
  EXPECT_TRUE(NamesAFifo(db.status().message(), manifest)) << db.status();

  dir = Copy("fifo-log");
  const std::string log = FilesOfType(dir, DbFileType::kLog).back();
  ReplaceWithFifo(dir + "/" + log);
  db = Database::OpenReadOnly(dir);
  ASSERT_TRUE(db.ok()) << db.status();
  bool warned = false;
  for (const std::string& warning : (*db)->warnings()) {
    warned |= NamesAFifo(warning, log);
  }
  EXPECT_TRUE(warned);

  dir = Copy("fifo-table");
  const std::string table = LiveTables().front();
  ReplaceWithFifo(dir + "/" + table);
  db = Database::OpenReadOnly(dir);
  ASSERT_TRUE(db.ok()) << db.status();
  std::unique_ptr<Iterator> it = (*db)->NewIterator(DatabaseReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
  }
  EXPECT_TRUE(absl::IsFailedPrecondition(it->status())) << it->status();
  EXPECT_TRUE(NamesAFifo(it->status().message(), table)) << it->status();
}

TEST(DatabaseComparatorTest, UnknownComparatorListsButDoesNotLookUp) {
  TempDir dir;
  LevelDBReverseComparator leveldb_reverse;
  const WrittenDatabase written = WriteLevelDBDatabase(
      dir.File("db"), 5, &leveldb_reverse, /*operations=*/4000);

  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.File("db"));
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_FALSE((*db)->ordered());
  EXPECT_EQ((*db)->comparator_name(), "test.Reverse");
  absl::StatusOr<std::string> got =
      (*db)->Get(DatabaseReadOptions(), ModelKey(1));
  EXPECT_TRUE(absl::IsFailedPrecondition(got.status())) << got.status();
  EXPECT_NE(got.status().message().find("test.Reverse"), std::string::npos);
  std::unique_ptr<Iterator> it = (*db)->NewIterator(DatabaseReadOptions());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(absl::IsFailedPrecondition(it->status()));
  std::map<std::string, std::string> live;
  ASSERT_TRUE(
      (*db)
          ->ListVersions(
              DatabaseReadOptions(),
              [&](const VersionRecord& record) {
                if (record.status == RecordStatus::kLive) {
                  EXPECT_TRUE(
                      live.emplace(record.user_key, record.value).second);
                }
                return true;
              })
          .ok());
  EXPECT_EQ(live, written.model);

  // Registered, the comparator orders lookups and scans.
  ReverseComparator reverse;
  DatabaseOptions options;
  options.comparators.push_back(&reverse);
  db = Database::OpenReadOnly(dir.File("db"), options);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_TRUE((*db)->ordered());
  for (const std::string& key : written.universe) {
    got = (*db)->Get(DatabaseReadOptions(), key);
    auto expected = written.model.find(key);
    if (expected == written.model.end()) {
      EXPECT_TRUE(absl::IsNotFound(got.status())) << key;
    } else {
      ASSERT_TRUE(got.ok()) << key << got.status();
      EXPECT_EQ(*got, expected->second);
    }
  }
  it = (*db)->NewIterator(DatabaseReadOptions());
  std::vector<std::pair<std::string, std::string>> scanned;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    scanned.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  ASSERT_TRUE(it->status().ok());
  std::vector<std::pair<std::string, std::string>> expected(
      written.model.rbegin(), written.model.rend());
  EXPECT_EQ(scanned, expected);
}

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
