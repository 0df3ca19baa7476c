// How db_bench shows what it measured: one line per engine and benchmark in
// the form LevelDB's and RocksDB's db_bench print (scripts written for them
// parse it), a comparison table grouped by benchmark, a table of memory per
// key, and the same as JSON (--json) for bench/report.py.

#ifndef BLOOMTABLE_DB_BENCH_REPORT_H_
#define BLOOMTABLE_DB_BENCH_REPORT_H_

#include <optional>
#include <string>
#include <vector>

#include "db_bench/benchmark_runner.h"
#include "db_bench/engine.h"
#include "nlohmann/json.hpp"

namespace bloomtable {
namespace db_bench {

// One engine with one filter setting: what was built and what it measured.
struct ConfigReport {
  // bloomtable, leveldb_table, rocksdb_table, leveldb, leveldb+bloomtable,
  // rocksdb, ...
  std::string engine;
  std::string level;   // table or db
  std::string io;      // pread or mmap
  std::string filter;  // leveldb_bloom, rocksdb_bloom, rocksdb_ribbon, none
  double bloom_bits = 0;
  std::string filter_layout;  // per_block, whole_table; empty for none
  // bloomtable's Options::index_block_restart_interval (0: another engine).
  int index_block_restart_interval = 0;
  // none, prefix or range (ConfigPlan::scan_filter).
  std::string scan_filter = "none";
  // The stored bits per key bloom_bits was calibrated for (0: none).
  double target_stored_bits = 0;
  uint64_t cache_size = 0;  // block cache bytes
  std::string dir;
  std::optional<StorageSummary> storage;
  // Keys written (the denominator of bits per key when the engine does not
  // report its entries).
  uint64_t keys_written = 0;
  std::vector<BenchmarkResult> results;
  std::string error;  // why the configuration stopped early, if it did

  // "leveldb_bloom/10", "rocksdb_ribbon/10", "none", with "+prefix" or
  // "+range" for a scan filter.
  std::string FilterLabel() const;
  // "[bloomtable leveldb_bloom/10, pread, cache 8M]".
  std::string Label() const;
  // A point or scan filter was built.
  bool HasFilter() const;
  // Stored filter bits per key, if known.
  std::optional<double> FilterBitsPerKey() const;
  // Keys in the store: as the engine reports them, else as written.
  uint64_t Keys() const;
  // What the engine held in memory after its last read benchmark, if any.
  const MemorySummary* LastMemory() const;
};

// "8M", "64K", "1G", or bytes ("1000") when not a whole number of those.
std::string CacheSizeLabel(uint64_t bytes);

// The LevelDB-style line for one result.
std::string BenchmarkLine(const BenchmarkResult& result);

// The comparison table of every read and fill result, grouped by cache size
// (when there are several) and benchmark.
std::string ComparisonTable(const std::vector<ConfigReport>& configs);

// Per configuration: bytes per key held in memory by the filter, the index
// and by the engine's own count, and the block cache's usage.
std::string MemoryTable(const std::vector<ConfigReport>& configs);

// Problems that make numbers meaningless: false negatives, wrong values,
// keys found that are absent, lookup errors, failed configurations. One line
// each; empty if none.
std::vector<std::string> CorrectnessProblems(
    const std::vector<ConfigReport>& configs);

// Everything, for --json. `settings` and `notes` are stored as given.
nlohmann::json ReportJson(const nlohmann::json& settings,
                          const std::vector<std::string>& notes,
                          const std::vector<ConfigReport>& configs);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_REPORT_H_
