#include "util/lz4_codec.h"

#include <lz4.h>

#include <cstdint>

#include "absl/strings/str_format.h"

namespace bloomtable {
namespace {

constexpr size_t kMaxBytesPerByte = 255;

}  // namespace

size_t MaxLz4DecompressedSize(size_t compressed_size) {
  if (compressed_size > SIZE_MAX / kMaxBytesPerByte) return SIZE_MAX;
  return compressed_size * kMaxBytesPerByte;
}

absl::Status Lz4Decompress(std::string_view input, char* output, size_t size) {
  // LZ4 counts in int.
  if (input.size() > LZ4_MAX_INPUT_SIZE || size > LZ4_MAX_INPUT_SIZE) {
    return absl::DataLossError(absl::StrFormat(
        "LZ4 block of %u bytes (to %u) is larger than LZ4 allows", input.size(),
        size));
  }
  const int result =
      LZ4_decompress_safe(input.data(), output, static_cast<int>(input.size()),
                          static_cast<int>(size));
  if (result < 0) return absl::DataLossError("damaged LZ4 block");
  if (static_cast<size_t>(result) != size) {
    return absl::DataLossError(absl::StrFormat(
        "damaged LZ4 block: holds %d bytes, its size prefix says %u", result,
        size));
  }
  return absl::OkStatus();
}

}  // namespace bloomtable
