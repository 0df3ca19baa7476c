// What db_bench's two RocksDB engines (a rocksdb::DB, and one table read by
// rocksdb::SstFileReader) share: a file system whose random-access files
// count reads and bytes and apply --io_latency_us (IoModel), and the
// block-based table options both build with. Whether files are mapped is
// RocksDB's own allow_mmap_reads, which the file system passes through.

#ifndef BLOOMTABLE_DB_BENCH_ROCKSDB_ENV_H_
#define BLOOMTABLE_DB_BENCH_ROCKSDB_ENV_H_

#include <memory>
#include <string>

#include "db_bench/engine.h"
#include "db_bench/io_model.h"
#include "rocksdb/cache.h"
#include "rocksdb/file_system.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"

namespace bloomtable {
namespace db_bench {

// RocksDB's default file system, with counting random-access files (each
// MultiRead request counts as one read and one --io_latency_us delay).
class CountingFileSystem final : public rocksdb::FileSystemWrapper {
 public:
  explicit CountingFileSystem(IoModel* io)
      : rocksdb::FileSystemWrapper(rocksdb::FileSystem::Default()), io_(io) {}

  const char* Name() const override { return "DbBenchCountingFileSystem"; }

  rocksdb::IOStatus NewRandomAccessFile(
      const std::string& name, const rocksdb::FileOptions& options,
      std::unique_ptr<rocksdb::FSRandomAccessFile>* result,
      rocksdb::IODebugContext* dbg) override;

 private:
  IoModel* const io_;
};

// How a RocksDB engine's filter is asked, which decides its statistics.
enum class RocksDBFilterQueries {
  kNone,       // no filter
  kWholeKey,   // DB::Get: BLOOM_FILTER_USEFUL, _FULL_POSITIVE,
               // _FULL_TRUE_POSITIVE
  kPrefixSeek  // an iterator's Seek: BLOOM_FILTER_PREFIX_CHECKED, _USEFUL
};

// A RocksDB engine's counters: the reads and bytes of `io`, the filter's
// queries from `statistics` as `queries` says, and the data blocks the
// block cache served and missed (BLOCK_CACHE_DATA_HIT, _MISS).
EngineCounters RocksDBCounters(const IoModel& io,
                               rocksdb::Statistics& statistics,
                               RocksDBFilterQueries queries);

// Block size, block cache and filter (its Bloom, NewBloomFilterPolicy(bits),
// or with options.rocksdb_ribbon its Ribbon, NewRibbonFilterPolicy(bits, -1):
// Ribbon everywhere; none at 0 bits). Index and filter blocks are held by the
// open tables, as in LevelDB (cache_index_and_filter_blocks off).
rocksdb::BlockBasedTableOptions RocksDBTableOptions(
    const EngineOptions& options, std::shared_ptr<rocksdb::Cache> block_cache);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_ROCKSDB_ENV_H_
