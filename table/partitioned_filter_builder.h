// PartitionedFilterBuilder builds the partitioned filter layout
// ("partitionedfilter.<name>", docs/FORMAT.md): the table's keys are cut into
// consecutive ranges of about `keys_per_partition` distinct keys, each range
// gets a whole-table-style filter of the policy (a "partition"), and a small
// top-level index maps each partition's separator key to its block. A reader
// then keeps only the top-level index in memory and loads the one partition a
// lookup needs, through the block cache.
//
// Keys are the filter's keys (user keys in LevelDB-internal tables), in the
// order of `comparator`; a key equal to the one before it is not added again,
// so that one key never spans two partitions.
//
// Call order: (AddKey)* Finish. Single-threaded; `policy` and `comparator`
// must outlive the builder.

#ifndef BLOOMTABLE_TABLE_PARTITIONED_FILTER_BUILDER_H_
#define BLOOMTABLE_TABLE_PARTITIONED_FILTER_BUILDER_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/comparator.h"
#include "bloomtable/filter_policy.h"
#include "table/format.h"

namespace bloomtable {

class PartitionedFilterBuilder {
 public:
  PartitionedFilterBuilder(const FilterPolicy* policy,
                           const Comparator* comparator,
                           size_t keys_per_partition);
  PartitionedFilterBuilder(const PartitionedFilterBuilder&) = delete;
  PartitionedFilterBuilder& operator=(const PartitionedFilterBuilder&) = delete;

  void AddKey(std::string_view key);

  // Writes every partition through `write_block` (contents in, handle out;
  // the first error stops and is returned), then sets *top_level_index to the
  // top-level index block's contents, for the caller to write. A builder
  // with no keys writes no partition and an empty top-level index.
  using WriteBlockFunction =
      std::function<absl::Status(std::string_view contents, BlockHandle*)>;
  absl::Status Finish(const WriteBlockFunction& write_block,
                      std::string* top_level_index);

 private:
  // Builds the current partition's filter, with `separator` as its key in
  // the top-level index.
  void CutPartition(const std::string& separator);

  const FilterPolicy* const policy_;
  const Comparator* const comparator_;
  const size_t keys_per_partition_;

  // The current partition's keys, concatenated, and where each starts.
  std::string keys_;
  std::vector<size_t> key_starts_;
  std::string last_key_;

  // Finished partitions: their separators and filters, written at Finish.
  std::vector<std::string> separators_;
  std::vector<std::string> filters_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_PARTITIONED_FILTER_BUILDER_H_
