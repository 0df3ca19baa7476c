// TableFilter is the filter a Table consults on point lookups: chosen at Open
// among the filters the table's metaindex names ("filter.<name>" per-block,
// "fullfilter.<name>" whole-table) and the policies the options supply, read
// and checksum-verified once, then kept in memory.
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

#include "absl/status/status.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "filter/filter_block.h"
#include "table/block.h"
#include "table/format.h"
#include "table/table_counters.h"

namespace bloomtable {

// Metaindex key prefixes of the two filter layouts.
inline constexpr std::string_view kPerBlockFilterPrefix = "filter.";
inline constexpr std::string_view kWholeTableFilterPrefix = "fullfilter.";

// Reads and verifies the filter block whose encoded handle (a metaindex
// value) is `encoded_handle`, recording the read in *counters. DataLoss for
// a handle that does not decode, else ReadBlock's errors.
absl::StatusOr<BlockContents> ReadFilterBlock(
    const RandomAccessFile& file, std::string_view encoded_handle,
    const ReadBlockOptions& read_options, TableCounters* counters);

// The policy named `name` among options.filter_policy and
// options.extra_filter_policies, or null.
std::shared_ptr<const FilterPolicy> FindFilterPolicy(const Options& options,
                                                     std::string_view name);

class TableFilter {
 public:
  // Walks every metaindex entry (DataLoss if the metaindex is malformed,
  // which fails Open) and loads the best usable filter: whole-table before
  // per-block, then metaindex order. Sets *filter to null if none is usable,
  // and fills *info either way. Block reads are recorded in *counters.
  static absl::Status Load(const Options& options, const RandomAccessFile& file,
                           const Block& metaindex,
                           const ReadBlockOptions& read_options,
                           TableCounters* counters,
                           std::unique_ptr<TableFilter>* filter,
                           TableFilterInfo* info);

  TableFilter(const TableFilter&) = delete;
  TableFilter& operator=(const TableFilter&) = delete;
  ~TableFilter();

  FilterLayout layout() const { return layout_; }

  // Bytes of the filter block held in memory.
  size_t size() const { return contents_.data.size(); }

  // REQUIRES: layout() == kWholeTable. False only if `key` is certainly not
  // in the table.
  bool WholeTableMayMatch(std::string_view key) const {
    return whole_table_reader_->KeyMayMatch(key);
  }

  // REQUIRES: layout() == kPerBlock. False only if `key` is certainly not in
  // the data block starting at `block_offset`.
  bool BlockMayMatch(uint64_t block_offset, std::string_view key) const {
    return block_reader_->KeyMayMatch(block_offset, key);
  }

 private:
  TableFilter(FilterLayout layout, std::shared_ptr<const FilterPolicy> policy,
              BlockContents contents);

  const FilterLayout layout_;
  const std::shared_ptr<const FilterPolicy> policy_;
  const BlockContents contents_;  // the readers point into it
  std::unique_ptr<FilterBlockReader> block_reader_;
  std::unique_ptr<FilterReader> whole_table_reader_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_TABLE_FILTER_H_
