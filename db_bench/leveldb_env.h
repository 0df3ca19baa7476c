// LevelDBSetup is what db_bench's LevelDB engines set up from their
// EngineOptions, in one place: table files counted and read either way
// LevelDB can (mmap through its default Env, pread through bloomtable's pread
// file, LevelDB's own not being public); LevelDB's Bloom filter or a
// bloomtable policy through NewLevelDBFilterPolicyAdapter, wrapped to count
// queries and "absent" answers, and an LRU block cache wrapped to count hits
// and misses (LevelDB has neither statistic). Everything it hands LevelDB is
// safe for concurrent use; the setup must outlive every table and DB opened
// with it.

#ifndef BLOOMTABLE_DB_BENCH_LEVELDB_ENV_H_
#define BLOOMTABLE_DB_BENCH_LEVELDB_ENV_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "db_bench/engine.h"
#include "db_bench/sharded_counter.h"
#include "leveldb/cache.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"

namespace bloomtable {
namespace db_bench {

// LevelDB's default Env, except that random-access (table) files are mapped
// or read with pread, and counted by `io`.
class CountingEnv final : public leveldb::EnvWrapper {
 public:
  CountingEnv(ReadCounters* io, bool mmap)
      : leveldb::EnvWrapper(leveldb::Env::Default()), io_(io), mmap_(mmap) {}

  leveldb::Status NewRandomAccessFile(
      const std::string& name, leveldb::RandomAccessFile** result) override;

 private:
  ReadCounters* const io_;
  const bool mmap_;
};

// Forwards to a policy (same name, same bytes) and counts the queries that
// reach it and its "absent" answers.
class CountingFilterPolicy final : public leveldb::FilterPolicy {
 public:
  explicit CountingFilterPolicy(
      std::unique_ptr<const leveldb::FilterPolicy> base)
      : base_(std::move(base)) {}

  const char* Name() const override { return base_->Name(); }
  void CreateFilter(const leveldb::Slice* keys, int n,
                    std::string* dst) const override {
    base_->CreateFilter(keys, n, dst);
  }
  bool KeyMayMatch(const leveldb::Slice& key,
                   const leveldb::Slice& filter) const override;

  uint64_t checks() const { return checks_.Sum(); }
  uint64_t negatives() const { return negatives_.Sum(); }

 private:
  const std::unique_ptr<const leveldb::FilterPolicy> base_;
  mutable ShardedCounter checks_;
  mutable ShardedCounter negatives_;
};

// Forwards to LevelDB's LRU cache and counts lookups that hit and miss.
class CountingCache final : public leveldb::Cache {
 public:
  explicit CountingCache(size_t capacity)
      : base_(leveldb::NewLRUCache(capacity)) {}

  Handle* Insert(const leveldb::Slice& key, void* value, size_t charge,
                 void (*deleter)(const leveldb::Slice& key,
                                 void* value)) override {
    return base_->Insert(key, value, charge, deleter);
  }
  Handle* Lookup(const leveldb::Slice& key) override;
  void Release(Handle* handle) override { base_->Release(handle); }
  void* Value(Handle* handle) override { return base_->Value(handle); }
  void Erase(const leveldb::Slice& key) override { base_->Erase(key); }
  uint64_t NewId() override { return base_->NewId(); }
  void Prune() override { base_->Prune(); }
  size_t TotalCharge() const override { return base_->TotalCharge(); }

  uint64_t hits() const { return hits_.Sum(); }
  uint64_t misses() const { return misses_.Sum(); }

 private:
  const std::unique_ptr<leveldb::Cache> base_;
  ShardedCounter hits_;
  ShardedCounter misses_;
};

class LevelDBSetup {
 public:
  explicit LevelDBSetup(const EngineOptions& options);

  // Not OK where the adapter refused the bloomtable policy.
  const absl::Status& status() const { return status_; }
  // Block size, compression, filter policy, block cache and Env.
  leveldb::Options Options();
  const leveldb::ReadOptions& read_options() const { return read_options_; }

  EngineCounters Counters() const;
  // The block cache's usage and capacity, and the filter (of this setup's
  // policy) and index blocks of the table files at `paths`, read from the
  // files; files that a compaction removed meanwhile are skipped.
  MemorySummary Memory(const std::vector<std::string>& paths,
                       std::string sources) const;

 private:
  const EngineOptions options_;
  ReadCounters io_;
  CountingEnv env_;
  absl::Status status_;
  std::unique_ptr<CountingFilterPolicy> filter_policy_;
  const std::unique_ptr<CountingCache> block_cache_;
  leveldb::ReadOptions read_options_;
};

// The table files of a LevelDB version, per level, with their sizes, as
// its "leveldb.sstables" property lists them (lines
// " NUMBER:SIZE[SMALLEST .. LARGEST]" under "--- level N ---").
struct LevelDBTables {
  static constexpr int kLevels = 7;  // LevelDB's config::kNumLevels
  std::vector<uint64_t> numbers[kLevels];
  uint64_t bytes[kLevels] = {};
};
LevelDBTables ParseLevelDBTables(std::string_view text);

// Whether LevelDB 1.23 would start a size compaction on this version: level
// 0 holds 4 files or more, or a level L from 1 to 5 more than 10 MiB times
// 10^(L-1).
bool LevelDBNeedsSizeCompaction(const LevelDBTables& tables);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_LEVELDB_ENV_H_
