// Zstandard (RFC 8878) frames as compressed blocks: how upstream LevelDB
// (type 2), RocksDB (type 7, after a size prefix), forks of Mojang's LevelDB
// (type 3) and bloomtable's CompressionType::kZstd store them.
// docs/FORMAT.md, "Compression types". A ZstdCompressor is single-threaded;
// the free functions are safe from any thread.

#ifndef BLOOMTABLE_UTIL_ZSTD_CODEC_H_
#define BLOOMTABLE_UTIL_ZSTD_CODEC_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "util/decompression_buffer.h"

namespace bloomtable {

// True if `input` starts with a zstd frame's magic number, the bytes
// 28 B5 2F FD. No zlib stream starts so: a zlib header's first byte has 8 in
// its low four bits (the deflate method), and 0x28 has 8 there but then
// 0x28 * 256 + 0xB5 is not a multiple of 31, as zlib's check requires.
bool IsZstdFrame(std::string_view input);

// The most `compressed_size` bytes of zstd frames can decompress to: 32768
// bytes per byte. A frame's densest block is an RLE block, a 3-byte header
// and one byte repeated up to 128 KiB (the largest block), and a frame
// header costs more bytes still.
size_t MaxZstdDecompressedSize(size_t compressed_size);

// The content size that the frame at the start of `input` declares, if its
// header holds one (writers that know the size up front, as ZSTD_compress,
// store it). DataLoss if the frame header is malformed or truncated.
absl::Status ZstdDeclaredSize(std::string_view input,
                              std::optional<uint64_t>* size);

// A few decompression contexts kept for reuse: making one (about 100 KiB)
// costs several times more than decompressing a 4 KiB block with it. A
// table keeps one cache for all its reads. Thread-safe and lock-free: a
// thread takes a context from a slot, or makes one when every slot is
// empty, and puts it back in a free slot, or frees it when none is free.
class ZstdContextCache {
 public:
  ZstdContextCache() = default;
  ZstdContextCache(const ZstdContextCache&) = delete;
  ZstdContextCache& operator=(const ZstdContextCache&) = delete;
  ~ZstdContextCache();

  // For ZstdDecompress: a context from the cache, or null if it has none.
  void* Take();
  // For ZstdDecompress: keeps `context` for later, or frees it.
  void Give(void* context);

 private:
  // Contexts for this many concurrent readers are kept; more are made and
  // freed per read.
  static constexpr int kSlots = 4;
  std::atomic<void*> slots_[kSlots] = {};
};

// Decompresses `input`, which must be exactly one complete frame, into
// `output` (one pass of it: see decompression_buffer.h), streaming.
// DataLoss if the frame is damaged or truncated, or is followed by other
// bytes; OutOfRange as soon as the output passes what `output` may hold.
// `contexts` (may be null) supplies a reusable context.
//
// The decoder's own buffer follows the frame's window: the window may be at
// most the least power of two (from 2^10) that holds output->limit() bytes
// (ZSTD_d_windowLogMax), so that what a context reserves, and keeps while
// cached, is bounded by the output's limit, never by the frame's claim. A
// valid frame declaring a larger window is Unimplemented (writers that know
// the size, as every table writer does, never declare a window beyond it).
absl::Status ZstdDecompress(std::string_view input, DecompressionBuffer* output,
                            ZstdContextCache* contexts);

// Decompresses `input`, exactly one complete frame holding exactly `size`
// bytes (as its header declares), into `output` (`size` bytes), in one
// call. Errors as ZstdDecompress's, and DataLoss if the frame holds another
// size.
absl::Status ZstdDecompressInto(std::string_view input, char* output,
                                size_t size, ZstdContextCache* contexts);

// Compresses blocks into single frames that declare their content size.
// Keeps one compression context for all of them.
class ZstdCompressor {
 public:
  // `level`: zstd's levels, 1 (fastest) to 22; 0 is zstd's default (3);
  // negative levels are faster still.
  explicit ZstdCompressor(int level);
  ZstdCompressor(const ZstdCompressor&) = delete;
  ZstdCompressor& operator=(const ZstdCompressor&) = delete;
  ~ZstdCompressor();

  // Replaces `*output` with the frame. Internal on a zstd failure.
  absl::Status Compress(std::string_view input, std::string* output);

 private:
  struct Context;
  const int level_;
  std::unique_ptr<Context> context_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_ZSTD_CODEC_H_
