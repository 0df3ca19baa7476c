// What cold_bench's engines share so that their rows compare like with like:
// the keys of the table (db_bench's zero-padded numbers: even numbers
// stored, odd ones absent) and the streams of keys each measurement asks.
// A stream depends only on its seed, never on the engine that asks it, so
// bloomtable's and RocksDB's rows of one run look up the same keys in the
// same order.

#ifndef BLOOMTABLE_DB_BENCH_COLD_KEYS_H_
#define BLOOMTABLE_DB_BENCH_COLD_KEYS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace bloomtable {
namespace db_bench {

// The key of number `i`: 16 decimal digits, zero-padded, so that byte order
// is numeric order.
std::string ColdKey(uint64_t i);

// The i-th stored key of a table of `num` keys (i < num): number 2i.
inline std::string ColdStoredKey(uint64_t i) { return ColdKey(2 * i); }

// `count` keys drawn uniformly at random (with repeats) among the `num`
// stored keys (present) or among the `num` absent ones (the odd numbers
// between and after them), from a generator seeded with `seed`. The same
// arguments give the same stream. `num` must be positive.
std::vector<std::string> ColdKeyStream(uint64_t num, bool present,
                                       uint64_t count, uint64_t seed);

// The seed of the stream that run `run` asks for one workload (present or
// absent) and one batch size (0: Get one key at a time): every engine of
// that run gets the same stream, and every run a different one.
uint64_t ColdStreamSeed(int run, bool present, int64_t batch);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_COLD_KEYS_H_
