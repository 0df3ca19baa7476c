// bzip2 streams: how RocksDB stores compressed blocks of type 3 (in
// format_version 0 tables with no size prefix; docs/FORMAT.md,
// "Compression types"). Free functions without shared state: safe from any
// thread.

#ifndef BLOOMTABLE_UTIL_BZIP2_CODEC_H_
#define BLOOMTABLE_UTIL_BZIP2_CODEC_H_

#include <string_view>

#include "absl/status/status.h"
#include "util/decompression_buffer.h"

namespace bloomtable {

// Decompresses `input`, which must be exactly one complete bzip2 stream,
// into `output` (one pass of it: see decompression_buffer.h). bzip2 has no
// useful bound on its expansion (its run-length stages let a few bytes
// stand for megabytes), so only output->limit() bounds what it may
// allocate: decoding stops there. DataLoss if the stream is damaged or
// truncated (also exactly at the limit), or is followed by other bytes;
// OutOfRange as soon as the output passes what `output` may hold, without
// decoding the rest.
absl::Status Bzip2Decompress(std::string_view input,
                             DecompressionBuffer* output);

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_BZIP2_CODEC_H_
