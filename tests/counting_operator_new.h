// Test helper: replaces the global operator new and delete with ones that
// count the heap: live bytes, their peak, and every allocation with its
// bytes. Include it in exactly one file of a test program (it defines the
// replacement operators). They allocate with malloc, which a sanitizer
// intercepts, so the counts hold in the ASan tree too; ThreadSanitizer's
// runtime defines these operators itself, so a program including this
// cannot link there (tests/CMakeLists.txt leaves such programs out of it).

#ifndef BLOOMTABLE_TESTS_COUNTING_OPERATOR_NEW_H_
#define BLOOMTABLE_TESTS_COUNTING_OPERATOR_NEW_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace bloomtable {
namespace counting_new {

inline std::atomic<int64_t> live_bytes{0};
inline std::atomic<int64_t> peak_bytes{0};
inline std::atomic<int64_t> allocations{0};      // calls, ever
inline std::atomic<int64_t> allocated_bytes{0};  // their bytes, ever

// Each allocation carries its size in a header of the maximal alignment.
constexpr size_t kHeader = alignof(std::max_align_t);

inline void* Allocate(size_t n) noexcept {
  void* raw = std::malloc(n + kHeader);
  if (raw == nullptr) return nullptr;
  *static_cast<size_t*>(raw) = n;
  allocations.fetch_add(1);
  allocated_bytes.fetch_add(static_cast<int64_t>(n));
  const int64_t live =
      live_bytes.fetch_add(static_cast<int64_t>(n)) + static_cast<int64_t>(n);
  int64_t peak = peak_bytes.load();
  while (live > peak && !peak_bytes.compare_exchange_weak(peak, live)) {
  }
  return static_cast<char*>(raw) + kHeader;
}

inline void Free(void* p) noexcept {
  if (p == nullptr) return;
  char* raw = static_cast<char*>(p) - kHeader;
  live_bytes.fetch_sub(static_cast<int64_t>(*reinterpret_cast<size_t*>(raw)));
  std::free(raw);
}

inline void* AllocateOrThrow(size_t n) {
  void* p = Allocate(n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace counting_new
}  // namespace bloomtable

void* operator new(size_t n) {
  return bloomtable::counting_new::AllocateOrThrow(n);
}
void* operator new[](size_t n) {
  return bloomtable::counting_new::AllocateOrThrow(n);
}
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  return bloomtable::counting_new::Allocate(n);
}
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
  return bloomtable::counting_new::Allocate(n);
}
void operator delete(void* p) noexcept { bloomtable::counting_new::Free(p); }
void operator delete[](void* p) noexcept { bloomtable::counting_new::Free(p); }
void operator delete(void* p, size_t) noexcept {
  bloomtable::counting_new::Free(p);
}
void operator delete[](void* p, size_t) noexcept {
  bloomtable::counting_new::Free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  bloomtable::counting_new::Free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  bloomtable::counting_new::Free(p);
}

#endif  // BLOOMTABLE_TESTS_COUNTING_OPERATOR_NEW_H_
