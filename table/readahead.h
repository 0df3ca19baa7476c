// BlockReadahead reads ahead for one iterator that moves forward through a
// table block after block, as RocksDB's automatic readahead does: once the
// iterator has moved to kSequentialBlocks blocks each starting where the one
// before ended, a read of the file takes the next block and what follows it,
// 8 KiB at first, doubling with each read up to a limit, and later blocks
// come out of that buffer. A file whose reads return views of its own memory
// (a memory-mapped file: RandomAccessFile::WillNeed) is advised of the range
// ahead instead and read block by block, copying nothing. A seek elsewhere
// starts the count again, so that point lookups and short scans never read
// more than the blocks they need.
//
// One per iterator: not thread-safe.

#ifndef BLOOMTABLE_TABLE_READAHEAD_H_
#define BLOOMTABLE_TABLE_READAHEAD_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "absl/status/status.h"
#include "bloomtable/file.h"
#include "table/format.h"

namespace bloomtable {

class BlockReadahead {
 public:
  // Blocks in file order after which reads go ahead.
  static constexpr int kSequentialBlocks = 2;
  // The first read ahead; each later one doubles, up to `max_bytes`.
  static constexpr size_t kInitialBytes = 8 * 1024;

  // Reads at most `max_bytes` at once (ReadOptions::max_readahead_size);
  // 0: never reads ahead.
  explicit BlockReadahead(size_t max_bytes) : max_bytes_(max_bytes) {}

  BlockReadahead(const BlockReadahead&) = delete;
  BlockReadahead& operator=(const BlockReadahead&) = delete;

  // Tells it that the iterator moved to the block at `handle` (read from
  // the file or found in the block cache). True when that block, if read,
  // should be read through Read.
  bool Visit(const BlockHandle& handle);

  // Starts the count of blocks in file order again (a seek): the next block
  // visited is read on its own, whatever its offset.
  void Restart() { run_ = 0; }

  // The bytes of the block at `handle` with its trailer, as a read of the
  // file would return them (short only at the file's end), valid until the
  // next call. REQUIRES: the block and its trailer end at or before `limit`,
  // past which nothing is read ahead.
  absl::Status Read(const RandomAccessFile& file, const BlockHandle& handle,
                    uint64_t limit, std::string_view* bytes);

  // Bytes of the buffer it holds (for memory accounting).
  size_t buffer_size() const { return capacity_; }

 private:
  const size_t max_bytes_;
  // Where the block visited last ends (trailer included), and how many
  // blocks in a row started where the one before ended.
  uint64_t next_offset_ = 0;
  int run_ = 0;
  // The size of the next read ahead.
  size_t ahead_ = kInitialBytes;
  // What the last read returned, starting at window_offset_.
  std::string_view window_;
  uint64_t window_offset_ = 0;
  // Memory-mapped file: advised up to here.
  bool mapped_ = false;
  uint64_t advised_end_ = 0;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_READAHEAD_H_
