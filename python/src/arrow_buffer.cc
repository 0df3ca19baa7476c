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

// `bytes` (a multiple of the page size) mapped at a multiple of a huge
// page: a huge page more is mapped, and what lies before and after the
// aligned part is given back.
char* MapHugeAligned(size_t bytes) {
  constexpr size_t kHuge = ArrowBytes::kHugePage;
  char* const mapped = MapAnonymous(bytes + kHuge);
  const uintptr_t address = reinterpret_cast<uintptr_t>(mapped);
  const size_t head = RoundUp(address, kHuge) - address;
  if (head > 0) ::munmap(mapped, head);
  ::munmap(mapped + head + bytes, kHuge - head);
  return mapped + head;
}

}  // namespace

ArrowBytes::ArrowBytes(size_t capacity, size_t expected) {
  capacity_ = RoundUp(capacity == 0 ? 1 : capacity, PageSize());
  data_ = expected >= kHugePage ? MapHugeAligned(capacity_)
                                : MapAnonymous(capacity_);
  ends_.push_back(capacity_);
  AdviseHuge(0, expected);
}

void ArrowBytes::AdviseHuge(size_t from, size_t to) {
#ifdef MADV_HUGEPAGE
  const size_t begin = RoundUp(from, kHugePage);
  const size_t end = std::min(to, capacity_) / kHugePage * kHugePage;
  if (begin >= end) return;
  // Advice only: without huge pages the bytes stay in small pages.
  if (::madvise(data_ + begin, end - begin, MADV_HUGEPAGE) != 0) return;
  for (const size_t split : {begin, end}) {
    auto at = std::lower_bound(ends_.begin(), ends_.end(), split);
    if (split > 0 && (at == ends_.end() || *at != split)) {
      ends_.insert(at, split);
    }
  }
#else
  (void)from;
  (void)to;
#endif
}

ArrowBytes::ArrowBytes(ArrowBytes&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      capacity_(std::exchange(other.capacity_, 0)),
      ends_(std::move(other.ends_)) {
  other.ends_.clear();
}

ArrowBytes& ArrowBytes::operator=(ArrowBytes&& other) noexcept {
  if (this != &other) {
    Unmap();
    data_ = std::exchange(other.data_, nullptr);
    capacity_ = std::exchange(other.capacity_, 0);
    ends_ = std::move(other.ends_);
    other.ends_.clear();
  }
  return *this;
}

void ArrowBytes::Grow(size_t capacity, size_t expected) {
  if (capacity <= capacity_) return;
  capacity = RoundUp(capacity, PageSize());
  // The new mapping, aligned as the old so that huge pages stay whole;
  // then each of the old mappings' pages moved to the same offset in it
  // (a move spans one mapping at most).
  char* const grown = MapHugeAligned(capacity);
  size_t start = 0;
  for (const size_t end : ends_) {
    void* moved = ::mremap(data_ + start, end - start, end - start,
                           MREMAP_MAYMOVE | MREMAP_FIXED, grown + start);
    if (moved == MAP_FAILED) {
      // The bytes moved so far are in `grown`: give both up.
      ::munmap(grown, capacity);
      ::munmap(data_ + start, capacity_ - start);
      data_ = nullptr;
      capacity_ = 0;
      ends_.clear();
      throw std::bad_alloc();
    }
    start = end;
  }
  const size_t old_capacity = capacity_;
  data_ = grown;
  capacity_ = capacity;
  ends_.push_back(capacity_);
  AdviseHuge(old_capacity, expected);
}

void ArrowBytes::Unmap() {
  if (data_ != nullptr) ::munmap(data_, capacity_);
  data_ = nullptr;
  capacity_ = 0;
  ends_.clear();
}

}  // namespace python
}  // namespace bloomtable
