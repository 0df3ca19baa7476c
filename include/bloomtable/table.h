// Table is an open, immutable table file (FORMAT.md).
//
// Open reads the footer, the index, the metaindex and the filter block once,
// verifies their checksums and keeps them in memory. A point lookup then costs
// an in-memory filter check and index search and at most one data-block read;
// when the filter says the key is absent, no data block is read.
//
// Thread-safety: a Table is immutable after Open. Get, NewIterator,
// ApproximateOffsetOf and GetStats may be called from many threads at once
// without external locking.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_TABLE_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_TABLE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomtable/file.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"

namespace bloomtable {

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
};

// What Open learned about the table's filter.
struct TableFilterInfo {
  // The filter's metaindex key ("filter.<name>" or "fullfilter.<name>"), or
  // empty if the table has none.
  std::string metaindex_key;
  // True if a filter is in use for lookups: the table names a policy that the
  // options supply, and its block was read and verified.
  bool in_use = false;
  // If a filter block exists but is not in use, why (unknown policy, bad
  // checksum, ...).
  std::string unused_reason;
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

  // A new iterator over all entries (internal keys for kLevelDBInternal).
  std::unique_ptr<Iterator> NewIterator(const ReadOptions& read_options) const;

  // The approximate file offset at which data for `key` begins: the offset of
  // the data block that would hold it, or, past the last entry, the end of
  // the data and filter blocks (the metaindex's offset), as in LevelDB. Takes
  // a user key when options.key_format is kLevelDBInternal.
  uint64_t ApproximateOffsetOf(std::string_view key) const;

  // Looks up many keys at once: one result per key, in the order of `keys`
  // (a value, NotFound, or an error). Every key's filter is asked first;
  // then each data block needed is read once, in file order.
  std::vector<absl::StatusOr<std::string>> MultiGet(
      const ReadOptions& read_options,
      const std::vector<std::string_view>& keys) const;

  // Bytes this table holds in memory: the index and filter blocks, and the
  // data blocks that live iterators hold. Blocks in a shared block cache are
  // counted by the cache (Cache::usage).
  size_t ApproximateMemoryUsage() const;

  TableStats GetStats() const;
  const TableFilterInfo& filter_info() const;

 private:
  struct Rep;
  explicit Table(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_TABLE_H_
