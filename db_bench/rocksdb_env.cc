#include "db_bench/rocksdb_env.h"

#include <utility>

#include "rocksdb/filter_policy.h"

namespace bloomtable {
namespace db_bench {
namespace {

class CountingFile final : public rocksdb::FSRandomAccessFileOwnerWrapper {
 public:
  CountingFile(std::unique_ptr<rocksdb::FSRandomAccessFile> base, IoModel* io)
      : rocksdb::FSRandomAccessFileOwnerWrapper(std::move(base)), io_(io) {}

  rocksdb::IOStatus Read(uint64_t offset, size_t n,
                         const rocksdb::IOOptions& options,
                         rocksdb::Slice* result, char* scratch,
                         rocksdb::IODebugContext* dbg) const override {
    io_->BeforeRead();
    rocksdb::IOStatus status =
        target()->Read(offset, n, options, result, scratch, dbg);
    io_->AfterRead(result->size());
    return status;
  }

  rocksdb::IOStatus MultiRead(rocksdb::FSReadRequest* requests, size_t count,
                              const rocksdb::IOOptions& options,
                              rocksdb::IODebugContext* dbg) override {
    // One device round trip for the batch.
    io_->BeforeRead();
    rocksdb::IOStatus status =
        target()->MultiRead(requests, count, options, dbg);
    for (size_t i = 0; i < count; ++i) {
      io_->AfterRead(requests[i].result.size());
    }
    return status;
  }

 private:
  IoModel* const io_;
};

}  // namespace

rocksdb::IOStatus CountingFileSystem::NewRandomAccessFile(
    const std::string& name, const rocksdb::FileOptions& options,
    std::unique_ptr<rocksdb::FSRandomAccessFile>* result,
    rocksdb::IODebugContext* dbg) {
  std::unique_ptr<rocksdb::FSRandomAccessFile> base;
  rocksdb::IOStatus status =
      target()->NewRandomAccessFile(name, options, &base, dbg);
  if (status.ok()) {
    *result = std::make_unique<CountingFile>(std::move(base), io_);
  }
  return status;
}

EngineCounters RocksDBCounters(const IoModel& io,
                               rocksdb::Statistics& statistics,
                               RocksDBFilterQueries queries) {
  EngineCounters counters;
  counters.file_reads = io.reads();
  counters.file_bytes_read = io.bytes();
  counters.has_filter_counters = queries != RocksDBFilterQueries::kNone;
  if (queries == RocksDBFilterQueries::kWholeKey) {
    const uint64_t negatives =
        statistics.getTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
    counters.filter_checks =
        negatives +
        statistics.getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE);
    counters.filter_negatives = negatives;
    counters.filter_true_positives =
        statistics.getTickerCount(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);
  } else if (queries == RocksDBFilterQueries::kPrefixSeek) {
    counters.filter_checks =
        statistics.getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_CHECKED);
    counters.filter_negatives =
        statistics.getTickerCount(rocksdb::BLOOM_FILTER_PREFIX_USEFUL);
  }
  counters.has_block_cache_counters = true;
  counters.block_cache_hits =
      statistics.getTickerCount(rocksdb::BLOCK_CACHE_DATA_HIT);
  counters.block_cache_misses =
      statistics.getTickerCount(rocksdb::BLOCK_CACHE_DATA_MISS);
  return counters;
}

rocksdb::BlockBasedTableOptions RocksDBTableOptions(
    const EngineOptions& options, std::shared_ptr<rocksdb::Cache> block_cache) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.block_size = options.block_size;
  table_options.block_cache = std::move(block_cache);
  if (options.bloom_bits > 0) {
    table_options.filter_policy.reset(
        options.rocksdb_ribbon
            ? rocksdb::NewRibbonFilterPolicy(options.bloom_bits,
                                             /*bloom_before_level=*/-1)
            : rocksdb::NewBloomFilterPolicy(options.bloom_bits,
                                            /*use_block_based_builder=*/false));
  }
  return table_options;
}

}  // namespace db_bench
}  // namespace bloomtable
