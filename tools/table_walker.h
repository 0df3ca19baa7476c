// TableWalker reads a table file block by block, the way `dump`, `verify` and
// `stats` need it: the footer, the metaindex and the index at Open, then any
// data or meta block on request, each with its stored size, compression type
// and raw size. Unlike Table it keeps nothing hidden and reports where
// damage lies: every error carries the file offset of the block (or the
// footer) it was found in.
//
// Open checks the footer and the metaindex and index blocks (checksums,
// structure, handle encoding). Data blocks are checked as they are read.
// Thread-compatible: one thread at a time.

#ifndef BLOOMTABLE_TOOLS_TABLE_WALKER_H_
#define BLOOMTABLE_TOOLS_TABLE_WALKER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/file.h"
#include "table/block.h"
#include "table/format.h"

namespace bloomtable {
namespace tool {

// The outcome of a walking step: OK, or an error and, when it lies in one
// place, the offset of the block or footer where it was found. Damage is
// DataLoss; a valid table this build cannot read is Unimplemented; anything
// else is the file's own (I/O) error.
class WalkStatus {
 public:
  WalkStatus() = default;
  // An error about the whole file (missing, empty, too short).
  explicit WalkStatus(absl::Status status) : status_(std::move(status)) {}
  // An error found at `offset`.
  WalkStatus(absl::Status status, uint64_t offset)
      : status_(std::move(status)), located_(true), offset_(offset) {}

  bool ok() const { return status_.ok(); }
  const absl::Status& status() const { return status_; }
  bool located() const { return located_; }
  // REQUIRES: located().
  uint64_t offset() const { return offset_; }

 private:
  absl::Status status_;
  bool located_ = false;
  uint64_t offset_ = 0;
};

// A block as stored.
struct BlockSummary {
  BlockHandle handle;
  unsigned char compression_type = 0;    // the trailer's type byte
  BlockCodec codec = BlockCodec::kNone;  // what that type means here
  uint64_t raw_size = 0;                 // bytes after decompression
};

// A metaindex entry (e.g. "filter.<policy name>") or an index entry (a
// separator key), with the handle it maps to.
struct HandleEntry {
  std::string key;
  BlockHandle handle;
};

class TableWalker {
 public:
  // Opens `path` and reads its footer, metaindex and index. Errors about
  // the whole file are not located: file-system errors (missing file,
  // directory) and, as damage, an empty file or one shorter than a footer.
  static WalkStatus Open(const std::string& path,
                         std::unique_ptr<TableWalker>* walker);

  TableWalker(const TableWalker&) = delete;
  TableWalker& operator=(const TableWalker&) = delete;

  uint64_t file_size() const { return file_size_; }
  uint64_t footer_offset() const { return file_size_ - Footer::kEncodedLength; }
  const Footer& footer() const { return footer_; }
  // False if the footer's bytes after the two handles are not all zero, as
  // every LevelDB writer leaves them (readers ignore them).
  bool footer_padding_is_zero() const { return footer_padding_is_zero_; }

  const BlockSummary& metaindex_block() const { return metaindex_block_; }
  const BlockSummary& index_block() const { return index_block_; }
  const std::vector<HandleEntry>& metaindex() const { return metaindex_; }
  // One entry per data block, in file order.
  const std::vector<HandleEntry>& index() const { return index_; }

  // Reads the block at `handle` (checksum verified, decompressed). `kind`
  // ("data", "filter", ...) names the block in error messages.
  WalkStatus ReadBlock(const BlockHandle& handle, std::string_view kind,
                       BlockSummary* summary, BlockContents* contents) const;

  // Reads data block `index()[i]` and parses its restart array.
  WalkStatus ReadDataBlock(size_t i, BlockSummary* summary,
                           std::shared_ptr<const Block>* block) const;

 private:
  TableWalker(std::unique_ptr<RandomAccessFile> file, uint64_t file_size)
      : file_(std::move(file)), file_size_(file_size) {}

  WalkStatus ReadFooter();
  // Reads and parses a block of key -> block handle entries.
  WalkStatus ReadHandleBlock(const BlockHandle& handle, std::string_view kind,
                             BlockSummary* summary,
                             std::vector<HandleEntry>* entries) const;

  const std::unique_ptr<RandomAccessFile> file_;
  const uint64_t file_size_;
  Footer footer_;
  bool footer_padding_is_zero_ = true;
  BlockSummary metaindex_block_;
  BlockSummary index_block_;
  std::vector<HandleEntry> metaindex_;
  std::vector<HandleEntry> index_;
  // Whose compression numbering the blocks follow, from the metaindex.
  CompressionNumbering numbering_ = CompressionNumbering::kLevelDB;
};

// "PATH: corrupt at offset N: reason" for damage found at an offset, else
// DescribeFileError's "PATH: message".
std::string DescribeWalkError(std::string_view path, const WalkStatus& status);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_TABLE_WALKER_H_
