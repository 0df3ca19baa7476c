// The read-only database view against the real LevelDB: a database written
// by leveldb::DB (tables on several levels, compactions, a live log) must
// read through bloomtable::Database exactly as leveldb::DB reads it: every
// key, full and bounded scans forward and reverse, direction changes, the
// all-versions listing's live records, and a read as of an older sequence.
// Opening the view must not change a byte of the directory. Mapped and
// wrapped table files (DatabaseOptions::mmap_reads, wrap_table_file) read
// the same, and Database::GetStats counts the reads.

#include <leveldb/db.h>
#include <leveldb/iterator.h>

#include <atomic>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bloomtable/database.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_database.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace compat_test {
namespace {

using KV = std::pair<std::string, std::string>;

class DatabaseModelTest : public testing::Test {
 protected:
  void SetUp() override {
    written_ = WriteLevelDBDatabase(dir_.File("db"), 20241126);
    before_ = DirectoryBytes(dir_.File("db"));
    CopyDirectory(dir_.File("db"), dir_.File("copy"));
    reference_ = OpenReference(dir_.File("copy"));
    ASSERT_NE(reference_, nullptr);
    absl::StatusOr<std::unique_ptr<Database>> db =
        Database::OpenReadOnly(dir_.File("db"));
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
  }

  // leveldb::DB's keys in [lo, hi) (unset: unbounded), forward or reverse.
  std::vector<KV> ReferenceScan(const std::optional<std::string>& lo,
                                const std::optional<std::string>& hi,
                                bool reverse) {
    std::vector<KV> out;
    std::unique_ptr<leveldb::Iterator> it(
        reference_->NewIterator(leveldb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string key = it->key().ToString();
      if (lo && key < *lo) continue;
      if (hi && key >= *hi) break;
      out.emplace_back(key, it->value().ToString());
    }
    EXPECT_TRUE(it->status().ok());
    if (reverse) std::reverse(out.begin(), out.end());
    return out;
  }

  std::vector<KV> ViewScan(const std::optional<std::string>& lo,
                           const std::optional<std::string>& hi, bool reverse) {
    DatabaseReadOptions options;
    options.lower_bound = lo;
    options.upper_bound = hi;
    std::unique_ptr<Iterator> it = db_->NewIterator(options);
    std::vector<KV> out;
    if (reverse) {
      for (it->SeekToLast(); it->Valid(); it->Prev()) {
        out.emplace_back(std::string(it->key()), std::string(it->value()));
      }
    } else {
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        out.emplace_back(std::string(it->key()), std::string(it->value()));
      }
    }
    EXPECT_TRUE(it->status().ok()) << it->status();
    return out;
  }

  TempDir dir_;
  WrittenDatabase written_;
  std::map<std::string, std::string> before_;
  std::unique_ptr<leveldb::DB> reference_;
  std::unique_ptr<Database> db_;
};

TEST_F(DatabaseModelTest, HoldsSeveralLevelsAndALiveLog) {
  std::set<int> levels;
  for (const DatabaseTableFile& file : db_->tables()) levels.insert(file.level);
  EXPECT_GE(levels.size(), 2u);
  uint64_t log_records = 0;
  for (const DatabaseLogFile& log : db_->logs()) log_records += log.records;
  EXPECT_GT(log_records, 0u);
  EXPECT_TRUE(db_->ordered());
  EXPECT_EQ(db_->comparator_name(), "leveldb.BytewiseComparator");
}

TEST_F(DatabaseModelTest, EveryKeyAsLevelDBReadsIt) {
  std::vector<std::string> keys = written_.universe;
  for (int i = 0; i < 200; ++i) keys.push_back(ModelKey(5000 + i));  // absent
  keys.push_back("");
  keys.push_back("zzzzzz");
  size_t found = 0;
  for (const std::string& key : keys) {
    std::string expected;
    leveldb::Status s = reference_->Get(leveldb::ReadOptions(), key, &expected);
    absl::StatusOr<std::string> got = db_->Get(DatabaseReadOptions(), key);
    if (s.IsNotFound()) {
      EXPECT_TRUE(absl::IsNotFound(got.status())) << key << " " << got.status();
    } else {
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_TRUE(got.ok()) << key << " " << got.status();
      EXPECT_EQ(*got, expected) << key;
      ++found;
    }
  }
  EXPECT_EQ(found, written_.model.size());
  // Every table asked its filter, which spared reads for absent keys.
  uint64_t checks = 0;
  uint64_t negatives = 0;
  for (const DatabaseTableFile& file : db_->tables()) {
    absl::StatusOr<std::shared_ptr<const Table>> table = db_->OpenTable(file);
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_TRUE((*table)->filter_info().in_use) << file.name;
    checks += (*table)->GetStats().filter_checks;
    negatives += (*table)->GetStats().filter_negatives;
  }
  EXPECT_GT(checks, 0u);
  EXPECT_GT(negatives, 0u);
}

TEST_F(DatabaseModelTest, FullAndBoundedScansForwardAndReverse) {
  EXPECT_EQ(ViewScan(std::nullopt, std::nullopt, false),
            ReferenceScan(std::nullopt, std::nullopt, false));
  EXPECT_EQ(ViewScan(std::nullopt, std::nullopt, true),
            ReferenceScan(std::nullopt, std::nullopt, true));
  std::mt19937 rng(7);
  for (int i = 0; i < 60; ++i) {
    std::optional<std::string> lo;
    std::optional<std::string> hi;
    if (rng() % 4 != 0) lo = ModelKey(static_cast<int>(rng() % 3100));
    if (rng() % 4 != 0) hi = ModelKey(static_cast<int>(rng() % 3100));
    if (rng() % 8 == 0) hi = "zz00300";
    const bool reverse = rng() % 2 == 0;
    EXPECT_EQ(ViewScan(lo, hi, reverse), ReferenceScan(lo, hi, reverse))
        << lo.value_or("-") << " " << hi.value_or("-") << " " << reverse;
  }
}

TEST_F(DatabaseModelTest, RandomWalkWithSeeksAndDirectionChanges) {
  std::unique_ptr<Iterator> ours = db_->NewIterator(DatabaseReadOptions());
  std::unique_ptr<leveldb::Iterator> theirs(
      reference_->NewIterator(leveldb::ReadOptions()));
  std::mt19937 rng(11);
  for (int step = 0; step < 3000; ++step) {
    const int op = static_cast<int>(rng() % 10);
    if (op == 0 || !theirs->Valid()) {
      const std::string target = ModelKey(static_cast<int>(rng() % 3100));
      ours->Seek(target);
      theirs->Seek(target);
    } else if (op == 1) {
      ours->SeekToLast();
      theirs->SeekToLast();
    } else if (op < 6) {
      ours->Next();
      theirs->Next();
    } else {
      ours->Prev();
      theirs->Prev();
    }
    ASSERT_EQ(ours->Valid(), theirs->Valid()) << "step " << step;
    if (theirs->Valid()) {
      ASSERT_EQ(ours->key(), theirs->key().ToString()) << "step " << step;
      ASSERT_EQ(ours->value(), theirs->value().ToString());
    }
  }
  EXPECT_TRUE(ours->status().ok());
}

TEST_F(DatabaseModelTest, AllVersionsListingMarksExactlyTheLiveValues) {
  std::vector<KV> live;
  std::map<std::string, int> newest_seen;
  std::string previous_key;
  uint64_t previous_sequence = 0;
  bool first = true;
  size_t records = 0;
  absl::Status status = db_->ListVersions(
      DatabaseReadOptions(), [&](const VersionRecord& record) {
        ++records;
        // Ordered by user key, newest first.
        if (!first) {
          EXPECT_TRUE(previous_key < record.user_key ||
                      (previous_key == record.user_key &&
                       previous_sequence > record.sequence));
        }
        first = false;
        previous_key = record.user_key;
        previous_sequence = record.sequence;
        if (record.status == RecordStatus::kLive) {
          EXPECT_FALSE(record.deletion);
          live.emplace_back(record.user_key, record.value);
        }
        EXPECT_FALSE(record.file.empty());
        return true;
      });
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(live, ReferenceScan(std::nullopt, std::nullopt, false));
  EXPECT_GT(records, live.size());  // overwritten and deleted versions too
}

TEST_F(DatabaseModelTest, ReadsAsOfAnOlderSequence) {
  DatabaseReadOptions options;
  options.sequence = written_.checkpoint_sequence;
  // A key written after the checkpoint may have lost its checkpoint
  // version to a compaction (no snapshot held it): such keys read either
  // nothing or an older value, never a newer one.
  size_t exact = 0;
  for (const std::string& key : written_.universe) {
    absl::StatusOr<std::string> got = db_->Get(options, key);
    auto expected = written_.checkpoint_model.find(key);
    if (written_.written_after_checkpoint.count(key) != 0) {
      // Values start with "v<sequence>-".
      if (got.ok()) {
        EXPECT_LE(std::stoull(got->substr(1, got->find('-') - 1)),
                  written_.checkpoint_sequence)
            << key << ": a value written after the checkpoint";
      }
      continue;
    }
    if (expected == written_.checkpoint_model.end()) {
      EXPECT_TRUE(absl::IsNotFound(got.status())) << key << got.status();
      continue;
    }
    ASSERT_TRUE(got.ok()) << key << " " << got.status();
    EXPECT_EQ(*got, expected->second) << key;
    ++exact;
  }
  EXPECT_GT(exact, 600u);
}

TEST_F(DatabaseModelTest, ReadingChangesNothingInTheDirectory) {
  (void)ViewScan(std::nullopt, std::nullopt, false);
  (void)db_->ListVersions(DatabaseReadOptions(),
                          [](const VersionRecord&) { return true; });
  EXPECT_EQ(DirectoryBytes(dir_.File("db")), before_);
  EXPECT_FALSE(std::filesystem::exists(dir_.File("db") + "/LOCK.bloomtable"));
}

TEST_F(DatabaseModelTest, OpenFileLimitStillReadsEverything) {
  DatabaseOptions options;
  options.max_open_files = 1;
  absl::StatusOr<std::unique_ptr<Database>> small =
      Database::OpenReadOnly(dir_.File("db"), options);
  ASSERT_TRUE(small.ok()) << small.status();
  std::unique_ptr<Iterator> it = (*small)->NewIterator(DatabaseReadOptions());
  std::vector<KV> out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  EXPECT_TRUE(it->status().ok());
  EXPECT_EQ(out, ReferenceScan(std::nullopt, std::nullopt, false));
  for (const auto& [key, value] : written_.model) {
    absl::StatusOr<std::string> got = (*small)->Get(DatabaseReadOptions(), key);
    ASSERT_TRUE(got.ok()) << key;
    EXPECT_EQ(*got, value);
  }
}

TEST_F(DatabaseModelTest, MappedAndWrappedFilesReadEverythingAndAreCounted) {
  auto counters = std::make_shared<FileReadCounters>();
  std::atomic<int> wrapped{0};
  DatabaseOptions options;
  options.mmap_reads = true;
  options.wrap_table_file = [counters,
                             &wrapped](std::unique_ptr<RandomAccessFile> file) {
    ++wrapped;
    return NewCountingRandomAccessFile(std::move(file), counters);
  };
  absl::StatusOr<std::unique_ptr<Database>> mapped =
      Database::OpenReadOnly(dir_.File("db"), options);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  // Opening reads no table: they open when a lookup first needs them.
  EXPECT_EQ(wrapped.load(), 0);
  EXPECT_EQ(counters->reads.load(), 0u);
  DatabaseStats stats = (*mapped)->GetStats();
  EXPECT_EQ(stats.open_tables, 0u);
  EXPECT_EQ(stats.tables.data_block_reads, 0u);

  for (const auto& [key, value] : written_.model) {
    absl::StatusOr<std::string> got =
        (*mapped)->Get(DatabaseReadOptions(), key);
    ASSERT_TRUE(got.ok()) << key << " " << got.status();
    EXPECT_EQ(*got, value);
  }
  for (int i = 0; i < 200; ++i) {
    EXPECT_TRUE(absl::IsNotFound(
        (*mapped)->Get(DatabaseReadOptions(), ModelKey(5000 + i)).status()));
  }
  std::unique_ptr<Iterator> it = (*mapped)->NewIterator(DatabaseReadOptions());
  std::vector<KV> out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  EXPECT_TRUE(it->status().ok()) << it->status();
  EXPECT_EQ(out, ReferenceScan(std::nullopt, std::nullopt, false));

  // Every table opened once, through the wrapper, and was read through it.
  EXPECT_EQ(wrapped.load(), static_cast<int>((*mapped)->tables().size()));
  stats = (*mapped)->GetStats();
  EXPECT_EQ(stats.open_tables, (*mapped)->tables().size());
  EXPECT_GT(stats.tables.data_block_reads, 0u);
  EXPECT_GT(stats.tables.filter_checks, 0u);
  EXPECT_GT(stats.tables.filter_negatives, 0u);
  EXPECT_GT(stats.table_memory_bytes, 0u);
  // Data blocks, plus each table's footer, index and filter.
  EXPECT_GE(counters->reads.load(), stats.tables.data_block_reads);
  EXPECT_GT(counters->bytes.load(), 0u);
}

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
