#include "python/src/arrow_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <utility>

namespace bloomtable {
namespace python {
namespace {

size_t RoundUp(size_t n, size_t unit) { return (n + unit - 1) / unit * unit; }

size_t PageSize() {
  static const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

char* MapAnonymous(size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return static_cast<char*>(p);
}

}  // namespace

ArrowBytes::ArrowBytes(size_t capacity, size_t expected) {
  capacity_ = RoundUp(capacity == 0 ? 1 : capacity, PageSize());
  const size_t huge = std::min(expected, capacity_) / kHugePage * kHugePage;
  if (huge == 0) {
    data_ = MapAnonymous(capacity_);
    return;
  }
  // A huge page must start at a multiple of its size: map a huge page
  // more than needed and give back what lies before and after the aligned
  // part.
  char* const mapped = MapAnonymous(capacity_ + kHugePage);
  const uintptr_t address = reinterpret_cast<uintptr_t>(mapped);
  const size_t head = RoundUp(address, kHugePage) - address;
  if (head > 0) ::munmap(mapped, head);
  ::munmap(mapped + head + capacity_, kHugePage - head);
  data_ = mapped + head;
#ifdef MADV_HUGEPAGE
  // Advice only: without huge pages the bytes are small pages, as the tail.
  ::madvise(data_, huge, MADV_HUGEPAGE);
#endif
}

ArrowBytes::ArrowBytes(ArrowBytes&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      capacity_(std::exchange(other.capacity_, 0)) {}

ArrowBytes& ArrowBytes::operator=(ArrowBytes&& other) noexcept {
  if (this != &other) {
    Unmap();
    data_ = std::exchange(other.data_, nullptr);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

void ArrowBytes::Grow(size_t capacity) {
  if (capacity <= capacity_) return;
  capacity = RoundUp(capacity, PageSize());
  if (data_ == nullptr) {
    data_ = MapAnonymous(capacity);
    capacity_ = capacity;
    return;
  }
  void* p = ::mremap(data_, capacity_, capacity, MREMAP_MAYMOVE);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<char*>(p);
  capacity_ = capacity;
}

void ArrowBytes::Unmap() {
  if (data_ != nullptr) ::munmap(data_, capacity_);
  data_ = nullptr;
  capacity_ = 0;
}

}  // namespace python
}  // namespace bloomtable
