// How a block's stored bytes become its contents: the trailer's type byte
// names a compression in the numbering of the program that wrote the file,
// and the numberings disagree (docs/FORMAT.md, "Compression types"):
//
//   type  LevelDB numbering                  RocksDB numbering
//   0     none                               none
//   1     Snappy                             Snappy
//   2     zstd frame (upstream LevelDB) or   raw deflate
//         zlib stream (Mojang's Bedrock),
//         told apart by zstd's magic
//   3     zstd frame (Mojang-derived forks)  bzip2 stream
//   4     raw deflate (Mojang's Bedrock)     LZ4 block after a fixed64 size
//   5     -                                  LZ4HC (read as LZ4)
//   6     -                                  Xpress (Windows only)
//   7     -                                  zstd frame after a varint32 size
//   0x40  -                                  zstd frame (ZSTDNotFinal), as 7
//
// A table follows RocksDB's numbering when RocksDB wrote it: its metaindex
// names a "rocksdb.properties" block (RocksDB writes tables with LevelDB's
// magic number when format_version is 0, and never compresses their
// metaindex, so the metaindex can be read before the numbering is known).
//
// Allocation: what a block of S stored bytes may decompress to is bounded,
// and never more than the largest block Block::Parse accepts
// (kMaxUncompressedBlockSize, 4 GiB - 1):
//   Snappy      64/3 S (MaxSnappyUncompressedLength); a larger claimed
//               length is DataLoss before anything is allocated;
//   LZ4         255 S (MaxLz4DecompressedSize); likewise for its prefix;
//   deflate     1032 S (MaxInflatedSize), grown as it arrives;
//   zstd        32768 S (MaxZstdDecompressedSize), or the size the frame or
//               RocksDB's prefix declares; a declared size above 16 S (and
//               64 KiB) grows as it arrives; the decoder's window is capped
//               at the least power of two holding the bound (a valid frame
//               with a larger window is Unimplemented);
//   bzip2       the caller's limit (Options::max_uncompressed_block_size),
//               where the decoder stops: bzip2 has no useful bound of its
//               own.
// Streaming codecs grow their output as it arrives
// (util/decompression_buffer.h), at most twice the output while growing,
// so that no claimed length alone sizes an allocation beyond these bounds.
//
// Free functions without shared state: safe from any thread.

#ifndef BLOOMTABLE_TABLE_BLOCK_COMPRESSION_H_
#define BLOOMTABLE_TABLE_BLOCK_COMPRESSION_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/options.h"
#include "table/block_contents.h"

namespace bloomtable {

class Block;
class ZstdContextCache;
struct MetaindexEntry;  // table_structure.h

// Whose numbering a table's compression types follow.
enum class CompressionNumbering {
  kLevelDB,  // LevelDB, its forks (Mojang's, upstream's zstd) and bloomtable
  kRocksDB,  // RocksDB's, in LevelDB-magic tables RocksDB wrote
};

// The compressions that block trailers name, whatever their number.
enum class BlockCodec {
  kNone,
  kSnappy,
  kZlib,
  kRawDeflate,
  kZstd,
  kBzip2,
  kLz4,
  kXpress,
  kUnknown,
};

// "none", "snappy", "zlib", "raw deflate", "zstd", "bzip2", "lz4", "xpress",
// "unknown".
std::string_view BlockCodecName(BlockCodec codec);

// Block compression types as stored in bloomtable's own tables (LevelDB's
// numbering).
inline constexpr unsigned char kNoCompressionType = 0;
inline constexpr unsigned char kSnappyCompressionType = 1;
inline constexpr unsigned char kZstdCompressionType = 2;

// The metaindex key of the block that only RocksDB writes.
inline constexpr std::string_view kRocksDBPropertiesBlockName =
    "rocksdb.properties";

// RocksDB's numbering if `metaindex` names kRocksDBPropertiesBlockName, else
// LevelDB's.
CompressionNumbering CompressionNumberingOf(
    const std::vector<MetaindexEntry>& metaindex);

// The largest uncompressed block a reader accepts: Block::Parse's 32-bit
// offsets cover 4 GiB.
inline constexpr size_t kMaxUncompressedBlockSize = 0xffffffffu;

// Upper bound on what `compressed_size` bytes of Snappy data can
// decompress to (64 output bytes per 3 input bytes, Snappy's densest copy).
// A block claiming more is damaged and is rejected before anything is
// allocated for it.
size_t MaxSnappyUncompressedLength(size_t compressed_size);

// The codec that `type` names in `numbering`, given the block's stored
// bytes (type 2 of LevelDB's numbering is zstd or zlib by its first bytes).
BlockCodec CodecOf(CompressionNumbering numbering, unsigned char type,
                   std::string_view stored);

// Decompresses `stored`, the contents of a block whose trailer type is
// `type` (not kNoCompressionType: those bytes are the contents). Errors:
// DataLoss for damaged bytes, or a type no writer of `numbering` uses
// ("unknown compression type N"); Unimplemented for a type that some writer
// uses but this library does not read (the message names the type and the
// writer). `zstd_contexts` (may be null) lends zstd decompression contexts
// for reuse. A bzip2 block stops at `max_bzip2_size` bytes
// (Options::max_uncompressed_block_size; at most kMaxUncompressedBlockSize):
// one that holds more is Unimplemented, its message naming the option. A
// zstd frame whose window is larger than its block may decompress to is
// Unimplemented too (a valid frame this reader does not decode).
absl::StatusOr<BlockContents> UncompressBlock(
    CompressionNumbering numbering, unsigned char type, std::string_view stored,
    ZstdContextCache* zstd_contexts = nullptr,
    size_t max_bzip2_size = kDefaultMaxUncompressedBlockSize);

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_BLOCK_COMPRESSION_H_
