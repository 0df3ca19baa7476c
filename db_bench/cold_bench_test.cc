// Tests of what cold_bench's rows rely on (db_bench/cold_lookups.h): the key
// streams every engine asks, and lookups through the engines cold (direct
// I/O, no block cache: every stored key's block from the file) and warm,
// finding every stored key and no absent one, one Get at a time and in
// MultiGet batches, each engine at its level.

#include <set>
#include <string>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "db_bench/cold_lookups.h"
#include "db_bench/engine.h"
#include "db_bench/key_generator.h"
#include "db_bench/value_generator.h"
#include "gtest/gtest.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace db_bench {
namespace {

TEST(ColdStreamTest, StreamsAskStoredOrAbsentKeysOfTheTable) {
  const KeyGenerator keys(16, 1000);
  for (const bool present : {true, false}) {
    const std::vector<std::string> stream = ColdStream(keys, present, 5000, 17);
    ASSERT_EQ(stream.size(), 5000u);
    std::set<std::string> distinct(stream.begin(), stream.end());
    for (const std::string& key : stream) {
      EXPECT_EQ(keys.IsPresent(key), present) << key;
    }
    // Stored keys: uniform, with repeats, reaching nearly all. Absent keys:
    // every near-miss key once before any repeats.
    EXPECT_GT(distinct.size(), 900u);
    if (!present) {
      EXPECT_EQ(
          std::set<std::string>(stream.begin(), stream.begin() + 1000).size(),
          1000u);
    }
  }
}

TEST(ColdStreamTest, ARunTimesTheCallsItWasAskedFor) {
  const std::vector<int64_t> batches = {8, 32};
  EXPECT_EQ(BatchesToTime(true, true, batches),
            (std::vector<int64_t>{0, 8, 32}));
  EXPECT_EQ(BatchesToTime(false, true, batches), batches);
  EXPECT_EQ(BatchesToTime(true, false, batches), std::vector<int64_t>{0});
  EXPECT_TRUE(BatchesToTime(false, false, batches).empty());
}

TEST(ColdStreamTest, EveryEngineOfARunGetsTheSameStream) {
  const KeyGenerator keys(16, 100000);
  const uint64_t seed = ColdStreamSeed(2, false, 32);
  EXPECT_EQ(ColdStream(keys, false, 64, seed),
            ColdStream(keys, false, 64, seed));
  EXPECT_NE(ColdStream(keys, false, 64, seed),
            ColdStream(keys, false, 64, ColdStreamSeed(3, false, 32)));
  std::set<uint64_t> seeds;
  int count = 0;
  for (int run = 0; run < 5; ++run) {
    for (const bool present : {true, false}) {
      for (int64_t batch : {0, 1, 8, 32, 128, 4096}) {
        seeds.insert(ColdStreamSeed(run, present, batch));
        ++count;
      }
    }
  }
  EXPECT_EQ(seeds.size(), static_cast<size_t>(count));
}

// Fills `name` with 5,000 keys in `dir`, then looks streams up cold and warm
// through fresh engines on the files.
// `compacted`: the view engines' LevelDB source compacted into one level.
void ExpectColdAndWarmLookups(const std::string& name, const std::string& dir,
                              bool compacted = false) {
  const KeyGenerator keys(16, 5000);
  const ValueGenerator values(100, 0.5, 301);
  std::vector<uint64_t> order(keys.num());
  for (uint64_t j = 0; j < keys.num(); ++j) order[j] = j;
  EngineOptions options;
  options.dir = dir;
  options.bloom_bits = 10;
  options.bloomtable_policy = NewCacheLocalBloomFilterPolicy(10);
  options.bloomtable_layout = FilterLayout::kWholeTable;
  options.leveldb_source_compacted = compacted;
  {
    std::unique_ptr<Engine> engine = NewEngine(name, options);
    Progress progress("test", keys.num());
    ASSERT_TRUE(engine->Fill(FillInput{&keys, &values, order}, &progress).ok());
  }
  const std::vector<std::string> present = ColdStream(keys, true, 256, 1);
  const std::vector<std::string> absent = ColdStream(keys, false, 256, 2);
  for (const bool cold : {true, false}) {
    for (const int64_t batch : {0, 32}) {
      EngineOptions open = options;
      open.direct_io = cold;
      open.cache_size = cold ? 0 : 8 << 20;
      std::unique_ptr<Engine> engine = NewEngine(name, open);
      ASSERT_TRUE(engine->OpenExisting().ok()) << name;
      absl::StatusOr<LookupFigures> found =
          MeasureLookups(*engine, present, true, batch, !cold, 1);
      ASSERT_TRUE(found.ok()) << name << " " << found.status();
      // Cold: every stored key's data block came from the file (a batch
      // may read the blocks two keys share once).
      if (cold) {
        EXPECT_GE(found->device_reads_per_key, batch == 0 ? 1 : 0.5);
      }
      // Timed passes repeat the lookups; the figures stay per key.
      absl::StatusOr<LookupFigures> twice =
          MeasureLookups(*engine, present, true, batch, !cold, 2);
      ASSERT_TRUE(twice.ok()) << name << " " << twice.status();
      if (cold) {
        EXPECT_GE(twice->device_reads_per_key, batch == 0 ? 1 : 0.5);
        EXPECT_LT(twice->device_reads_per_key, 1.5) << name;
      }
      absl::StatusOr<LookupFigures> missed =
          MeasureLookups(*engine, absent, false, batch, !cold, 1);
      ASSERT_TRUE(missed.ok()) << name << " " << missed.status();
      // About 1% false positives at 10 bits per key: few absent keys read.
      EXPECT_LT(missed->device_reads_per_key, 1.0 / 8) << name;
      // A present key asked as absent is an error, not a figure.
      EXPECT_FALSE(
          MeasureLookups(*engine, present, false, batch, false, 1).ok());
    }
  }
}

TEST(ColdLookupsTest, BloomtableFindsStoredKeysOnlyColdAndWarm) {
  TempDir dir;
  ExpectColdAndWarmLookups("bloomtable", dir.File("bt"));
}

#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
// The database view on the source compacted into one level (cold_bench's
// default layout), cold with direct I/O (every stored key's block from the
// file, none from a cache) and warm.
TEST(ColdLookupsTest, DatabaseViewFindsStoredKeysOnlyColdAndWarm) {
  TempDir dir;
  ExpectColdAndWarmLookups("bloomtable_db+sidecars", dir.File("view"),
                           /*compacted=*/true);
}
#endif

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
TEST(ColdLookupsTest, RocksDBDatabaseFindsStoredKeysOnlyColdAndWarm) {
  TempDir dir;
  ExpectColdAndWarmLookups("rocksdb_readonly", dir.File("db"));
}
#endif

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
TEST(ColdLookupsTest, RocksDBTableReaderFindsStoredKeysOnlyColdAndWarm) {
  TempDir dir;
  ExpectColdAndWarmLookups("rocksdb_table", dir.File("t"));
  std::unique_ptr<Engine> engine = NewEngine("rocksdb_table", EngineOptions());
  EXPECT_TRUE(engine->HasNativeMultiGet());
}
#endif

}  // namespace
}  // namespace db_bench
}  // namespace bloomtable
