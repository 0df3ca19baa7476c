// The real LevelDB's logs and MANIFESTs: a database written by Debian's
// LevelDB at test time is read back with LogReader, the write-batch decoder
// and ReadVersion, and compared with what was written and with LevelDB's own
// account of its tables ("leveldb.sstables").

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bloomtable/db_files.h"
#include "bloomtable/db_version.h"
#include "bloomtable/file.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/write_batch.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

std::unique_ptr<leveldb::DB> OpenLevelDB(const std::string& dir,
                                         size_t write_buffer_size) {
  leveldb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = write_buffer_size;
  leveldb::DB* db = nullptr;
  const leveldb::Status status = leveldb::DB::Open(options, dir, &db);
  EXPECT_TRUE(status.ok()) << status.ToString();
  return std::unique_ptr<leveldb::DB>(db);
}

// Every operation of every batch in the live logs of `dir`, as
// "sequence put|del key value" lines, and the number of batches.
std::vector<std::string> ReadLiveLogs(const std::string& dir, size_t* batches) {
  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir);
  EXPECT_TRUE(version.ok()) << version.status();
  std::vector<std::string> lines;
  *batches = 0;
  if (!version.ok()) return lines;
  for (uint64_t number : version->live_logs) {
    const std::string path = dir + "/" + LogFileName(number);
    std::unique_ptr<RandomAccessFile> file = OpenRandomAccessFile(path).value();
    LogReader reader(file.get(), GetFileSize(path).value());
    LogEntry entry;
    while (reader.Next(&entry)) {
      EXPECT_NE(entry.kind, LogEntry::Kind::kDamage) << entry.reason;
      if (entry.kind != LogEntry::Kind::kRecord) continue;
      absl::StatusOr<DecodedWriteBatch> batch = DecodeWriteBatch(entry.payload);
      EXPECT_TRUE(batch.ok()) << batch.status();
      if (!batch.ok()) continue;
      ++*batches;
      for (const WriteOp& op : batch->ops) {
        lines.push_back(std::to_string(op.sequence) +
                        (op.type == WriteOpType::kPut ? " put " : " del ") +
                        op.key + " " + std::to_string(op.value.size()));
      }
    }
    EXPECT_TRUE(reader.status().ok());
  }
  return lines;
}

TEST(LevelDBLogCompat, LogHoldsTheBatchesAsWritten) {
  TempDir dir;
  std::vector<std::string> expected;
  {
    std::unique_ptr<leveldb::DB> db = OpenLevelDB(dir.path(), 64 << 20);
    leveldb::WriteBatch batch;
    batch.Put("a", "1");
    batch.Put("b", "22");
    batch.Delete("c");
    ASSERT_TRUE(db->Write(leveldb::WriteOptions(), &batch).ok());
    ASSERT_TRUE(db->Delete(leveldb::WriteOptions(), "a").ok());
    // Larger than a block: FIRST, MIDDLE, ..., LAST fragments.
    ASSERT_TRUE(
        db->Put(leveldb::WriteOptions(), "big", std::string(100000, 'x')).ok());
    ASSERT_TRUE(
        db->Put(leveldb::WriteOptions(), std::string("k\0\xff", 3), "binary")
            .ok());
    expected = {"1 put a 1",        "2 put b 2",
                "3 del c 0",        "4 del a 0",
                "5 put big 100000", std::string("6 put k\0\xff 6", 11)};
  }  // closed without a flush: everything is in the log
  size_t batches = 0;
  EXPECT_EQ(ReadLiveLogs(dir.path(), &batches), expected);
  EXPECT_EQ(batches, 4u);
}

// LevelDB's "leveldb.sstables": per level, " NUMBER:SIZE[...]" lines.
std::map<int, std::vector<std::pair<uint64_t, uint64_t>>> ParseSstables(
    const std::string& text) {
  std::map<int, std::vector<std::pair<uint64_t, uint64_t>>> levels;
  std::istringstream lines(text);
  std::string line;
  int level = -1;
  while (std::getline(lines, line)) {
    if (line.rfind("--- level ", 0) == 0) {
      level = std::stoi(line.substr(10));
    } else if (!line.empty() && line[0] == ' ') {
      const size_t colon = line.find(':');
      levels[level].emplace_back(std::stoull(line.substr(1, colon - 1)),
                                 std::stoull(line.substr(colon + 1)));
    }
  }
  return levels;
}

TEST(LevelDBManifestCompat, VersionMatchesLevelDBsOwnAccount) {
  TempDir dir;
  std::string sstables;
  uint64_t writes = 0;
  {
    std::unique_ptr<leveldb::DB> db = OpenLevelDB(dir.path(), 64 << 10);
    for (int i = 0; i < 20000; ++i) {
      char key[32];
      std::snprintf(key, sizeof(key), "key%08d", (i * 7919) % 20000);
      ASSERT_TRUE(db->Put(leveldb::WriteOptions(), key,
                          std::string(40, static_cast<char>('a' + i % 26)))
                      .ok());
      ++writes;
    }
    leveldb::Slice begin("key00005000");
    leveldb::Slice end("key00009000");
    db->CompactRange(&begin, &end);
    for (int i = 0; i < 500; ++i) {
      ASSERT_TRUE(
          db->Put(leveldb::WriteOptions(), "late" + std::to_string(i), "v")
              .ok());
      ++writes;
    }
    db->CompactRange(nullptr, nullptr);  // waits: no compaction pending
    ASSERT_TRUE(db->GetProperty("leveldb.sstables", &sstables));
  }
  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir.path());
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(version->current, CurrentFileState::kValid);
  const DbVersion& v = version->manifest.version;
  EXPECT_EQ(v.comparator, "leveldb.BytewiseComparator");
  EXPECT_EQ(v.last_sequence, writes);
  EXPECT_TRUE(version->manifest.damage.empty());
  EXPECT_TRUE(version->missing_tables.empty());
  // Compactions deleted files: some edit says so.
  bool deleted = false;
  for (const ManifestEdit& edit : version->manifest.edits) {
    deleted |= !edit.edit.deleted_files.empty();
  }
  EXPECT_TRUE(deleted);

  std::map<int, std::vector<std::pair<uint64_t, uint64_t>>> ours;
  size_t tables = 0;
  for (int level = 0; level < kNumLevels; ++level) {
    for (const TableFileInfo& file : v.files[level]) {
      ours[level].emplace_back(file.number, file.size);
      ++tables;
      EXPECT_EQ(version->table_files.at(file.number),
                TableFileName(file.number));
    }
  }
  std::map<int, std::vector<std::pair<uint64_t, uint64_t>>> theirs =
      ParseSstables(sstables);
  for (auto& [level, files] : theirs) std::sort(files.begin(), files.end());
  for (auto it = theirs.begin(); it != theirs.end();) {
    it = it->second.empty() ? theirs.erase(it) : std::next(it);
  }
  EXPECT_GT(tables, 1u);
  EXPECT_EQ(ours, theirs) << sstables;
}

TEST(LevelDBManifestCompat, IdentifiesLogAndManifestByContent) {
  TempDir dir;
  {
    std::unique_ptr<leveldb::DB> db = OpenLevelDB(dir.path(), 64 << 20);
    ASSERT_TRUE(db->Put(leveldb::WriteOptions(), "k", "v").ok());
  }
  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir.path());
  ASSERT_TRUE(version.ok()) << version.status();
  ASSERT_EQ(version->live_logs.size(), 1u);
  for (const auto& [name, kind] :
       {std::pair{version->manifest_name, LogContents::kManifest},
        std::pair{LogFileName(version->live_logs[0]),
                  LogContents::kWriteAheadLog}}) {
    const std::string path = dir.path() + "/" + name;
    std::unique_ptr<RandomAccessFile> file = OpenRandomAccessFile(path).value();
    EXPECT_EQ(IdentifyLogContents(*file, GetFileSize(path).value()).value(),
              kind)
        << name;
  }
}

}  // namespace
}  // namespace bloomtable
