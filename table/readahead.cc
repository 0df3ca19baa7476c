#include "table/readahead.h"

#include <algorithm>

namespace bloomtable {

bool BlockReadahead::Visit(const BlockHandle& handle) {
  if (max_bytes_ == 0) return false;
  if (handle.offset() == next_offset_ && run_ > 0) {
    ++run_;
  } else {
    run_ = 1;
    ahead_ = std::min(kInitialBytes, max_bytes_);
  }
  next_offset_ = handle.offset() + handle.size() + kBlockTrailerSize;
  return run_ > kSequentialBlocks;
}

absl::Status BlockReadahead::Read(const RandomAccessFile& file,
                                  const BlockHandle& handle, uint64_t limit,
                                  std::string_view* bytes) {
  const uint64_t offset = handle.offset();
  const size_t need = static_cast<size_t>(handle.size()) + kBlockTrailerSize;
  // The caller checked that the block fits below `limit`.
  const uint64_t room = limit - offset;
  if (offset >= window_offset_ &&
      offset - window_offset_ + need <= window_.size()) {
    *bytes = window_.substr(static_cast<size_t>(offset - window_offset_), need);
    return absl::OkStatus();
  }
  const size_t span =
      static_cast<size_t>(std::min<uint64_t>(std::max(need, ahead_), room));
  ahead_ = std::min(2 * ahead_, max_bytes_);
  if (offset + need > advised_end_) {
    // Asked once per window: a mapped file takes the advice and is then
    // read in place.
    mapped_ = file.WillNeed(offset, span);
    if (mapped_) advised_end_ = offset + span;
  }
  const size_t read_size = mapped_ ? need : span;
  if (capacity_ < read_size) {
    buffer_.reset(new char[read_size]);
    capacity_ = read_size;
  }
  window_ = std::string_view();
  absl::Status status = file.Read(offset, read_size, &window_, buffer_.get());
  if (!status.ok()) {
    window_ = std::string_view();
    return status;
  }
  window_offset_ = offset;
  *bytes = window_.substr(0, std::min(need, window_.size()));
  return absl::OkStatus();
}

}  // namespace bloomtable
