// The fixed parts of a table file (FORMAT.md): block handles, the footer,
// and reading one block with its trailer checked.
//
//   block on disk:  [contents: size bytes][type: 1 byte][masked crc32c: 4]
//   block handle:   varint64 offset, varint64 size (size excludes the trailer)
//   footer (48 B):  metaindex handle, index handle, zero padding to 40 bytes,
//                   fixed64 magic 0xdb4775248b80fb57
//
// These are plain values and free functions with no shared state: safe to
// use from any thread. The tool and the fuzzers walk files with them.

#ifndef BLOOMTABLE_TABLE_FORMAT_H_
#define BLOOMTABLE_TABLE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "table/block_compression.h"
#include "table/block_contents.h"

namespace bloomtable {

// The 1-byte type and 4-byte masked CRC32C that follow every block.
inline constexpr size_t kBlockTrailerSize = 5;

// The position and size (trailer excluded) of a block in the file.
class BlockHandle {
 public:
  // Two varint64s take at most 20 bytes.
  static constexpr size_t kMaxEncodedLength = 20;

  BlockHandle() = default;
  BlockHandle(uint64_t offset, uint64_t size) : offset_(offset), size_(size) {}

  uint64_t offset() const { return offset_; }
  uint64_t size() const { return size_; }
  void set_offset(uint64_t offset) { offset_ = offset; }
  void set_size(uint64_t size) { size_ = size; }

  void EncodeTo(std::string* dst) const;
  // Decodes a handle from the front of `*input` and advances past it.
  // DataLoss if the varints are malformed or truncated.
  absl::Status DecodeFrom(std::string_view* input);

  // True if the block and its trailer lie within [0, limit), without
  // overflow.
  bool FitsWithin(uint64_t limit) const;

 private:
  uint64_t offset_ = 0;
  uint64_t size_ = 0;
};

// LevelDB's table magic number (the low 8 bytes of a SHA-1 of a phrase, as
// chosen by LevelDB), stored as the file's last fixed64.
inline constexpr uint64_t kTableMagicNumber = 0xdb4775248b80fb57ull;
// RocksDB's block-based table magic (format_version 1 and later): recognised
// only to say that such a table is not supported.
inline constexpr uint64_t kRocksDBBlockBasedTableMagicNumber =
    0x88e241b785f4cff7ull;

// The last 48 bytes of a table: where the metaindex and index blocks are.
class Footer {
 public:
  // Two handles padded to 40 bytes, then the 8-byte magic.
  static constexpr size_t kEncodedLength =
      2 * BlockHandle::kMaxEncodedLength + 8;

  Footer() = default;
  Footer(const BlockHandle& metaindex, const BlockHandle& index)
      : metaindex_handle_(metaindex), index_handle_(index) {}

  const BlockHandle& metaindex_handle() const { return metaindex_handle_; }
  const BlockHandle& index_handle() const { return index_handle_; }

  // Appends exactly kEncodedLength bytes.
  void EncodeTo(std::string* dst) const;
  // `input` must be the file's last kEncodedLength bytes. DataLoss for a bad
  // magic or malformed handles; Unimplemented for RocksDB's block-based
  // magic (a valid RocksDB table, which this library does not read).
  absl::Status DecodeFrom(std::string_view input);

 private:
  BlockHandle metaindex_handle_;
  BlockHandle index_handle_;
};

// Checks where the footer's two handles point, for a file whose footer
// starts at `footer_offset`: both blocks inside the file, not overlapping,
// and one of them ending exactly where the footer begins (LevelDB writes the
// index block last, RocksDB's legacy format the metaindex). Every writer's
// files pass; a damaged footer that points the index at another valid block
// (the metaindex, a data block: checksums cannot tell) fails with DataLoss
// instead of reading as a table with missing keys.
absl::Status CheckFooterLayout(const Footer& footer, uint64_t footer_offset);

struct ReadBlockOptions {
  // Check the trailer's CRC32C.
  bool verify_checksum = true;
  // Blocks must end (trailer included) at or before this file offset:
  // the start of the footer.
  uint64_t readable_limit = 0;
  // Whose numbering the trailer's compression type follows
  // (block_compression.h): LevelDB's unless the table's metaindex says that
  // RocksDB wrote it.
  CompressionNumbering numbering = CompressionNumbering::kLevelDB;
  // Lends zstd decompression contexts for reuse; may be null. Not owned.
  ZstdContextCache* zstd_contexts = nullptr;
  // The most a deflate, zlib, bzip2, zstd or LZ4 block may decompress to
  // (Options::max_uncompressed_block_size).
  size_t max_uncompressed_block_size = kDefaultMaxUncompressedBlockSize;
};

// What a ReadBlock call did, for the table's counters. Filled in whether or
// not the read succeeded.
struct BlockReadReport {
  uint64_t bytes_read = 0;         // bytes returned by the file
  bool checksum_mismatch = false;  // the trailer's CRC did not match
  // How the block was stored, once its trailer was read.
  BlockCodec codec = BlockCodec::kUnknown;
};

// Reads the block at `handle` and its trailer, checks the trailer and
// decompresses (UncompressBlock). Nothing is allocated before `handle` is
// checked against options.readable_limit; what decompression allocates is
// bounded by the block's stored size (block_compression.h). Errors, each
// prefixed with the block's offset and size: DataLoss "truncated" on a short
// read, "checksum mismatch", "unknown compression type N", or damaged
// compressed bytes; Unimplemented for a compression type this library does
// not read; the file's own errors. `report` may be null.
absl::StatusOr<BlockContents> ReadBlock(const RandomAccessFile& file,
                                        const BlockHandle& handle,
                                        const ReadBlockOptions& options,
                                        BlockReadReport* report);

// ReadBlock's work after the read, for a block whose bytes were read by
// other means (a batched read, Table::MultiGet): `bytes` are what the file
// returned for the block and its trailer; fewer than handle.size() +
// kBlockTrailerSize is the "truncated" DataLoss. Checks the trailer and
// decompresses, with ReadBlock's errors. `owned`, if not null, is the
// buffer holding `bytes` and is given up (an uncompressed block keeps it
// instead of a copy). Sets report->checksum_mismatch and codec, not
// bytes_read. `report` may be null.
absl::StatusOr<BlockContents> DecodeBlock(const BlockHandle& handle,
                                          std::string_view bytes,
                                          const ReadBlockOptions& options,
                                          BlockReadReport* report,
                                          std::unique_ptr<char[]> owned);

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_FORMAT_H_
