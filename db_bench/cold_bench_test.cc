// Tests of what cold_bench's rows rely on: the key streams every engine asks
// (db_bench/cold_keys.h) and, where built with RocksDB, the peer's database
// (db_bench/cold_rocksdb.h): its filter stores the bits per key it was asked
// to, a reused database is reused only when it fits, and its readers find
// every stored key and no absent one, cold and warm.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "db_bench/cold_keys.h"
#include "gtest/gtest.h"
#include "tests/temp_dir.h"
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
#include "db_bench/cold_reader.h"
#include "db_bench/cold_rocksdb.h"
#endif

namespace bloomtable {
namespace db_bench {
namespace {

uint64_t NumberOf(const std::string& key) {
  uint64_t n = 0;
  EXPECT_TRUE(absl::SimpleAtoi(key, &n)) << key;
  return n;
}

TEST(ColdKeysTest, KeysSortInNumericOrder) {
  EXPECT_EQ(ColdKey(7), "0000000000000007");
  EXPECT_LT(ColdKey(9), ColdKey(10));
  EXPECT_LT(ColdStoredKey(99), ColdStoredKey(100));
  EXPECT_EQ(ColdStoredKey(21), ColdKey(42));
}

TEST(ColdKeysTest, StreamsAskStoredOrAbsentKeysOfTheTable) {
  const uint64_t num = 1000;
  for (const bool present : {true, false}) {
    const std::vector<std::string> keys = ColdKeyStream(num, present, 5000, 17);
    ASSERT_EQ(keys.size(), 5000u);
    std::set<uint64_t> distinct;
    for (const std::string& key : keys) {
      const uint64_t n = NumberOf(key);
      EXPECT_LT(n, 2 * num);
      EXPECT_EQ(n % 2, present ? 0u : 1u) << key;
      distinct.insert(n);
    }
    // Uniform over 1000 keys: 5000 draws reach nearly all of them.
    EXPECT_GT(distinct.size(), 900u);
  }
}

TEST(ColdKeysTest, EveryEngineOfARunGetsTheSameStream) {
  const uint64_t seed = ColdStreamSeed(2, false, 32);
  EXPECT_EQ(ColdKeyStream(100000, false, 64, seed),
            ColdKeyStream(100000, false, 64, seed));
  EXPECT_NE(ColdKeyStream(100000, false, 64, seed),
            ColdKeyStream(100000, false, 64, ColdStreamSeed(3, false, 32)));
}

TEST(ColdKeysTest, SeedsDifferForEveryRunWorkloadAndBatch) {
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

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB

ColdRocksDBOptions SmallDatabase(const std::string& dir, double bits) {
  ColdRocksDBOptions options;
  options.dir = dir;
  options.num = 5000;
  options.value_size = 100;
  options.target_stored_bits_per_key = bits;
  return options;
}

TEST(ColdRocksDBTest, FilterStoresTheTargetBitsPerKey) {
  TempDir dir;
  for (const double target : {7.3, 10.4, 14.0}) {
    auto db = ColdRocksDB::Prepare(SmallDatabase(dir.File("db"), target));
    ASSERT_TRUE(db.ok()) << db.status();
    EXPECT_NEAR((*db)->stored_bits_per_key(), target, 0.02 * target);
    EXPECT_GT((*db)->bits_per_key(), 0);
    EXPECT_GT((*db)->file_bytes(), 0u);
  }
}

TEST(ColdRocksDBTest, ReusesOnlyADatabaseThatFits) {
  TempDir dir;
  ColdRocksDBOptions options = SmallDatabase(dir.File("db"), 10);
  auto first = ColdRocksDB::Prepare(options);
  ASSERT_TRUE(first.ok()) << first.status();
  options.use_existing = true;
  auto reused = ColdRocksDB::Prepare(options);
  ASSERT_TRUE(reused.ok()) << reused.status();
  EXPECT_EQ((*reused)->bits_per_key(), 0);  // not written again
  EXPECT_EQ((*reused)->stored_bits_per_key(), (*first)->stored_bits_per_key());
  // Another budget, or another key count: written again.
  options.target_stored_bits_per_key = 14;
  auto rewritten = ColdRocksDB::Prepare(options);
  ASSERT_TRUE(rewritten.ok()) << rewritten.status();
  EXPECT_GT((*rewritten)->bits_per_key(), 0);
  EXPECT_NEAR((*rewritten)->stored_bits_per_key(), 14, 0.28);
  options.num = 4000;
  auto resized = ColdRocksDB::Prepare(options);
  ASSERT_TRUE(resized.ok()) << resized.status();
  EXPECT_GT((*resized)->bits_per_key(), 0);
}

uint64_t Found(ColdReader* reader, const std::vector<std::string>& keys,
               size_t batch) {
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  uint64_t found = 0;
  for (size_t i = 0; i < views.size(); i += batch) {
    const size_t n = std::min(batch, views.size() - i);
    auto f = reader->Lookup(&views[i], n, batch > 1);
    EXPECT_TRUE(f.ok()) << f.status();
    found += f.value_or(0);
  }
  return found;
}

TEST(ColdRocksDBTest, ReadersFindStoredKeysOnlyColdAndWarm) {
  TempDir dir;
  auto db = ColdRocksDB::Prepare(SmallDatabase(dir.File("db"), 10));
  ASSERT_TRUE(db.ok()) << db.status();
  const std::vector<std::string> present = ColdKeyStream(5000, true, 256, 1);
  const std::vector<std::string> absent = ColdKeyStream(5000, false, 256, 2);
  for (const bool cold : {true, false}) {
    for (const size_t batch : {1, 32}) {
      auto reader = (*db)->Open(cold, 8 << 20);
      ASSERT_TRUE(reader.ok()) << reader.status();
      EXPECT_EQ(Found(reader->get(), present, batch), present.size());
      const uint64_t reads = (*reader)->file_reads();
      // Cold: every stored key's data block came from the file.
      if (cold) {
        EXPECT_GE(reads, batch == 1 ? present.size() : 256 / 32);
      }
      EXPECT_EQ(Found(reader->get(), absent, batch), 0u);
      // About 1% false positives at 10 bits per key: few absent keys read.
      EXPECT_LT((*reader)->file_reads() - reads, 256u / 8);
    }
  }
}

TEST(ColdRocksDBTest, ReportNamesMultiGetReadOptions) {
  const nlohmann::json options = MultiGetReadOptionsJson();
  EXPECT_FALSE(options["async_io"].get<bool>());
  EXPECT_TRUE(options["optimize_multiget_for_io"].get<bool>());
  EXPECT_NE(options["why"].get<std::string>().find("coroutine"),
            std::string::npos);
}

#endif  // BLOOMTABLE_DB_BENCH_WITH_ROCKSDB

}  // namespace
}  // namespace db_bench
}  // namespace bloomtable
