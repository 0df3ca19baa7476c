// Options for writing and reading table files.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_OPTIONS_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bloomtable/cache.h"
#include "bloomtable/comparator.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/prefix_extractor.h"

namespace bloomtable {

// Block compression, as stored in each block trailer.
enum class CompressionType : unsigned char {
  kNone = 0,
  kSnappy = 1,
};

// What the table's keys are.
enum class KeyFormat {
  // Keys are stored and filtered as given (leveldb::TableBuilder used
  // directly).
  kPlain,
  // Keys are LevelDB internal keys: a user key followed by a fixed64
  // (sequence << 8) | type tag, as in a LevelDB database's .ldb files. The
  // filter holds user keys; Get takes a user key and returns the newest
  // entry; a deletion reads as NotFound. Iterators yield internal keys.
  kLevelDBInternal,
};

// Where a table keeps its filter.
enum class FilterLayout {
  // LevelDB's filter block: one filter per 2 KiB of data-block offsets
  // (metaindex key "filter.<name>").
  kPerBlock,
  // One filter over all keys, consulted before the index search (metaindex
  // key "fullfilter.<name>").
  kWholeTable,
};

struct Options {
  // Orders the keys. Must outlive every builder and table using it.
  const Comparator* comparator = BytewiseComparator();

  KeyFormat key_format = KeyFormat::kPlain;

  // Writing: approximate uncompressed size of a data block.
  size_t block_size = 4096;

  // Writing: entries between restart points in data blocks.
  int block_restart_interval = 16;

  // Writing: compression of data, index and metaindex blocks.
  CompressionType compression = CompressionType::kSnappy;

  // Writing: the filter to build (none by default, as in LevelDB). Reading:
  // a policy the table may name.
  std::shared_ptr<const FilterPolicy> filter_policy;

  // Writing: where the filter goes.
  FilterLayout filter_layout = FilterLayout::kPerBlock;

  // Reading: more policies a table may name, besides filter_policy. A table
  // whose filter names none of them is read without a filter.
  std::vector<std::shared_ptr<const FilterPolicy>> extra_filter_policies;

  // Reading: a cache of uncompressed data blocks, shared by every table
  // opened with it (NewLRUCache). nullptr: every data-block read goes to the
  // file.
  std::shared_ptr<Cache> block_cache;

  // Reading: charge each open table's index and filter blocks to
  // block_cache's capacity too, so that one memory budget covers them (as
  // RocksDB's cache_index_and_filter_blocks). They stay pinned in memory for
  // the table's life; data blocks are evicted to make room. Off by default.
  bool cache_index_and_filter_blocks = false;

  // Writing: with a filter_policy, the table's filter becomes a prefix
  // filter: it also holds the prefix of every key in the extractor's domain
  // (user keys for kLevelDBInternal), is whole-table whatever filter_layout
  // says, and sits under its own metaindex key ("prefixfilter.<policy
  // name>", which LevelDB never looks for) with the extractor's name.
  // Reading: the extractor that scans use; a table's prefixes are used only
  // if the table names this extractor. Scans by prefix need the bytewise
  // comparator for bounds (prefix_same_as_start works with any).
  std::shared_ptr<const PrefixExtractor> prefix_extractor;

  // Writing, with prefix_extractor: also put the whole keys in the prefix
  // filter, so that point lookups can use it (RocksDB's default). Off: a
  // point lookup asks the filter for the key's prefix instead, which only
  // saves a read when no key shares the prefix.
  bool whole_key_filtering = true;

  // Writing: bits per key of a range filter (0 = none), a separate meta
  // block ("rangefilter.<name>") that answers "may any key lie in [lo, hi)?"
  // for bounded iterators and Table::MayContainRange. Requires the bytewise
  // comparator (else the builder fails with InvalidArgument). Reading: a
  // table's range filter is always used if it parses.
  double range_filter_bits_per_key = 0;

  // Writing: the longest range (in the filter's key space, see
  // docs/FILTERS.md) the range filter answers with its false-positive bound;
  // longer ranges may always answer "maybe".
  uint64_t range_filter_max_range_length = 64;
};

struct ReadOptions {
  // Verify the checksum of every data block read. The index, metaindex and
  // filter blocks are always verified when the table is opened.
  bool verify_checksums = true;

  // Put the data blocks this read brings in from the file into the block
  // cache (if any). Bulk scans turn it off so as not to evict hot blocks.
  bool fill_cache = true;

  // Iterators only. With a bound set, an iterator never yields a key outside
  // [iterate_lower_bound, iterate_upper_bound) and stops reading data blocks
  // at the bound: Seek below the lower bound seeks to it, SeekToFirst starts
  // there, SeekToLast and SeekForPrev start below the upper bound, Next and
  // Prev stop there. For kLevelDBInternal tables the bounds are user keys.
  // The iterator keeps its own copy: the strings may change or go away
  // after NewIterator. When the table's range or prefix filter (or both)
  // says no key lies in the range asked for, the iterator is !Valid() at once
  // without reading a data block.
  std::optional<std::string> iterate_lower_bound;
  std::optional<std::string> iterate_upper_bound;

  // Iterators only, with Options::prefix_extractor: after Seek(target) or
  // SeekForPrev(target) with target (its user key) in the extractor's
  // domain, the iterator yields only keys with target's prefix, within the
  // bounds (it becomes !Valid() at the first other one), and asks the
  // table's prefix filter first. A target outside the domain, and
  // SeekToFirst/SeekToLast, iterate in total order.
  bool prefix_same_as_start = false;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_OPTIONS_H_
