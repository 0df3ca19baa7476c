// An Iterator walks the entries of a table in key order. It is used by one
// thread at a time; many iterators over one Table may run in parallel. The
// Table must outlive its iterators.
//
// key() and value() are valid until the iterator moves. When an iterator
// meets a damaged block it becomes !Valid() and status() says why.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_ITERATOR_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_ITERATOR_H_

#include <string_view>

#include "absl/status/status.h"

namespace bloomtable {

class Iterator {
 public:
  Iterator() = default;
  Iterator(const Iterator&) = delete;
  Iterator& operator=(const Iterator&) = delete;
  virtual ~Iterator();

  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  // Positions at the first entry with key >= target.
  virtual void Seek(std::string_view target) = 0;
  // Positions at the last entry with key <= target. The default seeks to
  // target and steps back unless it landed on a key equal to it byte for
  // byte; table iterators override it to honour their bounds.
  virtual void SeekForPrev(std::string_view target);
  // REQUIRES: Valid().
  virtual void Next() = 0;
  // REQUIRES: Valid().
  virtual void Prev() = 0;
  // REQUIRES: Valid().
  virtual std::string_view key() const = 0;
  // REQUIRES: Valid().
  virtual std::string_view value() const = 0;
  virtual absl::Status status() const = 0;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_ITERATOR_H_
