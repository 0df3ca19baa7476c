// ArrowBytes: the bytes of one binary or string column of an Arrow batch,
// mapped from the kernel (anonymous memory, never a file) so that they can
// grow in place or by remapping, and so that the part a batch is expected
// to fill can be backed by transparent huge pages.
//
// Why: an export into a pyarrow.Table keeps every batch, so each byte it
// writes lands on a page never touched before; with 4 KiB pages the kernel
// takes a fault every few dozen rows, which costs about as much as the
// scan itself. The prefix a batch will fill (the previous batch's size,
// rounded down to whole huge pages) is advised MADV_HUGEPAGE: one fault per
// 2 MiB. Only that prefix: a huge page is resident as a whole once touched,
// so advising bytes that stay empty would cost memory; the tail stays in
// small pages, resident only where written. Where the kernel does not
// offer huge pages (other systems, "never" in
// /sys/kernel/mm/transparent_hugepage/enabled) the advice is a no-op.
//
// A moveable value owning its mapping; thread-compatible.

#ifndef BLOOMTABLE_PYTHON_SRC_ARROW_BUFFER_H_
#define BLOOMTABLE_PYTHON_SRC_ARROW_BUFFER_H_

#include <cstddef>
#include <vector>

namespace bloomtable {
namespace python {

class ArrowBytes {
 public:
  // The size of a huge page, and of the unit advised as one.
  static constexpr size_t kHugePage = size_t{2} << 20;

  ArrowBytes() = default;
  // At least `capacity` bytes; the first `expected` (rounded down to whole
  // huge pages, at most `capacity`) advised huge. Throws std::bad_alloc.
  ArrowBytes(size_t capacity, size_t expected);
  ~ArrowBytes() { Unmap(); }
  ArrowBytes(ArrowBytes&& other) noexcept;
  ArrowBytes& operator=(ArrowBytes&& other) noexcept;
  ArrowBytes(const ArrowBytes&) = delete;
  ArrowBytes& operator=(const ArrowBytes&) = delete;

  char* data() const { return data_; }
  size_t capacity() const { return capacity_; }

  // Makes the capacity at least `capacity`, keeping the bytes: their pages
  // are moved into a larger mapping, never copied. The new room up to
  // `expected` bytes is advised huge, as in the constructor. Throws
  // std::bad_alloc.
  void Grow(size_t capacity, size_t expected);

 private:
  // Advises the whole huge pages in [from, to) (within the capacity).
  void AdviseHuge(size_t from, size_t to);
  void Unmap();

  char* data_ = nullptr;
  size_t capacity_ = 0;
  // Where the kernel's mappings of the bytes end, in order (advice splits
  // a mapping, and a page move must not span two).
  std::vector<size_t> ends_;
};

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_ARROW_BUFFER_H_
