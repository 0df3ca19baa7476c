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
// Allocation: what a block of S stored bytes may decompress to is bounded by
// the caller's limit (Options::max_uncompressed_block_size) for every codec
// whose output its stored size does not bound tightly, and by each codec's
// densest expansion, and never more than the largest block Block::Parse
// accepts (kMaxUncompressedBlockSize, 4 GiB - 1):
//   Snappy      64/3 S (MaxSnappyUncompressedLength): a larger claimed
//               length is DataLoss before anything is allocated. Not bound
//               by the caller's limit (a LevelDB table may hold a 100 MiB
//               Snappy block, and Snappy's own bound is tight);
//   LZ4         255 S (MaxLz4DecompressedSize) and the limit, checked on its
//               size prefix before allocating;
//   deflate     1032 S (MaxInflatedSize) and the limit;
//   zstd        32768 S (MaxZstdDecompressedSize) and the limit, or the size
//               the frame or RocksDB's prefix declares, checked before
//               allocating; a declared size above 16 S (and 64 KiB) is not
//               allocated before the output is counted; the decoder's window
//               is capped at the least power of two holding the bound (a
//               valid frame with a larger window is Unimplemented);
//   bzip2       the limit alone: bzip2 has no useful bound of its own.
// Streaming codecs write through a DecompressionBuffer
// (util/decompression_buffer.h): the output lands in one allocation of
// exactly its size, and a read holds no more than that and a scratch of at
// most 64 KiB (not even that once the output is larger than the scratch),
// however the output grows.
//
// A block that holds more than the limit is ResourceExhausted, one message
// for every codec, naming Options::max_uncompressed_block_size (the block
// may be valid: a caller who expects larger blocks raises the option); one
// that claims or holds more than its codec's densest expansion is DataLoss.
// A stream cut short is DataLoss, also when its output so far is exactly
// the limit.
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
// writer), and for a zstd frame whose window is larger than its block may
// decompress to (a valid frame this reader does not decode);
// ResourceExhausted for a deflate, zlib, bzip2, zstd or LZ4 block that holds
// more than `max_uncompressed_size` bytes
// (Options::max_uncompressed_block_size; at most kMaxUncompressedBlockSize),
// its message naming the option. `zstd_contexts` (may be null) lends zstd
// decompression contexts for reuse.
absl::StatusOr<BlockContents> UncompressBlock(
    CompressionNumbering numbering, unsigned char type, std::string_view stored,
    ZstdContextCache* zstd_contexts = nullptr,
    size_t max_uncompressed_size = kDefaultMaxUncompressedBlockSize);

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_BLOCK_COMPRESSION_H_
