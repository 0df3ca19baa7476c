// PartitionedFilter reads the partitioned filter layout
// ("partitionedfilter.<name>", docs/FORMAT.md; written by
// PartitionedFilterBuilder): a top-level index block whose entries map a
// separator key to the block of one partition, a filter of the policy over
// the keys up to that separator.
//
// Open checks the top-level index once (entries decode, separators strictly
// increase, every handle lies before the metaindex) and keeps it. A lookup
// searches it and asks the one partition that can hold the key. Partitions
// are either all read at Open and held for the table's life, or read on
// demand and kept in the block cache, where they may be evicted (the table
// then holds only the top-level index).
//
// Never a false "absent" from a damaged partition: a partition that cannot
// be read, fails its checksum or does not parse answers "maybe". The
// guarantee for intact bytes rests on the checksums, as for every filter.
//
// Thread-safety: immutable after Open; KeyMayMatch may be called from many
// threads at once. The file, counters and cache must outlive the object.

#ifndef BLOOMTABLE_TABLE_PARTITIONED_FILTER_H_
#define BLOOMTABLE_TABLE_PARTITIONED_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/cache.h"
#include "bloomtable/comparator.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "table/block.h"
#include "table/format.h"
#include "table/table_counters.h"

namespace bloomtable {

class PartitionedFilter {
 public:
  // Where partitions come from.
  struct Source {
    const RandomAccessFile* file = nullptr;
    ReadBlockOptions read_options;  // checksums always verified
    TableCounters* counters = nullptr;
    // Partitions read on demand are cached here under `cache_id`; null:
    // every partition is read at Open and held.
    Cache* cache = nullptr;
    uint64_t cache_id = 0;
    // Partitions lie before this file offset (the metaindex block's).
    uint64_t region_end = 0;
  };

  // `top_level` is the top-level index block's contents. DataLoss if it is
  // malformed; a partition that fails to load at Open answers "maybe".
  static absl::StatusOr<std::unique_ptr<PartitionedFilter>> Open(
      std::shared_ptr<const FilterPolicy> policy, const Comparator* comparator,
      BlockContents top_level, const Source& source);

  PartitionedFilter(const PartitionedFilter&) = delete;
  PartitionedFilter& operator=(const PartitionedFilter&) = delete;
  ~PartitionedFilter();

  // False only if `key` is certainly not in the table.
  bool KeyMayMatch(std::string_view key) const;

  // Bytes held for the table's life: the top-level index, and the
  // partitions when they are all held.
  size_t PinnedBytes() const { return pinned_bytes_; }

  size_t num_partitions() const { return handles_.size(); }

 private:
  struct Partition;

  PartitionedFilter(std::shared_ptr<const FilterPolicy> policy,
                    const Comparator* comparator,
                    std::shared_ptr<const Block> top_level,
                    const Source& source);

  // Reads and parses the partition at `handle`; null if it cannot be used.
  std::shared_ptr<const Partition> LoadPartition(
      const BlockHandle& handle) const;
  // The partition at index `i` of the top-level index: held, cached or read.
  std::shared_ptr<const Partition> GetPartition(size_t i) const;

  const std::shared_ptr<const FilterPolicy> policy_;
  const Comparator* const comparator_;
  const std::shared_ptr<const Block> top_level_;
  const Source source_;
  // The top-level entries, decoded at Open.
  std::vector<BlockHandle> handles_;
  // Every partition, when they are held (source_.cache == null).
  std::vector<std::shared_ptr<const Partition>> held_;
  size_t pinned_bytes_ = 0;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_PARTITIONED_FILTER_H_
