// ReadManifest and ReadVersion over MANIFESTs and directories written with
// the library's own LogWriter (the real LevelDB's are read in
// tests/compat/leveldb_log_manifest_test.cc).

#include "bloomtable/db_version.h"

#include <cerrno>
#include <string>
#include <vector>

#include "bloomtable/db_files.h"
#include "bloomtable/file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "table/internal_key.h"
#include "tests/log_test_util.h"
#include "tests/temp_dir.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string IKey(const std::string& user_key, uint64_t sequence) {
  std::string key;
  AppendInternalKey(&key, user_key, sequence, ValueType::kValue);
  return key;
}

VersionEdit::NewFile File(int level, uint64_t number) {
  VersionEdit::NewFile added;
  added.level = level;
  added.file.number = number;
  added.file.size = number * 100;
  added.file.smallest = IKey("a" + std::to_string(number), 1);
  added.file.largest = IKey("z" + std::to_string(number), 2);
  return added;
}

std::string Encode(const VersionEdit& edit) {
  std::string record;
  edit.EncodeTo(&record);
  return record;
}

// A MANIFEST of three edits: the base, a flush, a compaction.
std::vector<std::string> ThreeEdits() {
  VersionEdit base;
  base.comparator = "leveldb.BytewiseComparator";
  base.log_number = 3;
  base.next_file_number = 4;
  base.last_sequence = 0;
  base.new_files.push_back(File(0, 2));
  VersionEdit flush;
  flush.log_number = 6;
  flush.prev_log_number = 0;
  flush.next_file_number = 8;
  flush.last_sequence = 50;
  flush.new_files.push_back(File(0, 5));
  VersionEdit compaction;
  compaction.deleted_files.push_back({0, 2});
  compaction.deleted_files.push_back({0, 5});
  compaction.deleted_files.push_back({0, 99});  // not there: ignored
  compaction.new_files.push_back(File(1, 7));
  compaction.compaction_pointers.push_back({0, IKey("z5", 2)});
  compaction.next_file_number = 9;
  return {Encode(base), Encode(flush), Encode(compaction)};
}

absl::StatusOr<ManifestContents> ReadManifestBytes(const std::string& bytes) {
  std::unique_ptr<RandomAccessFile> file =
      NewMemoryRandomAccessFile(bytes, "MANIFEST-000009");
  return ReadManifest(*file, bytes.size());
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::unique_ptr<WritableFile> file = NewWritableFile(path).value();
  ASSERT_TRUE(file->Append(bytes).ok());
  ASSERT_TRUE(file->Close().ok());
}

TEST(ReadManifest, AppliesEditsInOrder) {
  absl::StatusOr<ManifestContents> contents =
      ReadManifestBytes(WriteLogBytes(ThreeEdits()));
  ASSERT_TRUE(contents.ok()) << contents.status();
  EXPECT_TRUE(contents->version_status.ok()) << contents->version_status;
  ASSERT_EQ(contents->edits.size(), 3u);
  EXPECT_EQ(contents->edits[0].offset, 0u);
  EXPECT_TRUE(contents->damage.empty());
  const DbVersion& version = contents->version;
  EXPECT_EQ(version.comparator, "leveldb.BytewiseComparator");
  EXPECT_EQ(version.log_number, 6u);
  EXPECT_EQ(version.next_file_number, 9u);
  EXPECT_EQ(version.last_sequence, 50u);
  EXPECT_TRUE(version.files[0].empty());
  ASSERT_EQ(version.files[1].size(), 1u);
  EXPECT_EQ(version.files[1][0], File(1, 7).file);
  EXPECT_EQ(version.compaction_pointers[0], IKey("z5", 2));
}

TEST(ReadManifest, FileAddedAgainAfterDeletionIsLive) {
  VersionEdit base;
  base.log_number = 1;
  base.next_file_number = 2;
  base.last_sequence = 3;
  base.new_files.push_back(File(2, 10));
  VersionEdit both;  // deletes and re-adds in one edit: the add wins
  both.deleted_files.push_back({2, 10});
  both.new_files.push_back(File(2, 10));
  absl::StatusOr<ManifestContents> contents =
      ReadManifestBytes(WriteLogBytes({Encode(base), Encode(both)}));
  ASSERT_TRUE(contents.ok());
  ASSERT_EQ(contents->version.files[2].size(), 1u);
}

TEST(ReadManifest, DamagedRecordIsListedAndSkipped) {
  std::vector<std::string> edits = ThreeEdits();
  std::string bytes = WriteLogBytes(edits);
  // Flip a byte of the third record: its checksum fails, the rest of the
  // block (the record itself) is damage.
  const size_t third = bytes.size() - edits[2].size();
  bytes[third] ^= 0x40;
  absl::StatusOr<ManifestContents> contents = ReadManifestBytes(bytes);
  ASSERT_TRUE(contents.ok());
  EXPECT_EQ(contents->edits.size(), 2u);
  ASSERT_EQ(contents->damage.size(), 1u);
  EXPECT_EQ(contents->damage[0].reason, "checksum mismatch");
  // Without the compaction, files 2 and 5 are live on level 0.
  EXPECT_EQ(contents->version.files[0].size(), 2u);
  // LevelDB's recovery refuses the MANIFEST: the status says where.
  EXPECT_TRUE(contents->damage[0].leveldb_reports);
  EXPECT_TRUE(absl::IsDataLoss(contents->leveldb_status));
  EXPECT_THAT(std::string(contents->leveldb_status.message()),
              HasSubstr("MANIFEST-000009: corrupt at offset " +
                        std::to_string(third - 7) +  // its header's
                        ": checksum mismatch"));
}

TEST(ReadManifest, TornTailIsNotRefused) {
  std::string bytes = WriteLogBytes(ThreeEdits());
  bytes.resize(bytes.size() - 3);
  absl::StatusOr<ManifestContents> contents = ReadManifestBytes(bytes);
  ASSERT_TRUE(contents.ok());
  EXPECT_EQ(contents->edits.size(), 2u);
  ASSERT_EQ(contents->damage.size(), 1u);
  EXPECT_FALSE(contents->damage[0].leveldb_reports);
  EXPECT_TRUE(contents->leveldb_status.ok()) << contents->leveldb_status;
}

// A fragment of type 5 is LevelDB's end of file: the edits after it are
// not read; one of type 6 is skipped silently, as LevelDB skips it.
TEST(ReadManifest, RecordTypesFiveAndSixAreReadAsLevelDBReadsThem) {
  const std::vector<std::string> edits = ThreeEdits();
  const std::string first = WriteLogBytes({edits[0]});
  for (int type : {5, 6}) {
    SCOPED_TRACE(type);
    std::string bytes = WriteLogBytes(edits);
    const size_t second = first.size();
    bytes[second + 6] = static_cast<char>(type);
    EncodeFixed32(bytes.data() + second,
                  crc32c::Mask(crc32c::Value(bytes.data() + second + 6,
                                             1 + edits[1].size())));
    absl::StatusOr<ManifestContents> contents = ReadManifestBytes(bytes);
    ASSERT_TRUE(contents.ok());
    EXPECT_TRUE(contents->leveldb_status.ok()) << contents->leveldb_status;
    ASSERT_EQ(contents->damage.size(), 1u);
    EXPECT_EQ(contents->damage[0].kind,
              type == 5 ? LogEntry::Kind::kEndOfLog : LogEntry::Kind::kDamage);
    EXPECT_EQ(contents->edits.size(), type == 5 ? 1u : 2u);
  }
}

TEST(ReadManifest, EditNamingASecondComparatorIsRefused) {
  std::vector<std::string> edits = ThreeEdits();
  VersionEdit other;
  other.comparator = "test.Other";
  edits.push_back(Encode(other));
  absl::StatusOr<ManifestContents> contents =
      ReadManifestBytes(WriteLogBytes(edits));
  ASSERT_TRUE(contents.ok());
  EXPECT_EQ(contents->edits.size(), 3u);
  EXPECT_EQ(contents->version.comparator, "leveldb.BytewiseComparator");
  EXPECT_THAT(std::string(contents->leveldb_status.message()),
              HasSubstr("comparator 'test.Other'"));
}

TEST(ReadManifest, RecordThatIsNotAnEditIsDamage) {
  std::vector<std::string> edits = ThreeEdits();
  edits.push_back(std::string("\x63garbage", 8));
  absl::StatusOr<ManifestContents> contents =
      ReadManifestBytes(WriteLogBytes(edits));
  ASSERT_TRUE(contents.ok());
  ASSERT_EQ(contents->damage.size(), 1u);
  EXPECT_THAT(contents->damage[0].reason, HasSubstr("not a version edit"));
  EXPECT_EQ(contents->edits.size(), 3u);
  EXPECT_TRUE(absl::IsDataLoss(contents->leveldb_status));
}

TEST(ReadManifest, MissingLogNumberMakesTheVersionIncomplete) {
  VersionEdit edit;
  edit.next_file_number = 2;
  edit.last_sequence = 3;
  absl::StatusOr<ManifestContents> contents =
      ReadManifestBytes(WriteLogBytes({Encode(edit)}));
  ASSERT_TRUE(contents.ok());
  EXPECT_TRUE(absl::IsDataLoss(contents->version_status));
  EXPECT_THAT(std::string(contents->version_status.message()),
              HasSubstr("no log number"));
}

TEST(ReadManifest, RocksDBTagIsUnimplemented) {
  std::string rocks;
  PutVarint32(&rocks, 200);  // column family
  PutVarint32(&rocks, 0);
  std::vector<std::string> edits = ThreeEdits();
  edits.push_back(rocks);
  absl::StatusOr<ManifestContents> contents =
      ReadManifestBytes(WriteLogBytes(edits));
  EXPECT_TRUE(absl::IsUnimplemented(contents.status()));
  EXPECT_THAT(std::string(contents.status().message()), HasSubstr("RocksDB"));
}

class ReadVersionTest : public ::testing::Test {
 protected:
  std::string Path(const std::string& name) { return dir_.path() + "/" + name; }
  void WriteManifest(uint64_t number) {
    WriteFile(Path(ManifestFileName(number)), WriteLogBytes(ThreeEdits()));
  }
  TempDir dir_;
};

TEST_F(ReadVersionTest, CurrentNamesTheManifest) {
  WriteManifest(9);
  WriteFile(Path("MANIFEST-000004"), "older, never read");
  WriteFile(Path("CURRENT"), "MANIFEST-000009\n");
  for (const char* name : {"000003.log", "000006.log", "000010.log"}) {
    WriteFile(Path(name), "");
  }
  WriteFile(Path("000007.sst"), "table");
  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir_.path());
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(version->current, CurrentFileState::kValid);
  EXPECT_EQ(version->manifest_name, "MANIFEST-000009");
  EXPECT_EQ(version->current_contents, "MANIFEST-000009");
  // Log number 6: logs 6 and 10 are live, 3 is not.
  EXPECT_THAT(version->live_logs, ElementsAre(6, 10));
  EXPECT_TRUE(version->missing_tables.empty());
  ASSERT_EQ(version->table_files.size(), 1u);
  EXPECT_EQ(version->table_files.at(7), "000007.sst");
}

TEST_F(ReadVersionTest, PrevLogNumberKeepsThatLogLive) {
  VersionEdit edit;
  edit.log_number = 8;
  edit.prev_log_number = 5;
  edit.next_file_number = 9;
  edit.last_sequence = 1;
  WriteFile(Path("MANIFEST-000002"), WriteLogBytes({Encode(edit)}));
  WriteFile(Path("CURRENT"), "MANIFEST-000002\n");
  for (const char* name : {"000004.log", "000005.log", "000008.log"}) {
    WriteFile(Path(name), "");
  }
  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir_.path());
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_THAT(version->live_logs, ElementsAre(5, 8));
}

TEST_F(ReadVersionTest, MissingCurrentFallsBackToTheNewestManifest) {
  WriteManifest(9);
  WriteFile(Path("MANIFEST-000004"), "");
  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir_.path());
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(version->current, CurrentFileState::kMissing);
  EXPECT_EQ(version->manifest_name, "MANIFEST-000009");
  EXPECT_EQ(version->missing_tables, std::vector<uint64_t>{7});
}

TEST_F(ReadVersionTest, CurrentNamingAMissingFileFallsBack) {
  WriteManifest(9);
  WriteFile(Path("CURRENT"), "MANIFEST-000012\n");
  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir_.path());
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(version->current, CurrentFileState::kNamesMissingFile);
  EXPECT_EQ(version->current_contents, "MANIFEST-000012");
  EXPECT_EQ(version->manifest_name, "MANIFEST-000009");
}

TEST_F(ReadVersionTest, MalformedCurrentFallsBack) {
  WriteManifest(9);
  WriteFile(Path("CURRENT"), "MANIFEST-000009");  // no newline
  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir_.path());
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(version->current, CurrentFileState::kMalformed);
}

TEST_F(ReadVersionTest, DirectoryWithoutManifestIsNotFound) {
  WriteFile(Path("000001.log"), "");
  const absl::Status status = ReadVersion(dir_.path()).status();
  EXPECT_TRUE(absl::IsNotFound(status)) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("no CURRENT"));
}

// What LevelDB's recovery refuses fails ReadVersion, naming the MANIFEST and
// the offset; skip_damaged_edits applies the other edits instead.
TEST_F(ReadVersionTest, ManifestLevelDBRefusesIsDataLossUnlessSkipped) {
  std::vector<std::string> edits = ThreeEdits();
  edits.insert(edits.begin() + 1, std::string("\x63garbage", 8));
  WriteFile(Path("MANIFEST-000009"), WriteLogBytes(edits));
  WriteFile(Path("CURRENT"), "MANIFEST-000009\n");
  const absl::Status refused = ReadVersion(dir_.path()).status();
  EXPECT_TRUE(absl::IsDataLoss(refused)) << refused;
  EXPECT_THAT(std::string(refused.message()),
              HasSubstr("MANIFEST-000009: corrupt at offset " +
                        std::to_string(WriteLogBytes({edits[0]}).size()) +
                        ": not a version edit"));
  ReadVersionOptions options;
  options.skip_damaged_edits = true;
  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir_.path(), options);
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(version->manifest.edits.size(), 3u);
  EXPECT_EQ(version->manifest.version.next_file_number, 9u);
}

TEST_F(ReadVersionTest, IncompleteVersionIsDataLoss) {
  VersionEdit edit;
  edit.log_number = 1;
  WriteFile(Path("MANIFEST-000001"), WriteLogBytes({Encode(edit)}));
  WriteFile(Path("CURRENT"), "MANIFEST-000001\n");
  EXPECT_TRUE(absl::IsDataLoss(ReadVersion(dir_.path()).status()));
}

TEST_F(ReadVersionTest, PebbleMarkerFileIsRefusedByName) {
  WriteManifest(1);
  WriteFile(Path("marker.manifest.000001.MANIFEST-000001"), "");
  const absl::Status status = ReadVersion(dir_.path()).status();
  EXPECT_TRUE(absl::IsUnimplemented(status)) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("Pebble"));
}

TEST_F(ReadVersionTest, PebbleOptionsFileIsRefusedByName) {
  WriteManifest(1);
  WriteFile(Path("CURRENT"), "MANIFEST-000001\n");
  WriteFile(Path("OPTIONS-000003"),
            "[Version]\n  pebble_version=0.1\n\n[Options]\n");
  const absl::Status status = ReadVersion(dir_.path()).status();
  EXPECT_TRUE(absl::IsUnimplemented(status)) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("Pebble"));
}

TEST_F(ReadVersionTest, RocksDBOptionsFileIsRefusedByName) {
  WriteManifest(1);
  WriteFile(Path("OPTIONS-000005"), "[Version]\n  rocksdb_version=8.9.1\n");
  const absl::Status status = ReadVersion(dir_.path()).status();
  EXPECT_TRUE(absl::IsUnimplemented(status)) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("RocksDB"));
}

// Minecraft Bedrock's worlds (Mojang's LevelDB fork) keep LevelDB's log and
// MANIFEST formats; a world's db/ folder as Bedrock leaves it: tables on
// levels 0 and 1 named .ldb, a MANIFEST whose second edit moved the log on,
// an empty live log, an older log left behind, and LOCK and LOG files.
TEST_F(ReadVersionTest, BedrockWorldLayout) {
  VersionEdit base;
  base.comparator = "leveldb.BytewiseComparator";
  base.log_number = 12;
  base.prev_log_number = 0;
  base.next_file_number = 14;
  base.last_sequence = 4410;
  base.new_files.push_back(File(1, 9));
  base.new_files.push_back(File(0, 13));
  VersionEdit flush;
  flush.log_number = 15;
  flush.prev_log_number = 0;
  flush.next_file_number = 16;
  flush.last_sequence = 4411;
  WriteFile(Path("MANIFEST-000014"),
            WriteLogBytes({Encode(base), Encode(flush)}));
  WriteFile(Path("CURRENT"), "MANIFEST-000014\n");
  WriteFile(Path("000012.log"), "");
  WriteFile(Path("000015.log"), "");
  WriteFile(Path("000009.ldb"), "");
  WriteFile(Path("000013.ldb"), "");
  WriteFile(Path("LOCK"), "");
  WriteFile(Path("LOG"), "text\n");
  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir_.path());
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_THAT(version->live_logs, ElementsAre(15));
  EXPECT_EQ(version->manifest.version.last_sequence, 4411u);
  ASSERT_EQ(version->manifest.version.files[0].size(), 1u);
  ASSERT_EQ(version->manifest.version.files[1].size(), 1u);
  EXPECT_EQ(version->table_files.at(13), "000013.ldb");
  EXPECT_TRUE(version->missing_tables.empty());
}

TEST(ReadVersion, MissingDirectoryIsNotFound) {
  const absl::Status status =
      ReadVersion("/nonexistent/bloomtable-db").status();
  EXPECT_TRUE(absl::IsNotFound(status)) << status;
  // The errno travels with it: a missing directory, not a missing key.
  EXPECT_EQ(FileErrorNumber(status), ENOENT) << status;
}

}  // namespace
}  // namespace bloomtable
