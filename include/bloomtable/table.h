// Table is an open, immutable table file (FORMAT.md).
//
// Open reads the footer, the index, the metaindex and the filter block once,
// verifies their checksums and keeps them in memory. A point lookup then costs
// an in-memory filter check and index search and at most one data-block read;
// when the filter says the key is absent, no data block is read.
//
// Open also loads the table's scan filters (a prefix filter, a range
// filter), which bounded iterators and MayContainRange ask before they read.
//
// Thread-safety: a Table is immutable after Open. Get, MultiGet,
// GetVersion, MultiGetVersion, NewIterator, MayContainRange,
// ApproximateOffsetOf and GetStats may be called from many threads at once
// without external locking.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_TABLE_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_TABLE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomtable/file.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "bloomtable/pinned_value.h"

namespace bloomtable {

class BatchLookupTable;

// A snapshot of a table's counters since Open.
struct TableStats {
  uint64_t filter_checks = 0;     // point lookups that asked the filter
  uint64_t filter_negatives = 0;  // filter said "absent": data reads avoided
  uint64_t data_block_reads = 0;  // data blocks read from the file
  uint64_t bytes_read = 0;        // bytes read from the file, trailers included
  uint64_t checksum_failures = 0;   // blocks whose checksum did not match
  uint64_t block_cache_hits = 0;    // data blocks found in the block cache
  uint64_t block_cache_misses = 0;  // data blocks looked for and not found
  // Filter partitions read from the file (FilterLayout::kPartitioned).
  uint64_t filter_partition_reads = 0;
  // MultiGet's batched reads of the data blocks a batch misses in the block
  // cache (when it misses two or more): the batches read through io_uring,
  // those read with pread one after another (io_uring turned off, or not
  // available: the fallback; or a file without batched reads, such as an
  // in-memory or memory-mapped one), and the file reads they made, adjacent
  // blocks coalesced into one.
  uint64_t multiget_io_uring_batches = 0;
  uint64_t multiget_pread_batches = 0;
  uint64_t multiget_coalesced_reads = 0;
  // Scans (bounded iterators, prefix_same_as_start, MayContainRange) that
  // asked the prefix filter, and those it answered "no key": each saved the
  // data-block reads of that scan.
  uint64_t prefix_filter_checks = 0;
  uint64_t prefix_filter_negatives = 0;
  // The same for the range filter.
  uint64_t range_filter_checks = 0;
  uint64_t range_filter_negatives = 0;
};

// What Open learned about the table's filter.
struct TableFilterInfo {
  // The filter's metaindex key ("filter.<name>", "fullfilter.<name>" or
  // "partitionedfilter.<name>"), or empty if the table has none.
  std::string metaindex_key;
  // True if a filter is in use for lookups: the table names a policy that the
  // options supply, and its block was read and verified.
  bool in_use = false;
  // If a filter block exists but is not in use, why (unknown policy, bad
  // checksum, ...).
  std::string unused_reason;
};

// What Open learned about the table's scan filters: the prefix filter
// (Options::prefix_extractor) and the range filter.
struct ScanFilterInfo {
  // "prefixfilter.<policy name>", or empty if the table has none.
  std::string prefix_metaindex_key;
  // The extractor name the prefix filter stores.
  std::string prefix_extractor;
  // The filter also holds the whole keys.
  bool prefix_whole_keys = false;
  // The block was read, verified and parsed with a known policy: point
  // lookups use it (by whole key, or by prefix if prefix_in_use).
  bool prefix_loaded = false;
  // Scans use the prefixes: loaded, and Options::prefix_extractor has the
  // stored name.
  bool prefix_in_use = false;
  // If a prefix filter exists but is not (fully) used, why.
  std::string prefix_unused_reason;

  // "rangefilter.<name>", or empty if the table has none.
  std::string range_metaindex_key;
  // The range filter was read, verified and parsed, and the comparator is
  // bytewise: bounded iterators and MayContainRange use it.
  bool range_in_use = false;
  std::string range_unused_reason;
  uint64_t range_num_keys = 0;    // keys the range filter was built over
  double range_bits_per_key = 0;  // its stored size per key
  size_t range_filter_bytes = 0;  // its block size
};

// One version of a key in a table of LevelDB internal keys (GetVersion).
struct KeyVersion {
  uint64_t sequence = 0;
  bool deleted = false;  // a deletion marker: `value` is empty
  std::string value;
  uint64_t block_offset = 0;  // the offset of the data block that holds it
};

// A data block as the table's index describes it (Table::IndexEntries).
struct TableBlockInfo {
  // The index entry's key, as the writer chose it: at least the block's last
  // key and less than the next block's first key (an internal key for
  // kLevelDBInternal).
  std::string separator;
  uint64_t offset = 0;  // where the block starts in the file
  uint64_t size = 0;    // its stored bytes, without the 5-byte trailer
};

class Table {
 public:
  // Opens the table stored in the first `file_size` bytes of `file`. Errors:
  // DataLoss for damaged bytes (bad magic, checksum, malformed index or
  // metaindex, an unknown compression type); Unimplemented for a valid table
  // this library cannot read (a RocksDB block-based table, a compression type
  // some writer uses that is not implemented); the file's own errors. A
  // damaged or unknown filter does not fail Open: the table is read without a
  // filter. Data blocks read later fail the same ways.
  static absl::StatusOr<std::unique_ptr<Table>> Open(
      const Options& options, std::unique_ptr<RandomAccessFile> file,
      uint64_t file_size);

  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;
  ~Table();

  // Looks up `key` (a user key when options.key_format is kLevelDBInternal).
  // NotFound if absent; DataLoss if a block on the way is damaged.
  absl::StatusOr<std::string> Get(const ReadOptions& read_options,
                                  std::string_view key) const;
  // As above, writing the value into `*value` (reusing its buffer).
  absl::Status Get(const ReadOptions& read_options, std::string_view key,
                   std::string* value) const;
  // As above without copying the value: `*value` is pinned to the data block
  // holding it (the block cache's, or the one read for this call) and stays
  // valid until `*value` lets go of it, even after this Table, its file and
  // the block cache are destroyed (pinned_value.h). Answers as the copying
  // Get: on any error or NotFound, `*value` is left empty. `key` may lie in
  // what `*value` holds (it is released after the lookup). A block cache hit
  // into a reused PinnedValue allocates nothing.
  absl::Status Get(const ReadOptions& read_options, std::string_view key,
                   PinnedValue* value) const;

  // Tables of LevelDB internal keys (kLevelDBInternal) only: the newest
  // version of `user_key` whose sequence number is at most `max_sequence`,
  // deletion markers included (a database lookup must stop at one). Asks
  // the filter before any data block, as Get does. NotFound if the table
  // holds no such version; InvalidArgument for a kPlain table; DataLoss if
  // a block on the way is damaged.
  absl::Status GetVersion(const ReadOptions& read_options,
                          std::string_view user_key, uint64_t max_sequence,
                          KeyVersion* version) const;
  // As above without copying the value: version->value is left empty and a
  // value is pinned into `*value` as Get(..., PinnedValue*) pins it (a
  // deletion marker leaves `*value` empty, as does any error or NotFound).
  // `user_key` may lie in what `*value` holds.
  absl::Status GetVersion(const ReadOptions& read_options,
                          std::string_view user_key, uint64_t max_sequence,
                          KeyVersion* version, PinnedValue* value) const;

  // Calls `visit` with every entry in file order (internal keys for
  // kLevelDBInternal) and the offset of the data block holding it, until it
  // returns false. Needs no key comparison, so it reads a table whose
  // comparator the caller does not have. Errors as NewIterator's status.
  absl::Status ForEachEntry(
      const ReadOptions& read_options,
      const std::function<bool(std::string_view key, std::string_view value,
                               uint64_t block_offset)>& visit) const;

  // The index block's entries, one per data block, in file order. Reads
  // nothing: the index is in memory since Open, which checked that every
  // entry decodes.
  std::vector<TableBlockInfo> IndexEntries() const;

  // Calls `visit` with every entry of the data block `block` (one of
  // IndexEntries()), in order, until it returns false. Errors as
  // ForEachEntry's: DataLoss for a damaged block, or for a block that is not
  // where `block` says.
  absl::Status ForEachEntryInBlock(
      const ReadOptions& read_options, const TableBlockInfo& block,
      const std::function<bool(std::string_view key, std::string_view value)>&
          visit) const;

  // At most `parts - 1` keys, increasing, that cut the table's keys into
  // `parts` ranges of about equal stored bytes: (-inf, k1), [k1, k2), ...,
  // [kn, +inf). Chosen among the index's separators (their user keys for
  // kLevelDBInternal) without reading a data block, so a range holds whole
  // blocks; fewer keys when the table has too few blocks.
  std::vector<std::string> ApproximateSplitKeys(size_t parts) const;

  // A new iterator over all entries (internal keys for kLevelDBInternal).
  std::unique_ptr<Iterator> NewIterator(const ReadOptions& read_options) const;

  // The approximate file offset at which data for `key` begins: the offset of
  // the data block that would hold it, or, past the last entry, the end of
  // the data and filter blocks (the metaindex's offset), as in LevelDB. Takes
  // a user key when options.key_format is kLevelDBInternal.
  uint64_t ApproximateOffsetOf(std::string_view key) const;

  // Looks up many keys at once: one result per key, in the order of `keys`
  // (a value, NotFound, or an error), each equal to what Get returns for
  // that key. Keys may repeat and need not be sorted. Every key's filter
  // line is prefetched and probed before any block is read; the index is
  // searched for the keys that pass; then the distinct data blocks they
  // need that the block cache lacks are read together: one
  // RandomAccessFile::MultiRead (io_uring on POSIX files, up to
  // RandomAccessFileOptions::io_uring_queue_depth reads in flight), with
  // adjacent blocks coalesced into one read. A damaged or unreadable block
  // fails only the keys that need it. GetStats counts which path the reads
  // took.
  std::vector<absl::StatusOr<std::string>> MultiGet(
      const ReadOptions& read_options,
      const std::vector<std::string_view>& keys) const;
  // As above without copying the values: one status per key, and
  // (*values)[i] pinned to the data block holding key i's value, as
  // Get(..., PinnedValue*) pins it (empty where the status is not OK).
  // `*values` is resized to the batch; what it held before is released
  // after the lookups, so keys may lie in it.
  std::vector<absl::Status> MultiGet(const ReadOptions& read_options,
                                     const std::vector<std::string_view>& keys,
                                     std::vector<PinnedValue>* values) const;

  // GetVersion for many user keys at once, batched as MultiGet is (filters
  // first, then one read per distinct data block, together): one result per
  // key, in the order of `user_keys`, each the version GetVersion sets, or
  // the status it returns (NotFound, DataLoss, InvalidArgument for a kPlain
  // table). Keys may repeat and need not be sorted.
  std::vector<absl::StatusOr<KeyVersion>> MultiGetVersion(
      const ReadOptions& read_options,
      const std::vector<std::string_view>& user_keys,
      uint64_t max_sequence) const;

  // Bytes this table holds in memory: the index and filter blocks, and the
  // data blocks that live iterators hold. Blocks in a shared block cache are
  // counted by the cache (Cache::usage).
  size_t ApproximateMemoryUsage() const;

  // False only if no key of the table (user key for kLevelDBInternal) lies
  // in [lo, hi): asks the range filter, and the prefix filter when lo and hi
  // lie within one prefix (see PrefixExtractor::SameResultWhenAppended).
  // An empty range (lo >= hi) answers false at once. Reads nothing from the
  // file. True when the table has no usable filter for the range.
  bool MayContainRange(std::string_view lo, std::string_view hi) const;

  TableStats GetStats() const;
  const TableFilterInfo& filter_info() const;
  const ScanFilterInfo& scan_filter_info() const;

 private:
  struct Rep;
  // The library's batched lookups (Database::MultiGet) take a table's
  // lookup steps through this; not part of the public API.
  friend const BatchLookupTable& BatchLookupOf(const Table& table);
  explicit Table(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_TABLE_H_
