// PartitionedFilter reads the partitioned filter layout
// ("partitionedfilter.<name>", docs/FORMAT.md; written by
// PartitionedFilterBuilder): a top-level index block whose entries map a
// separator key to the block of one partition, a filter of the policy over
// the keys up to that separator.
//
// Open checks the top-level index once (entries decode, separators strictly
// increase, partition handles strictly increase in offset and lie before the
// metaindex), decodes its separators into a SeparatorIndex and drops the
// block. A lookup finds the partition's index with one search over the
// decoded separators and asks the one partition that can hold the key; a
// key past the last separator is after every key of the table: absent.
// Partitions are either all read at Open and held for the table's life (a
// lookup then takes no reference count), or read on demand and kept in the
// block cache, where they may be evicted (the table then holds only the
// separators and the handles).
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
#include "table/block_contents.h"
#include "table/format.h"
#include "table/separator_index.h"
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
  // Finds `key`'s partition and, if it is held in memory, prefetches what
  // its reader will read (FilterReader::Prefetch). Partitions read on
  // demand are left alone: finding one costs a cache lookup.
  void Prefetch(std::string_view key) const;

  // Bytes held for the table's life: the decoded separators, the handles
  // (on demand) or the partitions (held).
  size_t PinnedBytes() const { return pinned_bytes_; }

  size_t num_partitions() const { return separators_.size(); }

 private:
  // One partition: the policy's reader (null if the partition could not be
  // read or parsed: it answers "maybe") and the buffer holding the bytes it
  // reads (null if the file's own memory holds them).
  struct Partition {
    std::unique_ptr<char[]> owned;
    std::unique_ptr<FilterReader> reader;
  };

  PartitionedFilter(std::shared_ptr<const FilterPolicy> policy,
                    const Comparator* comparator, const Source& source);

  // Reads and parses the partition at `handle` into *partition (its reader
  // stays null if it cannot be used); returns the bytes it holds.
  size_t LoadPartition(const BlockHandle& handle, Partition* partition) const;
  // The cached partition `i`, read (and cached) if absent; its reader may be
  // null.
  std::shared_ptr<const Partition> GetCachedPartition(size_t i) const;

  const std::shared_ptr<const FilterPolicy> policy_;
  const Source source_;
  SeparatorIndex separators_;
  // When read on demand (source_.cache != null): each partition's handle,
  // whose offset is its cache key. Empty otherwise.
  std::vector<BlockHandle> handles_;
  // When held (source_.cache == null): every partition. Empty otherwise.
  std::vector<Partition> held_;
  size_t pinned_bytes_ = 0;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_PARTITIONED_FILTER_H_
