// What db_bench's bloomtable engines (bloomtable's tables, and its read-only
// Database view) set up from their EngineOptions, in one place:
// BloomtableSetup holds one LRU block cache of --cache_size bytes (none with
// EngineOptions::direct_io) and wraps every table file to count its reads
// and bytes (one FileReadCounters).
// Thread-safe; it must outlive the files it wrapped.
//
// BloomtableIterator<Inner> is an EngineIterator over one of bloomtable's own
// iterators (a table's or a Database's), which it owns. Like the iterator it
// wraps, it is not safe for concurrent use.

#ifndef BLOOMTABLE_DB_BENCH_BLOOMTABLE_ENV_H_
#define BLOOMTABLE_DB_BENCH_BLOOMTABLE_ENV_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "bloomtable/cache.h"
#include "bloomtable/file.h"
#include "db_bench/engine.h"

namespace bloomtable {
namespace db_bench {

class BloomtableSetup {
 public:
  explicit BloomtableSetup(const EngineOptions& options)
      : counters_(std::make_shared<FileReadCounters>()),
        block_cache_(options.direct_io ? nullptr
                                       : NewLRUCache(options.cache_size)) {}

  // `file`, counted.
  std::unique_ptr<RandomAccessFile> Wrap(
      std::unique_ptr<RandomAccessFile> file) const {
    return NewCountingRandomAccessFile(std::move(file), counters_);
  }

  const std::shared_ptr<Cache>& block_cache() const { return block_cache_; }
  uint64_t file_reads() const {
    return counters_->reads.load(std::memory_order_relaxed);
  }

  // Table-file reads and bytes; the tables' own counters are the engine's.
  EngineCounters Counters() const {
    EngineCounters counters;
    counters.file_reads = file_reads();
    counters.file_bytes_read = counters_->bytes.load(std::memory_order_relaxed);
    return counters;
  }

  // The block cache's usage and capacity, with `sources`.
  MemorySummary CacheMemory(std::string sources) const {
    MemorySummary memory;
    if (block_cache_ != nullptr) {
      memory.block_cache_usage = block_cache_->usage();
      memory.block_cache_capacity = block_cache_->capacity();
    }
    memory.sources = std::move(sources);
    return memory;
  }

 private:
  const std::shared_ptr<FileReadCounters> counters_;
  const std::shared_ptr<Cache> block_cache_;
};

template <typename Inner>
class BloomtableIterator final : public EngineIterator {
 public:
  explicit BloomtableIterator(std::unique_ptr<Inner> inner)
      : inner_(std::move(inner)) {}

  void SeekToFirst() override { inner_->SeekToFirst(); }
  void Seek(std::string_view target) override { inner_->Seek(target); }
  void Next() override { inner_->Next(); }
  bool Valid() const override { return inner_->Valid(); }
  std::string_view key() const override { return inner_->key(); }
  std::string_view value() const override { return inner_->value(); }
  absl::Status status() const override { return inner_->status(); }

 private:
  const std::unique_ptr<Inner> inner_;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_BLOOMTABLE_ENV_H_
