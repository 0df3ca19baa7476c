#include "db_bench/rocksdb_env.h"

#include <utility>

#include "db_bench/peer_iterator.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice_transform.h"

namespace bloomtable {
namespace db_bench {
namespace {

class CountingFile final : public rocksdb::FSRandomAccessFileOwnerWrapper {
 public:
  CountingFile(std::unique_ptr<rocksdb::FSRandomAccessFile> base,
               ReadCounters* io)
      : rocksdb::FSRandomAccessFileOwnerWrapper(std::move(base)), io_(io) {}

  rocksdb::IOStatus Read(uint64_t offset, size_t n,
                         const rocksdb::IOOptions& options,
                         rocksdb::Slice* result, char* scratch,
                         rocksdb::IODebugContext* dbg) const override {
    rocksdb::IOStatus status =
        target()->Read(offset, n, options, result, scratch, dbg);
    io_->Add(result->size());
    return status;
  }

  rocksdb::IOStatus MultiRead(rocksdb::FSReadRequest* requests, size_t count,
                              const rocksdb::IOOptions& options,
                              rocksdb::IODebugContext* dbg) override {
    rocksdb::IOStatus status =
        target()->MultiRead(requests, count, options, dbg);
    for (size_t i = 0; i < count; ++i) io_->Add(requests[i].result.size());
    return status;
  }

 private:
  ReadCounters* const io_;
};

// RocksDB's default file system, with counting random-access files.
class CountingFileSystem final : public rocksdb::FileSystemWrapper {
 public:
  explicit CountingFileSystem(ReadCounters* io)
      : rocksdb::FileSystemWrapper(rocksdb::FileSystem::Default()), io_(io) {}

  const char* Name() const override { return "DbBenchCountingFileSystem"; }

  rocksdb::IOStatus NewRandomAccessFile(
      const std::string& name, const rocksdb::FileOptions& options,
      std::unique_ptr<rocksdb::FSRandomAccessFile>* result,
      rocksdb::IODebugContext* dbg) override {
    std::unique_ptr<rocksdb::FSRandomAccessFile> base;
    rocksdb::IOStatus status =
        target()->NewRandomAccessFile(name, options, &base, dbg);
    if (status.ok()) {
      *result = std::make_unique<CountingFile>(std::move(base), io_);
    }
    return status;
  }

 private:
  ReadCounters* const io_;
};

// The bounds a scan's rocksdb::ReadOptions point to.
struct ScanBounds {
  ScanBounds(std::string_view lower_bytes, std::string_view upper_bytes)
      : lower_copy(lower_bytes),
        upper_copy(upper_bytes),
        lower(lower_copy),
        upper(upper_copy) {}

  const std::string lower_copy;
  const std::string upper_copy;
  const rocksdb::Slice lower;
  const rocksdb::Slice upper;
};

}  // namespace

std::shared_ptr<rocksdb::FileSystem> NewCountingFileSystem(ReadCounters* io) {
  return std::make_shared<CountingFileSystem>(io);
}

RocksDBSetup::RocksDBSetup(const EngineOptions& options)
    : options_(options),
      file_system_(NewCountingFileSystem(&io_)),
      env_(rocksdb::NewCompositeEnv(file_system_)),
      statistics_(rocksdb::CreateDBStatistics()),
      block_cache_(options.direct_io
                       ? nullptr
                       : rocksdb::NewLRUCache(options.cache_size)) {
  statistics_->set_stats_level(rocksdb::StatsLevel::kExceptHistogramOrTimers);
  read_options_.verify_checksums = options.verify_checksums;
}

rocksdb::Options RocksDBSetup::Options(bool whole_key_filtering) const {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.block_size = options_.block_size;
  table_options.block_cache = block_cache_;
  table_options.no_block_cache = options_.direct_io;
  table_options.whole_key_filtering = whole_key_filtering;
  if (options_.bloom_bits > 0) {
    table_options.filter_policy.reset(
        options_.rocksdb_ribbon
            ? rocksdb::NewRibbonFilterPolicy(options_.bloom_bits,
                                             /*bloom_before_level=*/-1)
            : rocksdb::NewBloomFilterPolicy(options_.bloom_bits,
                                            /*use_block_based_builder=*/false));
  }
  rocksdb::Options options;
  options.env = env_.get();
  options.statistics = statistics_;
  options.allow_mmap_reads = options_.mmap_reads;
  options.use_direct_reads = options_.direct_io;
  options.compression =
      options_.snappy ? rocksdb::kSnappyCompression : rocksdb::kNoCompression;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  if (options_.rocksdb_prefix_length > 0) {
    options.prefix_extractor.reset(
        rocksdb::NewFixedPrefixTransform(options_.rocksdb_prefix_length));
  }
  return options;
}

EngineCounters RocksDBSetup::Counters(RocksDBFilterQueries queries,
                                      bool and_prefix_checks) const {
  EngineCounters counters;
  counters.file_reads = io_.reads.Sum();
  counters.file_bytes_read = io_.bytes.Sum();
  counters.has_filter_counters = queries != RocksDBFilterQueries::kNone;
  const auto ticker = [this](rocksdb::Tickers t) {
    return statistics_->getTickerCount(t);
  };
  if (queries == RocksDBFilterQueries::kWholeKey) {
    counters.filter_negatives = ticker(rocksdb::BLOOM_FILTER_USEFUL);
    counters.filter_checks =
        counters.filter_negatives + ticker(rocksdb::BLOOM_FILTER_FULL_POSITIVE);
    counters.filter_true_positives =
        ticker(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);
  }
  if (queries == RocksDBFilterQueries::kPrefixSeek || and_prefix_checks) {
    counters.filter_checks += ticker(rocksdb::BLOOM_FILTER_PREFIX_CHECKED);
    counters.filter_negatives += ticker(rocksdb::BLOOM_FILTER_PREFIX_USEFUL);
  }
  counters.has_block_cache_counters = true;
  counters.block_cache_hits = ticker(rocksdb::BLOCK_CACHE_DATA_HIT);
  counters.block_cache_misses = ticker(rocksdb::BLOCK_CACHE_DATA_MISS);
  return counters;
}

MemorySummary RocksDBSetup::CacheMemory(std::string sources) const {
  MemorySummary memory;
  if (block_cache_ != nullptr) {
    memory.block_cache_usage = block_cache_->GetUsage();
    memory.block_cache_capacity = block_cache_->GetCapacity();
  }
  memory.sources = std::move(sources);
  return memory;
}

std::unique_ptr<EngineIterator> NewRocksDBScan(
    const rocksdb::ReadOptions& base, bool auto_prefix_mode,
    std::string_view lower, std::string_view upper,
    const std::function<rocksdb::Iterator*(const rocksdb::ReadOptions&)>&
        make) {
  auto bounds = std::make_shared<const ScanBounds>(lower, upper);
  rocksdb::ReadOptions options = base;
  options.iterate_lower_bound = &bounds->lower;
  options.iterate_upper_bound = &bounds->upper;
  // auto_prefix_mode asks the prefix filter only where the result is the
  // total order's; without it, a prefix-mode seek would confine the scan to
  // the lower bound's prefix.
  options.auto_prefix_mode = auto_prefix_mode;
  options.total_order_seek = !auto_prefix_mode;
  std::unique_ptr<rocksdb::Iterator> iter(make(options));
  iter->Seek(bounds->lower);
  // The iterator keeps a copy of the options, whose bounds point into
  // `bounds`: the scan holds them for as long as it lives.
  return std::make_unique<PeerIterator<rocksdb::Iterator>>(std::move(iter),
                                                           std::move(bounds));
}

}  // namespace db_bench
}  // namespace bloomtable
