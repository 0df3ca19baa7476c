// TableWalker reads a table file block by block, the way `dump`, `verify` and
// `stats` need it: at Open, in the order every reader of a table follows
// (table/table_structure.h), the footer, the metaindex, every meta block it
// names (the filters among them) and the index; then any data block on
// request, each with its stored size, compression type and raw size. Unlike
// Table it keeps nothing hidden, and its errors are worded as
// table/corruption.h words them: damage is placed at the offset of the block
// or footer it lies in.
//
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
#include "table/table_structure.h"
#include "tools/table_file.h"

namespace bloomtable {
namespace tool {

// A block as stored.
struct BlockSummary {
  BlockHandle handle;
  unsigned char compression_type = 0;    // the trailer's type byte
  BlockCodec codec = BlockCodec::kNone;  // what that type means here
  uint64_t raw_size = 0;                 // bytes after decompression
};

// A meta block that the metaindex names, read at Open.
// One partition of a partitioned filter: its separator in the top-level
// index, its block and the block's bytes.
struct FilterPartitionBlock {
  std::string separator;
  BlockSummary summary;
  BlockContents contents;
};

struct MetaBlock {
  MetaindexEntry entry;
  BlockSummary summary;
  BlockContents contents;
  // For a partitioned filter ("partitionedfilter.<policy>", whose block is
  // the top-level index): every partition, in order.
  std::vector<FilterPartitionBlock> partitions;
};

class TableWalker {
 public:
  // How far Open got: each part is read only after those before it.
  enum class Stage { kFooter, kMetaindex, kMetaBlocks, kIndex };

  // Opens `path` with `open_file` and reads its footer, metaindex, meta
  // blocks and index. Sets `*walker` as soon as the footer is read, even if
  // a later part fails, so that what was read can be shown (stage() says
  // how far it got); on an error before that, `*walker` is null. Errors
  // about the whole file are not placed: file-system errors (missing file,
  // directory) and, as DataLoss, an empty file or one shorter than a footer.
  static absl::Status Open(const std::string& path, const FileOpener& open_file,
                           std::unique_ptr<TableWalker>* walker);

  TableWalker(const TableWalker&) = delete;
  TableWalker& operator=(const TableWalker&) = delete;

  const std::string& path() const { return file_->name(); }
  uint64_t file_size() const { return file_size_; }
  uint64_t footer_offset() const { return file_size_ - Footer::kEncodedLength; }
  const Footer& footer() const { return footer_.footer; }
  // False if the footer's bytes after the two handles are not all zero, as
  // every LevelDB writer leaves them (readers ignore them).
  bool footer_padding_is_zero() const { return footer_.padding_is_zero; }

  // The last part Open read completely; the accessors below are empty for
  // the parts after it.
  Stage stage() const { return stage_; }
  const BlockSummary& metaindex_block() const { return metaindex_block_; }
  const std::vector<MetaindexEntry>& metaindex() const { return metaindex_; }
  // One per metaindex entry, in metaindex order.
  const std::vector<MetaBlock>& meta_blocks() const { return meta_blocks_; }
  const BlockSummary& index_block() const { return index_block_; }
  // One entry per data block, in file order.
  const std::vector<MetaindexEntry>& index() const { return index_; }

  // Reads the `kind` block ("data", "filter", ...) at `handle` (checksum
  // verified, decompressed).
  absl::Status ReadBlock(const BlockHandle& handle, std::string_view kind,
                         BlockSummary* summary, BlockContents* contents) const;

  // Reads data block `index()[i]` and parses its restart array.
  absl::Status ReadDataBlock(size_t i, BlockSummary* summary,
                             std::shared_ptr<const Block>* block) const;

  // Places `status`, met while iterating data block `index()[i]`, as the
  // library places it.
  absl::Status DataBlockError(size_t i, const absl::Status& status) const;

 private:
  TableWalker(std::unique_ptr<RandomAccessFile> file, uint64_t file_size)
      : file_(std::move(file)), file_size_(file_size) {}

  absl::Status ReadAfterFooter();
  // Reads every partition that `meta`'s top-level index names.
  absl::Status ReadFilterPartitions(MetaBlock* meta) const;
  // Reads, parses and decodes a block of key -> block handle entries.
  absl::Status ReadHandleBlock(const BlockHandle& handle, std::string_view kind,
                               BlockSummary* summary,
                               std::vector<MetaindexEntry>* entries) const;

  const std::unique_ptr<RandomAccessFile> file_;
  const uint64_t file_size_;
  FooterContents footer_;
  Stage stage_ = Stage::kFooter;
  BlockSummary metaindex_block_;
  std::vector<MetaindexEntry> metaindex_;
  std::vector<MetaBlock> meta_blocks_;
  BlockSummary index_block_;
  std::vector<MetaindexEntry> index_;
  // Whose compression numbering the blocks follow, from the metaindex.
  CompressionNumbering numbering_ = CompressionNumbering::kLevelDB;
};

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_TABLE_WALKER_H_
