#include "util/zstd_codec.h"

#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "absl/strings/str_format.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

constexpr size_t kMaxBytesPerByte = ZSTD_BLOCKSIZE_MAX / 4;  // 32768

absl::Status Damaged(std::string_view what) {
  return absl::DataLossError(absl::StrFormat(
      "damaged zstd frame: %s", absl::string_view(what.data(), what.size())));
}

absl::Status ZstdError(size_t code) { return Damaged(ZSTD_getErrorName(code)); }

// Frees the decompression context however ZstdDecompress returns.
struct DContextDeleter {
  void operator()(ZSTD_DCtx* context) const { ZSTD_freeDCtx(context); }
};
using DContext = std::unique_ptr<ZSTD_DCtx, DContextDeleter>;

absl::Status DecompressStreaming(std::string_view input,
                                 DecompressionBuffer* output) {
  DContext context(ZSTD_createDCtx());
  if (context == nullptr) {
    return absl::ResourceExhaustedError("zstd: cannot make a context");
  }
  ZSTD_inBuffer in = {input.data(), input.size(), 0};
  while (true) {
    if (output->available() == 0 && !output->Grow()) {
      return Damaged(
          absl::StrFormat("holds more than %u bytes", output->limit()));
    }
    ZSTD_outBuffer out = {output->end(), output->available(), 0};
    const size_t result = ZSTD_decompressStream(context.get(), &out, &in);
    output->Advance(out.pos);
    if (ZSTD_isError(result)) return ZstdError(result);
    if (result == 0) {  // the frame is complete and flushed
      if (in.pos != in.size) return Damaged("bytes after the end of the frame");
      return absl::OkStatus();
    }
    // More is coming; when the input is used up and the output buffer still
    // has room, the decoder is waiting for bytes that are not there.
    if (in.pos == in.size && out.pos < out.size) return Damaged("truncated");
  }
}

}  // namespace

bool IsZstdFrame(std::string_view input) {
  return input.size() >= 4 && DecodeFixed32(input.data()) == ZSTD_MAGICNUMBER;
}

size_t MaxZstdDecompressedSize(size_t compressed_size) {
  if (compressed_size > SIZE_MAX / kMaxBytesPerByte) return SIZE_MAX;
  return compressed_size * kMaxBytesPerByte;
}

absl::Status ZstdDeclaredSize(std::string_view input,
                              std::optional<uint64_t>* size) {
  const unsigned long long declared =
      ZSTD_getFrameContentSize(input.data(), input.size());
  if (declared == ZSTD_CONTENTSIZE_ERROR) {
    return Damaged("bad or truncated frame header");
  }
  if (declared == ZSTD_CONTENTSIZE_UNKNOWN) {
    size->reset();
  } else {
    *size = declared;
  }
  return absl::OkStatus();
}

absl::Status ZstdDecompress(std::string_view input,
                            DecompressionBuffer* output) {
  std::optional<uint64_t> declared;
  absl::Status status = ZstdDeclaredSize(input, &declared);
  if (!status.ok()) return status;
  if (declared.has_value() && *declared > output->limit()) {
    return Damaged(absl::StrFormat("declares %u bytes, more than %u", *declared,
                                   output->limit()));
  }
  if (!declared.has_value() || *declared > output->available()) {
    return DecompressStreaming(input, output);
  }
  // One call, straight into the buffer: the frame must span the input.
  const size_t frame_size =
      ZSTD_findFrameCompressedSize(input.data(), input.size());
  if (ZSTD_isError(frame_size)) return ZstdError(frame_size);
  if (frame_size != input.size()) {
    return Damaged("bytes after the end of the frame");
  }
  const size_t result = ZSTD_decompress(output->end(), output->available(),
                                        input.data(), input.size());
  if (ZSTD_isError(result)) return ZstdError(result);
  if (result != *declared) {
    return Damaged(
        absl::StrFormat("holds %u bytes, declares %u", result, *declared));
  }
  output->Advance(result);
  return absl::OkStatus();
}

struct ZstdCompressor::Context {
  Context() : context(ZSTD_createCCtx()) {}
  ~Context() { ZSTD_freeCCtx(context); }
  ZSTD_CCtx* const context;
};

ZstdCompressor::ZstdCompressor(int level)
    : level_(level), context_(std::make_unique<Context>()) {}

ZstdCompressor::~ZstdCompressor() = default;

absl::Status ZstdCompressor::Compress(std::string_view input,
                                      std::string* output) {
  if (context_->context == nullptr) {
    return absl::ResourceExhaustedError("zstd: cannot make a context");
  }
  output->resize(ZSTD_compressBound(input.size()));
  const size_t size =
      ZSTD_compressCCtx(context_->context, output->data(), output->size(),
                        input.data(), input.size(), level_);
  if (ZSTD_isError(size)) {
    output->clear();
    return absl::InternalError(
        absl::StrFormat("zstd: %s", ZSTD_getErrorName(size)));
  }
  output->resize(size);
  return absl::OkStatus();
}

}  // namespace bloomtable
