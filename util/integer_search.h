// Searches over sorted integers, for the lookup paths that keep keys as
// integers (table/separator_index.h, table/restart_key_digest.h).

#ifndef BLOOMTABLE_UTIL_INTEGER_SEARCH_H_
#define BLOOMTABLE_UTIL_INTEGER_SEARCH_H_

#include <cstddef>
#include <cstdint>

namespace bloomtable {

// The index of the first of values[0, n) that is >= target, or n if none:
// std::lower_bound, as a branch-free binary search (a conditional move per
// step, so that no step mispredicts). REQUIRES: values sorted ascending.
inline size_t FirstAtLeast(const uint64_t* values, size_t n, uint64_t target) {
  if (n == 0) return 0;
  const uint64_t* base = values;
  size_t length = n;
  while (length > 1) {
    const size_t half = length / 2;
    base = base[half] < target ? base + half : base;
    length -= half;
  }
  return static_cast<size_t>(base - values) + (*base < target ? 1 : 0);
}

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_INTEGER_SEARCH_H_
