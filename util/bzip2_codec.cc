#include "util/bzip2_codec.h"

#include <bzlib.h>

#include <algorithm>
#include <limits>

#include "absl/strings/str_format.h"

namespace bloomtable {
namespace {

// bzip2 counts in unsigned int: feed it at most this much at a time.
constexpr size_t kMaxChunk = std::numeric_limits<unsigned int>::max();

// Releases the decompression state however Bzip2Decompress returns.
class Bzip2Stream {
 public:
  Bzip2Stream() = default;
  Bzip2Stream(const Bzip2Stream&) = delete;
  Bzip2Stream& operator=(const Bzip2Stream&) = delete;
  ~Bzip2Stream() {
    if (initialized_) BZ2_bzDecompressEnd(&stream_);
  }

  bool Init() {
    initialized_ = BZ2_bzDecompressInit(&stream_, /*verbosity=*/0,
                                        /*small=*/0) == BZ_OK;
    return initialized_;
  }

  bz_stream* get() { return &stream_; }

 private:
  bz_stream stream_{};
  bool initialized_ = false;
};

absl::Status Damaged(std::string_view what) {
  return absl::DataLossError(absl::StrFormat(
      "damaged bzip2 stream: %s", absl::string_view(what.data(), what.size())));
}

}  // namespace

absl::Status Bzip2Decompress(std::string_view input,
                             DecompressionBuffer* output) {
  if (input.empty()) return Damaged("empty");
  Bzip2Stream decompressor;
  if (!decompressor.Init()) {
    return absl::ResourceExhaustedError("bzip2: cannot start decompressing");
  }
  bz_stream* stream = decompressor.get();
  const char* next_in = input.data();
  size_t remaining_in = input.size();
  while (true) {
    if (stream->avail_in == 0 && remaining_in > 0) {
      const size_t chunk = std::min(remaining_in, kMaxChunk);
      stream->next_in = const_cast<char*>(next_in);
      stream->avail_in = static_cast<unsigned int>(chunk);
      next_in += chunk;
      remaining_in -= chunk;
    }
    const size_t room = std::min(output->available(), kMaxChunk);
    stream->next_out = output->end();
    stream->avail_out = static_cast<unsigned int>(room);
    const int result = BZ2_bzDecompress(stream);
    if (!output->Advance(room - stream->avail_out)) {
      return absl::OutOfRangeError(absl::StrFormat(
          "bzip2 stream holds more than %u bytes", output->limit()));
    }
    switch (result) {
      case BZ_STREAM_END:
        if (stream->avail_in != 0 || remaining_in != 0) {
          return Damaged("bytes after the end of the stream");
        }
        return absl::OkStatus();
      case BZ_OK:
        // With room left to write and no input left, the stream is cut
        // short (also when the output so far is exactly the limit).
        if (stream->avail_in == 0 && remaining_in == 0 &&
            stream->avail_out != 0) {
          return Damaged("truncated");
        }
        break;
      case BZ_MEM_ERROR:
        return absl::ResourceExhaustedError("bzip2: out of memory");
      default:  // BZ_DATA_ERROR, BZ_DATA_ERROR_MAGIC, BZ_PARAM_ERROR
        return Damaged("bad data");
    }
  }
}

}  // namespace bloomtable
