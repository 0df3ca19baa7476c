// Database::MultiGet against the real LevelDB: on a database written by
// leveldb::DB (tables on several levels, overlapping level-0 tables, a live
// log, overwrites and deletions), every batch (keys shuffled, repeated,
// absent) answers for each key what leveldb::DB::Get answers; as of an
// older sequence, what Database::Get answers; through pread, memory maps,
// a block cache and in-memory sidecar filters alike. A batch of keys that
// share data blocks reads each block the same Gets read one by one, once.

#include <leveldb/db.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bloomtable/cache.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_database.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace compat_test {
namespace {

class DatabaseMultiGetCompatTest : public testing::Test {
 protected:
  void SetUp() override {
    written_ = WriteLevelDBDatabase(dir_.File("db"), 20261127);
    CopyDirectory(dir_.File("db"), dir_.File("copy"));
    reference_ = OpenReference(dir_.File("copy"));
    ASSERT_NE(reference_, nullptr);
    keys_ = written_.universe;
    for (int i = 0; i < 300; ++i) keys_.push_back(ModelKey(5000 + i));
    keys_.push_back("");
    keys_.push_back("zzzzzz");
    std::mt19937 rng(7);
    for (int d = 0; d < 200; ++d) keys_.push_back(keys_[rng() % keys_.size()]);
  }

  std::unique_ptr<Database> Open(const DatabaseOptions& options) {
    absl::StatusOr<std::unique_ptr<Database>> db =
        Database::OpenReadOnly(dir_.File("db"), options);
    EXPECT_TRUE(db.ok()) << db.status();
    return db.ok() ? *std::move(db) : nullptr;
  }

  TempDir dir_;
  WrittenDatabase written_;
  std::unique_ptr<leveldb::DB> reference_;
  std::vector<std::string> keys_;
};

TEST_F(DatabaseMultiGetCompatTest, EveryBatchAnswersAsLevelDB) {
  std::vector<DatabaseOptions> variants(4);
  variants[1].mmap_reads = true;
  variants[2].block_cache = NewLRUCache(1 << 20);
  variants[3].build_filters_in_memory = true;
  for (size_t v = 0; v < variants.size(); ++v) {
    SCOPED_TRACE(v);
    std::unique_ptr<Database> db = Open(variants[v]);
    ASSERT_NE(db, nullptr);
    ASSERT_GT(db->logs().size(), 0u);
    std::mt19937 rng(static_cast<uint32_t>(v));
    std::shuffle(keys_.begin(), keys_.end(), rng);
    size_t found = 0;
    for (size_t begin = 0; begin < keys_.size();) {
      const size_t size =
          std::min<size_t>(1 + rng() % 300, keys_.size() - begin);
      const std::vector<std::string_view> batch(keys_.begin() + begin,
                                                keys_.begin() + begin + size);
      const std::vector<absl::StatusOr<std::string>> got =
          db->MultiGet(DatabaseReadOptions(), batch);
      ASSERT_EQ(got.size(), size);
      for (size_t i = 0; i < size; ++i) {
        const std::string key(batch[i]);
        std::string expected;
        const leveldb::Status s =
            reference_->Get(leveldb::ReadOptions(), key, &expected);
        if (s.IsNotFound()) {
          EXPECT_TRUE(absl::IsNotFound(got[i].status()))
              << key << " " << got[i].status();
          continue;
        }
        ASSERT_TRUE(s.ok()) << s.ToString();
        ASSERT_TRUE(got[i].ok()) << key << " " << got[i].status();
        EXPECT_EQ(*got[i], expected) << key;
        ++found;
      }
      begin += size;
    }
    EXPECT_GE(found, written_.model.size());
  }
}

TEST_F(DatabaseMultiGetCompatTest, AsOfAnOlderSequenceAnswersAsGet) {
  std::unique_ptr<Database> db = Open(DatabaseOptions());
  ASSERT_NE(db, nullptr);
  for (uint64_t sequence :
       {uint64_t{0}, written_.checkpoint_sequence / 2,
        written_.checkpoint_sequence, db->last_sequence() - 1}) {
    DatabaseReadOptions options;
    options.sequence = sequence;
    const std::vector<std::string_view> batch(keys_.begin(), keys_.end());
    const std::vector<absl::StatusOr<std::string>> got =
        db->MultiGet(options, batch);
    ASSERT_EQ(got.size(), batch.size());
    size_t found = 0;
    for (size_t i = 0; i < batch.size(); ++i) {
      const absl::StatusOr<std::string> want = db->Get(options, batch[i]);
      ASSERT_EQ(got[i].status(), want.status()) << batch[i];
      if (want.ok()) {
        EXPECT_EQ(*got[i], *want) << batch[i];
        ++found;
      }
    }
    if (sequence == written_.checkpoint_sequence) {
      EXPECT_GE(found, written_.checkpoint_model.size() / 2);
    }
  }
}

TEST_F(DatabaseMultiGetCompatTest, NeighbouringKeysReadFewerBlocksThanGets) {
  auto counters = std::make_shared<FileReadCounters>();
  DatabaseOptions options;
  options.wrap_table_file = [counters](std::unique_ptr<RandomAccessFile> file) {
    return NewCountingRandomAccessFile(std::move(file), counters);
  };
  std::unique_ptr<Database> db = Open(options);
  ASSERT_NE(db, nullptr);
  // 32 neighbouring keys that have values.
  std::vector<std::string> keys;
  for (auto it = written_.model.lower_bound(ModelKey(1000));
       it != written_.model.end() && keys.size() < 32; ++it) {
    keys.push_back(it->first);
  }
  ASSERT_EQ(keys.size(), 32u);
  const std::vector<std::string_view> batch(keys.begin(), keys.end());
  // Each Get alone: which tables it read a data block of (the counts per
  // table), and so which blocks: (table, the block ApproximateOffsetOf
  // names for the key). The layout leveldb::DB's compactions left varies
  // from run to run; what the batch must read follows from it.
  const auto block_reads = [&db]() {
    std::map<uint64_t, uint64_t> reads;  // by table number
    for (const DatabaseTableFile& file : db->tables()) {
      absl::StatusOr<std::shared_ptr<const Table>> table = db->OpenTable(file);
      EXPECT_TRUE(table.ok()) << table.status();
      if (table.ok())
        reads[file.number] = (*table)->GetStats().data_block_reads;
    }
    return reads;
  };
  std::set<std::pair<uint64_t, uint64_t>> blocks;
  uint64_t get_blocks = 0;
  for (std::string_view key : batch) {
    const std::map<uint64_t, uint64_t> before = block_reads();
    ASSERT_TRUE(db->Get(DatabaseReadOptions(), key).ok());
    const std::map<uint64_t, uint64_t> after = block_reads();
    for (const DatabaseTableFile& file : db->tables()) {
      const uint64_t reads = after.at(file.number) - before.at(file.number);
      ASSERT_LE(reads, 1u) << key << " in " << file.name;
      if (reads == 0) continue;
      ++get_blocks;
      blocks.emplace(file.number,
                     (*db->OpenTable(file))->ApproximateOffsetOf(key));
    }
  }
  const uint64_t multi_before = db->GetStats().tables.data_block_reads;
  const uint64_t reads_before = counters->reads;
  for (const auto& result : db->MultiGet(DatabaseReadOptions(), batch)) {
    ASSERT_TRUE(result.ok()) << result.status();
  }
  const uint64_t multi_blocks =
      db->GetStats().tables.data_block_reads - multi_before;
  // The batch reads each block the Gets read, once.
  EXPECT_EQ(multi_blocks, blocks.size());
  EXPECT_LT(multi_blocks, get_blocks)
      << multi_blocks << " blocks for the batch, " << get_blocks
      << " for the Gets";
  EXPECT_GE(get_blocks, 16u);  // keys in the log read none
  // Adjacent blocks of a table may share one file read.
  EXPECT_LE(counters->reads - reads_before, multi_blocks);
}

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
