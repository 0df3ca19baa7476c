// Deflate streams (RFC 1951), raw or inside zlib's two-byte header and
// Adler-32 trailer (RFC 1950): how Mojang's Bedrock fork of LevelDB (types 2
// and 4) and RocksDB (type 2, raw) store compressed blocks. The reader
// inflates them; Deflate writes them for tests, their generators and
// benchmarks (bloomtable's TableBuilder does not).
// docs/FORMAT.md, "Compression types", says which writer uses which.
// Functions without shared state: safe from any thread.

#ifndef BLOOMTABLE_UTIL_DEFLATE_H_
#define BLOOMTABLE_UTIL_DEFLATE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "util/decompression_buffer.h"

namespace bloomtable {

enum class DeflateWrapper {
  kZlib,  // a zlib stream: header, deflate data, Adler-32 of the output
  kRaw,   // deflate data alone
};

// The most `compressed_size` bytes of deflate data can inflate to: 1032
// bytes per byte. Deflate's densest element is a 258-byte copy coded in two
// bits (a one-bit length code and a one-bit distance code; a Huffman code
// has at least one bit), so no stream expands more.
size_t MaxInflatedSize(size_t compressed_size);

// Inflates `input`, which must be exactly one complete stream, into
// `output` (one pass of it: see decompression_buffer.h). DataLoss when the
// stream is damaged or truncated, is followed by other bytes or needs a
// preset dictionary; OutOfRange as soon as the output passes what `output`
// may hold (output->passed_limit()), without decoding the rest.
absl::Status Inflate(std::string_view input, DeflateWrapper wrapper,
                     DecompressionBuffer* output);

// Compresses `input` into one complete stream at zlib's `level` (-1 is its
// default, 6), with the largest window for kZlib and kRaw alike (as Mojang's
// fork writes); `raw_window_bits` other than 15 sets a smaller raw window
// (RocksDB's default is 14).
std::string Deflate(std::string_view input, DeflateWrapper wrapper,
                    int level = -1, int raw_window_bits = 15);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_DEFLATE_H_
