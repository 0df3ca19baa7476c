// LZ4 blocks (the LZ4 block format, without LZ4's frame): how RocksDB stores
// compressed blocks of types 4 (LZ4) and 5 (LZ4HC, the same format), after
// a size prefix (docs/FORMAT.md, "Compression types"). Free functions without
// shared state: safe from any thread.

#ifndef BLOOMTABLE_UTIL_LZ4_CODEC_H_
#define BLOOMTABLE_UTIL_LZ4_CODEC_H_

#include <cstddef>
#include <string_view>

#include "absl/status/status.h"

namespace bloomtable {

// The most `compressed_size` bytes of an LZ4 block can decompress to: 255
// bytes per byte (each extra length byte of a match adds at most 255 bytes,
// LZ4's densest coding).
size_t MaxLz4DecompressedSize(size_t compressed_size);

// Decompresses the LZ4 block `input` into `output`, which holds exactly
// `size` bytes, the size the writer recorded. DataLoss if the block is
// damaged or does not decompress to exactly `size` bytes.
absl::Status Lz4Decompress(std::string_view input, char* output, size_t size);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_LZ4_CODEC_H_
