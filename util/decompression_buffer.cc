#include "util/decompression_buffer.h"

#include <algorithm>
#include <cstring>

namespace bloomtable {

DecompressionBuffer::DecompressionBuffer(size_t limit, size_t scratch_size)
    : limit_(limit),
      // limit + 1 bytes are enough to see that an output passes the limit.
      scratch_size_(std::max<size_t>(
          1, limit < scratch_size ? limit + 1 : scratch_size)) {
  scratch_.reset(new char[scratch_size_]);
  SetRoom();
}

void DecompressionBuffer::SetRoom() {
  if (exact_ == nullptr) {
    room_ = scratch_.get() + scratch_fill_;
    room_size_ = scratch_size_ - scratch_fill_;
  } else if (produced_ < exact_size_) {
    room_ = exact_.get() + produced_;
    room_size_ = exact_size_ - produced_;
  } else {
    // The exact allocation is full: one byte more shows whether the decoder
    // has more to give (it must not).
    room_ = &spill_;
    room_size_ = 1;
  }
}

bool DecompressionBuffer::Advance(size_t n) {
  if (exact_ == nullptr) {
    produced_ += n;
    scratch_fill_ += n;
    if (scratch_fill_ == scratch_size_) {
      // Full: from now on the scratch only counts.
      scratch_fill_ = 0;
      scratch_reused_ = true;
    }
    SetRoom();
    if (produced_ > limit_) {
      passed_ = true;
      return false;
    }
    return true;
  }
  if (room_ == &spill_ && n > 0) {
    passed_ = true;
    return false;
  }
  produced_ += n;
  SetRoom();
  return true;
}

DecompressionBuffer::PassResult DecompressionBuffer::FinishPass() {
  if (exact_ != nullptr) {
    return produced_ == exact_size_ ? kDone : kWrong;
  }
  exact_size_ = produced_;
  if (!scratch_reused_) {
    // new char[0] is valid: an empty output still owns a buffer.
    exact_.reset(new char[exact_size_]);
    if (exact_size_ > 0) std::memcpy(exact_.get(), scratch_.get(), exact_size_);
    scratch_.reset();
    return kDone;
  }
  // Counted only: the second pass writes into the exact allocation. The
  // scratch goes first, so that the two are never held together.
  scratch_.reset();
  exact_.reset(new char[exact_size_]);
  produced_ = 0;
  SetRoom();
  return kAgain;
}

std::unique_ptr<char[]> DecompressionBuffer::Release() {
  room_ = nullptr;
  room_size_ = 0;
  return std::move(exact_);
}

}  // namespace bloomtable
