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

// Options::max_uncompressed_block_size's default: 64 MiB.
inline constexpr size_t kDefaultMaxUncompressedBlockSize = size_t{64} << 20;

// Block compression, as stored in each block trailer (LevelDB's numbering;
// docs/FORMAT.md, "Compression types").
enum class CompressionType : unsigned char {
  kNone = 0,
  kSnappy = 1,
  // A zstd frame, as upstream LevelDB's kZstdCompression (type 2, after
  // LevelDB 1.23). LevelDB 1.23, Debian's, cannot read such tables: it
  // refuses them as corrupt ("bad block type").
  kZstd = 2,
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
  // Whole-table-style filters over consecutive key ranges of about
  // Options::filter_partition_keys keys each, found through a small
  // top-level index (metaindex key "partitionedfilter.<name>"), consulted
  // before the index search. With a block cache and
  // cache_index_and_filter_blocks, a table holds only the top-level index and
  // loads partitions on demand through the cache, where they may be evicted;
  // otherwise every partition is read at Open and held, as a whole-table
  // filter is. LevelDB ignores this filter.
  kPartitioned,
};

struct Options {
  // Orders the keys. Must outlive every builder and table using it.
  const Comparator* comparator = BytewiseComparator();

  KeyFormat key_format = KeyFormat::kPlain;

  // Writing: approximate uncompressed size of a data block.
  size_t block_size = 4096;

  // Writing: entries between restart points in data blocks.
  int block_restart_interval = 16;

  // Writing: entries between restart points in the index block. 1 (every
  // entry a restart point, no key prefix shared) is what LevelDB writes and
  // lets a lookup find its data block by binary search alone. A larger value
  // shares key prefixes between separators and shrinks the index that an open
  // table holds in memory (about 2.5x smaller at 16 for 16-byte decimal keys)
  // for a short linear scan after the binary search; LevelDB and every
  // LevelDB-format reader read such index blocks. Values below 1 mean 1.
  int index_block_restart_interval = 1;

  // Writing: compression of data, index and metaindex blocks. A block is
  // stored compressed only when that saves at least an eighth of it, as in
  // LevelDB.
  CompressionType compression = CompressionType::kSnappy;

  // Writing: zstd's level when compression is kZstd: 1 (fastest, upstream
  // LevelDB's default) to 22; negative levels are faster still; 0 means
  // zstd's own default (3).
  int zstd_compression_level = 1;

  // Writing: the filter to build (none by default, as in LevelDB). Reading:
  // a policy the table may name.
  std::shared_ptr<const FilterPolicy> filter_policy;

  // Writing: where the filter goes.
  FilterLayout filter_layout = FilterLayout::kPerBlock;

  // Writing, FilterLayout::kPartitioned: distinct keys per filter partition.
  // 4096 keys make partitions of about 4 KiB at 8 bits per key, one small
  // read when a partition is not cached.
  size_t filter_partition_keys = 4096;

  // Reading: the largest uncompressed size of one block that the reader
  // accepts from a codec whose output its stored size does not bound
  // tightly: deflate and zlib (Mojang's Bedrock fork, RocksDB), bzip2,
  // zstd and LZ4 (RocksDB; zstd also upstream LevelDB and bloomtable), where
  // a block handle records only the stored size and a few hundred stored
  // bytes can stand for gigabytes (bzip2), or a kilobyte for a megabyte
  // (deflate). A block that holds more fails with ResourceExhausted, the
  // message naming this option, as soon as the decoder passes it (a size
  // the block declares is checked before anything is allocated); a read
  // holds at most this much for a block's output (the output is counted,
  // then decoded into one allocation of its exact size), never a growing
  // buffer's copies. Default 64 MiB (kDefaultMaxUncompressedBlockSize):
  // every table whose blocks hold at most 64 MiB reads, which is every
  // table written with a block size below that and no larger entry. A
  // caller reading a table with larger blocks raises it, up to 4 GiB - 1
  // (the largest block any reader parses; larger values act as that).
  // Snappy, LevelDB's own codec, is bounded by its densest expansion of the
  // stored bytes (64/3 times; docs/DESIGN.md, "Hostile input") instead:
  // this option does not limit it (a LevelDB table with a 100 MiB Snappy
  // block reads at the default).
  size_t max_uncompressed_block_size = kDefaultMaxUncompressedBlockSize;

  // Reading: more policies a table may name, besides filter_policy. A table
  // whose filter names none of them is read without a filter.
  std::vector<std::shared_ptr<const FilterPolicy>> extra_filter_policies;

  // Reading: a cache of uncompressed data blocks, shared by every table
  // opened with it (NewLRUCache). nullptr: every data-block read goes to the
  // file.
  std::shared_ptr<Cache> block_cache;

  // Reading: charge each open table's index and filter blocks to
  // block_cache's capacity too, so that one memory budget covers them (as
  // RocksDB's cache_index_and_filter_blocks). The index block, a per-block
  // or whole-table filter and a partitioned filter's top-level index stay
  // pinned in memory for the table's life; data blocks are evicted to make
  // room. A partitioned filter's partitions are then read on demand and
  // cached like data blocks: evictable, not pinned. Off by default.
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
  // for bounded iterators and Table::MayContainRange. At B bits per key its
  // false-positive rate is at most L / 2^(B-2) (L =
  // range_filter_max_range_length) for empty ranges of up to L values, at
  // every table size; it stores about B bits per key plus a header (the
  // first and last key, the key map, ~30 bytes), so small tables pay more
  // per key (about 69 bits at 10 8-byte keys, 21 at 100, 16.5 at 1,000).
  // Clamped to [4, 40]. Requires the bytewise
  // comparator (else the builder fails with InvalidArgument). Reading: a
  // table's range filter is used if its block reads, verifies and parses and
  // the comparator is the bytewise one; under any other comparator it is
  // skipped (its ranges are bytewise ranges), as Table::scan_filter_info()
  // reports.
  double range_filter_bits_per_key = 0;

  // Writing: the longest range (in the filter's key space, see
  // docs/FILTERS.md) the range filter answers with its false-positive bound;
  // longer ranges may always answer "maybe".
  uint64_t range_filter_max_range_length = 64;
};

struct ReadOptions {
  // Verify the checksum of every data block read. The index, metaindex and
  // filter blocks are always verified when the table is opened, whatever
  // this says: a filter is never used unchecked, so turning this off never
  // makes a filter answer "absent" for a present key. A block read with
  // this off is cached (as fill_cache says) apart from the verified ones:
  // later reads with this off take it from the cache, a read with this on
  // never does (it reads and verifies the block itself). A read with this
  // off also uses the verified blocks the cache holds.
  bool verify_checksums = true;

  // Put the data blocks this read brings in from the file into the block
  // cache (if any), when their checksums were verified (verify_checksums).
  // Bulk scans turn it off so as not to evict hot blocks.
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

  // Iterators only: once an iterator has moved forward through two or more
  // data blocks each starting where the one before ended, each read of the
  // file also takes the blocks that follow, 8 KiB at first, doubling with
  // every read up to this many bytes, so that a scan makes one read per
  // window instead of one per block; a memory-mapped file is advised of the
  // range ahead (madvise) instead. A Seek starts the count again, so that
  // point lookups and short scans read no more than they need. 0 turns it
  // off. Default 256 KiB.
  size_t max_readahead_size = 256 * 1024;

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
