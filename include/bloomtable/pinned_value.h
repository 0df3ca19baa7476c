// PinnedValue is a value handed back by a lookup without a copy: a view into
// the memory where the value lies, together with a share in the owner of that
// memory, which keeps it alive for as long as the PinnedValue holds it.
//
// Table::Get(..., PinnedValue*) pins the value to the data block it was found
// in: the block cache's block, or the block read for that call. Every data
// block owns its bytes (a block read through a memory-mapped file is copied
// out of the mapping, as every block is), so a pinned value never points into
// a file's mapping or a Table's memory: it stays valid after the Table, its
// file and the block cache are destroyed, and the block is freed when the
// last PinnedValue (or iterator, or cache entry) holding it lets go.
//
// Memory: a pinned block is like a block a live iterator holds. While the
// cache keeps it, it is charged to the cache; once evicted it is no longer
// charged, yet lives until released. Many values pinned at once can so hold
// more memory than the cache's capacity: Reset (or reuse) a PinnedValue when
// done with it.
//
// A value that has no owner to pin to is copied into the PinnedValue's own
// buffer (pinned() is then false); the buffer is kept across Reset and reuse.
//
// Move-only. Not thread-safe: one PinnedValue is used by one thread at a
// time (the blocks it pins are immutable, so many PinnedValues pinning the
// same block may be read from many threads at once).

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_PINNED_VALUE_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_PINNED_VALUE_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace bloomtable {

class PinnedValue {
 public:
  PinnedValue() = default;
  PinnedValue(const PinnedValue&) = delete;
  PinnedValue& operator=(const PinnedValue&) = delete;
  // Moving hands the pin (or the copy) over; the source is left empty.
  PinnedValue(PinnedValue&& other) noexcept { *this = std::move(other); }
  PinnedValue& operator=(PinnedValue&& other) noexcept {
    if (this != &other) {
      owner_ = std::move(other.owner_);
      view_ = other.view_;
      buffer_.swap(other.buffer_);
      copied_ = other.copied_;
      other.Reset();
    }
    return *this;
  }
  ~PinnedValue() = default;

  // The value: valid while this PinnedValue holds it (until Reset, reuse,
  // move or destruction), whatever happens to the table it came from.
  std::string_view view() const {
    return copied_ ? std::string_view(buffer_) : view_;
  }
  size_t size() const { return view().size(); }
  bool empty() const { return view().empty(); }
  // True if the value lies in memory this PinnedValue shares ownership of
  // (a block), false if it is a copy in its own buffer, or there is none.
  bool pinned() const { return owner_ != nullptr; }

  // Lets go of the owner and empties the value. The copy buffer's capacity
  // is kept for reuse.
  void Reset() {
    owner_.reset();
    view_ = std::string_view();
    buffer_.clear();
    copied_ = false;
  }

  // For the code that produces values. Pins `value`, which must lie in
  // memory that `owner` keeps alive, releasing what was held before.
  // Allocates nothing (a shared_ptr copy only counts a reference).
  void PinTo(std::shared_ptr<const void> owner, std::string_view value) {
    owner_ = std::move(owner);
    view_ = value;
    buffer_.clear();
    copied_ = false;
  }
  // Copies `value` into the own buffer (reusing its capacity), releasing
  // any owner held before.
  void CopyFrom(std::string_view value) {
    owner_.reset();
    view_ = std::string_view();
    buffer_.assign(value.data(), value.size());
    copied_ = true;
  }

 private:
  std::shared_ptr<const void> owner_;
  std::string_view view_;  // when !copied_: into owner_'s memory, or empty
  std::string buffer_;     // when copied_: the value
  bool copied_ = false;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_PINNED_VALUE_H_
