// The key ranges of db_bench's scan benchmarks, in the key generator's
// number space (key_generator.h):
//   - scanmissing: an empty range of up to `length` consecutive numbers in
//     the gap after entry j's key; with `correlated` it starts right after
//     the key (number(j) + 1), the hardest case for a range filter, else at
//     a random place in the gap. The dense decimal scheme leaves one number
//     between keys, so its empty ranges are one number long; the sparse
//     schemes leave room for `length`.
//   - scanshort: the `length` numbers from entry j's key on, which hold
//     that key and those after it within reach (every other number in the
//     dense scheme, one key per stride in the strided one).
// Pure functions of their arguments; safe from any thread.

#ifndef BLOOMTABLE_DB_BENCH_SCAN_RANGES_H_
#define BLOOMTABLE_DB_BENCH_SCAN_RANGES_H_

#include <cstdint>

#include "db_bench/key_generator.h"

namespace bloomtable {
namespace db_bench {

// [lower, upper) as key numbers, and how many keys of the table lie in it.
struct ScanRange {
  uint64_t lower = 0;
  uint64_t upper = 0;
  uint64_t keys = 0;
};

// REQUIRES: j < keys.num(), length >= 1. `random_bits`: any 64 random bits.
ScanRange EmptyScanRange(const KeyGenerator& keys, uint64_t j, uint64_t length,
                         bool correlated, uint64_t random_bits);
ScanRange ShortScanRange(const KeyGenerator& keys, uint64_t j, uint64_t length);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_SCAN_RANGES_H_
