// What `dump` and `stats` report about a table's filter: which policy and
// layout, how many filters and bytes, how many keys they cover, and for
// LevelDB's Bloom (whose bytes are self-describing) the probe count, the
// fraction of bits set and the false-positive rate that fraction implies.
//
// The per-block layout is parsed here from FORMAT.md rather than through
// filter/filter_block.h, whose reader answers queries but does not expose
// individual filters. Damaged bytes are described, never trusted for sizes.
// Pure functions, safe from any thread.

#ifndef BLOOMTABLE_TOOLS_FILTER_ANALYSIS_H_
#define BLOOMTABLE_TOOLS_FILTER_ANALYSIS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "table/format.h"
#include "tools/table_walker.h"

namespace bloomtable {
namespace tool {

// A data block's start offset and entry count: which filter covers it.
struct DataBlockKeys {
  uint64_t offset = 0;
  uint64_t entries = 0;
};

struct FilterAnalysis {
  // "filter.<policy>", "fullfilter.<policy>" or "partitionedfilter.<policy>",
  // and the policy's name, both escaped as scan prints bytes (they come from
  // the file).
  std::string metaindex_key;
  std::string policy_name;
  bool whole_table = false;  // fullfilter.<policy>
  bool partitioned = false;  // partitionedfilter.<policy>
  BlockHandle handle;        // the filter block
  uint64_t num_filters = 0;
  // The filters themselves: the per-block offset array excluded, a
  // partitioned filter's top-level index included.
  uint64_t filter_bytes = 0;
  uint64_t keys_covered = 0;  // entries of the data blocks covered
  double bits_per_key = 0;    // filter_bytes * 8 / keys_covered

  // LevelDB's Bloom only (leveldb.BuiltinBloomFilter2).
  bool has_bloom_details = false;
  int min_probes = 0;  // k, over the non-empty filters
  int max_probes = 0;
  double fraction_bits_set = 0;
  // The mean over keys of (fraction of the filter's bits set)^k: the chance
  // that an absent key whose block it would be in passes its filter.
  double estimated_false_positive_rate = 0;

  // Non-empty if the layout does not parse or a filter is malformed (the
  // table is then read without its filter, or with "maybe" for that block).
  std::string problem;
};

// Analyses filter block `contents` found under `metaindex_key` at `handle`
// (for a partitioned filter, its top-level index, and `partitions` the
// partitions' bytes), given the data blocks of the table.
FilterAnalysis AnalyzeFilter(std::string_view metaindex_key,
                             const BlockHandle& handle,
                             std::string_view contents,
                             const std::vector<std::string_view>& partitions,
                             const std::vector<DataBlockKeys>& data_blocks);

// Bytes the filter takes in the file, trailers excluded: its block, and for
// a partitioned filter every partition too.
inline uint64_t StoredBytes(const FilterAnalysis& analysis) {
  return analysis.partitioned ? analysis.filter_bytes : analysis.handle.size();
}

// The layout's name in the tool's output: "per_block", "whole_table" or
// "partitioned"; with `spaced`, words ("per block", ...).
std::string LayoutName(const FilterAnalysis& analysis, bool spaced);

// Appends the analysis of every filter block the walker read (the meta
// blocks its metaindex names as filters) to `filters`, in metaindex order.
void AnalyzeFilterBlocks(const TableWalker& walker,
                         const std::vector<DataBlockKeys>& data_blocks,
                         std::vector<FilterAnalysis>* filters);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_FILTER_ANALYSIS_H_
