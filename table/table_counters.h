// TableCounters: a table's event counters (TableStats), updated with relaxed
// atomics from any number of threads. Each counter is exact; a snapshot
// taken while other threads run is not a consistent cut across counters.
//
// A filter's answers are counted once each, as either a pass or a negative,
// and the checks are their sum: an absent key that the filter turns away then
// costs one atomic increment, not two (a locked increment is about as long as
// a whole-table filter probe).

#ifndef BLOOMTABLE_TABLE_TABLE_COUNTERS_H_
#define BLOOMTABLE_TABLE_TABLE_COUNTERS_H_

#include <atomic>
#include <cstdint>

#include "bloomtable/table.h"
#include "table/format.h"

namespace bloomtable {

// The answers of one filter: "maybe" (pass) or "absent" (negative).
struct FilterAnswerCounter {
  std::atomic<uint64_t> passes{0};
  std::atomic<uint64_t> negatives{0};

  // Counts one answer and returns it.
  bool Record(bool may_match) {
    (may_match ? passes : negatives).fetch_add(1, std::memory_order_relaxed);
    return may_match;
  }
  uint64_t Negatives() const {
    return negatives.load(std::memory_order_relaxed);
  }
  // Negatives first: a snapshot taken while threads run then never shows
  // more negatives than checks.
  uint64_t Checks() const {
    const uint64_t n = Negatives();
    return n + passes.load(std::memory_order_relaxed);
  }
};

struct TableCounters {
  FilterAnswerCounter filter;  // point lookups' filter (any layout)
  std::atomic<uint64_t> data_block_reads{0};
  std::atomic<uint64_t> bytes_read{0};
  std::atomic<uint64_t> checksum_failures{0};
  std::atomic<uint64_t> block_cache_hits{0};
  std::atomic<uint64_t> block_cache_misses{0};
  std::atomic<uint64_t> filter_partition_reads{0};
  std::atomic<uint64_t> multiget_io_uring_batches{0};
  std::atomic<uint64_t> multiget_pread_batches{0};
  std::atomic<uint64_t> multiget_coalesced_reads{0};
  FilterAnswerCounter prefix_filter;
  FilterAnswerCounter range_filter;

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
    stats.filter_negatives = filter.Negatives();
    stats.filter_checks = filter.Checks();
    stats.data_block_reads = data_block_reads.load(std::memory_order_relaxed);
    stats.bytes_read = bytes_read.load(std::memory_order_relaxed);
    stats.checksum_failures = checksum_failures.load(std::memory_order_relaxed);
    stats.block_cache_hits = block_cache_hits.load(std::memory_order_relaxed);
    stats.block_cache_misses =
        block_cache_misses.load(std::memory_order_relaxed);
    stats.filter_partition_reads =
        filter_partition_reads.load(std::memory_order_relaxed);
    stats.multiget_io_uring_batches =
        multiget_io_uring_batches.load(std::memory_order_relaxed);
    stats.multiget_pread_batches =
        multiget_pread_batches.load(std::memory_order_relaxed);
    stats.multiget_coalesced_reads =
        multiget_coalesced_reads.load(std::memory_order_relaxed);
    stats.prefix_filter_negatives = prefix_filter.Negatives();
    stats.prefix_filter_checks = prefix_filter.Checks();
    stats.range_filter_negatives = range_filter.Negatives();
    stats.range_filter_checks = range_filter.Checks();
    return stats;
  }
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_TABLE_COUNTERS_H_
