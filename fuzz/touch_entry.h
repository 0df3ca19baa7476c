// For the fuzz targets that iterate: reads every byte of the entry an
// iterator is at, so that AddressSanitizer sees a key or value that points
// outside its block. The sum returned keeps the reads from being optimised
// away (callers fold it into a check that never fails).

#ifndef BLOOMTABLE_FUZZ_TOUCH_ENTRY_H_
#define BLOOMTABLE_FUZZ_TOUCH_ENTRY_H_

#include <cstdint>

namespace bloomtable {

// Iter: any iterator with key() and value() returning std::string_view
// (bloomtable::Iterator, BlockIter). REQUIRES: it.Valid().
template <typename Iter>
uint64_t TouchEntry(const Iter& it) {
  uint64_t sum = 0;
  for (const char c : it.key()) sum += static_cast<unsigned char>(c);
  for (const char c : it.value()) sum += static_cast<unsigned char>(c);
  return sum;
}

}  // namespace bloomtable

#endif  // BLOOMTABLE_FUZZ_TOUCH_ENTRY_H_
