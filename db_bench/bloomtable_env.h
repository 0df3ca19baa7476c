// What db_bench's bloomtable engines (bloomtable's tables, and its read-only
// Database view) set up from their EngineOptions, in one place:
// BloomtableSetup holds one LRU block cache of --cache_size bytes (none with
// EngineOptions::direct_io) and wraps every table file to count its reads
// and bytes (one FileReadCounters).
// Thread-safe; it must outlive the files it wrapped. PinningReader is the
// readers' zero-copy lookup.

#ifndef BLOOMTABLE_DB_BENCH_BLOOMTABLE_ENV_H_
#define BLOOMTABLE_DB_BENCH_BLOOMTABLE_ENV_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "bloomtable/cache.h"
#include "bloomtable/file.h"
#include "bloomtable/pinned_value.h"
#include "db_bench/engine.h"
#include "db_bench/peer_iterator.h"

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

// A reader of a bloomtable engine's store (a Table or a Database) that keeps
// one PinnedValue: Get is the engine's copying Get, GetPinned the store's
// Get into the PinnedValue, whose value stays valid until the next call.
// Not thread-safe (one per thread, as every EngineReader).
template <typename Store, typename StoreReadOptions>
class PinningReader final : public EngineReader {
 public:
  PinningReader(const Engine* engine, const Store* store,
                const StoreReadOptions& read_options)
      : engine_(engine), store_(store), read_options_(read_options) {}

  absl::Status Get(std::string_view key, std::string* value) override {
    return engine_->Get(key, value);
  }

  absl::Status GetPinned(std::string_view key,
                         std::string_view* value) override {
    const absl::Status status = store_->Get(read_options_, key, &pinned_);
    *value = pinned_.view();
    return status;
  }

 private:
  const Engine* const engine_;
  const Store* const store_;
  const StoreReadOptions read_options_;
  PinnedValue pinned_;
};

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_BLOOMTABLE_ENV_H_
