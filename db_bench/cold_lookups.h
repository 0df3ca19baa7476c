// What cold_bench measures, over db_bench's engines (engine.h) so that each
// engine is set up in one place: the key streams every engine asks, and one
// measurement of point lookups, one Get at a time or in batched MultiGets,
// with the device reads they made.
//
// Keys are KeyGenerator's decimal keys: entry j is the number 2j, and the
// absent keys are the near-miss keys 2j + 1. A stream depends only on its
// seed, never on the engine that asks it, so every engine of a run looks up
// the same keys in the same order. Plain functions: thread-compatible.

#ifndef BLOOMTABLE_DB_BENCH_COLD_LOOKUPS_H_
#define BLOOMTABLE_DB_BENCH_COLD_LOOKUPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "db_bench/engine.h"
#include "db_bench/key_generator.h"

namespace bloomtable {
namespace db_bench {

// `count` keys of the table `keys` describes, drawn from `seed`: stored keys
// uniformly at random (with repeats), or absent keys without repeats until
// every entry was drawn (KeyGenerator::DistinctEntries).
std::vector<std::string> ColdStream(const KeyGenerator& keys, bool present,
                                    uint64_t count, uint64_t seed);

// The seed of the stream that run `run` asks for one workload (present or
// absent) and one batch size (0: Get one key at a time): every engine of
// that run gets the same stream, and every run a different one.
uint64_t ColdStreamSeed(int run, bool present, int64_t batch);

// The batch sizes one mode times, in order: 0 (Get one key at a time) when
// `get`, then `multiget_batches` when `multiget`.
std::vector<int64_t> BatchesToTime(
    bool get, bool multiget, const std::vector<int64_t>& multiget_batches);

struct LookupFigures {
  double micros_per_key = 0;
  double device_reads_per_key = 0;
};

// Looks up `keys` through `engine`: one Get each (batch 0) or MultiGet
// batches of `batch`, once untimed first with `warm_up`, then `passes`
// timed passes (at least 1; the figures are per key looked up). Device
// reads are the engine's file reads (each request of a batched read counts
// as one). Internal if a stored key is missed or an absent key found.
absl::StatusOr<LookupFigures> MeasureLookups(
    const Engine& engine, const std::vector<std::string>& keys, bool present,
    int64_t batch, bool warm_up, int passes);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_COLD_LOOKUPS_H_
