// DecompressionBuffer: where a streaming decompressor writes its output. It
// grows as output arrives, never past a limit fixed when it is made, so that
// no length a compressed block claims sizes an allocation by itself: what is
// allocated follows what the decompressor really produced (at most twice
// that, while growing).
//
// Usage: write at most available() bytes at end(), then Advance() by what was
// written; when available() is 0 and more output is coming, Grow(); a false
// Grow() means the output would pass the limit. Release() hands over the
// bytes. Not thread-safe; move-only.

#ifndef BLOOMTABLE_UTIL_DECOMPRESSION_BUFFER_H_
#define BLOOMTABLE_UTIL_DECOMPRESSION_BUFFER_H_

#include <cstddef>
#include <memory>

namespace bloomtable {

class DecompressionBuffer {
 public:
  // `limit`: the most bytes the output may hold. `first_capacity`: what to
  // allocate first, a guess of the output size (clamped to `limit`).
  DecompressionBuffer(size_t first_capacity, size_t limit);

  DecompressionBuffer(DecompressionBuffer&&) = default;
  DecompressionBuffer& operator=(DecompressionBuffer&&) = default;

  char* end() { return data_.get() + size_; }
  size_t available() const { return capacity_ - size_; }
  // REQUIRES: n <= available(); the n bytes at end() were written.
  void Advance(size_t n) { size_ += n; }

  size_t size() const { return size_; }
  size_t limit() const { return limit_; }

  // At least doubles the capacity (to 4 KiB at first), never past limit().
  // False, changing nothing, when the capacity already is limit().
  bool Grow();

  // The output, in an allocation of exactly size() bytes (copied into one
  // when the capacity is larger). Leaves the buffer empty.
  std::unique_ptr<char[]> Release();

 private:
  std::unique_ptr<char[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  size_t limit_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_DECOMPRESSION_BUFFER_H_
