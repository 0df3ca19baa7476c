// What db_bench's two LevelDB engines (a leveldb::DB, and one leveldb::Table
// read directly) share: table files opened either way LevelDB can read them
// and counted, a filter policy and a block cache that count what LevelDB
// does not (it has no filter or cache statistics).
//
// Table files are opened
//   - mmap: through LevelDB's default Env, which on 64-bit systems maps up to
//     1000 table files (LevelDB 1.23's default for reading);
//   - pread: through bloomtable's pread file (OpenRandomAccessFile), since
//     LevelDB's own pread file class is not public.
// Every file is wrapped to count reads and bytes and to apply
// --io_latency_us (IoModel). All classes are safe for concurrent use as
// LevelDB requires of them.

#ifndef BLOOMTABLE_DB_BENCH_LEVELDB_ENV_H_
#define BLOOMTABLE_DB_BENCH_LEVELDB_ENV_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "db_bench/engine.h"
#include "db_bench/io_model.h"
#include "db_bench/sharded_counter.h"
#include "leveldb/cache.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"

namespace bloomtable {
namespace db_bench {

// Opens `path` for reading by LevelDB, mapped or with pread, counted by `io`
// (which must outlive the file).
leveldb::Status OpenLevelDBTableFile(const std::string& path, bool mmap,
                                     IoModel* io,
                                     leveldb::RandomAccessFile** result);

// LevelDB's default Env, except that random-access (table) files are opened
// by OpenLevelDBTableFile.
class CountingEnv final : public leveldb::EnvWrapper {
 public:
  CountingEnv(IoModel* io, bool mmap)
      : leveldb::EnvWrapper(leveldb::Env::Default()), io_(io), mmap_(mmap) {}

  leveldb::Status NewRandomAccessFile(
      const std::string& name, leveldb::RandomAccessFile** result) override {
    return OpenLevelDBTableFile(name, mmap_, io_, result);
  }

 private:
  IoModel* const io_;
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

// A LevelDB engine's counters: the reads and bytes of `io`, the queries and
// "absent" answers of `filter` (none without one) and the hits and misses of
// `cache`.
EngineCounters LevelDBCounters(const IoModel& io,
                               const CountingFilterPolicy* filter,
                               const CountingCache& cache);

// LevelDB's filter policy for `options` (its Bloom at options.bloom_bits, or
// the adapted bloomtable policy), wrapped to count; null without a filter.
// Sets *status if the adapter refuses the policy.
std::unique_ptr<CountingFilterPolicy> NewCountingFilterPolicy(
    const EngineOptions& options, absl::Status* status);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_LEVELDB_ENV_H_
