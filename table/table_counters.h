// TableCounters: a table's event counters (TableStats), updated with relaxed
// atomics from any number of threads. Each counter is exact; a snapshot
// taken while other threads run is not a consistent cut across counters.

#ifndef BLOOMTABLE_TABLE_TABLE_COUNTERS_H_
#define BLOOMTABLE_TABLE_TABLE_COUNTERS_H_

#include <atomic>
#include <cstdint>

#include "bloomtable/table.h"
#include "table/format.h"

namespace bloomtable {

struct TableCounters {
  std::atomic<uint64_t> filter_checks{0};
  std::atomic<uint64_t> filter_negatives{0};
  std::atomic<uint64_t> data_block_reads{0};
  std::atomic<uint64_t> bytes_read{0};
  std::atomic<uint64_t> checksum_failures{0};
  std::atomic<uint64_t> block_cache_hits{0};
  std::atomic<uint64_t> block_cache_misses{0};
  std::atomic<uint64_t> filter_partition_reads{0};
  std::atomic<uint64_t> prefix_filter_checks{0};
  std::atomic<uint64_t> prefix_filter_negatives{0};
  std::atomic<uint64_t> range_filter_checks{0};
  std::atomic<uint64_t> range_filter_negatives{0};

  static void Add(std::atomic<uint64_t>& counter, uint64_t n) {
    counter.fetch_add(n, std::memory_order_relaxed);
  }

  // Records the outcome of one block read (any block: footer-level reads at
  // Open count their bytes too).
  void RecordRead(const BlockReadReport& report) {
    Add(bytes_read, report.bytes_read);
    if (report.checksum_mismatch) Add(checksum_failures, 1);
  }

  TableStats Snapshot() const {
    TableStats stats;
    stats.filter_checks = filter_checks.load(std::memory_order_relaxed);
    stats.filter_negatives = filter_negatives.load(std::memory_order_relaxed);
    stats.data_block_reads = data_block_reads.load(std::memory_order_relaxed);
    stats.bytes_read = bytes_read.load(std::memory_order_relaxed);
    stats.checksum_failures = checksum_failures.load(std::memory_order_relaxed);
    stats.block_cache_hits = block_cache_hits.load(std::memory_order_relaxed);
    stats.block_cache_misses =
        block_cache_misses.load(std::memory_order_relaxed);
    stats.filter_partition_reads =
        filter_partition_reads.load(std::memory_order_relaxed);
    stats.prefix_filter_checks =
        prefix_filter_checks.load(std::memory_order_relaxed);
    stats.prefix_filter_negatives =
        prefix_filter_negatives.load(std::memory_order_relaxed);
    stats.range_filter_checks =
        range_filter_checks.load(std::memory_order_relaxed);
    stats.range_filter_negatives =
        range_filter_negatives.load(std::memory_order_relaxed);
    return stats;
  }
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_TABLE_COUNTERS_H_
