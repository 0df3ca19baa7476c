// How the read-only database view reads a directory written by the real
// LevelDB while it iterates: a scan reads ahead (fewer, larger reads through
// pread; the kernel advised of the range ahead through a memory map), a
// seek opens only the tables whose key range can hold what it needs, and
// bounds stop the walk before the tables past them. Every answer is checked
// against leveldb::DB on a copy of the directory.
//
// The directory: "d00000".."d01999" flushed and compacted below level 0,
// then "a", "b" and "c" ranges of 2000 keys each, one level-0 table each
// (written, then flushed by reopening), 1 KiB blocks, no compression.

#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/iterator.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_database.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace compat_test {
namespace {

using KV = std::pair<std::string, std::string>;

constexpr int kKeysPerRange = 2000;

std::string RangeKey(char range, int i) {
  return absl::StrFormat("%c%05d", range, i);
}

void WriteRange(const std::string& dir, char range, bool compact) {
  std::unique_ptr<const leveldb::FilterPolicy> bloom(
      leveldb::NewBloomFilterPolicy(10));
  leveldb::Options options;
  options.create_if_missing = true;
  options.filter_policy = bloom.get();
  options.block_size = 1024;
  options.compression = leveldb::kNoCompression;
  options.write_buffer_size = 8 << 20;  // no flush while writing
  leveldb::DB* raw = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(options, dir, &raw).ok());
  std::unique_ptr<leveldb::DB> db(raw);
  for (int i = 0; i < kKeysPerRange; ++i) {
    std::string value = absl::StrFormat("%c-value-%05d-", range, i);
    for (int j = 0; value.size() < 100; ++j) {
      value.push_back(static_cast<char>('a' + (i * 7 + j * 13) % 26));
    }
    ASSERT_TRUE(
        db->Put(leveldb::WriteOptions(), RangeKey(range, i), value).ok());
  }
  if (compact) db->CompactRange(nullptr, nullptr);
}

// A table file that records the advice it is given (WillNeed) and how many
// times it was opened, and reads through the file it wraps.
struct FileLog {
  std::mutex mu;
  std::vector<std::pair<uint64_t, size_t>> advice;
  std::set<std::string> opened;
  std::atomic<uint64_t> reads{0};
};

class LoggingFile final : public RandomAccessFile {
 public:
  LoggingFile(std::unique_ptr<RandomAccessFile> base,
              std::shared_ptr<FileLog> log)
      : base_(std::move(base)), log_(std::move(log)) {
    std::lock_guard<std::mutex> lock(log_->mu);
    log_->opened.insert(base_->name());
  }
  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* scratch) const override {
    ++log_->reads;
    return base_->Read(offset, n, result, scratch);
  }
  bool WillNeed(uint64_t offset, size_t n) const override {
    {
      std::lock_guard<std::mutex> lock(log_->mu);
      log_->advice.emplace_back(offset, n);
    }
    return base_->WillNeed(offset, n);
  }
  const std::string& name() const override { return base_->name(); }

 private:
  const std::unique_ptr<RandomAccessFile> base_;
  const std::shared_ptr<FileLog> log_;
};

class DatabaseReadPathTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    const std::string db = dir_->File("db");
    WriteRange(db, 'd', /*compact=*/true);
    // Each range stays in the log until the next open flushes it to level 0.
    for (char range : {'a', 'b', 'c'}) WriteRange(db, range, false);
    WriteRange(db, 'e', false);  // flushes "c"; "e" stays in the log
    CopyDirectory(db, dir_->File("copy"));
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  void SetUp() override {
    reference_ = OpenReference(dir_->File("copy"));
    ASSERT_NE(reference_, nullptr);
  }

  // The view, its table files read through a LoggingFile and a counting
  // file, no block cache.
  std::unique_ptr<Database> Open(bool mmap) {
    DatabaseOptions options;
    options.mmap_reads = mmap;
    std::shared_ptr<FileLog> log = log_;
    std::shared_ptr<FileReadCounters> counters = counters_;
    options.wrap_table_file = [log,
                               counters](std::unique_ptr<RandomAccessFile> f) {
      return std::make_unique<LoggingFile>(
          NewCountingRandomAccessFile(std::move(f), counters), log);
    };
    absl::StatusOr<std::unique_ptr<Database>> db =
        Database::OpenReadOnly(dir_->File("db"), options);
    EXPECT_TRUE(db.ok()) << db.status();
    return db.ok() ? *std::move(db) : nullptr;
  }

  // leveldb::DB's entries in [lo, hi), from `start` (unset: the first), at
  // most `limit`.
  std::vector<KV> Reference(std::optional<std::string> lo,
                            std::optional<std::string> hi,
                            std::optional<std::string> start, size_t limit) {
    std::unique_ptr<leveldb::Iterator> it(
        reference_->NewIterator(leveldb::ReadOptions()));
    std::vector<KV> out;
    if (start.has_value()) {
      it->Seek(*start);
    } else if (lo.has_value()) {
      it->Seek(*lo);
    } else {
      it->SeekToFirst();
    }
    for (; it->Valid() && out.size() < limit; it->Next()) {
      if (hi.has_value() && it->key().ToString() >= *hi) break;
      out.emplace_back(it->key().ToString(), it->value().ToString());
    }
    EXPECT_TRUE(it->status().ok());
    return out;
  }

  static std::vector<KV> Scan(Iterator* it) {
    std::vector<KV> out;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out.emplace_back(std::string(it->key()), std::string(it->value()));
    }
    EXPECT_TRUE(it->status().ok()) << it->status();
    return out;
  }

  size_t Opened() {
    std::lock_guard<std::mutex> lock(log_->mu);
    return log_->opened.size();
  }

  static TempDir* dir_;
  std::unique_ptr<leveldb::DB> reference_;
  std::shared_ptr<FileLog> log_ = std::make_shared<FileLog>();
  std::shared_ptr<FileReadCounters> counters_ =
      std::make_shared<FileReadCounters>();
};

TempDir* DatabaseReadPathTest::dir_ = nullptr;

TEST_F(DatabaseReadPathTest, LayoutHasTablesInLevelZeroAndBelowAndALog) {
  std::unique_ptr<Database> db = Open(/*mmap=*/false);
  ASSERT_NE(db, nullptr);
  int level0 = 0;
  int deeper = 0;
  for (const DatabaseTableFile& file : db->tables()) {
    (file.level == 0 ? level0 : deeper)++;
  }
  EXPECT_EQ(level0, 3);
  EXPECT_GE(deeper, 1);
  EXPECT_FALSE(db->logs().empty());
  EXPECT_EQ(Scan(db->NewIterator(DatabaseReadOptions()).get()).size(),
            5u * kKeysPerRange);
}

TEST_F(DatabaseReadPathTest, ScanReadsAheadInFewerLargerReads) {
  const std::vector<KV> expected =
      Reference(std::nullopt, std::nullopt, std::nullopt, SIZE_MAX);
  ASSERT_EQ(expected.size(), 5u * kKeysPerRange);

  std::unique_ptr<Database> db = Open(/*mmap=*/false);
  ASSERT_NE(db, nullptr);
  DatabaseReadOptions block_by_block;
  block_by_block.max_readahead_size = 0;
  EXPECT_EQ(Scan(db->NewIterator(block_by_block).get()), expected);
  const uint64_t plain_reads = counters_->reads.load();

  // A second view, so that both scans open their tables (and read their
  // index and filter) alike.
  std::unique_ptr<Database> again = Open(/*mmap=*/false);
  ASSERT_NE(again, nullptr);
  counters_->reads = 0;
  EXPECT_EQ(Scan(again->NewIterator(DatabaseReadOptions()).get()), expected);
  const uint64_t ahead_reads = counters_->reads.load();
  // About 880 blocks of 1 KiB: one read each, against a few reads a table
  // whose size doubles up to 256 KiB.
  EXPECT_GT(plain_reads, 600u);
  EXPECT_LT(ahead_reads * 8, plain_reads)
      << ahead_reads << " against " << plain_reads;
}

TEST_F(DatabaseReadPathTest, ReverseAndBoundedScansReadAheadCorrectly) {
  std::unique_ptr<Database> db = Open(/*mmap=*/false);
  ASSERT_NE(db, nullptr);
  DatabaseReadOptions bounded;
  bounded.lower_bound = RangeKey('a', 1500);
  bounded.upper_bound = RangeKey('d', 300);
  std::unique_ptr<Iterator> it = db->NewIterator(bounded);
  EXPECT_EQ(Scan(it.get()), Reference(bounded.lower_bound, bounded.upper_bound,
                                      std::nullopt, SIZE_MAX));
  std::vector<KV> reverse;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    reverse.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  EXPECT_TRUE(it->status().ok());
  std::vector<KV> expected = Reference(bounded.lower_bound, bounded.upper_bound,
                                       std::nullopt, SIZE_MAX);
  std::reverse(expected.begin(), expected.end());
  EXPECT_EQ(reverse, expected);
}

TEST_F(DatabaseReadPathTest, MappedScanAdvisesTheKernelOfTheRangeAhead) {
  const std::vector<KV> expected =
      Reference(std::nullopt, std::nullopt, std::nullopt, SIZE_MAX);
  std::unique_ptr<Database> db = Open(/*mmap=*/true);
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(Scan(db->NewIterator(DatabaseReadOptions()).get()), expected);
  std::lock_guard<std::mutex> lock(log_->mu);
  // Advice in windows that grow: a few per table, covering most of the
  // data (four tables of about 220 KiB).
  uint64_t advised = 0;
  size_t largest = 0;
  for (const auto& [offset, n] : log_->advice) {
    advised += n;
    largest = std::max(largest, n);
  }
  EXPECT_GE(log_->advice.size(), 4u);
  EXPECT_LE(log_->advice.size(), 40u);
  EXPECT_GT(largest, 64u * 1024);
  EXPECT_GT(advised, 4u * 150 * 1024);
}

TEST_F(DatabaseReadPathTest, SeekOpensOnlyTheTableThatHoldsTheKey) {
  std::unique_ptr<Database> db = Open(/*mmap=*/false);
  ASSERT_NE(db, nullptr);
  std::unique_ptr<Iterator> it = db->NewIterator(DatabaseReadOptions());
  it->Seek(RangeKey('b', 1000));
  std::vector<KV> got;
  for (int i = 0; i < 17 && it->Valid(); ++i, it->Next()) {
    got.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  EXPECT_TRUE(it->status().ok());
  EXPECT_EQ(got,
            Reference(std::nullopt, std::nullopt, RangeKey('b', 1000), 17));
  // "a" ends before the key; "c" and the level holding "d" start after the
  // entries read: neither is opened nor read.
  EXPECT_EQ(Opened(), 1u);
  EXPECT_LE(db->GetStats().tables.data_block_reads, 3u);
}

TEST_F(DatabaseReadPathTest, SeekPastATableStillReachesTheNext) {
  std::unique_ptr<Database> db = Open(/*mmap=*/false);
  ASSERT_NE(db, nullptr);
  std::unique_ptr<Iterator> it = db->NewIterator(DatabaseReadOptions());
  it->Seek(RangeKey('b', kKeysPerRange - 3));
  std::vector<KV> got;
  for (int i = 0; i < 8 && it->Valid(); ++i, it->Next()) {
    got.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  EXPECT_EQ(got, Reference(std::nullopt, std::nullopt,
                           RangeKey('b', kKeysPerRange - 3), 8));
  EXPECT_EQ(got.back().first, RangeKey('c', 4));
  EXPECT_EQ(Opened(), 2u);
}

TEST_F(DatabaseReadPathTest, UpperBoundStopsBeforeTablesPastIt) {
  std::unique_ptr<Database> db = Open(/*mmap=*/false);
  ASSERT_NE(db, nullptr);
  DatabaseReadOptions bounded;
  bounded.lower_bound = RangeKey('a', 1990);
  // The first key of "b"'s table: it holds nothing below the bound.
  bounded.upper_bound = RangeKey('b', 0);
  std::vector<KV> got = Scan(db->NewIterator(bounded).get());
  EXPECT_EQ(got, Reference(bounded.lower_bound, bounded.upper_bound,
                           std::nullopt, SIZE_MAX));
  EXPECT_EQ(got.size(), 10u);
  EXPECT_EQ(Opened(), 1u);
}

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
