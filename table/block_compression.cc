#include "table/block_compression.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "absl/strings/str_format.h"
#include "bloomtable/comparator.h"
#include "snappy.h"
#include "table/block.h"
#include "table/table_structure.h"
#include "util/bzip2_codec.h"
#include "util/coding.h"
#include "util/decompression_buffer.h"
#include "util/deflate.h"
#include "util/lz4_codec.h"
#include "util/zstd_codec.h"

namespace bloomtable {
namespace {

// RocksDB's type numbers (its CompressionType enum).
constexpr unsigned char kRocksDBZlib = 2;
constexpr unsigned char kRocksDBBzip2 = 3;
constexpr unsigned char kRocksDBLz4 = 4;
constexpr unsigned char kRocksDBLz4hc = 5;
constexpr unsigned char kRocksDBXpress = 6;
constexpr unsigned char kRocksDBZstd = 7;
constexpr unsigned char kRocksDBZstdNotFinal = 0x40;

// Types of LevelDB's numbering besides 0, 1 and 2.
constexpr unsigned char kMojangForkZstd = 3;
constexpr unsigned char kMojangRawDeflate = 4;

// A block usually shrinks 2 to 4 times; a streaming decompressor starts with
// room for that and grows as needed.
constexpr size_t kTypicalExpansion = 4;

// A declared size is allocated at once when it is at most this many times
// the stored size, or at most this floor (which every block of up to 64 KiB
// meets): a false claim then costs little. Larger claims, which real blocks
// make only for very repetitive data, are decompressed streaming, so that
// the allocation follows the real output.
constexpr size_t kTrustedExpansion = 16;
constexpr size_t kTrustedFloor = size_t{64} << 10;

size_t Multiply(size_t a, size_t b) {
  return a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

size_t Capped(size_t bound) {
  return std::min(bound, kMaxUncompressedBlockSize);
}

size_t FirstCapacity(size_t stored_size, size_t limit) {
  return std::min(limit, Multiply(stored_size, kTypicalExpansion));
}

bool Trusted(uint64_t declared, size_t stored_size) {
  return declared <=
         std::max(Multiply(stored_size, kTrustedExpansion), kTrustedFloor);
}

// A size claimed by a block's header or prefix beyond `bound`, the most its
// `stored_size` bytes can expand to with `codec`.
absl::Status ClaimBeyondBound(std::string_view codec, uint64_t claimed,
                              size_t stored_size, size_t bound) {
  return absl::DataLossError(absl::StrFormat(
      "%s block claims %u uncompressed bytes, more than its %u bytes can "
      "expand to (%u)",
      absl::string_view(codec.data(), codec.size()), claimed, stored_size,
      bound));
}

BlockContents Owning(std::unique_ptr<char[]> buffer, size_t size) {
  BlockContents contents;
  contents.data = std::string_view(buffer.get(), size);
  contents.owned = std::move(buffer);
  return contents;
}

absl::StatusOr<BlockContents> Finish(absl::Status status,
                                     DecompressionBuffer* output) {
  if (!status.ok()) return status;
  const size_t size = output->size();
  return Owning(output->Release(), size);
}

absl::StatusOr<BlockContents> UncompressSnappy(std::string_view stored) {
  size_t size = 0;
  if (!snappy::GetUncompressedLength(stored.data(), stored.size(), &size)) {
    return absl::DataLossError("damaged Snappy block (bad length header)");
  }
  const size_t limit = Capped(MaxSnappyUncompressedLength(stored.size()));
  if (size > limit)
    return ClaimBeyondBound("Snappy", size, stored.size(), limit);
  // new char[0] is valid and distinct, so an empty block still owns a
  // buffer.
  std::unique_ptr<char[]> buffer(new char[size]);
  if (!snappy::RawUncompress(stored.data(), stored.size(), buffer.get())) {
    return absl::DataLossError("damaged Snappy block");
  }
  return Owning(std::move(buffer), size);
}

absl::StatusOr<BlockContents> UncompressDeflate(std::string_view stored,
                                                DeflateWrapper wrapper) {
  const size_t limit = Capped(MaxInflatedSize(stored.size()));
  DecompressionBuffer output(FirstCapacity(stored.size(), limit), limit);
  return Finish(Inflate(stored, wrapper, &output), &output);
}

// A zstd frame; `prefix_size`: the size a writer recorded before it
// (RocksDB), if any.
absl::StatusOr<BlockContents> UncompressZstd(
    std::string_view stored, std::optional<uint64_t> prefix_size,
    ZstdContextCache* contexts) {
  size_t limit = Capped(MaxZstdDecompressedSize(stored.size()));
  std::optional<uint64_t> declared;
  absl::Status status = ZstdDeclaredSize(stored, &declared);
  if (!status.ok()) return status;
  if (prefix_size.has_value()) {
    if (declared.has_value() && *declared != *prefix_size) {
      return absl::DataLossError(absl::StrFormat(
          "damaged zstd block: its size prefix says %u bytes, its frame %u",
          *prefix_size, *declared));
    }
    declared = prefix_size;
  }
  if (declared.has_value()) {
    if (*declared > limit) {
      return ClaimBeyondBound("zstd", *declared, stored.size(), limit);
    }
    limit = static_cast<size_t>(*declared);
  }
  const size_t first_capacity =
      declared.has_value() && Trusted(*declared, stored.size())
          ? limit
          : FirstCapacity(stored.size(), limit);
  DecompressionBuffer output(first_capacity, limit);
  status = ZstdDecompress(stored, &output, contexts);
  if (status.ok() && declared.has_value() && output.size() != *declared) {
    status = absl::DataLossError(
        absl::StrFormat("damaged zstd block: holds %u bytes, declares %u",
                        output.size(), *declared));
  }
  return Finish(std::move(status), &output);
}

// bzip2 has no useful bound on its expansion: the caller's limit stops it.
absl::StatusOr<BlockContents> UncompressBzip2(std::string_view stored,
                                              size_t max_size) {
  const size_t limit = Capped(max_size);
  DecompressionBuffer output(FirstCapacity(stored.size(), limit), limit);
  absl::Status status = Bzip2Decompress(stored, &output);
  if (absl::IsOutOfRange(status)) {
    return absl::UnimplementedError(absl::StrFormat(
        "bzip2 block of %u bytes decompresses to more than %u bytes, the "
        "most Options::max_uncompressed_block_size lets a bzip2 block hold "
        "(raise it to read this table)",
        stored.size(), limit));
  }
  return Finish(std::move(status), &output);
}

// RocksDB's LZ4 in format_version 0 tables: the uncompressed size as a
// fixed64 (RocksDB wrote its size_t as it lay in memory: little-endian on
// every platform it is used on), then one LZ4 block.
absl::StatusOr<BlockContents> UncompressRocksDBLz4(std::string_view stored) {
  constexpr size_t kPrefixSize = 8;
  if (stored.size() < kPrefixSize) {
    return absl::DataLossError("damaged LZ4 block: no size prefix");
  }
  const uint64_t size = DecodeFixed64(stored.data());
  const std::string_view block = stored.substr(kPrefixSize);
  const size_t limit = Capped(MaxLz4DecompressedSize(block.size()));
  if (size > limit) return ClaimBeyondBound("LZ4", size, block.size(), limit);
  std::unique_ptr<char[]> buffer(new char[size]);
  absl::Status status =
      Lz4Decompress(block, buffer.get(), static_cast<size_t>(size));
  if (!status.ok()) return status;
  return Owning(std::move(buffer), static_cast<size_t>(size));
}

// RocksDB's zstd: the uncompressed size as a varint32, then one frame.
absl::StatusOr<BlockContents> UncompressRocksDBZstd(
    std::string_view stored, ZstdContextCache* contexts) {
  uint32_t size = 0;
  if (!GetVarint32(&stored, &size)) {
    return absl::DataLossError("damaged zstd block: bad size prefix");
  }
  return UncompressZstd(stored, size, contexts);
}

absl::Status Unsupported(unsigned char type, std::string_view what) {
  return absl::UnimplementedError(
      absl::StrFormat("compression type %d (%s) is not supported", type,
                      absl::string_view(what.data(), what.size())));
}

absl::Status UnknownType(unsigned char type) {
  return absl::DataLossError(
      absl::StrFormat("unknown compression type %d", type));
}

}  // namespace

std::string_view BlockCodecName(BlockCodec codec) {
  switch (codec) {
    case BlockCodec::kNone:
      return "none";
    case BlockCodec::kSnappy:
      return "snappy";
    case BlockCodec::kZlib:
      return "zlib";
    case BlockCodec::kRawDeflate:
      return "raw deflate";
    case BlockCodec::kZstd:
      return "zstd";
    case BlockCodec::kBzip2:
      return "bzip2";
    case BlockCodec::kLz4:
      return "lz4";
    case BlockCodec::kXpress:
      return "xpress";
    case BlockCodec::kUnknown:
      break;
  }
  return "unknown";
}

CompressionNumbering CompressionNumberingOf(
    const std::vector<MetaindexEntry>& metaindex) {
  for (const MetaindexEntry& entry : metaindex) {
    if (entry.key == kRocksDBPropertiesBlockName) {
      return CompressionNumbering::kRocksDB;
    }
  }
  return CompressionNumbering::kLevelDB;
}

size_t MaxSnappyUncompressedLength(size_t compressed_size) {
  // Snappy's elements: a literal of L bytes takes 1 + L or more input
  // bytes; a copy takes 2 bytes for at most 11 output bytes, or 3 or 5 bytes
  // for at most 64. No element yields more than 64 bytes per 3 it takes, and
  // the length header yields none.
  constexpr size_t kMaxOutputPerElement = 64;
  constexpr size_t kMinInputPerLongCopy = 3;
  if (compressed_size > SIZE_MAX / kMaxOutputPerElement) return SIZE_MAX;
  return compressed_size * kMaxOutputPerElement / kMinInputPerLongCopy;
}

BlockCodec CodecOf(CompressionNumbering numbering, unsigned char type,
                   std::string_view stored) {
  if (type == kNoCompressionType) return BlockCodec::kNone;
  if (type == kSnappyCompressionType) return BlockCodec::kSnappy;
  if (numbering == CompressionNumbering::kLevelDB) {
    switch (type) {
      case kZstdCompressionType:
        return IsZstdFrame(stored) ? BlockCodec::kZstd : BlockCodec::kZlib;
      case kMojangForkZstd:
        return IsZstdFrame(stored) ? BlockCodec::kZstd : BlockCodec::kUnknown;
      case kMojangRawDeflate:
        return BlockCodec::kRawDeflate;
      default:
        return BlockCodec::kUnknown;
    }
  }
  switch (type) {
    case kRocksDBZlib:
      return BlockCodec::kRawDeflate;
    case kRocksDBBzip2:
      return BlockCodec::kBzip2;
    case kRocksDBLz4:
    case kRocksDBLz4hc:
      return BlockCodec::kLz4;
    case kRocksDBXpress:
      return BlockCodec::kXpress;
    case kRocksDBZstd:
    case kRocksDBZstdNotFinal:
      return BlockCodec::kZstd;
    default:
      return BlockCodec::kUnknown;
  }
}

absl::StatusOr<BlockContents> UncompressBlock(CompressionNumbering numbering,
                                              unsigned char type,
                                              std::string_view stored,
                                              ZstdContextCache* zstd_contexts,
                                              size_t max_bzip2_size) {
  const BlockCodec codec = CodecOf(numbering, type, stored);
  const bool rocksdb = numbering == CompressionNumbering::kRocksDB;
  switch (codec) {
    case BlockCodec::kSnappy:
      return UncompressSnappy(stored);
    case BlockCodec::kZlib:
      return UncompressDeflate(stored, DeflateWrapper::kZlib);
    case BlockCodec::kRawDeflate:
      return UncompressDeflate(stored, DeflateWrapper::kRaw);
    case BlockCodec::kZstd:
      return rocksdb ? UncompressRocksDBZstd(stored, zstd_contexts)
                     : UncompressZstd(stored, std::nullopt, zstd_contexts);
    case BlockCodec::kBzip2:
      return UncompressBzip2(stored, max_bzip2_size);
    case BlockCodec::kLz4:
      return UncompressRocksDBLz4(stored);
    case BlockCodec::kXpress:
      return Unsupported(type, "Xpress, written by RocksDB on Windows");
    case BlockCodec::kNone:  // not compressed: the caller's case
    case BlockCodec::kUnknown:
      break;
  }
  if (!rocksdb && type == kMojangForkZstd) {
    return Unsupported(type,
                       "zstd in forks of Mojang's LevelDB, but this block is "
                       "not a zstd frame");
  }
  return UnknownType(type);
}

}  // namespace bloomtable
