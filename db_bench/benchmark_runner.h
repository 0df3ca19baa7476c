// The benchmarks db_bench knows, and the runner that times one of them
// against one engine.
//
//   fillseq       write every entry in key order (then flush/compact)
//   fillrandom    write every entry once, in a random order (a permutation,
//                 so reads know which keys exist; LevelDB's draws with
//                 replacement)
//   readrandom    Get present keys, uniformly at random
//   readmissing, readnearmiss, readunrelated
//                 Get absent keys (KeyGenerator: missing, near-miss and
//                 unrelated keys)
//   readseq       iterate in key order from the first entry (with
//                 --min_seconds, again from the first until that long has
//                 passed at the end of a pass)
//   seekrandom    Seek to present keys at random, one iterator per thread,
//                 then --seek_nexts Next calls
//   scanmissing   a bounded scan (Engine::NewScan) of an empty range of up to
//                 --scan_length consecutive key numbers, half of them right
//                 after a present key (scan_ranges.h)
//   scanshort     a bounded scan of the --scan_length key numbers from a
//                 present key on: a few keys
//   stats         print the engine's own statistics
//
// Keys for every read benchmark are generated before the clock starts, from
// --seed, the benchmark and the thread number: every engine gets the same
// keys in the same order. The loop is timed as a whole (micros/op = loop
// time / ops); one operation in 16 is also timed alone for the percentiles.
// With --min_seconds, lookups go round their keys again until that long has
// passed; absent keys are drawn anew for every pass, with the clock stopped,
// and repeat only where the key space runs out. Each thread looks keys up
// through its own EngineReader.

#ifndef BLOOMTABLE_DB_BENCH_BENCHMARK_RUNNER_H_
#define BLOOMTABLE_DB_BENCH_BENCHMARK_RUNNER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "db_bench/engine.h"
#include "db_bench/key_generator.h"
#include "db_bench/value_generator.h"

namespace bloomtable {
namespace db_bench {

// The name of each thread that runs a read benchmark's timed loop.
inline constexpr char kReaderThreadName[] = "bench-reader";

// The values seed each benchmark's keys: they stay as they are.
enum class BenchmarkKind {
  kFillSeq = 0,
  kFillRandom = 1,
  kReadRandom = 2,
  kReadMissing = 4,
  kReadNearMiss = 5,
  kReadUnrelated = 6,
  kReadSeq = 8,
  kSeekRandom = 9,
  kScanMissing = 10,
  kScanShort = 11,
  kStats = 12,
  kReadPinned = 13,
};

// The --benchmarks name, e.g. "readmissing"; a static string.
const char* BenchmarkName(BenchmarkKind kind);
bool IsFill(BenchmarkKind kind);
bool IsRead(BenchmarkKind kind);
// Lookups whose keys are all absent (scanmissing: ranges without keys).
bool ReadsAbsentKeys(BenchmarkKind kind);
// Bounded scans of generated ranges.
bool IsScan(BenchmarkKind kind);

// Parses a comma-separated --benchmarks list; InvalidArgument naming the
// unknown entry.
absl::StatusOr<std::vector<BenchmarkKind>> ParseBenchmarks(
    std::string_view list);

struct RunOptions {
  const KeyGenerator* keys = nullptr;
  const ValueGenerator* values = nullptr;
  uint64_t reads = 0;  // per thread
  int threads = 1;
  // Next calls after each Seek (seekrandom).
  uint64_t seek_nexts = 0;
  // Key numbers per scanned range (scanmissing, scanshort).
  uint64_t scan_length = 64;
  uint64_t seed = 0;
  // Point lookups and seeks go round their keys again until this many
  // seconds have passed (0: each key once).
  double min_seconds = 0;
  // Point lookups: one untimed pass over each thread's keys first.
  bool warm_up = false;
  // Prefix of progress lines, e.g. "[leveldb leveldb_bloom/10]".
  std::string label;
};

// The timing figures of one run of a benchmark.
struct RunFigures {
  double micros_per_op = 0;
  double p50_micros = 0;
  double p99_micros = 0;
  double ops_per_second = 0;
  double mb_per_second = 0;
  double wall_seconds = 0;
};

struct BenchmarkResult {
  BenchmarkKind kind = BenchmarkKind::kStats;
  uint64_t ops = 0;
  int threads = 1;
  double wall_seconds = 0;
  // Loop time per operation as each thread saw it: the sum of the threads'
  // loop times over all operations (LevelDB's definition).
  double micros_per_op = 0;
  double ops_per_second = 0;
  // Sampled single-operation latencies; NaN without samples (fills).
  double p50_micros = 0;
  double p99_micros = 0;
  // Key and value bytes moved (found entries for reads), and their rate.
  uint64_t bytes = 0;
  double mb_per_second = 0;
  // Reads: outcomes. For absent-key benchmarks `found` counts wrong answers.
  uint64_t found = 0;
  uint64_t not_found = 0;
  uint64_t wrong_values = 0;
  uint64_t errors = 0;
  std::string first_error;
  // Engine counters over the benchmark alone.
  EngineCounters counters;
  std::string stats_text;  // the stats benchmark
  // What the engine held in memory right after the benchmark (reads).
  std::optional<MemorySummary> memory;
  // Reads: the engine's files per level (StorageSummary::shape) right
  // before and right after the benchmark, so that a compaction during it
  // shows; empty where Storage() failed.
  std::string files_before;
  std::string files_after;
  // With several runs (--repeats): each run's figures, in run order; the
  // figures above are then their medians (MergeRuns).
  std::vector<RunFigures> runs;

  RunFigures Figures() const;
};

// Runs a fill benchmark: generates the write order and calls Engine::Fill.
absl::StatusOr<BenchmarkResult> RunFill(BenchmarkKind kind,
                                        const RunOptions& options,
                                        Engine* engine);

// Runs a read benchmark on `threads` threads. Lookup errors are counted in
// the result (a benchmark that meets damaged data still reports); only a
// failure to run at all is an error.
absl::StatusOr<BenchmarkResult> RunRead(BenchmarkKind kind,
                                        const RunOptions& options,
                                        Engine* engine);

// The measured false-positive rate: "maybe" answers for absent keys over
// filter queries for absent keys. Queries for keys that were then found are
// RocksDB's true positives where it counts them, else the found lookups
// (each found key is in exactly one table, whose filter said "maybe").
// nullopt without filter counters or without a query for an absent key.
std::optional<double> FalsePositiveRate(const BenchmarkResult& result);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_BENCHMARK_RUNNER_H_
