// The block cache as tables use it, memory accounting and MultiGet.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/cache.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/iterator.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "util/lru_cache.h"

namespace bloomtable {
namespace {

std::string KeyOf(int i) {
  char key[32];
  std::snprintf(key, sizeof(key), "%016d", i);
  return key;
}

std::string ValueOf(int i) { return "value" + std::to_string(i * 7919); }

// Records the offset of every read, to check the order of block reads.
class RecordingFile final : public RandomAccessFile {
 public:
  explicit RecordingFile(std::string contents)
      : base_(NewMemoryRandomAccessFile(std::move(contents), "recorded")) {}
  absl::Status Read(uint64_t offset, size_t n, std::string_view* result,
                    char* scratch) const override {
    std::lock_guard<std::mutex> lock(mutex_);
    offsets_.push_back(offset);
    return base_->Read(offset, n, result, scratch);
  }
  const std::string& name() const override { return base_->name(); }
  std::vector<uint64_t> offsets() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return offsets_;
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    offsets_.clear();
  }

 private:
  std::unique_ptr<RandomAccessFile> base_;
  mutable std::mutex mutex_;
  mutable std::vector<uint64_t> offsets_;
};

// Even keys of [0, 2 * num_keys), in blocks of about 1 KiB, with a filter.
std::string BuildTable(int num_keys) {
  Options options;
  options.block_size = 1024;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (int i = 0; i < num_keys; ++i) {
    EXPECT_TRUE(builder.Add(KeyOf(2 * i), ValueOf(2 * i)).ok());
  }
  EXPECT_TRUE(builder.Finish().ok());
  return file.contents();
}

std::unique_ptr<Table> OpenTable(const std::string& contents,
                                 std::shared_ptr<Cache> cache,
                                 RecordingFile** recorder = nullptr,
                                 bool charge_index_and_filter = false) {
  Options options;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  options.block_cache = std::move(cache);
  options.cache_index_and_filter_blocks = charge_index_and_filter;
  auto file = std::make_unique<RecordingFile>(contents);
  if (recorder != nullptr) *recorder = file.get();
  auto table = Table::Open(options, std::move(file), contents.size());
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : nullptr;
}

TEST(TableBlockCache, RepeatedGetIsServedFromTheCache) {
  const std::string contents = BuildTable(2000);
  auto cache = NewLRUCache(1 << 20);
  auto table = OpenTable(contents, cache);
  ASSERT_EQ(*table->Get(ReadOptions(), KeyOf(100)), ValueOf(100));
  ASSERT_EQ(*table->Get(ReadOptions(), KeyOf(100)), ValueOf(100));
  const TableStats stats = table->GetStats();
  EXPECT_EQ(stats.data_block_reads, 1u);
  EXPECT_EQ(stats.block_cache_hits, 1u);
  EXPECT_EQ(stats.block_cache_misses, 1u);
  EXPECT_EQ(cache->GetStats().inserts, 1u);
}

TEST(TableBlockCache, CapacityZeroSendsEveryReadToTheFile) {
  const std::string contents = BuildTable(2000);
  auto table = OpenTable(contents, NewLRUCache(0));
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 50; ++i) {
      ASSERT_EQ(*table->Get(ReadOptions(), KeyOf(2 * i)), ValueOf(2 * i));
    }
  }
  EXPECT_EQ(table->GetStats().data_block_reads, 150u);
  EXPECT_EQ(table->GetStats().block_cache_hits, 0u);
}

TEST(TableBlockCache, FillCacheFalseDoesNotInsert) {
  const std::string contents = BuildTable(2000);
  auto cache = NewLRUCache(1 << 20);
  auto table = OpenTable(contents, cache);
  ReadOptions no_fill;
  no_fill.fill_cache = false;
  auto it = table->NewIterator(no_fill);
  int count = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++count;
  EXPECT_EQ(count, 2000);
  EXPECT_EQ(cache->GetStats().inserts, 0u);
  EXPECT_EQ(cache->usage(), 0u);
}

TEST(TableBlockCache, TablesSharingACacheDoNotSeeEachOthersBlocks) {
  const std::string small = BuildTable(100);
  std::string other;
  {
    StringWritableFile file;
    Options options;
    options.block_size = 1024;
    TableBuilder builder(options, &file);
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE(builder.Add(KeyOf(2 * i), "other").ok());
    }
    ASSERT_TRUE(builder.Finish().ok());
    other = file.contents();
  }
  auto cache = NewLRUCache(1 << 20);
  auto first = OpenTable(small, cache);
  auto second = OpenTable(other, cache);
  // The same block offsets in both files; each table gets its own values.
  EXPECT_EQ(*first->Get(ReadOptions(), KeyOf(0)), ValueOf(0));
  EXPECT_EQ(*second->Get(ReadOptions(), KeyOf(0)), "other");
  EXPECT_EQ(*first->Get(ReadOptions(), KeyOf(0)), ValueOf(0));
}

// Draws ranks from a Zipf distribution over [0, n) with exponent 1.
class ZipfGenerator {
 public:
  ZipfGenerator(int n, uint32_t seed) : rng_(seed) {
    double total = 0;
    for (int i = 1; i <= n; ++i) {
      total += 1.0 / i;
      cumulative_.push_back(total);
    }
  }
  int Next() {
    std::uniform_real_distribution<double> uniform(0, cumulative_.back());
    return static_cast<int>(std::lower_bound(cumulative_.begin(),
                                             cumulative_.end(), uniform(rng_)) -
                            cumulative_.begin());
  }

 private:
  std::mt19937 rng_;
  std::vector<double> cumulative_;
};

TEST(TableBlockCache, HitRateOnASkewedMixRisesWithCapacity) {
  constexpr int kKeys = 20000;
  const std::string contents = BuildTable(kKeys);
  double previous_hit_rate = -1;
  for (size_t capacity :
       {size_t{16} << 10, size_t{128} << 10, size_t{1} << 20}) {
    auto table = OpenTable(contents, NewLRUCache(capacity, 0));
    ZipfGenerator zipf(kKeys, 99);
    // Ranks are scattered over the key space, as hot keys are in practice.
    for (int n = 0; n < 20000; ++n) {
      const int key = static_cast<int>((zipf.Next() * 7919LL) % kKeys);
      ASSERT_TRUE(table->Get(ReadOptions(), KeyOf(2 * key)).ok());
    }
    const TableStats stats = table->GetStats();
    const double hit_rate =
        static_cast<double>(stats.block_cache_hits) /
        static_cast<double>(stats.block_cache_hits + stats.block_cache_misses);
    EXPECT_GT(hit_rate, previous_hit_rate) << "capacity " << capacity;
    previous_hit_rate = hit_rate;
  }
  // With the whole table cached, nearly everything hits.
  EXPECT_GT(previous_hit_rate, 0.9);
}

TEST(TableBlockCache, IndexAndFilterCanBeChargedToTheCache) {
  const std::string contents = BuildTable(5000);
  auto cache = NewLRUCache(1 << 20);
  {
    auto table = OpenTable(contents, cache, nullptr, true);
    EXPECT_GT(cache->usage(), 0u);  // nothing read yet but index and filter
    EXPECT_LE(cache->usage(), table->ApproximateMemoryUsage());
  }
  EXPECT_EQ(cache->usage(), 0u);  // released when the table closes
}

TEST(TableMemory, IteratorsPinTheirDataBlock) {
  const std::string contents = BuildTable(5000);
  auto table = OpenTable(contents, nullptr);
  const size_t idle = table->ApproximateMemoryUsage();
  EXPECT_GT(idle, 0u);
  {
    auto it = table->NewIterator(ReadOptions());
    it->SeekToFirst();
    ASSERT_TRUE(it->Valid());
    EXPECT_GT(table->ApproximateMemoryUsage(), idle);
  }
  EXPECT_EQ(table->ApproximateMemoryUsage(), idle);
}

TEST(TableMultiGet, AnswersInTheCallersOrder) {
  const std::string contents = BuildTable(3000);
  auto table = OpenTable(contents, nullptr);
  std::vector<std::string> owned;
  std::mt19937 rng(5);
  for (int n = 0; n < 500; ++n) owned.push_back(KeyOf(rng() % 6100));
  owned.push_back(owned.front());  // a duplicate
  owned.push_back("");             // before every key
  std::vector<std::string_view> keys(owned.begin(), owned.end());
  const auto results = table->MultiGet(ReadOptions(), keys);
  ASSERT_EQ(results.size(), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    auto expected = table->Get(ReadOptions(), keys[i]);
    ASSERT_EQ(results[i].ok(), expected.ok()) << keys[i];
    if (expected.ok()) {
      EXPECT_EQ(*results[i], *expected);
    } else {
      EXPECT_TRUE(absl::IsNotFound(results[i].status()));
    }
  }
}

TEST(TableMultiGet, ReadsEachNeededBlockOnceInFileOrder) {
  const std::string contents = BuildTable(3000);
  RecordingFile* recorder = nullptr;
  auto table = OpenTable(contents, nullptr, &recorder);
  recorder->Clear();
  std::vector<std::string> owned;
  // Present keys, many per block, in descending order.
  for (int i = 2999; i >= 0; i -= 3) owned.push_back(KeyOf(2 * i));
  std::vector<std::string_view> keys(owned.begin(), owned.end());
  const auto results = table->MultiGet(ReadOptions(), keys);
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_TRUE(results[i].ok()) << keys[i];
  }
  // Adjacent blocks are coalesced (reads of at most 256 KiB; this table's
  // data blocks span less): one batch of reads in file order, each block
  // counted once.
  const std::vector<uint64_t> offsets = recorder->offsets();
  EXPECT_TRUE(std::is_sorted(offsets.begin(), offsets.end()));
  EXPECT_EQ(std::adjacent_find(offsets.begin(), offsets.end()), offsets.end())
      << "a block was read twice";
  const TableStats stats = table->GetStats();
  EXPECT_EQ(stats.multiget_coalesced_reads, offsets.size());
  EXPECT_EQ(stats.multiget_pread_batches, 1u);  // a memory file's MultiRead
  EXPECT_EQ(stats.multiget_io_uring_batches, 0u);
  EXPECT_GT(stats.data_block_reads, offsets.size());
}

TEST(TableMultiGet, AbsentKeysRejectedByTheFilterReadNothing) {
  const std::string contents = BuildTable(3000);
  auto table = OpenTable(contents, nullptr);
  std::vector<std::string> owned;
  for (int i = 0; i < 3000; ++i) owned.push_back(KeyOf(2 * i + 1));
  std::vector<std::string_view> keys(owned.begin(), owned.end());
  const auto results = table->MultiGet(ReadOptions(), keys);
  for (const auto& result : results) {
    EXPECT_TRUE(absl::IsNotFound(result.status()));
  }
  const TableStats stats = table->GetStats();
  EXPECT_EQ(stats.filter_checks, 3000u);
  EXPECT_GT(stats.filter_negatives, 0u);
  // Reads only for the keys the filter let through, each block at most once.
  EXPECT_LE(stats.data_block_reads, 3000u - stats.filter_negatives);
}

// Closing one of many tables that share a cache drops that table's blocks
// and looks at no other table's entries.
TEST(TableBlockCache, ClosingATableVisitsOnlyItsOwnBlocks) {
  const std::string contents = BuildTable(400);
  auto cache = std::make_shared<ShardedLRUCache>(64 << 20, 4);
  std::vector<std::unique_ptr<Table>> tables;
  constexpr int kTables = 1000;
  for (int t = 0; t < kTables; ++t) {
    tables.push_back(OpenTable(contents, cache));
    ASSERT_NE(tables.back(), nullptr);
    // Every table brings three of its data blocks into the cache.
    for (int i : {0, 200, 399}) {
      ASSERT_EQ(*tables.back()->Get(ReadOptions(), KeyOf(2 * i)),
                ValueOf(2 * i));
    }
  }
  ASSERT_EQ(cache->GetStats().inserts, 3u * kTables);
  const size_t usage_before = cache->usage();

  tables[kTables / 2].reset();
  EXPECT_EQ(cache->erase_visits(), 3u);
  EXPECT_LT(cache->usage(), usage_before);
  // The other tables' blocks are still cached.
  const uint64_t misses = cache->GetStats().misses;
  ASSERT_EQ(*tables[0]->Get(ReadOptions(), KeyOf(400)), ValueOf(400));
  EXPECT_EQ(cache->GetStats().misses, misses);

  tables.clear();
  EXPECT_EQ(cache->erase_visits(), 3u * kTables);
  EXPECT_EQ(cache->usage(), 0u);
}

// A data block read with verify_checksums off is cached apart from the
// verified ones: later reads with it off take it from the cache, a later
// read with it on, by Get, MultiGet or an iterator, never does: it checks
// the stored bytes and finds the damage (as it does with a cold cache). A
// verified cached block serves unverified reads too.
class UnverifiedBlocksTest : public testing::TestWithParam<int> {
 protected:
  // 0: Get, 1: MultiGet, 2: an iterator's Seek. The value of `key`, or the
  // error.
  static absl::StatusOr<std::string> Read(const Table& table,
                                          const ReadOptions& options,
                                          const std::string& key) {
    switch (GetParam()) {
      case 0:
        return table.Get(options, key);
      case 1:
        return std::move(table.MultiGet(options, {key}).front());
      default: {
        auto it = table.NewIterator(options);
        it->Seek(key);
        if (!it->status().ok()) return it->status();
        if (!it->Valid() || it->key() != key) return absl::NotFoundError(key);
        return std::string(it->value());
      }
    }
  }

  // A table of 400 uncompressed entries in which the stored value of key
  // 2 * kDamaged has one byte changed (its block's checksum no longer
  // matches).
  static std::string DamagedTable() {
    Options options;
    options.block_size = 1024;
    options.compression = CompressionType::kNone;
    StringWritableFile file;
    TableBuilder builder(options, &file);
    for (int i = 0; i < 400; ++i) {
      EXPECT_TRUE(builder.Add(KeyOf(2 * i), ValueOf(2 * i)).ok());
    }
    EXPECT_TRUE(builder.Finish().ok());
    std::string contents = file.contents();
    const size_t at = contents.find(ValueOf(2 * kDamaged));
    EXPECT_NE(at, std::string::npos);
    if (at != std::string::npos) contents[at] = 'V';
    return contents;
  }

  // Read options that do not verify data-block checksums.
  static ReadOptions Unverified() {
    ReadOptions options;
    options.verify_checksums = false;
    return options;
  }

  static constexpr int kDamaged = 123;
};

TEST_P(UnverifiedBlocksTest, ALaterVerifiedReadFindsTheDamage) {
  const std::string contents = DamagedTable();
  const std::string key = KeyOf(2 * kDamaged);
  std::string damaged_value = ValueOf(2 * kDamaged);
  damaged_value[0] = 'V';
  auto cache = NewLRUCache(1 << 20);
  auto table = OpenTable(contents, cache);
  ASSERT_NE(table, nullptr);
  const ReadOptions unverified = Unverified();
  // Unchecked, the damaged bytes are what the block holds.
  absl::StatusOr<std::string> value = Read(*table, unverified, key);
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(*value, damaged_value);
  EXPECT_EQ(cache->GetStats().inserts, 1u);
  // Checked, the same block is damage, every time.
  for (int round = 0; round < 2; ++round) {
    value = Read(*table, ReadOptions(), key);
    EXPECT_EQ(value.status().code(), absl::StatusCode::kDataLoss)
        << (value.ok() ? *value : value.status().ToString());
  }
  EXPECT_EQ(table->GetStats().block_cache_hits, 0u);
  // Unchecked again, the block comes from the cache.
  const uint64_t reads = table->GetStats().data_block_reads;
  value = Read(*table, unverified, key);
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(*value, damaged_value);
  EXPECT_EQ(table->GetStats().data_block_reads, reads);
  EXPECT_EQ(table->GetStats().block_cache_hits, 1u);
}

TEST_P(UnverifiedBlocksTest, UnverifiedReadsShareTheirCachedBlocks) {
  const std::string contents = BuildTable(400);
  auto cache = NewLRUCache(1 << 20);
  auto table = OpenTable(contents, cache);
  ASSERT_NE(table, nullptr);
  ReadOptions unverified = Unverified();
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(*Read(*table, unverified, KeyOf(200)), ValueOf(200));
  }
  EXPECT_EQ(table->GetStats().data_block_reads, 1u);
  EXPECT_EQ(table->GetStats().block_cache_hits, 2u);
  // Without fill_cache nothing more is cached.
  unverified.fill_cache = false;
  EXPECT_EQ(*Read(*table, unverified, KeyOf(700)), ValueOf(700));
  EXPECT_EQ(cache->GetStats().inserts, 1u);
}

TEST_P(UnverifiedBlocksTest, VerifiedCachedBlocksServeUnverifiedReads) {
  const std::string contents = BuildTable(400);
  auto cache = NewLRUCache(1 << 20);
  auto table = OpenTable(contents, cache);
  ASSERT_NE(table, nullptr);
  const ReadOptions unverified = Unverified();
  EXPECT_EQ(*Read(*table, ReadOptions(), KeyOf(200)), ValueOf(200));
  EXPECT_EQ(*Read(*table, unverified, KeyOf(200)), ValueOf(200));
  EXPECT_EQ(table->GetStats().data_block_reads, 1u);
  EXPECT_EQ(table->GetStats().block_cache_hits, 1u);
}

INSTANTIATE_TEST_SUITE_P(GetMultiGetIterator, UnverifiedBlocksTest,
                         testing::Values(0, 1, 2));

}  // namespace
}  // namespace bloomtable
