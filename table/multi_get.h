// MultiGet (and MultiGetVersion): the lookups of a batch of keys, step by
// step across the batch instead of key by key, so that the waits of one key
// overlap another's.
//
//   1. filters:  every key's whole-table (or partitioned) filter line is
//                prefetched a few keys ahead of its probe;
//   2. index:    the keys that pass are searched in the index, each key's
//                first index entries prefetched a few keys ahead; per-block
//                filters are then prefetched and probed the same way;
//   3. cache:    the distinct data blocks the surviving keys need are looked
//                up in the block cache;
//   4. reads:    the blocks missing from it are read together with one
//                RandomAccessFile::MultiRead (io_uring on POSIX files),
//                adjacent blocks coalesced into one read of at most
//                kMaxCoalescedReadBytes;
//   5. search:   the blocks' objects, restart arrays and restart entries
//                are prefetched in waves across the batch, then each key is
//                looked up in its block, the entries its scan reads
//                prefetched a few keys ahead.
//
// Keys may repeat and come in any order; results come back in the caller's
// order, each with its own status, equal to what Get would return for that
// key: a damaged or unreadable block fails only the keys that need it (a
// coalesced read that fails is retried block by block). Memory: the batch's
// keys, one handle per key, and the bytes of the distinct blocks it reads.
//
// The table supplies its steps through BatchLookupTable, so that this file
// does not depend on how Table keeps its state. A batch may span tables
// (Database::MultiGet's round: each key with the table it asks next): the
// steps then run across all of them, and every table's missing blocks are
// read (one MultiRead per file) before any key is searched in its block.

#ifndef BLOOMTABLE_TABLE_MULTI_GET_H_
#define BLOOMTABLE_TABLE_MULTI_GET_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "bloomtable/pinned_value.h"
#include "bloomtable/table.h"
#include "table/block.h"
#include "table/format.h"
#include "util/read_workers.h"

namespace bloomtable {

// The largest read that coalescing adjacent blocks makes: large enough that
// a batch of neighbouring keys costs one device request, small enough that
// one read does not hold up the rest of the batch.
inline constexpr size_t kMaxCoalescedReadBytes = 256 * 1024;

// A table's lookup steps, as Table::Get takes them one after another. All
// methods are const and safe to call from many threads at once.
class BatchLookupTable {
 public:
  virtual ~BatchLookupTable();

  // Whether stored keys are LevelDB-internal (seek keys carry a tag).
  virtual bool internal_keys() const = 0;

  // The filter asked before the index (whole-table, partitioned, or the
  // prefix filter of a table that has only that): prefetch, then probe
  // (counted in the table's stats). True when there is none.
  virtual void PrefetchTableFilter(std::string_view key) const = 0;
  virtual bool TableFilterMayMatch(std::string_view key) const = 0;

  // Prefetches the index entries SearchIndex(seek_key) will compare first
  // (where the index's digest narrows the search; else nothing).
  virtual void PrefetchIndex(std::string_view seek_key) const = 0;
  // The index search: OK with *handle set, NotFound past the last key, a
  // placed DataLoss for a damaged index entry.
  virtual absl::Status SearchIndex(std::string_view seek_key,
                                   BlockHandle* handle) const = 0;

  // The per-block filter, asked after the index (true when there is none).
  virtual void PrefetchBlockFilter(uint64_t block_offset) const = 0;
  virtual bool BlockFilterMayMatch(uint64_t block_offset,
                                   std::string_view key) const = 0;

  // The data block at `handle` from the block cache (counting a hit or a
  // miss), or null when it is not there or there is no cache. A read that
  // verifies checksums takes only a verified block (see ReadDataBlock).
  virtual std::shared_ptr<const Block> CachedDataBlock(
      const ReadOptions& read_options, const BlockHandle& handle) const = 0;
  // Reads the data block at `handle` from the file on its own (as Get does
  // after a cache miss), caching it as read_options say.
  virtual absl::StatusOr<std::shared_ptr<const Block>> ReadDataBlockFromFile(
      const ReadOptions& read_options, const BlockHandle& handle) const = 0;
  // The data block at `handle` from what a batched read returned for it
  // (`read_status`, `bytes`: the block and its trailer, short at the end of
  // the file), verified, parsed, counted and cached as a read from the file
  // would be.
  virtual absl::StatusOr<std::shared_ptr<const Block>> DataBlockFromRead(
      const ReadOptions& read_options, const BlockHandle& handle,
      const absl::Status& read_status, std::string_view bytes) const = 0;

  // Prefetches the entries of `block` a search for `seek_key` scans: those
  // from the restart point the search starts at to the next one.
  virtual void PrefetchScan(const Block& block,
                            std::string_view seek_key) const = 0;

  // Looks `key` up in `block`, the data block at `handle`: OK with *found
  // a view of the value in `block`'s memory, NotFound if it holds none.
  virtual absl::Status FindInBlock(const Block& block,
                                   const BlockHandle& handle,
                                   std::string_view key,
                                   std::string_view seek_key,
                                   std::string_view* found) const = 0;

  // Looks the newest version of `user_key` visible at `seek_key`'s tag up
  // in `block`, the data block at `handle` (LevelDB-internal tables): OK
  // with *version set (but its value) and *found a view of the value in
  // `block`'s memory; NotFound if the block holds none.
  virtual absl::Status FindVersionInBlock(const Block& block,
                                          const BlockHandle& handle,
                                          std::string_view user_key,
                                          std::string_view seek_key,
                                          KeyVersion* version,
                                          std::string_view* found) const = 0;

  virtual const RandomAccessFile& data_file() const = 0;
  // Blocks must end (trailer included) at or before this offset.
  virtual uint64_t readable_limit() const = 0;
  // Counts one MultiRead of `reads` coalesced reads on `path`.
  virtual void RecordMultiRead(MultiReadPath path, size_t reads) const = 0;
};

// The steps of `table` (Table's own lookup steps; the table must outlive
// their use).
const BatchLookupTable& BatchLookupOf(const Table& table);

// Steps 1 to 4 for `keys`, seeking `seek_keys[i]` for keys[i] (the key
// itself, or a user key with a tag): calls `settled(i, status)` for each key
// answered before any read (NotFound from a filter or past the index's end,
// or the index's error), and `in_block(i, handle, block)` for each other key
// with its data block (or why it could not be had). Each key gets exactly
// one call; `in_block` calls come in file order of the blocks.
void BatchedBlockLookups(
    const BatchLookupTable& table, const ReadOptions& read_options,
    const std::vector<std::string_view>& keys,
    const std::vector<std::string_view>& seek_keys,
    absl::FunctionRef<void(size_t i, absl::Status status)> settled,
    absl::FunctionRef<
        void(size_t i, const BlockHandle& handle,
             const absl::StatusOr<std::shared_ptr<const Block>>& block)>
        in_block);

// As above for keys of many tables: keys[i] is looked up in *tables[i].
// Each step runs across the whole batch; step 4 reads the missing blocks of
// every table (one MultiRead per file, a lone block with one Read) before
// any `in_block` call, the tables' reads run as jobs of `workers` (in
// parallel where it has threads; null: one table after another).
// `in_block` calls come grouped by table, each table's in file order.
void BatchedBlockLookups(
    const std::vector<const BatchLookupTable*>& tables,
    const ReadOptions& read_options, const std::vector<std::string_view>& keys,
    const std::vector<std::string_view>& seek_keys,
    absl::FunctionRef<void(size_t i, absl::Status status)> settled,
    absl::FunctionRef<
        void(size_t i, const BlockHandle& handle,
             const absl::StatusOr<std::shared_ptr<const Block>>& block)>
        in_block,
    ReadWorkers* workers = nullptr);

// The seek keys of a batch: the keys themselves, or for LevelDB-internal
// tables each user key with `tag` (the newest possible by default), kept in
// one buffer.
class BatchSeekKeys {
 public:
  BatchSeekKeys(bool internal_keys, const std::vector<std::string_view>& keys,
                uint64_t tag);
  const std::vector<std::string_view>& views() const { return views_; }

 private:
  std::unique_ptr<char[]> buffer_;
  std::vector<std::string_view> views_;
};

// Where a batch's answers go: each key's status, and its value copied into
// a string or, with `pins` set, pinned into a PinnedValue.
struct BatchAnswers {
  std::vector<absl::Status>* statuses;
  std::vector<std::string>* values;  // when copying
  std::vector<PinnedValue>* pins;    // when pinning

  void Fail(size_t i, absl::Status status) {
    (*statuses)[i] = std::move(status);
  }
  // A value with no block to pin to (a log record's): copied either way.
  void Copy(size_t i, std::string_view value) {
    if (pins != nullptr) {
      (*pins)[i].CopyFrom(value);
    } else {
      (*values)[i].assign(value.data(), value.size());
    }
  }
  // A value in `block`'s memory (every data block owns its bytes, so the
  // block keeps the value alive).
  void Pin(size_t i, const std::shared_ptr<const Block>& block,
           std::string_view value) {
    if (pins == nullptr) return Copy(i, value);
    (*pins)[i].PinTo(block, value);
  }
};

// One result per key from a batch's statuses and copied values: the value
// where the status is OK, else the status.
std::vector<absl::StatusOr<std::string>> ResultsOf(
    std::vector<absl::Status> statuses, std::vector<std::string> values);

// Looks up `keys` in `table` as described at the top of this file, into
// `answers`, whose vectors hold one element per key (OK statuses, empty
// values): a key not found or failed keeps its value empty.
void BatchedMultiGet(const BatchLookupTable& table,
                     const ReadOptions& read_options,
                     const std::vector<std::string_view>& keys,
                     BatchAnswers answers);

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_MULTI_GET_H_
