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

// A declared size is allocated at once when it is at most this many times
// the stored size, or at most this floor (which every block of up to 64 KiB
// meets): a false claim then costs little. Larger claims, which real blocks
// make only for very repetitive data, are decompressed as if undeclared
// (counted first, then allocated), so that the allocation follows the real
// output.
constexpr size_t kTrustedExpansion = 16;
constexpr size_t kTrustedFloor = size_t{64} << 10;

size_t Multiply(size_t a, size_t b) {
  return a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

size_t Capped(size_t bound) {
  return std::min(bound, kMaxUncompressedBlockSize);
}

bool Trusted(uint64_t declared, size_t stored_size) {
  return declared <=
         std::max(Multiply(stored_size, kTrustedExpansion), kTrustedFloor);
}

absl::string_view View(std::string_view text) {
  return absl::string_view(text.data(), text.size());
}

// A size claimed by a block's header or prefix beyond `bound`, the most its
// `stored_size` bytes can expand to with `codec`.
absl::Status ClaimBeyondBound(std::string_view codec, uint64_t claimed,
                              size_t stored_size, size_t bound) {
  return absl::DataLossError(absl::StrFormat(
      "%s block claims %u uncompressed bytes, more than its %u bytes can "
      "expand to (%u)",
      View(codec), claimed, stored_size, bound));
}

// The one error of every codec whose block holds more than the caller's
// limit (Options::max_uncompressed_block_size): the block may be valid.
absl::Status LimitExceeded(std::string_view codec, size_t stored_size,
                           size_t limit) {
  return absl::ResourceExhaustedError(absl::StrFormat(
      "%s block of %u bytes decompresses to more than %u bytes, the most "
      "Options::max_uncompressed_block_size lets a block hold (raise it to "
      "read this table)",
      View(codec), stored_size, limit));
}

// Checks a declared size against the codec's own bound (DataLoss: no valid
// block claims more) and then the caller's limit (ResourceExhausted).
absl::Status CheckDeclared(std::string_view codec, uint64_t declared,
                           size_t stored_size, size_t codec_bound,
                           size_t max_size) {
  if (declared > codec_bound) {
    return ClaimBeyondBound(codec, declared, stored_size, codec_bound);
  }
  if (declared > max_size) return LimitExceeded(codec, stored_size, max_size);
  return absl::OkStatus();
}

BlockContents Owning(std::unique_ptr<char[]> buffer, size_t size) {
  BlockContents contents;
  contents.data = std::string_view(buffer.get(), size);
  contents.owned = std::move(buffer);
  return contents;
}

// The first pass's scratch for a block of `stored_size` bytes: room for 16
// times its bytes (most blocks shrink 2 to 4 times, so most decode in one
// pass), at least 4 KiB and at most 64 KiB (a larger output is counted, then
// decoded into its exact allocation).
size_t ScratchSize(size_t stored_size) {
  constexpr size_t kMin = size_t{4} << 10;
  constexpr size_t kMax = size_t{64} << 10;
  return std::clamp(Multiply(stored_size, 16), kMin, kMax);
}

// Runs a streaming decoder over a DecompressionBuffer of `limit` bytes in
// as many passes as it needs. `past_limit` is the error when the output
// passes the limit.
template <typename Decode>
absl::StatusOr<BlockContents> DecodeStream(std::string_view codec,
                                           size_t stored_size, size_t limit,
                                           Decode&& decode,
                                           const absl::Status& past_limit) {
  DecompressionBuffer output(limit, ScratchSize(stored_size));
  while (true) {
    const absl::Status status = decode(&output);
    if (output.passed_limit()) {
      if (!output.second_pass()) return past_limit;
      return absl::DataLossError(absl::StrFormat(
          "damaged %s block: its output changed between two reads",
          View(codec)));
    }
    if (!status.ok()) return status;
    switch (output.FinishPass()) {
      case DecompressionBuffer::kDone: {
        const size_t size = output.size();
        return Owning(output.Release(), size);
      }
      case DecompressionBuffer::kAgain:
        break;
      case DecompressionBuffer::kWrong:
        return absl::DataLossError(absl::StrFormat(
            "damaged %s block: its output changed between two reads",
            View(codec)));
    }
  }
}

// The limit of a codec whose output `codec_bound` bounds (its densest
// expansion of the stored bytes) beside the caller's `max_size`, and the
// error for passing it: DataLoss past the codec's bound (no valid block
// expands more), ResourceExhausted past the caller's.
struct StreamLimit {
  size_t limit;
  absl::Status past;
};
StreamLimit LimitOf(std::string_view codec, size_t stored_size,
                    size_t codec_bound, size_t max_size) {
  if (max_size <= codec_bound) {
    return {max_size, LimitExceeded(codec, stored_size, max_size)};
  }
  return {codec_bound,
          absl::DataLossError(absl::StrFormat(
              "damaged %s block: decompresses to more than %u bytes, the most "
              "its %u bytes can expand to",
              View(codec), codec_bound, stored_size))};
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
                                                DeflateWrapper wrapper,
                                                size_t max_size) {
  const std::string_view codec =
      wrapper == DeflateWrapper::kRaw ? "raw deflate" : "zlib";
  const StreamLimit bound = LimitOf(
      codec, stored.size(), Capped(MaxInflatedSize(stored.size())), max_size);
  return DecodeStream(
      codec, stored.size(), bound.limit,
      [&](DecompressionBuffer* output) {
        return Inflate(stored, wrapper, output);
      },
      bound.past);
}

// A zstd frame; `prefix_size`: the size a writer recorded before it
// (RocksDB), if any.
absl::StatusOr<BlockContents> UncompressZstd(
    std::string_view stored, std::optional<uint64_t> prefix_size,
    ZstdContextCache* contexts, size_t max_size) {
  const size_t codec_bound = Capped(MaxZstdDecompressedSize(stored.size()));
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
  if (!declared.has_value()) {
    const StreamLimit bound =
        LimitOf("zstd", stored.size(), codec_bound, max_size);
    absl::StatusOr<BlockContents> contents = DecodeStream(
        "zstd", stored.size(), bound.limit,
        [&](DecompressionBuffer* output) {
          return ZstdDecompress(stored, output, contexts);
        },
        bound.past);
    // A window past the caller's limit (rather than past what the stored
    // bytes may expand to): a larger limit would read the frame.
    if (absl::IsUnimplemented(contents.status()) && bound.limit == max_size) {
      return LimitExceeded("zstd", stored.size(), max_size);
    }
    return contents;
  }
  status =
      CheckDeclared("zstd", *declared, stored.size(), codec_bound, max_size);
  if (!status.ok()) return status;
  const size_t size = static_cast<size_t>(*declared);
  if (Trusted(size, stored.size())) {
    std::unique_ptr<char[]> buffer(new char[size]);
    status = ZstdDecompressInto(stored, buffer.get(), size, contexts);
    if (!status.ok()) return status;
    return Owning(std::move(buffer), size);
  }
  // A large claim: counted before anything that size is allocated. The
  // frame may hold no more than it declares.
  absl::StatusOr<BlockContents> contents = DecodeStream(
      "zstd", stored.size(), size,
      [&](DecompressionBuffer* output) {
        return ZstdDecompress(stored, output, contexts);
      },
      absl::DataLossError(absl::StrFormat(
          "damaged zstd block: holds more than the %u bytes it declares",
          size)));
  if (contents.ok() && contents->data.size() != size) {
    return absl::DataLossError(
        absl::StrFormat("damaged zstd block: holds %u bytes, declares %u",
                        contents->data.size(), size));
  }
  return contents;
}

// bzip2 has no useful bound on its expansion: the caller's limit stops it.
absl::StatusOr<BlockContents> UncompressBzip2(std::string_view stored,
                                              size_t max_size) {
  return DecodeStream(
      "bzip2", stored.size(), max_size,
      [&](DecompressionBuffer* output) {
        return Bzip2Decompress(stored, output);
      },
      LimitExceeded("bzip2", stored.size(), max_size));
}

// RocksDB's LZ4 in format_version 0 tables: the uncompressed size as a
// fixed64 (RocksDB wrote its size_t as it lay in memory: little-endian on
// every platform it is used on), then one LZ4 block.
absl::StatusOr<BlockContents> UncompressRocksDBLz4(std::string_view stored,
                                                   size_t max_size) {
  constexpr size_t kPrefixSize = 8;
  if (stored.size() < kPrefixSize) {
    return absl::DataLossError("damaged LZ4 block: no size prefix");
  }
  const uint64_t size = DecodeFixed64(stored.data());
  const std::string_view block = stored.substr(kPrefixSize);
  absl::Status status =
      CheckDeclared("LZ4", size, block.size(),
                    Capped(MaxLz4DecompressedSize(block.size())), max_size);
  if (!status.ok()) return status;
  std::unique_ptr<char[]> buffer(new char[size]);
  status = Lz4Decompress(block, buffer.get(), static_cast<size_t>(size));
  if (!status.ok()) return status;
  return Owning(std::move(buffer), static_cast<size_t>(size));
}

// RocksDB's zstd: the uncompressed size as a varint32, then one frame.
absl::StatusOr<BlockContents> UncompressRocksDBZstd(std::string_view stored,
                                                    ZstdContextCache* contexts,
                                                    size_t max_size) {
  uint32_t size = 0;
  if (!GetVarint32(&stored, &size)) {
    return absl::DataLossError("damaged zstd block: bad size prefix");
  }
  return UncompressZstd(stored, size, contexts, max_size);
}

absl::Status Unsupported(unsigned char type, std::string_view what) {
  return absl::UnimplementedError(absl::StrFormat(
      "compression type %d (%s) is not supported", type, View(what)));
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
                                              size_t max_uncompressed_size) {
  const size_t max_size = Capped(max_uncompressed_size);
  const BlockCodec codec = CodecOf(numbering, type, stored);
  const bool rocksdb = numbering == CompressionNumbering::kRocksDB;
  switch (codec) {
    case BlockCodec::kSnappy:
      return UncompressSnappy(stored);
    case BlockCodec::kZlib:
      return UncompressDeflate(stored, DeflateWrapper::kZlib, max_size);
    case BlockCodec::kRawDeflate:
      return UncompressDeflate(stored, DeflateWrapper::kRaw, max_size);
    case BlockCodec::kZstd:
      return rocksdb ? UncompressRocksDBZstd(stored, zstd_contexts, max_size)
                     : UncompressZstd(stored, std::nullopt, zstd_contexts,
                                      max_size);
    case BlockCodec::kBzip2:
      return UncompressBzip2(stored, max_size);
    case BlockCodec::kLz4:
      return UncompressRocksDBLz4(stored, max_size);
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
