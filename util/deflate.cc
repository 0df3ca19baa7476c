#include "util/deflate.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/strings/str_format.h"

namespace bloomtable {
namespace {

constexpr size_t kMaxInflatedBytesPerByte = 1032;

// zlib counts in uInt (32 bits): feed it at most this much at a time.
constexpr size_t kMaxChunk = std::numeric_limits<uInt>::max();

// Releases the inflate state however Inflate returns.
class InflateStream {
 public:
  InflateStream() = default;
  InflateStream(const InflateStream&) = delete;
  InflateStream& operator=(const InflateStream&) = delete;
  ~InflateStream() {
    if (initialized_) inflateEnd(&stream_);
  }

  int Init(DeflateWrapper wrapper) {
    // 15: the largest window, so that streams written with any window size
    // inflate; negative: no zlib header or trailer.
    const int window_bits = wrapper == DeflateWrapper::kRaw ? -15 : 15;
    const int result = inflateInit2(&stream_, window_bits);
    initialized_ = result == Z_OK;
    return result;
  }

  z_stream* get() { return &stream_; }

 private:
  z_stream stream_{};
  bool initialized_ = false;
};

std::string_view WrapperName(DeflateWrapper wrapper) {
  return wrapper == DeflateWrapper::kRaw ? "raw deflate" : "zlib";
}

absl::Status Damaged(DeflateWrapper wrapper, std::string_view what) {
  const std::string_view name = WrapperName(wrapper);
  return absl::DataLossError(absl::StrFormat(
      "damaged %s stream: %s", absl::string_view(name.data(), name.size()),
      absl::string_view(what.data(), what.size())));
}

}  // namespace

size_t MaxInflatedSize(size_t compressed_size) {
  if (compressed_size > SIZE_MAX / kMaxInflatedBytesPerByte) return SIZE_MAX;
  return compressed_size * kMaxInflatedBytesPerByte;
}

absl::Status Inflate(std::string_view input, DeflateWrapper wrapper,
                     DecompressionBuffer* output) {
  if (input.empty()) return Damaged(wrapper, "empty");
  InflateStream inflater;
  if (inflater.Init(wrapper) != Z_OK) {
    return absl::ResourceExhaustedError("zlib: cannot start inflating");
  }
  z_stream* stream = inflater.get();
  const unsigned char* next_in =
      reinterpret_cast<const unsigned char*>(input.data());
  size_t remaining_in = input.size();
  while (true) {
    if (stream->avail_in == 0 && remaining_in > 0) {
      const size_t chunk = std::min(remaining_in, kMaxChunk);
      stream->next_in = const_cast<unsigned char*>(next_in);
      stream->avail_in = static_cast<uInt>(chunk);
      next_in += chunk;
      remaining_in -= chunk;
    }
    const size_t room = std::min(output->available(), kMaxChunk);
    stream->next_out = reinterpret_cast<unsigned char*>(output->end());
    stream->avail_out = static_cast<uInt>(room);
    const int result = inflate(stream, Z_NO_FLUSH);
    if (!output->Advance(room - stream->avail_out)) {
      return absl::OutOfRangeError(
          absl::StrFormat("%s stream inflates to more than %u bytes",
                          absl::string_view(WrapperName(wrapper).data(),
                                            WrapperName(wrapper).size()),
                          output->limit()));
    }
    switch (result) {
      case Z_STREAM_END:
        if (stream->avail_in != 0 || remaining_in != 0) {
          return Damaged(wrapper, "bytes after the end of the stream");
        }
        return absl::OkStatus();
      case Z_OK:
        break;
      case Z_BUF_ERROR:
        // No progress was possible: with room to write, the input ran out.
        if (stream->avail_out != 0 && remaining_in == 0) {
          return Damaged(wrapper, "truncated");
        }
        break;
      case Z_NEED_DICT:
        return Damaged(wrapper, "needs a preset dictionary");
      case Z_MEM_ERROR:
        return absl::ResourceExhaustedError("zlib: out of memory");
      default:  // Z_DATA_ERROR, Z_STREAM_ERROR
        return Damaged(wrapper,
                       stream->msg != nullptr ? stream->msg : "bad data");
    }
  }
}

std::string Deflate(std::string_view input, DeflateWrapper wrapper, int level,
                    int raw_window_bits) {
  z_stream stream{};
  const int window_bits =
      wrapper == DeflateWrapper::kRaw ? -raw_window_bits : 15;
  if (deflateInit2(&stream, level, Z_DEFLATED, window_bits, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    return std::string();
  }
  std::string output(deflateBound(&stream, input.size()), '\0');
  // deflateBound covers the whole stream, so one Z_FINISH call completes
  // it; inputs beyond zlib's 32-bit counts go in chunks.
  const unsigned char* next_in =
      reinterpret_cast<const unsigned char*>(input.data());
  size_t remaining_in = input.size();
  stream.next_out = reinterpret_cast<unsigned char*>(output.data());
  stream.avail_out = static_cast<uInt>(std::min(output.size(), kMaxChunk));
  int result = Z_OK;
  while (result == Z_OK) {
    if (stream.avail_in == 0) {
      const size_t chunk = std::min(remaining_in, kMaxChunk);
      stream.next_in = const_cast<unsigned char*>(next_in);
      stream.avail_in = static_cast<uInt>(chunk);
      next_in += chunk;
      remaining_in -= chunk;
    }
    if (stream.avail_out == 0) {
      const size_t written = stream.total_out;
      stream.next_out =
          reinterpret_cast<unsigned char*>(output.data()) + written;
      stream.avail_out =
          static_cast<uInt>(std::min(output.size() - written, kMaxChunk));
    }
    result = deflate(&stream, remaining_in == 0 ? Z_FINISH : Z_NO_FLUSH);
  }
  output.resize(result == Z_STREAM_END ? stream.total_out : 0);
  deflateEnd(&stream);
  return output;
}

}  // namespace bloomtable
