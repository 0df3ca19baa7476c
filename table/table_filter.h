// TableFilter is the filter a Table consults on point lookups: chosen at Open
// among the filters the table's metaindex names ("filter.<name>" per-block,
// "fullfilter.<name>" whole-table, "partitionedfilter.<name>" partitioned)
// and the policies the options supply, read and checksum-verified once, then
// kept in memory (a partitioned filter's partitions may instead be read on
// demand through the block cache: PartitionedFilter).
//
// A filter whose policy is unknown, whose block fails to read or verify, or
// whose per-block structure does not parse is not loaded: the table is read
// without a filter (never a false "absent"), and TableFilterInfo says why.
// Immutable after Load: safe for concurrent queries.

#ifndef BLOOMTABLE_TABLE_TABLE_FILTER_H_
#define BLOOMTABLE_TABLE_TABLE_FILTER_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "filter/filter_block.h"
#include "table/block.h"
#include "table/format.h"
#include "table/partitioned_filter.h"
#include "table/table_counters.h"
#include "table/table_structure.h"

namespace bloomtable {

// What a partitioned filter needs beyond the filter block: where its
// partitions may be cached (null: all read at Open and held) and where the
// filter region ends (the metaindex block's offset).
struct PartitionSource {
  Cache* cache = nullptr;
  uint64_t cache_id = 0;
  uint64_t region_end = 0;
};

// Reads and verifies the filter block at `handle` (a metaindex entry's),
// recording the read in *counters. ReadBlock's errors.
absl::StatusOr<BlockContents> ReadFilterBlock(
    const RandomAccessFile& file, const BlockHandle& handle,
    const ReadBlockOptions& read_options, TableCounters* counters);

// The policy named `name` among options.filter_policy and
// options.extra_filter_policies, or null.
std::shared_ptr<const FilterPolicy> FindFilterPolicy(const Options& options,
                                                     std::string_view name);

class TableFilter {
 public:
  // Loads the best usable filter among the `metaindex` entries: whole-table,
  // then partitioned, then per-block, then metaindex order. Sets *filter to
  // null if none is usable, and fills *info either way (a damaged filter
  // block is not an error: info->unused_reason words its damage as
  // table/corruption.h does). Block reads are recorded in *counters, which
  // must outlive the filter, as must `file`.
  static void Load(const Options& options, const RandomAccessFile& file,
                   const std::vector<MetaindexEntry>& metaindex,
                   const ReadBlockOptions& read_options,
                   const PartitionSource& partitions, TableCounters* counters,
                   std::unique_ptr<TableFilter>* filter, TableFilterInfo* info);

  TableFilter(const TableFilter&) = delete;
  TableFilter& operator=(const TableFilter&) = delete;
  ~TableFilter();

  FilterLayout layout() const { return layout_; }

  // Bytes of filter held in memory for the table's life.
  size_t size() const {
    return partitioned_ != nullptr ? partitioned_->PinnedBytes()
                                   : contents_.data.size();
  }

  // REQUIRES: layout() != kPerBlock. False only if `key` is certainly not in
  // the table.
  bool TableMayMatch(std::string_view key) const {
    return partitioned_ != nullptr ? partitioned_->KeyMayMatch(key)
                                   : whole_table_reader_->KeyMayMatch(key);
  }

  // REQUIRES: layout() != kPerBlock. Prefetches what TableMayMatch(key)
  // will read (FilterReader::Prefetch).
  void PrefetchTable(std::string_view key) const {
    if (partitioned_ != nullptr) {
      partitioned_->Prefetch(key);
    } else {
      whole_table_reader_->Prefetch(key);
    }
  }

  // REQUIRES: layout() == kPerBlock. False only if `key` is certainly not in
  // the data block starting at `block_offset`.
  bool BlockMayMatch(uint64_t block_offset, std::string_view key) const {
    return block_reader_->KeyMayMatch(block_offset, key);
  }
  // REQUIRES: layout() == kPerBlock. Prefetches the filter that
  // BlockMayMatch(block_offset, ...) will ask.
  void PrefetchBlock(uint64_t block_offset) const {
    block_reader_->Prefetch(block_offset);
  }

 private:
  TableFilter(FilterLayout layout, std::shared_ptr<const FilterPolicy> policy,
              BlockContents contents);

  const FilterLayout layout_;
  const std::shared_ptr<const FilterPolicy> policy_;
  const BlockContents contents_;  // the readers point into it
  std::unique_ptr<FilterBlockReader> block_reader_;
  std::unique_ptr<FilterReader> whole_table_reader_;
  std::unique_ptr<PartitionedFilter> partitioned_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_TABLE_FILTER_H_
