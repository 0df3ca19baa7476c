#include "util/decompression_buffer.h"

#include <algorithm>
#include <cstring>

namespace bloomtable {
namespace {

// The first growth of an empty buffer: small blocks need no more.
constexpr size_t kMinGrowth = 4096;

}  // namespace

DecompressionBuffer::DecompressionBuffer(size_t first_capacity, size_t limit)
    : capacity_(std::min(first_capacity, limit)), limit_(limit) {
  // new char[0] is valid: an empty output still owns a buffer.
  data_.reset(new char[capacity_]);
}

bool DecompressionBuffer::Grow() {
  if (capacity_ >= limit_) return false;
  const size_t doubled =
      capacity_ > limit_ / 2 ? limit_ : std::max(capacity_ * 2, kMinGrowth);
  const size_t capacity = std::min(doubled, limit_);
  std::unique_ptr<char[]> data(new char[capacity]);
  if (size_ > 0) std::memcpy(data.get(), data_.get(), size_);
  data_ = std::move(data);
  capacity_ = capacity;
  return true;
}

std::unique_ptr<char[]> DecompressionBuffer::Release() {
  if (capacity_ != size_) {
    std::unique_ptr<char[]> exact(new char[size_]);
    if (size_ > 0) std::memcpy(exact.get(), data_.get(), size_);
    data_ = std::move(exact);
  }
  capacity_ = 0;
  size_ = 0;
  return std::move(data_);
}

}  // namespace bloomtable
