// ScanFilters are the filters a Table consults for scans: the prefix filter
// ("prefixfilter.<policy>", Options::prefix_extractor) and the range filter
// ("rangefilter.<name>"). Loaded at Open from the metaindex, read and
// checksum-verified once, then kept in memory. Load reads at most one
// prefix filter block per policy the options supply and one range filter
// block, whatever the metaindex repeats: a damaged metaindex that names a
// failing block many times costs one read, not one per entry.
//
// A block that fails to read, verify or parse is not loaded, and the table
// is scanned without it: "no filter", never "empty". The prefix filter also
// serves point lookups when the table has no other filter.
//
// Every query is counted in the table's counters (TableStats). Immutable
// after Load: safe for concurrent queries.

#ifndef BLOOMTABLE_TABLE_SCAN_FILTERS_H_
#define BLOOMTABLE_TABLE_SCAN_FILTERS_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/prefix_extractor.h"
#include "bloomtable/table.h"
#include "filter/range_filter.h"
#include "table/block.h"
#include "table/format.h"
#include "table/prefix_filter_block.h"
#include "table/table_counters.h"
#include "table/table_structure.h"

namespace bloomtable {

// The metaindex key prefix of range filters.
inline constexpr std::string_view kRangeFilterMetaPrefix = "rangefilter.";

class ScanFilters {
 public:
  // Walks the metaindex for scan filters and loads those it can. Sets
  // *filters to null if none is usable, and fills *info either way. Block
  // reads are recorded in *counters, which must outlive the filters: their
  // queries are counted there too. DataLoss only if the metaindex itself is
  // malformed.
  static void Load(const Options& options, const RandomAccessFile& file,
                   const std::vector<MetaindexEntry>& metaindex,
                   const ReadBlockOptions& read_options,
                   TableCounters* counters,
                   std::unique_ptr<ScanFilters>* filters, ScanFilterInfo* info);

  // The same filters from blocks kept outside the table (a sidecar filter
  // file's): `prefix_block` a prefix filter block built with the policy
  // named `prefix_policy_name`, `range_block` a range filter; an empty block
  // means none. Each is used as Load would use it read from a table.
  static void FromBlocks(const Options& options,
                         std::string_view prefix_policy_name,
                         std::string_view prefix_block,
                         std::string_view range_block, TableCounters* counters,
                         std::unique_ptr<ScanFilters>* filters,
                         ScanFilterInfo* info);

  ScanFilters(const ScanFilters&) = delete;
  ScanFilters& operator=(const ScanFilters&) = delete;
  ~ScanFilters();

  // Point lookups: whether the prefix filter can say a key is absent, and
  // its answer for `user_key` (counted by the caller as a point lookup).
  bool CanAnswerKeys() const {
    return prefix_ != nullptr && prefix_->CanAnswerKeys();
  }
  bool KeyMayMatch(std::string_view user_key) const {
    return prefix_->KeyMayMatch(user_key);
  }

  // The extractor whose prefixes the filter holds (the options' own), or
  // null if the prefixes are not usable.
  const PrefixExtractor* prefix_extractor() const {
    return prefix_ != nullptr ? prefix_->extractor() : nullptr;
  }
  // False only if no key has `prefix`. REQUIRES: prefix_extractor().
  bool PrefixMayMatch(std::string_view prefix) const;

  // Whether RangeMayMatch can ever say "no": the comparator is bytewise and
  // a range or usable prefix filter is loaded.
  bool CanAnswerRanges() const;
  // False only if no user key lies in [lo, hi) (bytewise; lo >= hi is
  // empty). If `ask_prefix`, asks the prefix filter when every key of
  // [lo, hi) would share lo's prefix; then the range filter.
  // REQUIRES: CanAnswerRanges().
  bool RangeMayMatch(std::string_view lo, std::string_view hi,
                     bool ask_prefix) const;

  // Bytes of filter blocks held in memory.
  size_t size() const;

 private:
  explicit ScanFilters(TableCounters* counters, bool bytewise);

  // Load's and FromBlocks' first and last steps: clear the outputs and make
  // an empty set; hand it over if it holds a filter.
  static std::unique_ptr<ScanFilters> Start(
      const Options& options, TableCounters* counters,
      std::unique_ptr<ScanFilters>* filters, ScanFilterInfo* info);
  static void KeepIfAny(std::unique_ptr<ScanFilters> loaded,
                        std::unique_ptr<ScanFilters>* filters);

  // Reads a filter block when it is needed (from the table file, or from
  // memory for FromBlocks).
  using BlockSource = std::function<absl::StatusOr<BlockContents>()>;

  // Load's two parts, for the metaindex entry `key`, whose block `read`
  // gives.
  void LoadPrefixFilter(const Options& options, std::string_view key,
                        const BlockSource& read, ScanFilterInfo* info);
  void LoadRangeFilter(std::string_view key, const BlockSource& read,
                       ScanFilterInfo* info);

  TableCounters* const counters_;
  // Ranges only make sense in the order the filters were built in.
  const bool bytewise_;
  std::shared_ptr<const FilterPolicy> prefix_policy_;
  std::shared_ptr<const PrefixExtractor> prefix_extractor_;
  BlockContents prefix_contents_;  // prefix_ points into it
  std::unique_ptr<PrefixFilterReader> prefix_;
  BlockContents range_contents_;  // range_ points into it
  std::unique_ptr<RangeFilterReader> range_;
  // What Load has read already, so that no metaindex, however it repeats
  // its entries, makes it read more than one prefix filter block per
  // policy and one range filter block.
  std::vector<const FilterPolicy*> prefix_policies_read_;
  bool range_read_ = false;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_SCAN_FILTERS_H_
