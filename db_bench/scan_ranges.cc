#include "db_bench/scan_ranges.h"

#include <algorithm>

namespace bloomtable {
namespace db_bench {

ScanRange EmptyScanRange(const KeyGenerator& keys, uint64_t j, uint64_t length,
                         bool correlated, uint64_t random_bits) {
  const uint64_t key = keys.Number(j);
  // The range must end at or before the next key (or the largest number).
  const uint64_t end =
      j + 1 < keys.num() ? keys.Number(j + 1) : keys.MaxNumber();
  const uint64_t room = end - key - 1;  // numbers strictly between
  ScanRange range;
  // Zero only for the last key at the largest number but one: [n, n).
  const uint64_t span = std::min(length, room);
  uint64_t offset = 0;
  if (!correlated && room > span) {
    offset = random_bits % (room - span + 1);
  }
  range.lower = key + 1 + offset;
  range.upper = range.lower + span;
  return range;
}

ScanRange ShortScanRange(const KeyGenerator& keys, uint64_t j,
                         uint64_t length) {
  ScanRange range;
  range.lower = keys.Number(j);
  range.upper = keys.MaxNumber() - range.lower < length ? keys.MaxNumber()
                                                        : range.lower + length;
  for (uint64_t k = j; k < keys.num() && keys.Number(k) < range.upper; ++k) {
    ++range.keys;
  }
  return range;
}

}  // namespace db_bench
}  // namespace bloomtable
