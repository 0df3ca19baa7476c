// Zstandard (RFC 8878) frames as compressed blocks: how upstream LevelDB
// (type 2), RocksDB (type 7, after a size prefix), forks of Mojang's LevelDB
// (type 3) and bloomtable's CompressionType::kZstd store them.
// docs/FORMAT.md, "Compression types". A ZstdCompressor is single-threaded;
// the free functions are safe from any thread.

#ifndef BLOOMTABLE_UTIL_ZSTD_CODEC_H_
#define BLOOMTABLE_UTIL_ZSTD_CODEC_H_

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

// Decompresses `input`, which must be exactly one complete frame, into
// `output`: in one call when the frame declares its size and the buffer
// already has room for it, else streaming, growing the buffer. DataLoss if
// the frame is damaged or truncated, is followed by other bytes, or holds
// more than output->limit() bytes.
absl::Status ZstdDecompress(std::string_view input,
                            DecompressionBuffer* output);

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
