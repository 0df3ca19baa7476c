// KeySplitter chooses keys that cut a key space into ranges of about equal
// bytes, from weighted points: each point says "this many bytes lie at or
// just before this key" (a data block and its index separator, a table and
// its largest key). The caller feeds the points in any order, from as many
// sources as it likes; Cut sorts them.
//
// The cuts only balance the ranges: whatever the weights, the ranges
// (-inf, c1), [c1, c2), ..., [cn, +inf) cover every key exactly once.
//
// Thread-compatible: one thread at a time.

#ifndef BLOOMTABLE_UTIL_KEY_SPLITS_H_
#define BLOOMTABLE_UTIL_KEY_SPLITS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/comparator.h"

namespace bloomtable {

class KeySplitter {
 public:
  void Add(std::string_view key, uint64_t bytes);

  uint64_t total_bytes() const { return total_bytes_; }

  // At most `parts - 1` keys, strictly increasing under `comparator`, such
  // that the bytes before the first, between two neighbours and after the
  // last are each about total_bytes() / parts. Fewer when the points are
  // too few or too coarse to tell ranges apart (none for parts <= 1 or no
  // bytes). Sorts the points (stable: equal keys keep their order).
  std::vector<std::string> Cut(size_t parts, const Comparator& comparator);

 private:
  struct Point {
    size_t key_begin;
    size_t key_size;
    uint64_t bytes;
  };
  std::string keys_;
  std::vector<Point> points_;
  uint64_t total_bytes_ = 0;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_KEY_SPLITS_H_
