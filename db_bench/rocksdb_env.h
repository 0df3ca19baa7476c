// RocksDBSetup is what db_bench's RocksDB engines set up from their
// EngineOptions, in one place: a file system whose random-access files count
// reads and bytes (each MultiRead request counts as one read); statistics
// without timers, from which the filter's answers and the data blocks the
// block cache served and missed are counted; block-based tables with an LRU
// block cache and RocksDB's Bloom or (EngineOptions::rocksdb_ribbon) Ribbon
// filter, index and filter blocks held by the open tables as in LevelDB;
// with rocksdb_prefix_length, a fixed-length prefix extractor whose prefix
// Bloom scans ask through auto_prefix_mode; with direct_io,
// use_direct_reads and no block cache. The setup must outlive every DB and
// table opened with its options.

#ifndef BLOOMTABLE_DB_BENCH_ROCKSDB_ENV_H_
#define BLOOMTABLE_DB_BENCH_ROCKSDB_ENV_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "db_bench/engine.h"
#include "db_bench/sharded_counter.h"
#include "rocksdb/cache.h"
#include "rocksdb/file_system.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"

namespace bloomtable {
namespace db_bench {

// How a RocksDB engine's filter is asked, which decides its statistics.
enum class RocksDBFilterQueries {
  kNone,       // no filter
  kWholeKey,   // a point lookup: BLOOM_FILTER_USEFUL, _FULL_POSITIVE,
               // _FULL_TRUE_POSITIVE
  kPrefixSeek  // an iterator's Seek: BLOOM_FILTER_PREFIX_CHECKED, _USEFUL
};

class RocksDBSetup {
 public:
  explicit RocksDBSetup(const EngineOptions& options);

  // Env, statistics, compression, mmap reads, the table factory and the
  // prefix extractor described above; its tables keep whole keys in their
  // filter only with `whole_key_filtering`.
  rocksdb::Options Options(bool whole_key_filtering = true) const;
  const rocksdb::ReadOptions& read_options() const { return read_options_; }

  // Reads and bytes, the filter's queries as `queries` says (with
  // `and_prefix_checks`, the prefix Bloom's queries too) and the data
  // blocks the block cache served and missed.
  EngineCounters Counters(RocksDBFilterQueries queries,
                          bool and_prefix_checks = false) const;
  // The block cache's usage and capacity, with `sources`.
  MemorySummary CacheMemory(std::string sources) const;

 private:
  const EngineOptions options_;
  ReadCounters io_;
  const std::shared_ptr<rocksdb::FileSystem> file_system_;
  const std::shared_ptr<rocksdb::Env> env_;
  const std::shared_ptr<rocksdb::Statistics> statistics_;
  const std::shared_ptr<rocksdb::Cache> block_cache_;
  rocksdb::ReadOptions read_options_;
};

// RocksDB's default file system, with random-access files counted by `io`
// (which must outlive it).
std::shared_ptr<rocksdb::FileSystem> NewCountingFileSystem(ReadCounters* io);

// Engine::NewScan for the RocksDB engines: an iterator made by `make` with
// the engine's read options, iterate_lower_bound and iterate_upper_bound set
// to the range and, with a prefix extractor, auto_prefix_mode on, so that
// RocksDB asks its prefix Bloom filter whenever the bounds allow it,
// positioned at the range's first entry. The bounds' bytes live in the scan,
// which outlives its iterator. Not thread-safe, like the iterator.
std::unique_ptr<EngineIterator> NewRocksDBScan(
    const rocksdb::ReadOptions& base, bool auto_prefix_mode,
    std::string_view lower, std::string_view upper,
    const std::function<rocksdb::Iterator*(const rocksdb::ReadOptions&)>& make);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_ROCKSDB_ENV_H_
