// The LevelDB adapter against a real leveldb::DB: bloomtable's filters built
// and used by LevelDB's own tables, and LevelDB's Bloom and ours
// interchangeable under one name.

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "bloomtable/filter_policy.h"
#include "bloomtable/leveldb_filter_adapter.h"
#include "gtest/gtest.h"
#include "leveldb/cache.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

// Counts reads from table files, so that a test can see whether a lookup of
// an absent key read a data block.
class CountingFile final : public leveldb::RandomAccessFile {
 public:
  CountingFile(leveldb::RandomAccessFile* base, std::atomic<uint64_t>* reads)
      : base_(base), reads_(reads) {}
  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    reads_->fetch_add(1);
    return base_->Read(offset, n, result, scratch);
  }

 private:
  std::unique_ptr<leveldb::RandomAccessFile> base_;
  std::atomic<uint64_t>* reads_;
};

class CountingEnv final : public leveldb::EnvWrapper {
 public:
  CountingEnv() : leveldb::EnvWrapper(leveldb::Env::Default()) {}
  leveldb::Status NewRandomAccessFile(
      const std::string& name, leveldb::RandomAccessFile** result) override {
    leveldb::RandomAccessFile* base;
    leveldb::Status status = target()->NewRandomAccessFile(name, &base);
    if (status.ok()) *result = new CountingFile(base, &reads);
    return status;
  }
  std::atomic<uint64_t> reads{0};
};

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%016d", i);
  return buf;
}

class LevelDBAdapterTest : public testing::Test {
 protected:
  // Opens the database with `policy`, no block cache (so every data-block
  // lookup reaches the file) and the counting Env.
  std::unique_ptr<leveldb::DB> OpenDB(const leveldb::FilterPolicy* policy) {
    leveldb::Options options;
    options.create_if_missing = true;
    options.filter_policy = policy;
    options.env = &env_;
    options.block_cache = no_cache_.get();
    leveldb::DB* db = nullptr;
    leveldb::Status status = leveldb::DB::Open(options, dir_, &db);
    EXPECT_TRUE(status.ok()) << status.ToString();
    return std::unique_ptr<leveldb::DB>(db);
  }

  // Writes the even keys of [0, 2n) and compacts them into table files.
  void Fill(leveldb::DB* db, int n) {
    for (int i = 0; i < n; ++i) {
      ASSERT_TRUE(
          db->Put(leveldb::WriteOptions(), Key(2 * i), "v" + Key(2 * i)).ok());
    }
    db->CompactRange(nullptr, nullptr);
  }

  // Looks up every key of [0, 2n): the even ones must be found with their
  // values, the odd ones not. Returns the table-file reads the odd ones cost.
  uint64_t CheckAndCountAbsentReads(leveldb::DB* db, int n) {
    std::string value;
    for (int i = 0; i < n; ++i) {
      EXPECT_TRUE(db->Get(leveldb::ReadOptions(), Key(2 * i), &value).ok());
      EXPECT_EQ(value, "v" + Key(2 * i));
    }
    const uint64_t before = env_.reads.load();
    for (int i = 0; i < n; ++i) {
      EXPECT_TRUE(
          db->Get(leveldb::ReadOptions(), Key(2 * i + 1), &value).IsNotFound());
    }
    return env_.reads.load() - before;
  }

  const TempDir temp_dir_;
  const std::string dir_ = temp_dir_.path();
  CountingEnv env_;
  std::unique_ptr<leveldb::Cache> no_cache_{leveldb::NewLRUCache(0)};
};

TEST_F(LevelDBAdapterTest, AdapterKeepsThePolicyName) {
  auto adapter = NewLevelDBFilterPolicyAdapter(NewLevelDBBloomFilterPolicy(10));
  ASSERT_TRUE(adapter.ok());
  EXPECT_STREQ((*adapter)->Name(), "leveldb.BuiltinBloomFilter2");
}

TEST_F(LevelDBAdapterTest, NullPolicyIsRefused) {
  EXPECT_TRUE(
      absl::IsInvalidArgument(NewLevelDBFilterPolicyAdapter(nullptr).status()));
}

TEST_F(LevelDBAdapterTest, OurBloomReadsADatabaseWrittenWithLevelDBsBloom) {
  constexpr int kKeys = 5000;
  std::unique_ptr<const leveldb::FilterPolicy> theirs(
      leveldb::NewBloomFilterPolicy(10));
  {
    auto db = OpenDB(theirs.get());
    Fill(db.get(), kKeys);
  }
  auto ours = NewLevelDBFilterPolicyAdapter(NewLevelDBBloomFilterPolicy(10));
  ASSERT_TRUE(ours.ok());
  auto db = OpenDB(ours->get());
  const uint64_t absent_reads = CheckAndCountAbsentReads(db.get(), kKeys);
  // Near-miss keys against LevelDB's Bloom give about 2-12% false positives
  // (FORMAT.md); without a working filter every lookup would read a block.
  EXPECT_LT(absent_reads, kKeys / 4u);
}

TEST_F(LevelDBAdapterTest, LevelDBsBloomReadsADatabaseWrittenWithOurs) {
  constexpr int kKeys = 5000;
  {
    auto ours = NewLevelDBFilterPolicyAdapter(NewLevelDBBloomFilterPolicy(10));
    ASSERT_TRUE(ours.ok());
    auto db = OpenDB(ours->get());
    Fill(db.get(), kKeys);
  }
  std::unique_ptr<const leveldb::FilterPolicy> theirs(
      leveldb::NewBloomFilterPolicy(10));
  auto db = OpenDB(theirs.get());
  const uint64_t absent_reads = CheckAndCountAbsentReads(db.get(), kKeys);
  EXPECT_LT(absent_reads, kKeys / 4u);
}

TEST_F(LevelDBAdapterTest, WithoutAFilterEveryAbsentLookupReadsABlock) {
  // The negative control for the two tests above: the counting works.
  constexpr int kKeys = 2000;
  {
    auto db = OpenDB(nullptr);
    Fill(db.get(), kKeys);
  }
  auto db = OpenDB(nullptr);
  // Every odd key but the last (past the table's last key, so the index
  // alone answers) reads a data block.
  EXPECT_GE(CheckAndCountAbsentReads(db.get(), kKeys), uint64_t{kKeys - 1});
}

// Puts, overwrites, deletes, compactions and reopens, checked against a
// std::map after each step, with `policy` as the database's filter.
void RunModelWorkload(LevelDBAdapterTest* test, const std::string& dir,
                      const leveldb::FilterPolicy* policy, leveldb::Env* env,
                      leveldb::Cache* cache) {
  std::map<std::string, std::string> model;
  std::mt19937 rng(1234);
  auto open = [&]() {
    leveldb::Options options;
    options.create_if_missing = true;
    options.filter_policy = policy;
    options.env = env;
    options.block_cache = cache;
    options.write_buffer_size = 64 * 1024;  // several table files per round
    leveldb::DB* db = nullptr;
    leveldb::Status status = leveldb::DB::Open(options, dir, &db);
    EXPECT_TRUE(status.ok()) << status.ToString();
    return std::unique_ptr<leveldb::DB>(db);
  };
  auto check = [&](leveldb::DB* db) {
    std::string value;
    for (int i = 0; i < 6000; ++i) {
      const std::string key = Key(i);
      leveldb::Status status = db->Get(leveldb::ReadOptions(), key, &value);
      auto it = model.find(key);
      if (it == model.end()) {
        ASSERT_TRUE(status.IsNotFound()) << key << " " << status.ToString();
      } else {
        ASSERT_TRUE(status.ok()) << key << " " << status.ToString();
        ASSERT_EQ(value, it->second) << key;
      }
    }
  };
  auto db = open();
  for (int round = 0; round < 4; ++round) {
    for (int op = 0; op < 3000; ++op) {
      const std::string key = Key(static_cast<int>(rng() % 4000));
      if (rng() % 4 == 0) {
        ASSERT_TRUE(db->Delete(leveldb::WriteOptions(), key).ok());
        model.erase(key);
      } else {
        const std::string value = "r" + std::to_string(round) + "." +
                                  std::to_string(rng()) +
                                  std::string(rng() % 200, 'x');
        ASSERT_TRUE(db->Put(leveldb::WriteOptions(), key, value).ok());
        model[key] = value;
      }
    }
    check(db.get());
    if (round % 2 == 1) db->CompactRange(nullptr, nullptr);
    check(db.get());
    db.reset();
    db = open();
    check(db.get());
  }
  (void)test;
}

TEST_F(LevelDBAdapterTest, LevelDBBloomThroughAdapterAgreesWithModel) {
  auto adapter = NewLevelDBFilterPolicyAdapter(NewLevelDBBloomFilterPolicy(10));
  ASSERT_TRUE(adapter.ok());
  RunModelWorkload(this, dir_, adapter->get(), &env_, no_cache_.get());
}

}  // namespace
}  // namespace bloomtable

namespace bloomtable {
namespace {

TEST_F(LevelDBAdapterTest, CacheLocalBloomThroughAdapterAgreesWithModel) {
  auto adapter =
      NewLevelDBFilterPolicyAdapter(NewCacheLocalBloomFilterPolicy(10));
  ASSERT_TRUE(adapter.ok());
  RunModelWorkload(this, dir_, adapter->get(), &env_, no_cache_.get());
}

TEST_F(LevelDBAdapterTest, CacheLocalBloomAvoidsReadsForNearMissKeys) {
  constexpr int kKeys = 5000;
  auto adapter =
      NewLevelDBFilterPolicyAdapter(NewCacheLocalBloomFilterPolicy(10));
  ASSERT_TRUE(adapter.ok());
  auto db = OpenDB(adapter->get());
  Fill(db.get(), kKeys);
  const uint64_t absent_reads = CheckAndCountAbsentReads(db.get(), kKeys);
  // The cache-local Bloom holds up on near-miss keys (a few percent at most
  // in LevelDB's small per-2 KiB filters), unlike LevelDB's own hash.
  EXPECT_LT(absent_reads, kKeys / 20u);
}

TEST_F(LevelDBAdapterTest, WholeTableOnlyPolicyIsRefused) {
  auto adapter = NewLevelDBFilterPolicyAdapter(NewRibbonFilterPolicy(10));
  EXPECT_TRUE(absl::IsInvalidArgument(adapter.status()));
}

}  // namespace
}  // namespace bloomtable
