// What `dump` and `stats` report about a table's scan filters: the prefix
// filter ("prefixfilter.<policy>": policy, extractor, whether whole keys are
// in it, its size per key) and the range filter ("rangefilter.<name>": keys,
// stored bits per key, the range length its bound holds for). A block that
// does not parse is described by `problem` (the table then reads without
// it). Pure functions, except AnalyzeScanFilterBlocks, which reads through
// the TableWalker it is given. ScanFilterCheck is what `verify` checks keys
// against.

#ifndef BLOOMTABLE_TOOLS_SCAN_FILTER_ANALYSIS_H_
#define BLOOMTABLE_TOOLS_SCAN_FILTER_ANALYSIS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/prefix_extractor.h"
#include "filter/range_filter.h"
#include "nlohmann/json.hpp"
#include "table/format.h"
#include "table/prefix_filter_block.h"
#include "tools/table_walker.h"

namespace bloomtable {
namespace tool {

struct ScanFilterAnalysis {
  // The metaindex key and the filter's name (policy or range filter), as
  // scan prints bytes.
  std::string metaindex_key;
  std::string name;
  bool is_range = false;  // a range filter, else a prefix filter
  BlockHandle handle;
  // Bits of the block per key of the table (range: as the filter counts its
  // keys, distinct user keys).
  double bits_per_key = 0;

  // Prefix filters.
  std::string extractor;
  bool whole_keys = false;

  // Range filters.
  uint64_t num_keys = 0;
  uint64_t max_range_length = 0;

  std::string problem;  // non-empty if the block does not parse
};

// Analyses the block `contents` found under `metaindex_key` at `handle`, in
// a table of `entries` entries. False if the key names no scan filter.
bool AnalyzeScanFilter(std::string_view metaindex_key,
                       const BlockHandle& handle, std::string_view contents,
                       uint64_t entries, ScanFilterAnalysis* analysis);

// Appends the analysis of every scan filter block among the meta blocks the
// walker read (and checked), in metaindex order.
void AnalyzeScanFilterBlocks(const TableWalker& walker, uint64_t entries,
                             std::vector<ScanFilterAnalysis>* filters);

// A scan filter that `verify` checks every key against: a prefix filter
// (its whole keys, and the key's prefix when the extractor it names is a
// built-in one) or a range filter (the key as a one-key range). Immutable;
// reads the block's bytes in place, which must outlive it.
class ScanFilterCheck {
 public:
  // For the metaindex entry `metaindex_key` whose block is `contents`: null
  // if the key names no scan filter, or one the tool cannot read (a policy
  // or range filter it does not know); DataLoss if the block does not parse.
  static absl::StatusOr<std::unique_ptr<ScanFilterCheck>> Make(
      std::string_view metaindex_key, std::string_view block);

  ~ScanFilterCheck();
  std::string_view name() const { return name_; }
  // False only if the filter says `user_key` is not in the table.
  bool KeyMayMatch(std::string_view user_key) const;

 private:
  ScanFilterCheck() = default;

  std::string name_;
  std::shared_ptr<const FilterPolicy> policy_;
  std::shared_ptr<const PrefixExtractor> extractor_;
  std::unique_ptr<PrefixFilterReader> prefix_;
  std::unique_ptr<RangeFilterReader> range_;
};

// One line for `stats`, e.g. "range filter:       bloomtable.Grafite, ...".
std::string ScanFilterSummary(const ScanFilterAnalysis& filter);
// The fields `dump --json` and `stats --json` print.
nlohmann::json ScanFilterJson(const ScanFilterAnalysis& filter);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_SCAN_FILTER_ANALYSIS_H_
