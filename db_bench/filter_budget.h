// Filters compared at equal memory (--stored_bits): the bits per key at
// which each filter stores a target number of bits per key.
//
// bits_per_key keeps each policy's own meaning (LevelDB's Bloom: bits per key
// of each 2 KiB filter, before its probe-count byte, per-filter rounding and
// offsets; RocksDB's Ribbon: the bits a Bloom filter of the same
// false-positive rate would take), so the same setting stores different
// amounts: 10 stores about 12.3 bits per key for the per-block cache-local
// Bloom, 11.3 for LevelDB's, 10.0 for RocksDB's Bloom and 7.1 for its Ribbon.
// The amount stored is measured, not modelled: small tables are built with
// each engine's own table builder, and a secant search finds the setting.

#ifndef BLOOMTABLE_DB_BENCH_FILTER_BUDGET_H_
#define BLOOMTABLE_DB_BENCH_FILTER_BUDGET_H_

#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "db_bench/bench_plan.h"
#include "db_bench/key_generator.h"
#include "db_bench/value_generator.h"

namespace bloomtable {
namespace db_bench {

// Entries in each calibration table (fewer if --num is smaller): enough that
// a whole-table filter's fixed overheads weigh as at full size within about
// 1%.
inline constexpr uint64_t kCalibrationEntries = 200000;

struct BitsForBudget {
  double bits_per_key = 0;
  double stored_bits_per_key = 0;
};

// The bits per key, among at most a dozen tried, whose stored bits per key
// (`stored_at`, increasing in bits per key) is nearest `target`, with what it
// stores; whole numbers only if `whole_bits`. The first error of `stored_at`
// is returned.
absl::StatusOr<BitsForBudget> FindBitsForStoredBudget(
    double target, bool whole_bits,
    const std::function<absl::StatusOr<double>(double bits)>& stored_at);

// For every configuration of `plan` with a target_stored_bits: finds its bits
// per key by building tables of the first entries with the engine's own
// table-level builder (bloomtable and leveldb+bloomtable: bloomtable's
// TableBuilder; leveldb and leveldb_table: leveldb::TableBuilder; rocksdb and
// rocksdb_table: rocksdb::SstFileWriter) under `scratch_dir`, and sets it
// (ApplyFilterBits). Prints one line per filter and target.
absl::Status CalibrateStoredBits(const PlanFlags& flags,
                                 const std::string& scratch_dir,
                                 BenchPlan* plan);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_FILTER_BUDGET_H_
