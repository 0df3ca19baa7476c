#include "util/zstd_codec.h"

#include <zstd.h>
#include <zstd_errors.h>

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

// The smallest window log whose window holds `limit` bytes, within what
// zstd accepts for ZSTD_d_windowLogMax (its least is 2^10, the smallest
// window a frame can declare).
int WindowLogFor(size_t limit) {
  const ZSTD_bounds bounds = ZSTD_dParam_getBounds(ZSTD_d_windowLogMax);
  int log = bounds.lowerBound;
  while (log < bounds.upperBound && (size_t{1} << log) < limit) ++log;
  return log;
}

// A valid frame whose window (which the streaming decoder allocates)
// exceeds what its output may hold: refused rather than allocated.
absl::Status WindowTooLarge(std::string_view input, size_t limit,
                            int window_log) {
  return absl::UnimplementedError(absl::StrFormat(
      "zstd frame of %u bytes declares a window larger than 2^%d bytes, the "
      "most its block may decompress to (%u bytes) allows; not supported",
      input.size(), window_log, limit));
}

// A decompression context for one call: from `contexts` if it has one,
// given back (or freed) however the call returns.
class BorrowedContext {
 public:
  explicit BorrowedContext(ZstdContextCache* contexts) : contexts_(contexts) {
    if (contexts_ != nullptr) {
      context_ = static_cast<ZSTD_DCtx*>(contexts_->Take());
    }
    if (context_ == nullptr) context_ = ZSTD_createDCtx();
  }
  BorrowedContext(const BorrowedContext&) = delete;
  BorrowedContext& operator=(const BorrowedContext&) = delete;
  ~BorrowedContext() {
    if (context_ == nullptr) return;
    if (contexts_ != nullptr) {
      contexts_->Give(context_);
    } else {
      ZSTD_freeDCtx(context_);
    }
  }

  ZSTD_DCtx* get() const { return context_; }

 private:
  ZstdContextCache* const contexts_;
  ZSTD_DCtx* context_ = nullptr;
};

// `window_log`: the context's ZSTD_d_windowLogMax.
absl::Status DecompressStreaming(std::string_view input, ZSTD_DCtx* context,
                                 int window_log, DecompressionBuffer* output) {
  ZSTD_inBuffer in = {input.data(), input.size(), 0};
  while (true) {
    ZSTD_outBuffer out = {output->end(), output->available(), 0};
    const size_t result = ZSTD_decompressStream(context, &out, &in);
    if (!output->Advance(out.pos)) {
      return absl::OutOfRangeError(absl::StrFormat(
          "zstd frame holds more than %u bytes", output->limit()));
    }
    if (ZSTD_isError(result)) {
      if (ZSTD_getErrorCode(result) ==
          ZSTD_error_frameParameter_windowTooLarge) {
        return WindowTooLarge(input, output->limit(), window_log);
      }
      return ZstdError(result);
    }
    if (result == 0) {  // the frame is complete and flushed
      if (in.pos != in.size) return Damaged("bytes after the end of the frame");
      return absl::OkStatus();
    }
    // More is coming; when the input is used up and the output buffer still
    // has room, the decoder is waiting for bytes that are not there (also
    // when the output so far is exactly the limit).
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

ZstdContextCache::~ZstdContextCache() {
  for (std::atomic<void*>& slot : slots_) {
    ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(slot.load()));
  }
}

void* ZstdContextCache::Take() {
  for (std::atomic<void*>& slot : slots_) {
    if (slot.load(std::memory_order_relaxed) == nullptr) continue;
    void* context = slot.exchange(nullptr, std::memory_order_acquire);
    if (context != nullptr) return context;
  }
  return nullptr;
}

void ZstdContextCache::Give(void* context) {
  for (std::atomic<void*>& slot : slots_) {
    void* empty = nullptr;
    if (slot.compare_exchange_strong(empty, context, std::memory_order_release,
                                     std::memory_order_relaxed)) {
      return;
    }
  }
  ZSTD_freeDCtx(static_cast<ZSTD_DCtx*>(context));
}

absl::Status ZstdDecompress(std::string_view input, DecompressionBuffer* output,
                            ZstdContextCache* contexts) {
  BorrowedContext context(contexts);
  if (context.get() == nullptr) {
    return absl::ResourceExhaustedError("zstd: cannot make a context");
  }
  // A context comes back from an earlier call: start a new frame.
  ZSTD_DCtx_reset(context.get(), ZSTD_reset_session_only);
  // The streaming decoder sizes its buffer from the frame's window (when
  // the frame declares no content size): cap the window at what the output
  // may hold, so that a few bytes declaring a 2^27 window reserve nothing.
  const int window_log = WindowLogFor(output->limit());
  const size_t set =
      ZSTD_DCtx_setParameter(context.get(), ZSTD_d_windowLogMax, window_log);
  if (ZSTD_isError(set)) return ZstdError(set);
  return DecompressStreaming(input, context.get(), window_log, output);
}

absl::Status ZstdDecompressInto(std::string_view input, char* output,
                                size_t size, ZstdContextCache* contexts) {
  BorrowedContext context(contexts);
  if (context.get() == nullptr) {
    return absl::ResourceExhaustedError("zstd: cannot make a context");
  }
  ZSTD_DCtx_reset(context.get(), ZSTD_reset_session_only);
  const int window_log = WindowLogFor(size);
  const size_t set =
      ZSTD_DCtx_setParameter(context.get(), ZSTD_d_windowLogMax, window_log);
  if (ZSTD_isError(set)) return ZstdError(set);
  // The frame must span the input.
  const size_t frame_size =
      ZSTD_findFrameCompressedSize(input.data(), input.size());
  if (ZSTD_isError(frame_size)) return ZstdError(frame_size);
  if (frame_size != input.size()) {
    return Damaged("bytes after the end of the frame");
  }
  const size_t result = ZSTD_decompressDCtx(context.get(), output, size,
                                            input.data(), input.size());
  if (ZSTD_isError(result)) return ZstdError(result);
  if (result != size) {
    return Damaged(
        absl::StrFormat("holds %u bytes, declares %u", result, size));
  }
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
